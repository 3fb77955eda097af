"""FABRIK: forward and backward reaching inverse kinematics (Aristidou & Lasenby 2011).

One iteration moves points, two passes over the chain:

- **backward** (tip to root): the effector goes onto the target; each point then
  goes onto the line from its new child toward its old place, one bone length
  away: ``p_i <- p_{i+1} + L_i (p_i - p_{i+1}) / |p_i - p_{i+1}|``;
- **forward** (root to tip): the root goes back to its fixed place; each point
  goes onto the line from its new parent toward its backward-pass place:
  ``p_{i+1} <- p_i + L_i (p_{i+1} - p_i) / |p_{i+1} - p_i|``.

Bone lengths hold exactly after every pass. The iterations repeat until the
effector meets the target (:mod:`~ikcore.solvers.loop`).

**Joint limits.** How a pass places a bone depends on the joints (the chain's
*layout*, worked out once per chain):

- no limits: the passes above, on points alone (:mod:`.points`);
- twist-free cones about a straight rest line (tentacles, ropes): the same,
  each direction turned into its cone, measured from the neighbour just placed
  (:mod:`.points`);
- anything else (hinges, twist limits): the passes carry each bone's frame and
  place a bone from its placed neighbour under the joint between them, a hinge
  by its clamped angle; a joint free to twist next to a hinge turns that
  hinge's plane toward its wanted point (:mod:`.framed`).

**Rotations.** Passes on points become rotations once, at the end: bone ``i``
turns by the shortest arc from its start direction, keeping the start's twist
(:func:`ikcore.kinematics.rotations_along`). The framed passes have them all along.

**Stalls.** When the error stops falling, or falls too slowly to meet the
tolerance within the iterations left (a joint pinned on a limit; a target near
full reach, where the passes crawl), the solve restarts
(:mod:`~ikcore.solvers.restarts`): a chain without limits from a uniform arc
turned onto the target, exact wherever such an arc reaches; a cone chain from
its best pose turned a little at random (seeded: every solve is repeatable).
The passes with joint frames hand over to damped least squares instead, once
they slow down or stall (:mod:`~ikcore.solvers.handover`). The best pose is
returned. Option ``max_restarts`` (default ``None``: no cap) bounds the
restarts; with ``0`` a stalled solve returns its best pose at once, which a
chain tracked frame to frame may prefer to a jump.

**Out of reach.** A chain without limits is stretched at the target (or folded
toward one nearer than it can fold), and so is one within the tolerance of
either edge of its reach, in one step
(:func:`~ikcore.solvers.reach.nearest_pose`); a limited chain aims every bone at
the target within its limits, in one forward pass.

**Straight starts.** A straight chain with the target on its line would keep
every point on the line: it is first bent off it (:mod:`~ikcore.solvers.degenerate`).

**Pole.** A point hinting the bend side: after solving the chain swivels toward
it (:mod:`~ikcore.solvers.pole`), which moves neither end. A limited chain also
starts turned toward it (the passes keep the side they start on), and keeps
the final turn only where its limits let the effector stay as near.
"""

from math import dist

from ...checks import check_int_range
from ...kinematics import pose_from_points, pose_of
from ...problem import Outcome
from .. import degenerate, pole, reach
from ..handover import finish_with_dls
from ..loop import Search, iterate, stall_watch
from ..restarts import restart_frames
from . import framed
from .points import backward, cones_of, forward, rows_of


def _check_restarts(value, name):
    return check_int_range(value, name, 0, 100000)


OPTIONS = {"max_restarts": (None, _check_restarts)}
MAX_ITERATIONS = 100
#: The stall watch's window (:func:`~ikcore.solvers.restarts.watch_settings`): iterations without
#: progress before a restart.
WINDOW = 6
#: A pace that would not meet the tolerance within this many more iterations is a crawl: the
#: whole default budget.
HORIZON = MAX_ITERATIONS
POLE = True
#: Largest random turn per joint on a restart (radians).
KICK = 0.8


