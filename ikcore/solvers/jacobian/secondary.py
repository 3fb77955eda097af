"""Secondary objectives, once the target is met: steps in the null space of the task.

With the target met, the Jacobian methods go on stepping while iterations are
left, each step ``w = J^T y + z`` with ``z`` the objectives' descent
(:func:`ikcore.objectives.descent`) within each joint's axes and ``y = (J J^T +
lambda^2 I)^-1 (e - J z)``: to first order the end does not move, and what
error is there is undone, so ``z`` spends only the freedom the task leaves. The
steps take the rule's least damping (:meth:`~ikcore.solvers.jacobian.StepRule.relax`):
damping leaks part of ``z`` into the task, along the directions where ``J`` is
weak, and the steps back to the target would undo it; with the target met the
pose is where the task's system was just solved, so it bears the least.

To second order a step does move the end, by about the square of its turn.
Were every step to keep the target met, the steps would have to be tiny. So a
step is tried when the objectives' weighted cost falls and the end stays near
the target (within :data:`SLACK` tolerances, or a hundredth of the reach);
plain task steps (at most :data:`RETURNS`) then take the end back onto it, and
the pair is kept when the cost there is lower than at the last pose that met
the target; else the search goes back to that pose and tries a shorter step.
The pose returned always meets the target: the last such pose. No secondary step
turns a joint by more than :data:`MAX_TURN`; a refused one is halved, and the
next starts at twice the length the last one kept (the next solve's first
too, frame after frame: :class:`SecondaryState`). The steps stop when the
cost stops falling (by less than :data:`SETTLED` of itself), when no step is
kept, or at the budget: every step, secondary or back to the target, counts as
an iteration.

Frame after frame (a :class:`~ikcore.Tracker`), a solve starts from the pose
the last one returned. Where the steps ended at a pose with nothing left to
gain, the gradient of the cost along the task's self-motion vanishes there;
a pose that the task has moved since by a small ``d theta`` (each joint by at
most :data:`MOVED`) leaves a gain of the order of ``|d theta|^2``, next to
nothing. So while the poses stay that near it, and the objectives' cost at it
is what it was (within :data:`STILL`: an obstacle stood still, or stayed
clear), the steps are not taken; that pose stays the reference, so that small
moves frame after frame add up until the steps act again.
"""

from math import cos
from typing import NamedTuple, Optional

from ...kinematics import Frames
from ...objectives import descent, total_cost

#: A step lowering the cost by less than this fraction of it ends the secondary steps.
SETTLED = 1e-4
#: How far a secondary step may leave the end off the target: this many tolerances (of position, and of
#: orientation), and at least SLACK_REACH of the chain's reach and SLACK_ANGLE radians; within that, a task step
#: or two take it back (Gauss-Newton converges quadratically there).
SLACK = 10.0
SLACK_REACH = 0.01
SLACK_ANGLE = 0.02
#: Largest joint turn (radians) of a secondary step.
MAX_TURN = 0.2
#: Task steps at most to take the end back onto the target after a secondary step.
RETURNS = 3
#: Tries of one secondary step, each half the one before, before the steps end: where the cost is
#: already near its least on the task's self-motion (a pose tracked frame after frame), more tries
#: would each cost a Jacobian and a pose for a gain of nothing.
TRIES = 4
#: A secondary step shorter than this fraction of its first length ends the steps.
MIN_SCALE = 1e-3
#: Where no joint turned by more than MOVED radians from the pose where the steps last ended with nothing
#: to gain, and the objectives' cost at that pose differs by less than STILL of itself from what it was then,
#: the steps are not taken (see the module docstring).
MOVED = 0.03
STILL = 3e-3
#: The least length (a fraction of MAX_TURN) a solve's first secondary step starts at, whatever the last
#: solve's steps shrank to: where the objectives move, the steps soon grow again.
WARM_LEAST = 0.125


class SecondaryState(NamedTuple):
    """What a solve's secondary steps leave for the next solve from the pose they return (a
    :class:`~ikcore.Tracker` hands it on: :attr:`ikcore.problem.Problem.secondary_state`)."""

    #: The pose where the steps ended with nothing left to gain, and the cost there (``None``: they
    #: ended at the budget).
    frames: Optional[Frames]
    cost: Optional[float]
    #: The length the next solve's first step starts at, a fraction of :data:`MAX_TURN`.
    scale: float


