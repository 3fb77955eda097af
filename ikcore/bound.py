"""A chain that hangs from a node of a :class:`~ikcore.skeleton.Skeleton`.

A :class:`BoundChain` is an :class:`ikcore.Chain` whose points are given in a
parent node's frame. It owns one node per point: node ``i`` (``i < N``) carries
the chain's local rotation ``q_i`` and the rest offset ``rest[i] - rest[i-1]``
(``rest[0]`` for the first), the last node marks the end effector. Since the
rest pose is expressed in the parent's frame, the chain convention of
:mod:`ikcore.rotation` holds inside that frame unchanged, and::

    world point i = P_parent + W_parent (forward(q)[i])

Solving a bound chain turns the world target into the parent's frame, solves
there, warm from the chain's current pose, and writes the solved rotations
into the nodes. The chain's root follows its parent node wherever it goes.

A :class:`~ikcore.Slider` moves the node after it: node ``i + 1``'s translation
is the slid offset ``rest[i+1] - rest[i] + s_i a_i`` (:attr:`BoundChain.slides`
holds each displacement), so a skeleton's world points follow the slides as they
follow the rotations.
"""

from operator import attrgetter, is_

from . import kinematics
from . import rotation as rot
from .checks import check_bool, check_point, check_quaternion, check_rotations
from .errors import IKError
from .hints import Quaternion, Rotations, Vector3
from .rotation import rotate
from .solution import Solution
from .tracker import Tracker

_rotation_of = attrgetter("_rotation")


def _same(a, b):
    """Whether two solve requests are equal (values that cannot say, such as arrays, are not)."""
    try:
        return bool(a == b)
    except (TypeError, ValueError):
        return False


