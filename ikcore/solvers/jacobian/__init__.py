"""The Jacobian family: the transpose, the pseudo-inverse and damped least squares.

Each iteration linearises the pose: the error ``e`` (target minus effector,
and the orientation error) and the Jacobian ``J`` (:mod:`.joints`), which
takes each joint's world turn ``w_j`` to the motion of the end. A method turns
the error into the joints' turns:

- transpose (:mod:`.transpose`): ``w = alpha J^T e``;
- pseudo-inverse (:mod:`.pseudo_inverse`): ``w = J^T (J J^T)^-1 e``;
- damped least squares (:mod:`.dls`): ``w = J^T (J J^T + lambda^2 I)^-1 e``.

Only ``m x m`` systems are solved (``m`` = 3, or 6 with an orientation), never
one the size of the chain (:mod:`.linalg`); ``J J^T`` and ``J^T y`` are summed
joint by joint, a ball joint's three axes in closed form (the same step with
the matrix ``J`` written out: :mod:`.textbook`). Every joint then
turns by its ``w_j`` about its own point, all at once, and the limits apply
(:mod:`.turning`).

Safeguards, the same for the three:

- a step turns no joint by more than :data:`MAX_STEP`;
- a step is kept only when it lowers the error; otherwise the method damps it
  or halves it and tries again, at most :data:`MAX_ATTEMPTS` times (unreachable
  targets then settle instead of oscillating);
- a joint pressed against a limit loses the axis that would push it through,
  and the step is solved again without it (:mod:`.limits`);
- when progress stalls the solve restarts (:mod:`~ikcore.solvers.restarts`:
  from a uniform arc onto the target for a chain without limits, where one
  reaches; else from its best pose, turned at random, a little at first and
  more with every restart that brought nothing); the best pose is returned.

**Secondary objectives** (:mod:`ikcore.objectives`) act once the target is met
(:mod:`.secondary`): each further step moves in the null space of the task.
They never change how the target is met, so a solve reaches the same status
with and without them.

**Out of reach** (or within the tolerance of its edges), a chain without limits
and a position target takes its nearest pose in one step
(:func:`~ikcore.solvers.reach.nearest_pose`): steps would crawl along the
stretched chain's singular direction.

**Pole.** After solving, the chain swivels toward the pole
(:mod:`~ikcore.solvers.pole`); with an orientation target only the bones up
to the last one turn, and the last keeps its rotation. The turn is kept where
the limits let the target stay met as well.
"""

from typing import NamedTuple

from ...errors import IKError
from ...kinematics import Frames
from ...mask import MaskedJacobian, masked_residual, task_rows
from ...problem import Outcome
from .. import pole as poles
from .. import reach
from ..loop import Search, iterate
from ..restarts import restart_frames
from .joints import JointJacobian, residual
from .limits import pose_limits, pushing_through
from .linalg import solve_spd_unrolled
from .secondary import secondary_steps
from .turning import turned_pose

#: Largest joint rotation (radians) of one step: bounded steps near singularities.
MAX_STEP = 1.0
#: Tries of a step (damped or halved again) within one iteration.
MAX_ATTEMPTS = 10
#: Restarts in a row without progress before a solve gives up (:class:`~ikcore.solvers.restarts.StallWatch`).
PATIENCE = 20
#: The first restart turns each joint by up to this many radians, each further one twice as far as the
#: one before (within the limits), so that restarts soon reach other basins of a redundant arm.
RESTART_ANGLE = 1.0


