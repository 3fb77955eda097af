"""Warm tracking: one chain solved frame after frame for a moving target.

A scene solves the same chain every frame with the same method and settings;
only the target moves. A :class:`Tracker` checks the method, its options and
the pole once, and keeps the pose of its last solve: each call starts from
it, so a target that moved a little costs an iteration or two, and it takes
that pose as it is (rotations, world rotations and points: no forward
kinematics again). With secondary objectives it also keeps what their steps
left at that pose (:attr:`~ikcore.problem.Outcome.secondary_state`): a pose that
meets the target and where they had nothing left to gain, with their cost
unchanged, costs no further steps.

A tracker also owns the switch of its chain's joint limits off and on
(:attr:`Tracker.constrained`): without them it solves the same chain free of
limits, and back with them it clamps its pose into them first. A chain of a
skeleton is tracked through one such tracker (:class:`ikcore.BoundTracker`).
"""

from . import kinematics
from .chain import Chain
from .checks import check_bool, check_rotations
from .hints import Quaternion, Rotations, Target, Vector3
from .problem import check_request, check_settings, check_target
from .solution import Solution, solution_of


class Tracker:
    """``tracker(target)``: solve ``chain`` for ``target``, warm from the last call's pose.

    Parameters
    ----------
    chain : Chain
    method : str
        One of :data:`ikcore.METHODS`.
    pole : (x, y, z), optional
        The pole every call uses (see :func:`ikcore.solve`).
    start : list of rotations, optional
        The first call's start (default the rest pose).
    **options
        ``tolerance``, ``max_iterations``, ``orientation_tolerance``,
        ``secondary`` and the method's options, as for :func:`ikcore.solve`.

    Raises
    ------
    IKError
        A bad method, option, pole or start, when the tracker is made.

    Attributes
    ----------
    settings : ikcore.problem.Settings
        Those of the chain solved now: with its limits, or without them (:attr:`constrained`).
    pole : (x, y, z) or None
    frames : ikcore.kinematics.Frames or None
        The pose the next call starts from (``None``: the rest pose).
    solution : Solution or None
        The last call's.

    Examples
    --------
    >>> import ikcore
    >>> chain = ikcore.Chain([(0, 0, 0), (0, 1, 0), (0, 2, 0)])
    >>> track = ikcore.Tracker(chain, "fabrik")
    >>> [track((1.0, 1.0 + 0.01 * k, 0.0)).status for k in range(3)]
    ['converged', 'converged', 'converged']
    """

    __slots__ = ("settings", "pole", "frames", "solution", "secondary_state", "_limited", "_free", "_options",
                 "_constrained")

    def __init__(self, chain: Chain, method: str = "fabrik", *, pole: Vector3 | None = None,
                 start: Rotations | None = None, **options: object) -> None:
        self.settings = self._limited = check_settings(chain, method, **options)
        self._free = None if chain.limited else self._limited
        self._options = options
        self._constrained = True
        self.pole = None if pole is None else check_target(chain, pole, "pole")
        self.solution = None
        self.reset(start)

    def __call__(self, target: Target, orientation: Quaternion | None = None) -> Solution:
        """The Solution for ``target`` (and ``orientation``), started from :attr:`frames`, which
        then hold its pose. ``target`` may be a pose for the tip frame, a 4x4 matrix or a position
        and a rotation matrix, as for :func:`ikcore.solve`."""
        return self.solve(target, orientation, self.pole)

    def solve(self, target, orientation, pole, placement=None):
        """:meth:`__call__` with its ``pole`` given (checked again); ``placement`` is the world pose
        of the chain's frame, for the Solution's positions (see :class:`~ikcore.Solution`)."""
        problem = check_request(self.settings, target, self.frames, orientation, pole)
        problem.secondary_state = self.secondary_state
        outcome = self.settings.module.run(problem)
        solution = solution_of(problem, outcome, placement)
        self.frames = solution.frames
        self.secondary_state = outcome.secondary_state
        self.solution = solution
        return solution

    def reset(self, rotations: Rotations | None = None) -> None:
        """Start the next call from ``rotations`` (checked, made unit, within the limits), or the rest pose."""
        chain = self.settings.chain
        self.secondary_state = None
        if rotations is None:
            self.frames = None
        else:
            self.frames = kinematics.pose_of(chain, check_rotations(rotations, chain.size, "start"))

    def settings_for(self, constrained):
        """The settings with the chain's limits, or without them (made and checked on first need)."""
        if constrained:
            return self._limited
        if self._free is None:
            self._free = check_settings(self._limited.chain.free(), self._limited.method, **self._options)
        return self._free

    @property
    def constrained(self) -> bool:
        """Whether calls respect the chain's joint limits (default True). Switched on, the pose the
        next call starts from is clamped into them."""
        return self._constrained

    @constrained.setter
    def constrained(self, value: bool) -> None:
        if check_bool(value, "constrained") == self._constrained:
            return
        self._constrained = value
        self.settings = self.settings_for(value)
        self.secondary_state = None
        chain = self.settings.chain
        if value and self.frames is not None:
            self.frames = kinematics.pose_of(chain, chain.clamp(self.frames.rotations))

    @property
    def method(self):
        return self.settings.method

    def __repr__(self):
        return f"Tracker(method={self.settings.method!r}, bones={self.settings.chain.size})"

