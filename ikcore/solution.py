"""The one result type of every solve, and :func:`solution_of`, which makes it from a method's outcome."""

import math

from .rotation import transform_points

CONVERGED = "converged"
UNREACHABLE = "unreachable"
MAX_ITERATIONS = "max_iterations"
STALLED = "stalled"
STATUSES = (CONVERGED, UNREACHABLE, MAX_ITERATIONS, STALLED)


class Solution:
    """How a solve ended, and the pose it returns.

    Attributes
    ----------
    positions : list of (x, y, z)
        ``N + 1`` points: the forward kinematics of ``rotations``
        (:mod:`ikcore.kinematics`); in world coordinates for a chain of a
        skeleton.
    rotations : list of (w, x, y, z)
        ``N`` unit quaternions: local joint rotations relative to the rest pose
        (convention in :mod:`ikcore.rotation`), within the joint limits.
    status : str
        ``"converged"`` exactly when ``error <= tolerance`` (and the orientation
        error within its tolerance where one was asked); otherwise
        ``"unreachable"`` when no pose of the chain without limits reaches the
        target (farther than ``reach`` from the root, or nearer than
        ``min_reach``); ``"stalled"`` when the solver stopped because progress
        stopped; ``"max_iterations"`` when it ran out of iterations.
    iterations : int
    error : float
        ``|effector - target|`` of the returned pose.
    orientation_error : float or None
        Radians between the reached and the asked orientation; ``None`` when
        none was asked.
    errors : list of float
        The starting error, then the error after each iteration; the last
        entry is ``error``.
    method : str
    joint_values : tuple of float
        Each hinge's angle, radians (see :attr:`joint_values`).
    pose : 4x4 tuple
        The tip frame's pose (see :attr:`pose`).
    frames : Frames
        The pose in the chain's own frame: rotations, world rotations and points
        (:class:`ikcore.kinematics.Frames`); a warm start takes it as it is. Read
        only: it may be shared (the chain's rest pose, where a solve returns it).

    Examples
    --------
    >>> import ikcore
    >>> chain = ikcore.Chain([(0, 0, 0), (0, 1, 0), (0, 2, 0)])
    >>> solution = ikcore.solve(chain, (0.0, 3.0, 0.0))
    >>> solution.status, solution.converged, round(solution.error, 6)
    ('unreachable', False, 1.0)
    """

    __slots__ = ("frames", "placement", "_positions", "_rotations", "status", "iterations", "error",
                 "orientation_error", "errors", "method", "chain")

    def __init__(self, frames, status, iterations, error, orientation_error, errors, method, placement=None,
                 chain=None):
        self.frames = frames
        self.chain = chain
        self.placement = placement
        self._positions = self._rotations = None
        self.status = status
        self.iterations = iterations
        self.error = error
        self.orientation_error = orientation_error
        self.errors = errors
        self.method = method

    @property
    def rotations(self):
        """The local rotations (see the class docstring): a list of the Solution's own (``frames``
        may be shared, the chain's rest pose for one)."""
        if self._rotations is None:
            self._rotations = list(self.frames.rotations)
        return self._rotations

    @property
    def positions(self):
        """The points (see the class docstring).

        For a chain of a skeleton, ``placement`` is the world ``(position,
        rotation)`` of the chain's frame, and the points are turned into the
        world when first read: a chain solved every frame and drawn from its
        own frame never pays for it.
        """
        if self._positions is None:
            points = self.frames.points
            self._positions = list(points) if self.placement is None else transform_points(points, *self.placement)
        return self._positions

    @property
    def joint_values(self):
        """Each hinge's angle in radians (``None`` for a joint that is not a
        :class:`~ikcore.Hinge`), in the chain's joint order: for a chain from a URDF the URDF's
        joint values, fixed joints omitted (:meth:`ikcore.Chain.joint_values`)."""
        return self.chain.joint_values(self.frames)

    @property
    def pose(self):
        """The tip frame's pose as a 4x4 homogeneous matrix (four rows) in the chain's frame
        (:meth:`ikcore.Chain.tip_pose`; for a chain from a URDF the tip link's or tool's frame in
        the base link's)."""
        return self.chain.tip_pose(self.frames)

    @property
    def converged(self):
        """``status == "converged"``."""
        return self.status == CONVERGED

    @property
    def effector(self):
        """The end effector's position."""
        return self.positions[-1]

    def __eq__(self, other):
        if not isinstance(other, Solution):
            return NotImplemented
        return (self.status == other.status and self.iterations == other.iterations and self.method == other.method
                and self.rotations == other.rotations and self.positions == other.positions
                and self.errors == other.errors)

    __hash__ = None

    def __repr__(self):
        extra = "" if self.orientation_error is None else f", orientation_error={self.orientation_error:.3g}"
        return (f"Solution(method={self.method!r}, status={self.status!r}, iterations={self.iterations}, "
                f"error={self.error:.3g}{extra})")


def solution_of(problem, outcome, placement=None):
    """The honest :class:`Solution` of a method's ``outcome`` for ``problem``.

    The status follows from the returned pose alone, by the test the methods
    stop on (:meth:`ikcore.problem.Problem.met`): converged when it meets the
    target; else unreachable when no pose of the chain without limits could;
    else stalled or out of iterations, as the method says.
    """
    frames = outcome.frames
    chain = problem.chain
    # math.dist, not a sum of squares: squares of tiny errors underflow to 0 (with a mask: over the
    # asked axes).
    error = math.dist(frames.points[-1], problem.target) if problem.mask is None else problem.error(frames)
    orientation_error = None if problem.orientation is None else problem.orientation_error(frames)
    errors = list(outcome.errors) or [error]
    errors[-1] = error
    if problem.met(frames):
        status = CONVERGED
    elif (problem.mask is None or problem.mask.position_full) and not chain.reachable(problem.target):
        status = UNREACHABLE
    elif outcome.stalled:
        status = STALLED
    else:
        status = MAX_ITERATIONS
    return Solution(frames, status, outcome.iterations, error, orientation_error, errors,
                    problem.settings.method, placement, chain)
