"""The Jacobian transpose: gradient steps on the squared error.

``dtheta = alpha J^T e`` follows the steepest descent of ``|e|^2 / 2`` and needs no
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
from . import Rule
from . import run as run_jacobian
from .linalg import apply, times

OPTIONS = {"alpha": (None, check_positive)}
MAX_ITERATIONS = 1000
ORIENTATION = POLE = SECONDARY = True


class Transpose(Rule):
    """``dtheta = alpha J^T e`` (and, with secondary objectives, their descent in the null space)."""

    def __init__(self, reach, alpha):
        super().__init__(reach)
        self.fixed = alpha

    def step(self, cols, e, z):
        g = times(cols, e)
        alpha = self.fixed
        if alpha is None:
            jg = apply(cols, g, len(e))
            jj = sum(v * v for v in jg)
            alpha = sum(a * b for a, b in zip(e, jg)) / jj if jj > 0.0 else 0.0
        self.alpha = alpha
        step = [alpha * v for v in g]
        if z is not None:
            # z moved into the null space: z - J^T (J J^T + lam^2)^-1 J z, lightly damped.
            projected, _ = self.with_secondary(cols, [0.0] * len(e), z, 1e-6 * self.reach)
            step = [s + v for s, v in zip(step, projected)]
        return step, None


def run(problem, steps=None):
    """Solve ``problem`` with Jacobian-transpose steps."""
    return run_jacobian(problem, Transpose(problem.chain.reach, problem.options["alpha"]), steps)
