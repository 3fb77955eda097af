"""The Jacobian family: the transpose, the pseudo-inverse and damped least squares.

Each iteration linearises the pose: the error ``e`` (target minus effector,
and the orientation error, :mod:`.columns`) and the Jacobian ``J``, one column
per joint axis, ``a x (p_end - p_j)``. A method turns them into joint steps
``dtheta`` (one angle per column):

- transpose (:mod:`.transpose`): ``dtheta = alpha J^T e``;
- pseudo-inverse (:mod:`.pseudo_inverse`): ``dtheta = J^T (J J^T)^-1 e``;
- damped least squares (:mod:`.dls`): ``dtheta = J^T (J J^T + lambda^2 I)^-1 e``.

Only ``m x m`` systems are solved (``m`` = 3, or 6 with an orientation), never
one the size of the chain (:mod:`.linalg`). Joint ``j`` then turns by
``w_j = sum dtheta_k a_k`` (its columns' axes, a world rotation vector) about
its own point, all joints at once, and the limits apply.

Safeguards, the same for the three:

- a step turns no joint by more than :data:`MAX_STEP`;
- a step is kept only when it lowers the error; otherwise the method damps it
  or halves it and tries again, at most :data:`MAX_ATTEMPTS` times (unreachable
  targets then settle instead of oscillating);
- a joint pressed against a limit loses the axis that would push it through,
  and the step is solved again without it (:func:`~.columns.outward`);
- when progress stalls the solve restarts (:mod:`~ikcore.solvers.restarts`:
  from a uniform arc onto the target for a chain without limits, where one
  reaches; else from its best pose, turned a little at random); the best pose
  is returned.

**Secondary objectives** (:mod:`ikcore.objectives`) act once the target is met:
each further step moves in the null space of the task, ``dtheta = J^T y + z``
with ``y = (J J^T + lambda^2 I)^-1 (e - J z)`` and ``z`` the objectives' descent,
kept while the target stays met and the objectives' cost falls. They never
change how the target is met, so a solve reaches the same status with and
without them.

**Out of reach** (or within the tolerance of its edges), a chain without limits
and a position target takes its nearest pose in one step
(:func:`~ikcore.solvers.reach.nearest_pose`): steps would crawl along the
stretched chain's singular direction.

**Pole.** After solving, the chain swivels toward the pole
(:mod:`~ikcore.solvers.pole`); with an orientation target only the bones up
to the last one turn, and the last keeps its rotation. The turn is kept where
the limits let the target stay met as well.
"""

import math

from ... import rotation as rot
from ...checks import check_float
from ...errors import IKError
from ...kinematics import placed, settle, turn
from ...problem import Outcome
from .. import pole as poles
from .. import reach
from ..loop import Search, iterate
from ..restarts import restart_frames
from .columns import geometric_jacobian, outward, residual
from .linalg import apply, gram, solve_spd, times

#: Largest joint rotation (radians) of one step: bounded steps near singularities.
MAX_STEP = 0.5
#: Tries of a step (damped or halved again) within one iteration.
MAX_ATTEMPTS = 10
#: Restarts in a row without progress before a solve gives up (:class:`~ikcore.solvers.restarts.StallWatch`).
PATIENCE = 20


def check_fraction(value, name):
    """Return ``value`` as a float in ``[0, 1]``."""
    value = check_float(value, name)
    if not 0.0 <= value <= 1.0:
        raise IKError(f"{name} must be in [0, 1], got {value!r}")
    return value


def check_bool(value, name):
    """Return ``value`` if it is a bool."""
    if not isinstance(value, bool):
        raise IKError(f"{name} must be True or False, got {value!r}")
    return value