class BoundChain:
    """A chain hanging from a skeleton node; create with :meth:`Skeleton.add_chain
    <ikcore.skeleton.Skeleton.add_chain>`.

    Attributes
    ----------
    name : str
    parent : Node or None
        The node whose frame the chain lives in (``None``: the world).
    nodes : list of Node
        One per point; ``nodes[i].rotation`` is the chain's ``q_i``.
    chain : Chain
        The chain being solved: with its limits when :attr:`constrained`,
        without them otherwise.
    solution : Solution or None
        The last solve's result, positions in world coordinates.

    Examples
    --------
    >>> import ikcore
    >>> skeleton = ikcore.Skeleton()
    >>> body = skeleton.add_node("body", translation=(0, 1, 0))
    >>> leg = skeleton.add_chain("leg", "body", [(0.3, 0, 0), (0.8, 0.3, 0), (1.2, -1, 0)])
    >>> leg, [node.name for node in leg.nodes]
    (BoundChain('leg', parent='body', bones=2), ['leg.0', 'leg.1', 'leg.2'])
    >>> leg.solve((1.2, 0.2, 0.3), method="fabrik").status
    'converged'
    """

    def __init__(self, skeleton, name, parent, nodes, chain):
        self.skeleton = skeleton
        self.name = name
        self.parent = parent
        self.nodes = nodes
        self._limited = chain
        self._free = chain.free()
        self.chain = chain
        self.solution = None
        # Each slider's displacement (None for the other joints); None for a chain with no slider.
        self.slides = kinematics.rest(chain).slides
        # (rotations, frames) of the pose last framed from the nodes, while they hold it.
        self._framed = None
        # (request, BoundTracker) of the last solve(): a call with the same method, pole and options
        # goes on with its tracker (settings checked once, the null-space state kept).
        self._tracked = None
        for node in nodes:
            node.chain = self
        if self.slides is not None:
            self._write(self.rotations, self.slides)

    def __repr__(self):
        parent = None if self.parent is None else self.parent.name
        return f"BoundChain({self.name!r}, parent={parent!r}, bones={self.chain.size})"

    @property
    def rotations(self):
        """The current local rotations, read from the nodes."""
        return [n._rotation for n in self.nodes[:-1]]

    @property
    def limited_chain(self):
        """The chain with its joint limits, whether or not they are in use."""
        return self._limited

    @property
    def constrained(self):
        """Whether solves respect the joint limits (default True)."""
        return self.chain is self._limited

    @constrained.setter
    def constrained(self, value):
        check_bool(value, "constrained")
        self.chain = self._limited if value else self._free
        if value and self._limited.limited:
            self._write(self._limited.clamp(self.rotations))

    def parent_transform(self):
        """The parent's world ``(position, rotation)`` (the world's identity for none)."""
        if self.parent is None:
            return (0.0, 0.0, 0.0), rot.IDENTITY
        return self.parent.world_position, self.parent._q

    def to_local(self, point):
        """A world point in the chain's (parent's) frame."""
        (px, py, pz), q = self.parent_transform()
        x, y, z = check_point(point, "point")
        return rotate(rot.conjugate(q), (x - px, y - py, z - pz))

    def frames(self):
        """The current pose in the chain's own frame (:class:`ikcore.kinematics.Frames`): the last
        solve's when the nodes still hold it (no forward kinematics), else the nodes' rotations
        (and :attr:`slides`), posed (:func:`ikcore.kinematics.pose_of`)."""
        solution = self.solution
        if solution is not None and self.holds(solution.rotations) and solution.frames.slides is self.slides:
            return solution.frames
        found = self._framed
        if found is None or not self.holds(found[0]) or found[1].slides is not self.slides:
            rotations = self.rotations
            found = self._framed = (rotations, kinematics.pose_of(self.chain, rotations, self.slides))
            if self.slides is not None:
                # The pose's own (clamped) list: the one the nodes hold from now on.
                self.slides = found[1].slides
        return found[1]

    def local_frames(self):
        """``(worlds, points)`` of :meth:`frames`: each bone's rotation and the ``N + 1`` points, in
        the chain's frame."""
        frames = self.frames()
        return frames.worlds, frames.points

    def solve(self, target: Vector3, method: str = "fabrik", *, orientation: Quaternion | None = None,
              pole: Vector3 | None = None, start: Rotations | None = None, local: bool = False,
              **options: object) -> Solution:
        """Solve for a target and write the rotations into the nodes.

        Parameters
        ----------
        target : (x, y, z)
            World position for the end effector (parent frame if ``local``).
        method : str
            One of :data:`ikcore.METHODS`.
        orientation : (w, x, y, z), optional
            Asked world rotation of the last bone (parent frame if ``local``).
        pole : (x, y, z), optional
            World point hinting the bend plane (parent frame if ``local``).
        start : list of N (w, x, y, z), optional
            Rotations to start from; default the chain's current pose (a warm
            start: tracking a moving target costs few iterations).
        local : bool
            Whether ``target``, ``orientation`` and ``pole`` are already in the
            parent's frame.
        **options
            ``tolerance``, ``max_iterations``, ``orientation_tolerance``,
            ``secondary`` and the method's options, as for :func:`ikcore.solve`.

        Returns
        -------
        Solution
            As from :func:`ikcore.solve`, with ``positions`` in world coordinates.

        Raises
        ------
        IKError
            Any invalid input; the chain keeps its pose.
        """
        request = (method, pole, local, options)
        kept = self._tracked
        if kept is None or not _same(kept[0], request):
            kept = self._tracked = (request, self.tracker(method, pole=pole, local=local, **options))
        return kept[1].solve_from(target, orientation, start)

    def tracker(self, method: str = "fabrik", *, pole: Vector3 | None = None, local: bool = False,
                **options: object) -> "BoundTracker":
        """A :class:`BoundTracker`: :meth:`solve` with these settings for each target it is called
        with, checked once.

        Raises
        ------
        IKError
            A bad method, option or pole.
        """
        return BoundTracker(self, method, pole, local, **options)

    def take_frames(self, frames):
        """Take ``frames`` (a pose in the chain's frame: unit rotations within the limits,
        their world rotations and points) as the chain's pose, without a Solution: a batch solved
        it (:mod:`ikcore.solvers.two_bone.planar`)."""
        self._write(frames.rotations, frames.slides)
        self._framed = (frames.rotations, frames)
        self.solution = None

    def take_points(self, points):
        """Take the pose whose ``N + 1`` points (in the chain's frame) are ``points``, as a trace's step
        gives them (:mod:`ikcore.trace`), to be drawn: the points as they are (a FABRIK pass leaves
        bones stretched until it places them), each bone turned from its rest direction toward them
        by the shortest arc (:func:`ikcore.kinematics.rotations_along`), without limits. A chain with
        a slider is refused: its bones' lengths are not its rest lengths."""
        chain = self.chain
        if chain.plan.sliders:
            raise IKError(f"chain {self.name!r}: take_points draws bones of their rest lengths, which a "
                          f"sliding joint changes (joint {chain.plan.sliders[0]} is a Slider)")
        rigid = [points[0]]
        for a, b, length, rest in zip(points, points[1:], chain.lengths, chain.directions):
            d = (b[0] - a[0], b[1] - a[1], b[2] - a[2])
            n = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]) ** 0.5
            u = (d[0] / n, d[1] / n, d[2] / n) if n > 1e-12 * chain.reach else rest
            rigid.append(tuple(p + length * c for p, c in zip(rigid[-1], u)))
        rotations, worlds = kinematics.rotations_along(chain, kinematics.rest(chain), rigid)
        self.take_frames(kinematics.Frames(rotations, worlds, [tuple(p) for p in points]))

    def set_rotations(self, rotations):
        """Set the pose directly (checked; clamped to the limits when constrained)."""
        qs = check_rotations(rotations, self.chain.size, f"chain {self.name!r} rotations")
        self._write(self.chain.clamp(qs) if self.chain.limited else qs)

    def reset(self):
        """Back to the rest pose (each slider at 0, or the end of its range nearer it)."""
        self._write([rot.IDENTITY] * self.chain.size, kinematics.rest(self.chain).slides)
        self.solution = None

    def local_points(self):
        """The chain's points in its parent's frame."""
        return self.frames().points

    def world_points(self):
        """The chain's ``N + 1`` points in world coordinates."""
        return rot.transform_points(self.frames().points, *self.parent_transform())

    def effector(self):
        """The end effector's world position."""
        return self.nodes[-1].world_position

    def holds(self, rotations):
        """Whether the nodes hold these very rotation objects (nothing set them since)."""
        return all(map(is_, map(_rotation_of, self.nodes), rotations))

    def _write(self, rotations, slides=None):
        """Write ``rotations`` into the nodes, and with ``slides`` (a chain with sliders) each
        slider's displacement into the translation of the node after it."""
        for node, q in zip(self.nodes, rotations):
            node._rotation = q
        if slides is not None:
            self.slides = slides
            offsets = kinematics.slid_offsets(self.chain, slides)
            for j in self.chain.plan.sliders:
                self.nodes[j + 1]._translation = offsets[j]
        self.nodes[0].touch()