class StepRule:
    """How a method turns the error into a step, and what it does when a step is refused.

    ``step(jac, e, descent)`` gives the joints' world turns for the Jacobian
    ``jac`` (:class:`~.joints.JointJacobian`), the error ``e`` and the
    secondary objectives' ``descent`` (per joint a world vector, or ``None``);
    ``refused()`` makes the next step more careful and says whether it changed
    anything (else the loop halves the step); ``accepted()`` relaxes after a
    kept step.
    """

    #: The damping used, ``lambda`` (None for the transpose), and the transpose's step factor.
    damping = None
    alpha = None
    #: A step that lowers the residual by less than this fraction counts as none: the watch restarts at
    #: once (a damped Gauss-Newton step that gains so little has met a local minimum or a wall of
    #: limits, where waiting out the window would spend iterations for nothing).
    least_gain = 0.01

    def __init__(self, reach):
        self.reach = reach

    def solve(self, A, b, lam):
        """``y = (A + lam^2 I)^-1 b``, damped more until it is well defined: ``(y, lam)``."""
        for _ in range(40):
            y = solve_spd_unrolled(A, b, lam * lam)
            if y is not None:
                return y, lam
            lam = max(4.0 * lam, 1e-9 * self.reach)
        raise IKError("the Jacobian's system stayed singular however damped (a non-finite pose?)")

    def with_secondary(self, jac, e, descent, lam):
        """``(J^T y + z, lam)`` with ``y = (J J^T + lam^2 I)^-1 (e - J z)`` and ``z`` the ``descent``
        within each joint's axes: the task's step plus ``z`` moved into the task's null space."""
        if descent is None:
            y, lam = self.solve(jac.gram(), e, lam)
            return jac.transpose(y), lam
        z = jac.project(descent)
        y, lam = self.solve(jac.gram(), [u - v for u, v in zip(e, jac.apply(z))], lam)
        return [_plus(t, v) for t, v in zip(jac.transpose(y), z)], lam

    def refused(self):
        return False

    def accepted(self):
        pass

    def reset(self):
        pass

    def relax(self):
        """Take the least damping the rule allows (the secondary objectives' steps, once the target
        is met: see :mod:`.secondary`)."""


def _plus(a, b):
    """``a + b`` for two world turns, either of which may be ``None`` (none)."""
    if a is None or b is None:
        return b if a is None else a
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


def run(problem, rule, steps=None, budget=None, errors=None, turn=True):
    """Solve ``problem`` with Jacobian steps made by ``rule`` (see the module docstring), within
    ``budget`` iterations (default ``problem.max_iterations``), going on from an ``errors``
    history (default: the start's error); ``turn``: swivel toward the problem's pole after."""
    start = problem.start
    budget = problem.max_iterations if budget is None else budget
    errors = [problem.start_error] if errors is None else errors
    if problem.free and problem.at_edge and not problem.start_met and budget > 0:
        outcome = reach.in_one_step(problem, reach.nearest_frames(problem, start), errors, steps)
        return poles.swivel_toward_pole(problem, outcome, steps) if turn else outcome
    search = JacobianSearch(problem, rule, steps)
    # Restarts pay off longer here than for the geometric methods: a redundant arm with an
    # orientation target may need a dozen before one lands in the right basin.
    result = iterate(problem, search, budget=budget, errors=errors, start_score=search.score, patience=PATIENCE)
    frames, iterations, errors = result.frames, result.iterations, result.errors
    secondary_state = None
    if result.met and problem.secondary and iterations < budget:
        frames, more, secondary_state = secondary_steps(search, frames, budget - iterations, errors,
                                                        problem.secondary_state)
        iterations += more
    outcome = Outcome(frames, iterations, errors, result.stalled, secondary_state)
    return poles.swivel_toward_pole(problem, outcome, steps) if turn else outcome


class Step(NamedTuple):
    """A step :meth:`JacobianSearch.attempt` kept: the pose, its residual, the scale it was taken at
    and the pose's hinge angles (see :class:`~.joints.JointJacobian`)."""

    frames: Frames
    residual: list
    scale: float
    angles: list


