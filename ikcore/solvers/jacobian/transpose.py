"""The Jacobian transpose: gradient steps on the squared error.

``w = alpha J^T e`` follows the steepest descent of ``|e|^2 / 2`` and needs no
linear solve. By default ``alpha`` is the step that minimises the linearised error
along that direction (Buss)::

    alpha = <e, J J^T e> / <J J^T e, J J^T e>

recomputed every iteration; a fixed ``alpha`` may be given instead. A refused step
is halved. Cheap per iteration but slow to converge on ill-conditioned poses:
expect many more iterations than :mod:`~.dls`. The loop and its safeguards:
:mod:`ikcore.solvers.jacobian`.

Options
-------
alpha : float > 0 or None
    Fixed step factor, in ``1 / length^2`` (default None: the step above).
"""

from ...checks import check_positive
from . import StepRule, _plus
from . import run as run_jacobian

OPTIONS = {"alpha": (None, check_positive)}
MAX_ITERATIONS = 1000
#: The stall watch's window (:func:`~ikcore.solvers.restarts.watch_settings`): a restart from a pose
#: scattered over the ranges needs ten iterations to show that it beats the best pose so far.
WINDOW = 10
#: A pace that would not meet the tolerance within this many more iterations is a crawl: the
#: whole default budget.
HORIZON = MAX_ITERATIONS
ORIENTATION = POLE = SECONDARY = True
#: It moves sliders (:class:`~ikcore.Slider`): see :mod:`.joints`.
SLIDERS = True
#: It takes an axis mask (:mod:`ikcore.mask`).
MASK = True


class Transpose(StepRule):
    """``w = alpha J^T e`` (and, with secondary objectives, their descent in the null space)."""

    #: Any gain is one: it crawls by nature.
    least_gain = 0.0

    def __init__(self, reach, alpha):
        super().__init__(reach)
        self.fixed = alpha

    def step(self, jac, e, descent):
        g = jac.transpose(e)
        alpha = self.fixed
        if alpha is None:
            jg = jac.apply(g)
            jj = sum(v * v for v in jg)
            alpha = sum(a * b for a, b in zip(e, jg)) / jj if jj > 0.0 else 0.0
        self.alpha = alpha
        turns = [None if w is None else (alpha * w[0], alpha * w[1], alpha * w[2]) for w in g]
        if descent is not None:
            # The descent moved into the null space: z - J^T (J J^T + lam^2)^-1 J z, lightly damped.
            projected, _ = self.with_secondary(jac, [0.0] * len(e), descent, 1e-6 * self.reach)
            turns = [_plus(t, v) for t, v in zip(turns, projected)]
        return turns


def run(problem, steps=None):
    """Solve ``problem`` with Jacobian-transpose steps."""
    return run_jacobian(problem, Transpose(problem.chain.reach, problem.options["alpha"]), steps)
