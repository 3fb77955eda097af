"""The one result type of every solve."""

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
        ``N + 1`` points: ``chain.forward(rotations)``, to rounding (within
        ``1e-12 x chain.reach``).
    rotations : list of (w, x, y, z)
        ``N`` unit quaternions: local joint rotations relative to the rest pose
        (convention in :mod:`ikcore.rotation`), within the joint limits.
    status : str
        ``"converged"`` when ``error <= tolerance`` (and the orientation error
        within its tolerance where one was asked); otherwise ``"unreachable"``
        when no pose of the chain can reach the target (farther than ``reach``
        from the root, or nearer than the chain can fold); ``"stalled"`` when
        the solver stopped because progress stopped; ``"max_iterations"``
        otherwise.
    iterations : int
    error : float
        ``|effector - target|`` of the returned pose.
    orientation_error : float or None
        Radians between the reached and the asked orientation; ``None`` when
        none was asked.
    errors : list of float
        The starting error, then the error after each iteration; the last
        entry equals ``error``.
    method : str
    frames : tuple or None
        Internal: for a warm start from this Solution, the world rotations
        ``R_i`` and points of its rotations in the chain's frame, when the
        verdict kept them (see :class:`ikcore.skeleton.BoundChain`).
    """

    __slots__ = ("_positions", "_frame", "rotations", "status", "iterations", "error", "orientation_error",
                 "errors", "method", "frames")

    def __init__(self, positions, rotations, status, iterations, error, orientation_error, errors,
                 method):
        self._positions = positions
        self._frame = None
        self.rotations = rotations
        self.status = status
        self.iterations = iterations
        self.error = error
        self.orientation_error = orientation_error
        self.errors = errors
        self.method = method
        self.frames = None

    @property
    def positions(self):
        """The ``N + 1`` points (see the class docstring).

        Internal: while ``_frame`` holds a world ``(position, rotation)``, the
        points kept are in that frame and are turned into world points when
        first read (a bound chain solved every frame, whose points are drawn
        from its own frame and seldom read, never pays for it).
        """
        if self._frame is not None:
            self._positions = transform_points(self._positions, *self._frame)
            self._frame = None
        return self._positions

    @positions.setter
    def positions(self, value):
        self._positions = value
        self._frame = None

    @property
    def converged(self):
        """``status == "converged"``."""
        return self.status == CONVERGED

    @property
    def effector(self):
        """The end effector's position."""
        return self.positions[-1]

    def __repr__(self):
        extra = "" if self.orientation_error is None else f", orientation_error={self.orientation_error:.3g}"
        return (f"Solution(method={self.method!r}, status={self.status!r}, iterations={self.iterations}, "
                f"error={self.error:.3g}{extra})")