class BoundTracker:
    """A bound chain solved frame after frame: its method, options and pole checked once
    (see :class:`ikcore.Tracker`); each call warm-starts from the chain's current pose and writes
    the result into its nodes.

    Targets (and the pole) are world points, or points in the chain's own frame with
    ``local``. The Solution's positions are world points either way.

    Examples
    --------
    >>> import ikcore
    >>> skeleton = ikcore.Skeleton()
    >>> body = skeleton.add_node("body", translation=(0, 1, 0))
    >>> leg = skeleton.add_chain("leg", "body", [(0.3, 0, 0), (0.8, 0.3, 0), (1.2, -1, 0)])
    >>> track = leg.tracker("fabrik")
    >>> [track((1.2, 0.2 + 0.01 * k, 0.3)).status for k in range(3)]
    ['converged', 'converged', 'converged']
    """

    __slots__ = ("bound", "local", "pole", "tracker")

    def __init__(self, bound, method, pole=None, local=False, **options):
        check_bool(local, "local")
        self.bound = bound
        self.local = local
        self.pole = None if pole is None else check_point(pole, "pole")
        # One Tracker, which swaps the chain's limits off and on as the bound chain's are; both
        # settings are checked now.
        self.tracker = Tracker(bound.limited_chain, method, pole=self.pole if local else None, **options)
        self.tracker.settings_for(False)

    @property
    def method(self):
        """The method every call uses."""
        return self.tracker.method

    @property
    def settings(self):
        """The checked settings (:class:`ikcore.problem.Settings`) of the chain solved now (with or
        without its limits, as the bound chain is :attr:`~BoundChain.constrained`)."""
        return self.tracker.settings_for(self.bound.constrained)

    def __call__(self, target, orientation=None):
        return self.solve_from(target, orientation)

    def solve_from(self, target, orientation=None, start=None):
        """Solve for ``target`` (see the class), from ``start`` rotations or the chain's current pose."""
        bound = self.bound
        tracker = self.tracker
        tracker.constrained = bound.constrained
        pole = self.pole
        placement = bound.parent_transform()
        if not self.local:
            target = check_point(target, "target")
            (px, py, pz), q = placement
            inverse = rot.conjugate(q)
            target = rotate(inverse, (target[0] - px, target[1] - py, target[2] - pz))
            if pole is not None:
                pole = rotate(inverse, (pole[0] - px, pole[1] - py, pole[2] - pz))
            if orientation is not None:
                orientation = rot.multiply(inverse, check_quaternion(orientation, "orientation"))
        if start is not None:
            tracker.reset(start)
        else:
            tracker.frames = bound.frames()
        solution = tracker.solve(target, orientation, pole, placement)
        bound._write(solution.rotations, solution.frames.slides)
        bound.solution = solution
        return solution


