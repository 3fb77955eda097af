"""A serial chain of bones: rest points and joint limits."""

import math
import os
from collections.abc import Sequence

from . import joint_space
from .checks import check_per_joint, check_points, check_quaternion, check_rotations
from .constraints import Constraint, Slider
from .errors import IKError
from .hints import Frame, Point, Quaternion, Rotations, Vector3
from .joint_space import reach_of
from .kinematics import Frames
from .plan import Plan
from .rotation import IDENTITY
from .urdf import read_urdf

#: Largest coordinate a chain's rest points may have, and largest reach: the solvers square
#: distances and sum such squares, which must stay finite (``(1e150)^2 = 1e300``).
LARGEST = 1e150
#: Smallest reach: a bone's square (at least ``(1e-9 reach)^2``) must stay a normal float.
SMALLEST = 1e-100


class Chain:
    """A serial chain: ``N + 1`` rest points (root first) and ``N`` joints.

    Parameters
    ----------
    points : sequence of (x, y, z)
        The rest pose, root first, end effector last. The root never moves.
    joints : None or sequence of N constraints
        One per joint, ``None`` for a free ball joint (see
        :mod:`ikcore.constraints`). Joint ``i`` rotates bone ``i`` (from
        ``points[i]`` to ``points[i + 1]``) and everything after it.

    Attributes
    ----------
    points : tuple of (x, y, z)
        The rest pose.
    offsets : tuple of (x, y, z)
        Rest bone vectors ``points[i + 1] - points[i]``.
    directions : tuple of (x, y, z)
        Unit rest bone directions.
    lengths : tuple of float
        Bone lengths.
    reach : float
        Sum of the bone lengths.
    min_reach : float
        The closest a free chain's tip can come to its root: what is left of the
        longest bone when all the others fold back over it (0 when none is
        longer than all the others together).
    joints : tuple
        The constraints (``None`` where free).
    size : int
        ``N``.
    limited : bool
        Whether any joint has limits.
    plan : Plan
        What the solvers derive from the chain (:class:`ikcore.plan.Plan`): its joints sorted by
        kind, made with the chain; the rest pose and each method's layout, made at their first use.
    joint_names : tuple of str or None
        The joints' names (a chain from a URDF: its moving joints, base first).
    tip_rotation : (w, x, y, z)
        The rotation, at rest, of the frame a pose target is given for (:func:`ikcore.solve`):
        the identity unless given (a chain from a URDF: the tip link's or tool's frame).

    Raises
    ------
    IKError
        Non-finite or wrongly shaped points, a coordinate or reach beyond
        :data:`LARGEST`, a reach below :data:`SMALLEST`, a bone shorter than
        ``1e-9 x reach``, or a wrong number or type of constraints.

    See :mod:`ikcore.rotation` for the rotation convention and
    :mod:`ikcore.kinematics` for forward kinematics.

    Examples
    --------
    >>> import ikcore
    >>> chain = ikcore.Chain([(0, 0, 0), (0, 1, 0), (0, 2, 0)])
    >>> chain.size, chain.reach, chain.lengths
    (2, 2.0, (1.0, 1.0))
    """

    __slots__ = ("points", "offsets", "directions", "lengths", "reach", "min_reach", "joints", "size", "limited",
                 "plan", "joint_names", "tip_rotation")

    def __init__(self, points: Sequence[Vector3], joints: Sequence[Constraint | None] | None = None, *,
                 joint_names: Sequence[str] | None = None, tip_rotation: Quaternion | None = None) -> None:
        pts = check_points(points, "Chain points")
        for i, p in enumerate(pts):
            if max(abs(c) for c in p) > LARGEST:
                raise IKError(f"Chain points[{i}] {p!r} has a coordinate beyond {LARGEST:g}: its square "
                              f"would overflow")
        n = len(pts) - 1
        offsets = [(b[0] - a[0], b[1] - a[1], b[2] - a[2]) for a, b in zip(pts, pts[1:])]
        lengths = [math.hypot(*d) for d in offsets]
        self.joints = tuple(_check_joints(joints, n))
        reach, min_reach, shortest = reach_of(offsets, lengths, self.joints)
        if not SMALLEST <= reach <= LARGEST:
            raise IKError(f"Chain reach {reach!r} is outside [{SMALLEST:g}, {LARGEST:g}]")
        for i, length in enumerate(lengths):
            if not length >= 1e-9 * reach:
                raise IKError(f"Chain bone {i} (points[{i}] to points[{i + 1}]) has length {length!r}, "
                              f"shorter than 1e-9 x reach ({reach!r})")
        if not shortest >= 1e-9 * reach:
            raise IKError(f"a Slider of the chain shortens its bone to {shortest!r}, under 1e-9 x reach "
                          f"({reach!r}): it slides through its joint's point")
        self.points = tuple(pts)
        self.offsets = tuple(offsets)
        self.lengths = tuple(lengths)
        self.directions = tuple((d[0] / l, d[1] / l, d[2] / l) for d, l in zip(offsets, lengths))
        self.reach = reach
        self.min_reach = min_reach
        self.size = n
        self.limited = any(c is not None for c in self.joints)
        self.joint_names = None if joint_names is None else _check_names(joint_names, n)
        self.tip_rotation = IDENTITY if tip_rotation is None else check_quaternion(tip_rotation, "tip_rotation")
        self.plan = Plan(self)

    @classmethod
    def from_urdf(cls, source: str | bytes | os.PathLike, base_link: str, tip_link: str, *, tool: Frame | None = None,
                  base: Frame | None = None) -> "Chain":
        """The chain of a URDF robot's joints from ``base_link`` down to ``tip_link``.

        Parameters
        ----------
        source : str, bytes or path
            The URDF: its XML text, or the path of a file. Plain URDF only: xacro is
            out of scope (expand it first with ``xacro``), and a xacro file is refused.
        base_link, tip_link : str
            The link the chain hangs from (its frame is the chain's frame, Z up as
            URDF is, unless ``base`` places it) and the link whose frame a pose target is for.
        tool : 4x4 matrix or (position, (w, x, y, z)), optional
            A tool frame in the tip link's frame: the target is then the tool point's.
        base : 4x4 matrix or (position, (w, x, y, z)), optional
            Where the base link stands: its frame in the chain's frame (the world's, say).
            The chain is then built in that frame, so targets, rest points, poses and
            :meth:`tip_pose` are in it; joint values are unchanged. Default: the
            chain's frame is the base link's.

        Returns
        -------
        Chain
            One :class:`~ikcore.Hinge` per revolute or continuous joint and one
            :class:`~ikcore.Slider` per prismatic joint (fixed joints folded into the
            offsets), with its URDF limits; rest pose all joints at 0 (within their
            limits); :attr:`joint_names` in order from the base; :attr:`tip_rotation`
            the tip frame's rotation at rest. A joint's value (a hinge's angle, a
            slider's displacement) is the URDF joint value.

        Raises
        ------
        IKError
            Whatever the file holds that a chain cannot take, naming the element and
            its line: malformed XML, a missing link or attribute, a non-finite number,
            an unknown joint type, a loop, a mimic joint, a tip not under the base; a
            floating or planar joint on the path.

        Examples
        --------
        >>> import ikcore
        >>> urdf = '''<robot name="two">
        ...   <link name="base"/> <link name="upper"/> <link name="tip"/>
        ...   <joint name="shoulder" type="revolute"> <parent link="base"/> <child link="upper"/>
        ...     <axis xyz="0 0 1"/> <limit lower="-1.5" upper="1.5" effort="1" velocity="1"/> </joint>
        ...   <joint name="elbow" type="continuous"> <parent link="upper"/> <child link="tip"/>
        ...     <origin xyz="1 0 0"/> <axis xyz="0 0 1"/> </joint>
        ... </robot>'''
        >>> chain = ikcore.Chain.from_urdf(urdf, "base", "tip", tool=((0.5, 0, 0), (1, 0, 0, 0)))
        >>> chain.joint_names, chain.points
        (('shoulder', 'elbow'), ((0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (1.5, 0.0, 0.0)))
        """
        robot = read_urdf(source, base_link, tip_link, tool, base)
        try:
            return cls(robot.points, robot.joints, joint_names=robot.names, tip_rotation=robot.tip_rotation)
        except IKError as error:
            raise IKError(f"the URDF's joints from {base_link!r} to {tip_link!r} make no chain: {error}") from None

    def __len__(self):
        return self.size

    def __repr__(self):
        return f"Chain({list(self.points)!r}, joints={list(self.joints)!r})"

    @property
    def root(self) -> Point:
        """The fixed root point."""
        return self.points[0]

    def free(self) -> "Chain":
        """The same chain without its joint limits: every joint a free ball joint, but a
        :class:`~ikcore.Slider`, which keeps its axis and range (a slider without its range
        would have no reach to bound the chain's)."""
        if not self.limited:
            return self
        joints = [joint if isinstance(joint, Slider) else None for joint in self.joints] if self.plan.sliders else None
        return Chain(self.points, joints, joint_names=self.joint_names, tip_rotation=self.tip_rotation)

    def forward(self, rotations: Rotations) -> list[Point]:
        """Forward kinematics: the ``N + 1`` points for local ``rotations`` (checked).

        ``R_i = q_0 ... q_i`` and ``p_{i+1} = p_i + R_i (rest_{i+1} - rest_i)``
        (:func:`ikcore.kinematics.forward`). A chain with sliders is posed by :meth:`pose_at`.
        """
        return list(joint_space.frames_of(self, rotations).points)

    def world_rotations(self, rotations: Rotations) -> list[tuple[float, float, float, float]]:
        """Each bone's world rotation ``R_i = q_0 ... q_i`` for local ``rotations`` (checked)."""
        return list(joint_space.frames_of(self, rotations).worlds)

    def joint_values(self, pose: "Rotations | Frames") -> tuple[float | None, ...]:
        """Each joint's value in ``pose`` (local rotations, or Frames such as a Solution's): a
        hinge's angle in radians, within its range where the rotation is; a
        :class:`~ikcore.Slider`'s displacement; ``None`` for another joint. For a chain from a
        URDF, the URDF's joint values in its joint order."""
        return joint_space.values_of(self, pose)

    def pose_at(self, joint_values: Sequence[float]) -> Frames:
        """The pose (:class:`~ikcore.Frames`) at ``joint_values``, one per joint (hinge angles in
        radians, slider displacements), each put within its limits: forward kinematics in joint
        values, and a start for :func:`ikcore.solve`."""
        return joint_space.pose_at(self, joint_values)

    def rotations_of(self, joint_values: Sequence[float]) -> list[tuple[float, float, float, float]]:
        """The local rotations that turn each hinge by its value in ``joint_values`` (radians, one
        per joint, every joint a :class:`~ikcore.Hinge`); not clamped into the limits."""
        return joint_space.rotations_at(self, joint_values)

    def tip_pose(self, pose: "Rotations | Frames") -> tuple[tuple[float, float, float, float], ...]:
        """The tip frame's pose for ``pose`` (local rotations, or Frames), as a 4x4 homogeneous
        matrix (four rows) in the chain's frame: the last point, and the last bone's world rotation
        times :attr:`tip_rotation` (for a chain from a URDF, the tip link's or tool's frame)."""
        return joint_space.tip_pose(self, pose)

    def clamp(self, rotations: Rotations) -> list[tuple[float, float, float, float]]:
        """``rotations`` with each joint's limits applied (unit quaternions in, unchecked)."""
        return self.plan.clamp(rotations)

    def violations(self, rotations: Rotations) -> list[float]:
        """Per joint, how far (radians) each rotation lies outside its limits."""
        return [0.0 if c is None else c.violation(q, d) for q, c, d in zip(rotations, self.joints, self.directions)]

    def distance_to(self, point: Vector3) -> float:
        """Distance from the root to ``point``."""
        return math.dist(point, self.points[0])

    def reachable(self, point: Vector3) -> bool:
        """Whether some pose of the chain without limits puts the effector on ``point``: its
        distance from the root lies within ``[min_reach, reach]``."""
        return self.min_reach <= math.dist(point, self.points[0]) <= self.reach


def _check_names(names, n):
    names = check_per_joint(names, n, "Chain joint_names", "names")
    if not all(isinstance(name, str) for name in names):
        raise IKError(f"Chain joint_names must be strings, got {names!r}")
    return tuple(names)


def _check_joints(joints, n):
    if joints is None:
        return [None] * n
    joints = check_per_joint(joints, n, "Chain joints", "constraints", "None or a list of")
    for i, c in enumerate(joints):
        if c is not None and not isinstance(c, Constraint):
            raise IKError(f"Chain joints[{i}] must be None, a Hinge, a BallSocket or a Constraint, got {c!r}")
    return joints