def secondary_steps(search, frames, budget, errors, known=None):
    """Steps of ``search`` (a :class:`~ikcore.solvers.jacobian.JacobianSearch`) from ``frames``,
    which meet its problem, that lower the secondary objectives' cost (see the module docstring),
    at most ``budget`` of them: ``(frames, steps taken, secondary_state)``, ``frames`` meeting the problem
    and ``secondary_state`` the :class:`SecondaryState` for the next solve from them. Each step's error (the
    pose it made, as the trace shows it) goes onto the history ``errors``. ``known``: the
    :class:`SecondaryState` of the solve that returned the problem's start (``None``: not known)."""
    problem = search.problem
    chain, objectives = problem.chain, problem.secondary
    scale = 1.0 if known is None else known.scale
    if known is not None and known.cost is not None and still(chain, objectives, known, frames):
        return frames, 0, known
    met, cost = frames, total_cost(objectives, chain, frames)
    if cost <= 0.0:
        return met, 0, SecondaryState(met, cost, scale)
    slack = max(SLACK * problem.tolerance, SLACK_REACH * chain.reach)
    slack_angle = max(SLACK * problem.orientation_tolerance, SLACK_ANGLE)
    search.take(frames)
    search.rule.relax()
    tried = [None, cost]  # the last pose a secondary step tried, and its cost

    def keep(new, e):
        angle = problem.orientation_error(new)
        if problem.error(new) > slack or (angle is not None and angle > slack_angle):
            return False
        tried[:] = new, total_cost(objectives, chain, new)
        return tried[1] < cost

    def ended(frames, cost):
        return SecondaryState(frames, cost, max(scale, WARM_LEAST))

    taken = 0
    while taken < budget:
        if scale <= MIN_SCALE:
            return met, taken, ended(met, cost)
        search.iteration += 1
        step = search.attempt(descent(objectives, chain, met), keep, scale, MAX_TURN, TRIES)
        if step is None:
            search.iteration -= 1
            return met, taken, ended(met, cost)
        taken += 1
        search.take(step.frames, step.residual, step.angles)
        errors.append(search.error)
        taken += back_to_target(search, budget - taken, errors)
        new = search.frames
        if not problem.met(new):
            new_cost = cost
        else:
            # (The pose the secondary step made, when no step back was needed: its cost is known.)
            new_cost = tried[1] if new is tried[0] else total_cost(objectives, chain, new)
        if not new_cost < cost * (1.0 - 1e-9):
            # Back on the target the cost did not fall (or the end did not get back): from the last pose
            # that met it again, a shorter step.
            search.take(met)
            scale = 0.25 * step.scale
            continue
        settled = cost - new_cost <= SETTLED * cost
        met, cost = new, new_cost
        scale = min(1.0, 2.0 * step.scale)
        if settled:
            return met, taken, ended(met, cost)
    return met, taken, ended(None, None)


def still(chain, objectives, known, frames):
    """Whether the secondary steps would find next to nothing at ``frames``: no joint turned by
    more than :data:`MOVED` from the pose where they last ended with nothing to gain (``known``, a
    :class:`SecondaryState`), and the objectives' cost there within :data:`STILL` of what it was."""
    least = cos(0.5 * MOVED)
    for (w, x, y, z), (a, b, c, d) in zip(frames.rotations, known.frames.rotations):
        if abs(w * a + x * b + y * c + z * d) < least:
            return False
    return abs(total_cost(objectives, chain, known.frames) - known.cost) <= STILL * known.cost


def back_to_target(search, budget, errors):
    """Plain task steps of ``search`` until its pose meets the target, at most :data:`RETURNS` and
    ``budget`` of them, each one's error onto ``errors``: the number taken."""
    problem = search.problem
    taken = 0
    while not problem.met(search.frames) and taken < min(budget, RETURNS):
        F = search.F
        search.iteration += 1
        step = search.attempt(None, lambda new, e: sum(v * v for v in e) < F)
        if step is None:
            search.iteration -= 1
            break
        taken += 1
        search.take(step.frames, step.residual, step.angles)
        errors.append(search.error)
    return taken