class JacobianSearch(Search):
    """The Jacobian iterations, for :func:`~ikcore.solvers.loop.iterate`."""

    def __init__(self, problem, rule, steps):
        self.problem = problem
        self.chain = problem.chain
        self.rule = rule
        self.steps = steps
        self.oriented = problem.orientation is not None
        self.c = problem.orientation_weight if self.oriented else 0.0
        # With a mask, the task's rows seen through it (:mod:`ikcore.mask`).
        self.rows = None if problem.mask is None else task_rows(problem.mask, 6 if self.oriented else 3,
                                                                 problem.frame)
        self.restarts = 0
        # The iteration being turned_pose (the steps hook numbers what it records by it; the secondary
        # objectives' steps count on from the task's).
        self.iteration = 0
        self.take(problem.start)

    def take(self, frames, e=None, angles=None):
        """Step from ``frames`` on (``e``: its residual, ``angles`` its hinges' angles, when known)."""
        self.frames = frames
        self.angles = angles
        self.e = self.residual(frames) if e is None else e
        self.F = sum(v * v for v in self.e)
        self.error = self.problem.error(frames)
        self.stuck = False

    def residual(self, frames):
        """The error the step should undo (:func:`~.joints.residual`), through the mask if any."""
        e = residual(self.problem, frames, self.c)
        return e if self.rows is None else masked_residual(self.rows, e)

    @property
    def score(self):
        """The residual's length: the error, and with an orientation target its weighted angle too."""
        return self.F ** 0.5

    def step(self, iteration):
        self.iteration = iteration
        F = self.F
        candidate = self.attempt(None, lambda new, e: sum(v * v for v in e) < F)
        if candidate is None:
            self.stuck = True
            return
        self.take(candidate.frames, candidate.residual, candidate.angles)
        self.stuck = self.F > (1.0 - self.rule.least_gain) ** 2 * F

    def attempt(self, descent, keep, scale=1.0, max_step=MAX_STEP, tries=MAX_ATTEMPTS):
        """One step (see the module docstring) from :attr:`frames`, starting at ``scale`` of its
        length (no joint turning more than ``max_step``): the :class:`Step` of the first of at most
        ``tries`` that ``keep(frames, residual)`` keeps, or ``None`` when none is.
        ``descent``: the secondary objectives' (per joint a world vector), or ``None``; a step with
        one is halved when refused, never damped (damping shortens the task's part)."""
        chain, frames, rule = self.chain, self.frames, self.rule
        jac = JointJacobian(chain, frames, self.c, self.oriented, self.angles)
        if self.rows is not None:
            jac = MaskedJacobian(jac, self.rows)
        limits = pose_limits(chain, frames, jac)
        blocked = {}
        for _ in range(tries):
            # Solve, dropping the axes that would push a joint through its limit (each at most once).
            for _ in range(1 + sum(len(v) for v in limits.values())):
                turns = rule.step(jac, self.e, descent)
                found = pushing_through(turns, limits, blocked)
                if not found:
                    break
                for j, d in found:
                    blocked.setdefault(j, []).append(d)
                    jac.block(j, d)
            made = turned_pose(chain, frames, jac, turns, scale, max_step)
            if made is None:
                return None
            new, angles = made
            e = self.residual(new)
            if keep(new, e):
                if self.steps is not None:
                    # With the damping this step was made with (an accepted step lowers it for the next).
                    self.steps.jacobian(self.iteration, frames, new, turns, scale, max_step, rule.damping,
                                        rule.alpha, descent is not None)
                rule.accepted()
                return Step(new, e, scale, angles)
            if descent is not None or not rule.refused():
                scale *= 0.5
        return None

    def restart(self, kept, rng):
        self.restarts += 1
        angle = RESTART_ANGLE * 2.0 ** min(self.restarts - 1, 3)
        self.take(restart_frames(self.problem, self.pose_of(kept), rng, angle, within=True))
        self.rule.reset()
        if self.steps is not None:
            self.steps.setup(self.frames.points, "restart", iteration=self.iteration)
        return True