def run(problem, steps=None):
    """Solve ``problem`` by FABRIK; see the module docstring."""
    chain = problem.chain
    start = problem.start
    if problem.start_met:
        return pole.swivel_toward_pole(problem, Outcome(start, 0, [problem.start_error]), steps)
    cones = chain.plan.layouts[cones_of]
    search = PointSearch(problem, cones, steps) if chain.plan.free or cones else FramedSearch(problem, steps)
    if problem.distance >= chain.reach or (chain.plan.free and problem.at_edge):
        # Out of reach: the nearest pose in one step (the start, if the limits leave it nearer).
        frames = search.reach_out()
        if problem.error(frames) > problem.start_error:
            frames = start
        return pole.swivel_toward_pole(problem, reach.in_one_step(problem, frames, [problem.start_error], steps), steps)
    search.prepare(problem.pole)
    max_restarts = problem.options["max_restarts"]
    if isinstance(search, PointSearch):
        return pole.swivel_toward_pole(problem, iterate(problem, search, max_restarts=max_restarts), steps)
    # The passes with joint frames go on to their first stall, or until they slow down; then damped
    # least squares goes on from the best pose (the hand-over at a stall counts as a restart).
    watch = stall_watch(problem, search)
    outcome = iterate(problem, search, max_restarts=0, watch=watch)
    if outcome.stalled and (search.slowed or max_restarts != 0):
        if not search.slowed and max_restarts is not None:
            max_restarts -= 1
        outcome = finish_with_dls(problem, outcome, steps, watch, max_restarts)
    return pole.swivel_toward_pole(problem, outcome, steps)


class PointSearch(Search):
    """FABRIK's iterations on points (see :mod:`.points`), for :func:`~ikcore.solvers.loop.iterate`.

    The points are one list, rewritten in place by the passes; the reference
    pose (the start, or the pose of the last restart) gives the twist the
    rotations keep. ``cones``: the chain's :class:`~.points.Cones`, or ``None``
    for a chain without limits.
    """

    def __init__(self, problem, cones, steps):
        self.problem = problem
        self.chain = chain = problem.chain
        self.target, self.root = problem.target, chain.points[0]
        self.back_rows, self.fore_rows = chain.plan.layouts[rows_of]
        self.cones = cones
        self.steps = steps
        self.reference = problem.start
        self.points = list(problem.start.points)
        self.directions = None
        self.error = self.score = problem.start_error

    def _take(self, points):
        """Start the passes from ``points``."""
        self.points = list(points)
        # The bones' unit directions as the last forward pass placed them, when every one keeps inside
        # its cone (see Cones.forward); not known for points taken from elsewhere.
        self.directions = None
        self.error = self.score = dist(self.points[-1], self.target)

    def reach_out(self):
        chain, target = self.chain, self.problem.target
        if self.cones is None:
            return reach.nearest_frames(self.problem, self.reference)
        root = chain.points[0]
        d = self.problem.distance
        aim = tuple((t - r) / d for t, r in zip(target, root)) if d > 0.0 else chain.directions[0]
        _, self.directions = self.cones.forward(self.points, aim)
        return self.pose_of(self.keep())

    def prepare(self, toward):
        """Leave a straight start (the passes would keep it straight); a limited chain also starts
        turned toward the pole ``toward``."""
        chain, target = self.chain, self.problem.target
        if degenerate.straight(chain, self.reference, None if toward is not None else target):
            # On the target's line, or a pole to turn toward: curl it first.
            self.reference = pose_of(chain, degenerate.bend(chain, self.reference, toward, target))
            self._take(self.reference.points)
            if self.steps is not None:
                self.steps.setup(self.reference.points, "bend")
        elif toward is not None and self.cones is not None:
            self._take(pole.swivel(self.reference.points, toward, chain.reach))
            effector, self.directions = self.cones.forward(self.points)
            self.error = self.score = dist(effector, target)
            if self.steps is not None:
                self.steps.setup(list(self.points), "turn")

    def step(self, iteration):
        points, target, steps = self.points, self.target, self.steps
        before = None if steps is None else list(points)
        if self.cones is None:
            backward(points, self.back_rows, target)
        else:
            self.cones.backward(points, target)
        if steps is not None:
            middle = list(points)
            steps.backward(iteration, before, middle)
        if self.cones is None:
            effector = forward(points, self.fore_rows, self.root)
        else:
            effector, self.directions = self.cones.forward(points)
        if steps is not None:
            steps.forward(iteration, middle, list(points))
        self.error = self.score = dist(effector, target)

    def keep(self):
        return self.reference, self.points[:], self.directions

    def pose_of(self, kept):
        if kept is None:
            return self.problem.start
        reference, points, directions = kept
        return pose_from_points(self.chain, reference, points, directions)

    def restart(self, kept, rng):
        self.reference = restart_frames(self.problem, self.pose_of(kept), rng, KICK)
        self._take(self.reference.points)
        if self.steps is not None:
            self.steps.setup(self.reference.points, "restart")
        return True


