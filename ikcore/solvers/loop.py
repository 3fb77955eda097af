"""The iteration loop that CCD, FABRIK and the Jacobian methods share.

Each iterative method describes one iteration of its algorithm as a *search*
object, and :func:`iterate` runs it::

    repeat up to max_iterations times:
        search.step(k)                      # one iteration of the algorithm
        keep the pose if it is the best so far
        stop if it meets the target         # measured as the Solution's status is
        restart near the best pose if progress has stalled (give up when restarts stop paying)

A search has an ``error`` (the effector's distance to the target, as the
method measures it while iterating, kept in the error history), a ``score``
(what "best" means: the error, or with an orientation target the error and the
weighted angle together; a search that weighs no angle keeps it equal to the
error), ``stuck`` (True when its last step found no move at all: a stall at
once) and four methods:

``step(iteration)``
    One iteration of the algorithm; updates ``error`` and ``score``.
``keep()``
    A copy of the current pose, in whatever form the method works on.
``pose_of(kept)``
    The :class:`~ikcore.kinematics.Frames` of a kept pose (``None``: the
    problem's start), made unit, within the limits and through forward
    kinematics (:func:`ikcore.kinematics.pose_of`).
``restart(kept, rng)``
    Start again near a kept pose (``None``: the start); False when the method
    will not restart (then the solve is stalled).

"Met" is decided on the pose the search makes of its state (``pose_of``), by
:meth:`ikcore.problem.Problem.met`, the very test the Solution's status comes
from (:func:`ikcore.solution.solution_of`): a solve that stops because it met
the target is "converged", whatever rounding the method's own bookkeeping
carries.
"""

import math

from ..problem import Outcome
from .restarts import StallWatch, generator, watch_settings


class Search:
    """The base of a method's search: the default of the protocol above (no stall at once). A
    method's search sets ``error`` and ``score`` and gives ``step``, ``keep``, ``pose_of`` and
    ``restart``; ``slowed`` True ends the loop as stalled (a method that hands over to another
    once its own steps slow down: :mod:`~.handover`)."""

    stuck = False
    slowed = False

    def keep(self):
        """The current pose, for a search that holds it as read-only Frames in ``frames``."""
        return self.frames

    def pose_of(self, kept):
        """A kept pose that is Frames already; ``None``: the problem's start."""
        return self.problem.start if kept is None else kept


def at_nearest(frames, nearest, tolerance):
    """Whether the effector of ``frames`` lies within ``tolerance`` of the point ``nearest`` (see
    :attr:`~ikcore.problem.Problem.nearest`)."""
    return math.dist(frames.points[-1], nearest) <= tolerance


def stall_watch(problem, search, rate=0.01, patience=10):
    """The :class:`~.restarts.StallWatch` of ``search`` for ``problem``, from its score now (its
    window and horizon from :func:`~.restarts.watch_settings`)."""
    window, horizon = watch_settings(problem)
    return StallWatch(search.score, problem.tolerance, window, rate, patience, horizon)


def iterate(problem, search, *, rate=0.01, patience=10, max_restarts=None, budget=None, errors=None,
            start_score=None, done=0, watch=None):
    """Run ``search`` (see the module docstring) for ``problem``.

    ``rate`` and ``patience`` tune the :class:`~.restarts.StallWatch` (its window
    and horizon come from :func:`~.restarts.watch_settings`);
    ``max_restarts`` caps the restarts (``None``: no cap). ``budget`` is the
    number of iterations (default ``problem.max_iterations``); ``errors`` an
    error history to go on from (default: the start's error alone);
    ``start_score`` the start's score (default its error); ``done`` the iterations the solve
    made before this loop (the search numbers its steps on from them); ``watch`` a stall watch
    to go on with (default: a new one, :func:`stall_watch`).
    """
    budget = problem.max_iterations if budget is None else budget
    errors = [problem.start_error] if errors is None else errors
    goal = problem.tolerance
    # Out of reach, an effector within the tolerance of the nearest point the chain could reach is as
    # good as the target allows: the solve ends there (unreachable) rather than crawling on to the
    # stall watch, and a tracked chain already there stays still.
    nearest = problem.nearest
    floor = 0.0 if nearest is None else math.dist(nearest, problem.target)
    if problem.start_met or (nearest is not None and at_nearest(problem.start, nearest, goal)):
        return Outcome(problem.start, 0, errors, False, None, True)  # not stalled, met
    best, kept = errors[-1] if start_score is None else start_score, None
    watch = stall_watch(problem, search, rate, patience) if watch is None else watch
    goal = watch.goal
    rng = None
    restarts = 0
    iterations = 0
    stalled = False
    while iterations < budget:
        iterations += 1
        search.step(done + iterations)
        error, score = search.error, search.score
        errors.append(error)
        if score < best:
            best, kept = score, search.keep()
            # (The effector lies at least error - floor from the nearest point.)
            if error - floor <= goal:
                frames = search.pose_of(kept)
                if problem.met(frames) or (nearest is not None and at_nearest(frames, nearest, goal)):
                    return Outcome(frames, iterations, errors, False, None, True)  # not stalled, met
                if error <= goal:
                    # Rounding between the method's measure and the pose made of it left it just out: aim lower.
                    goal = watch.goal = 0.5 * error
        if watch.update(score, search.stuck):
            if watch.hopeless or restarts == max_restarts:
                stalled = True
                break
            rng = rng or generator()
            if not search.restart(kept, rng):
                stalled = True
                break
            restarts += 1
        elif search.slowed:
            stalled = True
            break
    return Outcome(search.pose_of(kept), iterations, errors, stalled)
