"""Damped least squares (Levenberg-Marquardt) for position, and position + orientation targets.

Each iteration solves the ``m x m`` system (``m`` = 3, or 6 with an orientation)::

    (J J^T + lambda^2 I) y = e,        dtheta = J^T y

(Wampler; Nakamura and Hanafusa). The damping ``lambda`` bounds the step where
``J`` loses rank: along a singular direction the step is ``sigma / (sigma^2 +
lambda^2)`` instead of ``1 / sigma``. With ``adaptive`` (default) a step that
does not lower the error is retried with ``lambda^2`` sixteen times larger, and
each accepted step halves ``lambda`` again (not below ``damping / 100``), so
damping is high exactly near singularities and low where the Jacobian is well
conditioned. Without ``adaptive``, ``lambda`` stays fixed and rejected steps are
halved. Jacobian, safeguards and the ``rest_weight`` null-space motion:
:mod:`ikcore.solvers._jacobian`.

Options
-------
damping : float > 0
    ``lambda`` as a fraction of the chain's reach (default 0.03).
adaptive : bool
    Adapt ``lambda`` as above (default True).
rest_weight : float in [0, 1]
    Gain of the secondary motion that lowers the sum of squared joint angles in
    the null space of the task (default 0: off).
"""

from ..checks import check_positive
from . import _jacobian

OPTIONS = {
    "damping": (0.03, check_positive),
    "adaptive": (True, _jacobian.check_bool),
    "rest_weight": (0.0, _jacobian.check_fraction),
}
MAX_ITERATIONS = 200


def run(problem):
    """Solve ``problem`` by damped least squares."""
    o = problem.options
    return _jacobian.iterate(problem, "inverse", damping=o["damping"], adaptive=o["adaptive"],
                             rest_weight=o["rest_weight"])