class FramedSearch(Search):
    """FABRIK's iterations with joint frames (see :mod:`.framed`), for :func:`~ikcore.solvers.loop.iterate`.

    From the second iteration on, an iteration that does not shrink the error
    below :attr:`SLOW` of the last says the passes have slowed down
    (:attr:`slowed`: the loop ends), for damped least squares to go on from the
    best pose (:mod:`~ikcore.solvers.handover`).
    """

    #: Passes that shrink the error by less than this a step hand over (the steps finish quadratically).
    SLOW = 0.3

    def __init__(self, problem, steps):
        self.problem = problem
        self.chain = problem.chain
        self.steps = steps
        self._take(problem.start)

    def _take(self, frames):
        self.pose = framed.Pose(frames)
        self.error = self.score = self.problem.error_of(frames.points[-1])

    @staticmethod
    def reposed(chain, frames, wanted):
        """``frames`` re-posed by one forward pass toward the ``wanted`` points."""
        pose = framed.Pose(frames)
        framed.forward(chain, pose, wanted)
        return pose.frames()

    def reach_out(self):
        chain = self.chain
        root = chain.points[0]
        d = self.problem.distance
        aim = [(t - r) / d for t, r in zip(self.problem.target, root)]
        wanted, run = [root], 0.0
        for length in chain.lengths:
            run += length
            wanted.append(tuple(r + run * a for r, a in zip(root, aim)))
        return self.reposed(chain, self.problem.start, wanted)

    def prepare(self, toward):
        chain, target = self.chain, self.problem.target
        frames = self.problem.start
        if degenerate.straight(chain, frames, None if toward is not None else target):
            self._take(pose_of(chain, degenerate.bend(chain, frames, toward, target)))
            if self.steps is not None:
                self.steps.setup(list(self.pose.points), "bend")
        elif toward is not None:
            self._take(self.reposed(chain, frames, pole.swivel(frames.points, toward, chain.reach,
                                                              chain.plan.plane is not None)))
            if self.steps is not None:
                self.steps.setup(list(self.pose.points), "turn")

    def step(self, iteration):
        last = self.error
        pose, steps = self.pose, self.steps
        before = None if steps is None else list(pose.points)
        framed.backward(self.chain, pose, self.problem.target)
        middle = list(pose.points)
        if steps is not None:
            steps.backward(iteration, before, middle)
        framed.forward(self.chain, pose, middle)
        if steps is not None:
            steps.forward(iteration, middle, list(pose.points))
        self.error = self.score = self.problem.error_of(pose.points[-1])
        self.slowed = iteration >= 2 and self.error > self.SLOW * last

    def keep(self):
        return self.pose.frames()
