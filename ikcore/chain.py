"""A serial chain of bones: rest points and joint limits."""

import math
from collections.abc import Sequence

from . import kinematics
from .checks import check_per_joint, check_points, check_rotations
from .constraints import Constraint
from .errors import IKError
from .hints import Point, Rotations, Vector3
from .plan import Plan

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
                 "plan")

    def __init__(self, points: Sequence[Vector3], joints: Sequence[Constraint | None] | None = None) -> None:
        pts = check_points(points, "Chain points")
        for i, p in enumerate(pts):
            if max(abs(c) for c in p) > LARGEST:
                raise IKError(f"Chain points[{i}] {p!r} has a coordinate beyond {LARGEST:g}: its square "
                              f"would overflow")
        n = len(pts) - 1
        offsets = [(b[0] - a[0], b[1] - a[1], b[2] - a[2]) for a, b in zip(pts, pts[1:])]
        lengths = [math.hypot(*d) for d in offsets]
        reach = math.fsum(lengths)
        if not SMALLEST <= reach <= LARGEST:
            raise IKError(f"Chain reach {reach!r} is outside [{SMALLEST:g}, {LARGEST:g}]")
        for i, length in enumerate(lengths):
            if not length >= 1e-9 * reach:
                raise IKError(f"Chain bone {i} (points[{i}] to points[{i + 1}]) has length {length!r}, "
                              f"shorter than 1e-9 x reach ({reach!r})")
        self.joints = tuple(_check_joints(joints, n))
        self.points = tuple(pts)
        self.offsets = tuple(offsets)
        self.lengths = tuple(lengths)
        self.directions = tuple((d[0] / l, d[1] / l, d[2] / l) for d, l in zip(offsets, lengths))
        self.reach = reach
        self.min_reach = max(0.0, 2.0 * max(lengths) - reach)
        self.size = n
        self.limited = any(c is not None for c in self.joints)
        self.plan = Plan(self)

    def __len__(self):
        return self.size

    def __repr__(self):
        return f"Chain({list(self.points)!r}, joints={list(self.joints)!r})"

    @property
    def root(self) -> Point:
        """The fixed root point."""
        return self.points[0]

    def free(self) -> "Chain":
        """The same chain without its joint limits."""
        return self if not self.limited else Chain(self.points)

    def forward(self, rotations: Rotations) -> list[Point]:
        """Forward kinematics: the ``N + 1`` points for local ``rotations`` (checked).

        ``R_i = q_0 ... q_i`` and ``p_{i+1} = p_i + R_i (rest_{i+1} - rest_i)``
        (:func:`ikcore.kinematics.forward`).
        """
        return kinematics.forward(self, check_rotations(rotations, self.size))

    def world_rotations(self, rotations: Rotations) -> list[tuple[float, float, float, float]]:
        """Each bone's world rotation ``R_i = q_0 ... q_i`` for local ``rotations`` (checked)."""
        return kinematics.frames(self, check_rotations(rotations, self.size))[0]

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


def _check_joints(joints, n):
    if joints is None:
        return [None] * n
    joints = check_per_joint(joints, n, "Chain joints", "constraints", "None or a list of")
    for i, c in enumerate(joints):
        if c is not None and not isinstance(c, Constraint):
            raise IKError(f"Chain joints[{i}] must be None, a Hinge, a BallSocket or a Constraint, got {c!r}")
    return joints