class Rule:
    """How a method turns the error into a step, and what it does when a step is refused.

    ``direction(cols, e, z)`` gives ``dtheta`` for the Jacobian's columns (and
    the secondary descent ``z``, or ``None``); ``refused()`` makes the next
    direction more careful and says whether it changed anything (else the
    loop halves the step); ``accepted()`` relaxes after a kept step.
    """

    #: The damping used, ``lambda`` (None for the transpose), and the transpose's step factor.
    damping = None
    alpha = None

    def __init__(self, reach):
        self.reach = reach

    def solve(self, cols, b, lam):
        """``y = (J J^T + lam^2 I)^-1 b``, damped more until it is well defined."""
        A = gram(cols, len(b))
        for _ in range(40):
            y = solve_spd(A, b, lam * lam)
            if y is not None:
                return y, lam
            lam = max(4.0 * lam, 1e-9 * self.reach)
        raise IKError("the Jacobian's system stayed singular however damped (a non-finite pose?)")

    def with_secondary(self, cols, e, z, lam):
        """``J^T y + z`` with ``y = (J J^T + lam^2 I)^-1 (e - J z)``: the task's step plus ``z`` moved
        into the task's null space."""
        b = e if z is None else [u - v for u, v in zip(e, apply(cols, z, len(e)))]
        y, lam = self.solve(cols, b, lam)
        step = times(cols, y)
        if z is not None:
            step = [s + v for s, v in zip(step, z)]
        return step, lam

    def refused(self):
        return False

    def accepted(self):
        pass

    def reset(self):
        pass


def run(problem, rule, steps=None, budget=None, errors=None, turn=True):
    """Solve ``problem`` with Jacobian steps made by ``rule`` (see the module docstring), within
    ``budget`` iterations (default ``problem.max_iterations``), going on from an ``errors``
    history (default: the start's error); ``turn``: swivel toward the problem's pole after."""
    chain = problem.chain
    start = problem.start
    budget = problem.max_iterations if budget is None else budget
    errors = [problem.start_error] if errors is None else errors
    if problem.orientation is None and chain.plan.free and reach.at_edge(chain, problem.target, problem.tolerance) \
            and not problem.met(start) and budget > 0:
        points = reach.nearest_pose(chain, problem.target, start.points)
        frames = placed(chain, start, points)
        if steps is not None:
            steps.reach(frames.points)
        outcome = Outcome(frames, 1, [*errors, problem.error(frames)])
        return poles.turned(problem, outcome, steps) if turn else outcome
    search = JacobianSearch(problem, rule, steps)
    # Restarts pay off longer here than for the geometric methods: a redundant arm with an
    # orientation target may need a dozen before one lands in the right basin.
    result = iterate(problem, search, budget=budget, errors=errors, start_score=search.score, patience=PATIENCE)
    frames = result.frames or search.settle(result.kept)
    iterations, errors = result.iterations, result.errors
    if result.frames is not None and problem.secondary:
        frames, more = search.polish(frames, budget - iterations)
        iterations += more
        errors += [problem.error(frames)] * more
    outcome = Outcome(frames, iterations, errors, result.stalled)
    return poles.turned(problem, outcome, steps) if turn else outcome


