"""The Jacobian pseudo-inverse (Gauss-Newton) for position, and position + orientation targets.

Each iteration takes the least-norm step that zeroes the linearised error::

    dtheta = J^+ e = J^T (J J^T)^-1 e

solved as an ``m x m`` system (``m`` = 3, or 6 with an orientation). Near a
singularity ``J J^T`` is nearly singular and ``J^+ e`` huge; the step is then
bounded (no joint turns more than :data:`~ikcore.solvers._jacobian.MAX_STEP`),
and a step that does not lower the error is retried damped, Levenberg-Marquardt
fashion (``(J J^T + lambda^2 I)^-1`` with ``lambda`` from ``1e-3 x reach``, 16 times
``lambda^2`` per retry); each accepted step halves ``lambda`` back towards zero.
So the undamped step is taken wherever it works, and damping only where it must.
Jacobian, safeguards and the ``rest_weight`` null-space motion (``(I - J^+ J) z``):
:mod:`ikcore.solvers._jacobian`.

Options
-------
rest_weight : float in [0, 1]
    Gain of the secondary motion that lowers the sum of squared joint angles in
    the null space of the task (default 0: off).
"""

from . import _jacobian

OPTIONS = {"rest_weight": (0.0, _jacobian.check_fraction)}
MAX_ITERATIONS = 200


def run(problem):
    """Solve ``problem`` with pseudo-inverse steps."""
    return _jacobian.iterate(problem, "inverse", adaptive=True, rest_weight=problem.options["rest_weight"])
