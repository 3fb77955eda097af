"""Warm tracking of many planar legs of one shape at once: :class:`ikcore.Tracker` for a walker's legs.

A spider's eight legs, a crowd's thousands, are planar legs (:mod:`.planar`) of
one shape, solved every frame for targets that moved a little. A
:class:`LegTracker` keeps what that needs as flat lists, one float per leg in
each (no object per leg): each leg's hinge angles, which its last solve left
and the next starts from; its target and pole, in the leg's frame; and the
results. Like a Tracker it owns the switch of the limits off and on: without
them the legs are the same hinges free to turn all the way round, and back
with them each leg's angles are first clamped into their ranges (the kernel
never leaves a start that is nearer the target, so a start outside the ranges
would stay outside).
"""

from ...chain import Chain
from ...checks import check_bool, check_point
from ...constraints import Hinge
from ...errors import IKError
from .planar import CONVERGED, LegResults, clamp_angle, planar_leg


class LegTracker:
    """Many planar legs of ``chain``'s shape, each solved warm from its last angles.

    Parameters
    ----------
    chain : Chain
        A planar leg (:func:`.planar.planar_leg`) with its limits.
    pole : (x, y, z), optional
        The pole each leg starts with, in the leg's frame (``None``: each knee
        keeps the side it is on).
    points : bool
        Whether :attr:`results` carry each leg's knee and tip (a caller that
        poses its legs from the angles needs neither).
    in_plane : bool
        Whether the targets are given in the leg's plane coordinates
        (:meth:`~.planar.PlanarLeg.in_plane`: from the root, along the plane's
        axes and the hinges' axis) rather than in the leg's frame: a caller
        that works out where each target lies in the leg's plane anyway (the
        crowd) saves the kernel its change of frame.

    Attributes
    ----------
    count : int
        The number of legs (:meth:`resize`).
    targets : (xs, ys, zs)
        Each leg's target, in the leg's frame (or its plane coordinates, with
        ``in_plane``): set them, then :meth:`solve`.
    poles : (xs, ys, zs) or None
        Each leg's pole, in the leg's frame.
    angles : (hips, knees)
        Each leg's hinge angles (radians from rest).
    results : LegResults
        The last solve's, per leg.
    chains : dict
        The leg's chain with its limits (``True``) and with free hinges (``False``).

    Examples
    --------
    >>> import ikcore
    >>> leg = ikcore.Chain([(0, 0, 0), (1, 0, 0), (2, 0, 0)], [ikcore.Hinge((0, 0, 1), -90, 90)] * 2)
    >>> legs = ikcore.LegTracker(leg)
    >>> legs.resize(2)
    >>> legs.targets[0][:], legs.targets[1][:] = [1.5, 1.0], [0.5, -1.0]  # the xs, the ys
    >>> legs.solve(1e-6), [round(a, 3) for a in legs.angles[1]]  # both met; the knees' angles
    (2, [1.318, -1.571])
    >>> [round(c, 9) for c in legs.frames(1).points[-1]]  # leg 1's tip
    [1.0, -1.0, 0.0]
    """

    def __init__(self, chain, pole=None, points=True, in_plane=False):
        leg = planar_leg(chain) if isinstance(chain, Chain) else None
        if leg is None:
            raise IKError("a LegTracker takes a planar leg: a chain of two hinges about one axis, both bones across it")
        free = Chain(chain.points, [Hinge(joint.axis) for joint in chain.plan.joints])
        self.chains = {True: chain, False: free}
        self.kernels = {True: leg, False: planar_leg(free)}
        self.reach = chain.reach
        self.pole = None if pole is None else check_point(pole, "pole")
        self.points = check_bool(points, "points")
        self.in_plane = check_bool(in_plane, "in_plane")
        self._constrained = True
        self.count = 0
        self.targets = ([], [], [])
        self.poles = None if pole is None else ([], [], [])
        self.angles = ([], [])
        self.results = LegResults(0, points)

    @property
    def kernel(self):
        """The planar kernel of the legs as they are solved now (:attr:`constrained`)."""
        return self.kernels[self._constrained]

    @property
    def constrained(self):
        """Whether the legs keep their hinges' ranges (default True); switched on, every leg's
        angles are clamped into them first."""
        return self._constrained

    @constrained.setter
    def constrained(self, value):
        if check_bool(value, "constrained") == self._constrained:
            return
        self._constrained = value
        if value:
            for angles, limits in zip(self.angles, (self.kernel.hip, self.kernel.knee)):
                angles[:] = [clamp_angle(a, *limits) for a in angles]

    def resize(self, count):
        """Track ``count`` legs: the first keep their angles, targets and poles; new ones start at
        rest (each angle clamped into its range), their target at the root, with :attr:`pole`."""
        if not isinstance(count, int) or count < 0:
            raise IKError(f"count must be an integer >= 0, got {count!r}")
        kernel = self.kernel
        starts = ([clamp_angle(0.0, *kernel.hip)], [clamp_angle(0.0, *kernel.knee)])
        root = (0.0, 0.0, 0.0) if self.in_plane else kernel.root
        for columns, fill in ((self.targets, [[c] for c in root]), (self.angles, starts),
                              (self.poles or (), [[c] for c in self.pole or ()])):
            for column, value in zip(columns, fill):
                del column[count:]
                column += value * (count - len(column))
        self.count = count
        self.results = LegResults(count, self.points)

    def solve(self, tolerance):
        """Solve every leg for its target, warm from its angles, which then hold the solved ones;
        ``tolerance`` is absolute. Returns the number of legs that met their target."""
        self.kernel.solve(self.count, self.targets, self.poles, self.angles, tolerance, self.results, self.in_plane)
        return self.results.status.count(CONVERGED)

    def frames(self, k):
        """Leg ``k``'s pose (:class:`~ikcore.kinematics.Frames`), from its angles and the last solve's
        knee and tip (with ``points``)."""
        out = self.results
        knee = (out.knees[0][k], out.knees[1][k], out.knees[2][k])
        tip = (out.tips[0][k], out.tips[1][k], out.tips[2][k])
        return self.kernel.frames(self.angles[0][k], self.angles[1][k], knee, tip)