class JacobianSearch(Search):
    """The Jacobian iterations, for :func:`~ikcore.solvers.loop.iterate`."""

    def __init__(self, problem, rule, steps):
        self.problem = problem
        self.chain = problem.chain
        self.rule = rule
        self.steps = steps
        self.c = problem.orientation_weight if problem.orientation is not None else 0.0
        self.restarts = 0
        # The iteration being stepped (the steps hook numbers what it records by it).
        self.iteration = 0
        self._take(problem.start)

    def _take(self, frames):
        self.frames = frames
        self.e = residual(self.problem, frames, self.c)
        self.F = sum(v * v for v in self.e)
        self.error = self.problem.error(frames)
        self.stuck = False

    @property
    def score(self):
        """The residual's length: the error, and with an orientation target its weighted angle too."""
        return math.sqrt(self.F)

    def step(self, iteration):
        self.iteration = iteration
        candidate = self._try(None, lambda new: sum(v * v for v in new[1]) < self.F)
        self.stuck = candidate is None
        if candidate is not None:
            self._take(candidate[0])

    def _try(self, objectives, keep):
        """One step (see the module docstring): the new frames and residual, or ``None`` when no
        try is kept. ``keep((frames, e))`` says whether a try is kept."""
        chain, frames, rule = self.chain, self.frames, self.rule
        oriented = self.problem.orientation is not None
        limits = {j: found for j in range(chain.size) if (found := outward(chain, frames, j))}
        blocked = {}
        scale = 1.0
        for _ in range(MAX_ATTEMPTS):
            # Solve, dropping the axes that would push a joint through its limit (each at most once).
            for _ in range(1 + sum(len(v) for v in limits.values())):
                owners, directions, cols = geometric_jacobian(chain, frames, self.c, oriented, blocked)
                z = None if objectives is None else _descent(objectives, chain, frames, owners, directions)
                dtheta, _ = rule.step(cols, self.e, z)
                pushed = _pushed(owners, directions, dtheta, limits, blocked)
                if not pushed:
                    break
                for j, d in pushed:
                    blocked.setdefault(j, []).append(d)
            new = _stepped(chain, frames, owners, directions, dtheta, scale)
            if new is None:
                return None
            e = residual(self.problem, new, self.c)
            if keep((new, e)):
                if self.steps is not None:
                    self.steps.jacobian(self.iteration, frames, new, owners, directions, dtheta,
                                        scale, rule.damping, rule.alpha, objectives is not None)
                rule.accepted()
                return new, e
            # A refused step: damped more (the method's rule), or halved. Secondary steps are always
            # halved: damping shortens the task's part of a step, not the objectives'.
            if objectives is not None or not rule.refused():
                scale *= 0.5
        return None

    def polish(self, frames, budget):
        """Steps in the task's null space that lower the secondary objectives' cost while the
        target stays met: ``(frames, steps taken)``."""
        problem, objectives = self.problem, self.problem.secondary
        self._take(frames)
        cost = _cost(objectives, self.chain, frames)
        taken = 0
        while taken < budget:
            self.iteration += 1
            new = self._try(objectives, lambda n: problem.met(n[0]) and _cost(objectives, self.chain, n[0])
                            < cost * (1.0 - 1e-6))
            if new is None:
                break
            taken += 1
            settled = cost - _cost(objectives, self.chain, new[0]) <= 1e-4 * cost
            self._take(new[0])
            cost = _cost(objectives, self.chain, new[0])
            if settled:
                break
        return self.frames, taken

    def keep(self):
        return self.frames

    def settle(self, kept):
        return self.problem.start if kept is None else kept

    def restart(self, kept, rng):
        self.restarts += 1
        self._take(restart_frames(self.problem, self.settle(kept), rng, 0.2 + 0.1 * self.restarts))
        self.rule.reset()
        if self.steps is not None:
            self.steps.setup(self.frames.points, "restart", iteration=self.iteration)
        return True


def _pushed(owners, directions, dtheta, limits, blocked):
    """The limit directions the step pushes a joint through, not blocked yet: ``[(j, d), ...]``."""
    if not limits:
        return []
    turns = {}
    for j, a, d in zip(owners, directions, dtheta):
        w = turns.setdefault(j, [0.0, 0.0, 0.0])
        w[0] += d * a[0]
        w[1] += d * a[1]
        w[2] += d * a[2]
    out = []
    for j, found in limits.items():
        w = turns.get(j)
        for o in found:
            if w is not None and w[0] * o[0] + w[1] * o[1] + w[2] * o[2] > 1e-15 and o not in blocked.get(j, ()):
                out.append((j, o))
    return out


def _stepped(chain, frames, owners, directions, dtheta, scale):
    """The pose after turning each joint by its columns' step (at most :data:`MAX_STEP`, times
    ``scale``), limits applied; ``None`` when the step is no motion at all."""
    turns = [[0.0, 0.0, 0.0] for _ in range(chain.size)]
    for j, a, d in zip(owners, directions, dtheta):
        w = turns[j]
        w[0] += d * a[0]
        w[1] += d * a[1]
        w[2] += d * a[2]
    biggest = max(math.hypot(*w) for w in turns)
    if not biggest > 1e-14:
        return None
    k = scale * (MAX_STEP / biggest if biggest > MAX_STEP else 1.0)
    rotations = []
    for j, (q, w) in enumerate(zip(frames.rotations, turns)):
        angle = k * math.hypot(*w)
        if angle > 0.0:
            # The world turn w, seen in the parent's frame: q_j <- exp(R_{j-1}^* w) q_j.
            local = turn(rot.conjugate(frames.worlds[j - 1]), w) if j else w
            q = rot.multiply(rot.from_axis_angle(local, angle), q)
        rotations.append(q)
    return settle(chain, rotations)


def _descent(objectives, chain, frames, owners, directions):
    z = [0.0] * len(owners)
    for objective in objectives:
        for k, v in enumerate(objective.descent(chain, frames, owners, directions)):
            z[k] += v
    return z


def _cost(objectives, chain, frames):
    return sum(o.cost(chain, frames) for o in objectives)
