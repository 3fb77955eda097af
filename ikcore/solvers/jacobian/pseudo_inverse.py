"""The Jacobian pseudo-inverse (Gauss-Newton) for position, and position + orientation targets.

Each iteration takes the least-norm step that zeroes the linearised error::

    w = J^+ e = J^T (J J^T)^-1 e

solved as an ``m x m`` system (``m`` = 3, or 6 with an orientation), with just
enough damping (``1e-9`` of the reach) to keep it defined. Near a singularity
``J^+ e`` is huge: the step is then bounded (no joint turns more than
:data:`~ikcore.solvers.jacobian.MAX_STEP`), and a refused step is tried again
damped, Levenberg-Marquardt fashion (``lambda`` from ``1e-3`` of the reach, four
times larger a refusal); each kept step halves ``lambda`` back toward zero. So
the undamped step is taken wherever it works, and damping only where it must.
The loop, its safeguards and secondary objectives: :mod:`ikcore.solvers.jacobian`.

Options
-------
rest_weight : float in [0, 1]
    Short for the secondary objective ``TowardRest(rest_weight)``
    (:mod:`ikcore.objectives`; default 0: none).
"""

from ...checks import check_fraction
from . import run as run_jacobian
from .dls import Damped

OPTIONS = {"rest_weight": (0.0, check_fraction)}
MAX_ITERATIONS = 200
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


def run(problem, steps=None):
    """Solve ``problem`` with pseudo-inverse steps."""
    reach = problem.chain.reach
    return run_jacobian(problem, Damped(reach, 1e-9 * reach, 1e-9 * reach, True), steps)
