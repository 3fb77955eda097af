"""The Jacobian transpose: gradient steps on the squared error.

``dtheta = alpha J^T e`` follows the steepest descent of ``|e|^2 / 2`` and needs no
linear solve. By default ``alpha`` is the step that minimises the linearised error
along that direction (Buss)::

    alpha = <e, J J^T e> / <J J^T e, J J^T e>

recomputed every iteration; a fixed ``alpha`` may be given instead. As for the
other Jacobian methods a step is bounded, accepted only when it lowers the error
(else halved) and followed by the joint limits (:mod:`ikcore.solvers._jacobian`).
Cheap per iteration but slow to converge on ill-conditioned poses: expect many
more iterations than :mod:`~ikcore.solvers.dls`.

Options
-------
alpha : float > 0 or None
    Fixed step factor, in ``1 / length^2`` (default None: the adaptive step).
"""

from ..checks import check_positive
from . import _jacobian

OPTIONS = {"alpha": (None, check_positive)}
MAX_ITERATIONS = 1000


def run(problem):
    """Solve ``problem`` with Jacobian-transpose steps."""
    return _jacobian.iterate(problem, "transpose", alpha=problem.options["alpha"])
