"""Damped least squares finishing a geometric method that crawls.

CCD's sweeps and FABRIK's passes with joint frames slow down where a joint is
pinned on its limit, or near full reach where the chain is almost straight:
each step then moves the effector by less than the last, and the error falls
ever more slowly. Steps of damped least squares (:mod:`~.jacobian.dls`), which
move every joint at once toward the target, converge quadratically there.

So such a method's ``run`` reads::

    watch = stall_watch(problem, search)
    searched = iterate(problem, search, max_restarts=0, watch=watch)   # its own steps, to the first stall
    if searched.stalled:
        outcome = finish_with_dls(problem, searched, steps, watch)

:func:`finish_with_dls` goes on from the best pose for the iterations left of
the budget, the error history, the iteration count and the stall watch
running on; its own stalls restart the damped least squares steps
(:meth:`~.jacobian.JacobianSearch.restart`). The trace shows the hand-over as
a ``"handover"`` setup step, then the Jacobian steps.
"""

from ..problem import Outcome
from .jacobian import JacobianSearch
from .jacobian.dls import default_rule
from .loop import iterate


def finish_with_dls(problem, searched, steps, watch, max_restarts=None):
    """Damped least squares (:mod:`~.jacobian.dls`'s defaults) for ``problem`` from the best pose of
    ``searched`` (the geometric method's :class:`~ikcore.problem.Outcome`), for the iterations it
    left, going on with its stall ``watch``, with at most ``max_restarts`` restarts (``None``: no
    cap): an Outcome that counts the iterations and errors of both."""
    start = searched.frames
    finishing = problem.with_start(start)
    search = JacobianSearch(finishing, default_rule(problem.chain.reach), steps)
    if steps is not None:
        steps.setup(start.points, "handover")
    finish = iterate(finishing, search, budget=problem.max_iterations - searched.iterations,
                     errors=searched.errors, start_score=problem.score(start), max_restarts=max_restarts,
                     done=searched.iterations, watch=watch)
    return Outcome(finish.frames, searched.iterations + finish.iterations, finish.errors, finish.stalled,
                   met=finish.met)
