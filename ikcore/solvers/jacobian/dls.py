"""Damped least squares (Levenberg-Marquardt) for position, and position + orientation targets.

Each iteration solves the ``m x m`` system (``m`` = 3, or 6 with an orientation)::

    (J J^T + lambda^2 I) y = e,        w = J^T y

(Wampler; Nakamura and Hanafusa). The damping ``lambda`` bounds the step where
``J`` loses rank: along a singular direction the step is ``sigma / (sigma^2 +
lambda^2)`` instead of ``1 / sigma``. With ``adaptive`` (default) a refused step
is tried again with ``lambda`` four times larger, and each kept step halves it
(not below ``damping / 100``), so damping is high exactly near singularities
and low where the Jacobian is well conditioned. Without ``adaptive``,
``lambda`` stays fixed and a refused step is halved. The loop, its safeguards
and secondary objectives: :mod:`ikcore.solvers.jacobian`. The step written
with the matrix ``J``, ``J J^T + lambda^2 I`` and a Cholesky solve:
:mod:`.textbook` (the solvers run the same products per joint in closed form,
:class:`~.joints.JointJacobian`, and the solve unrolled, :mod:`.linalg`).

Options
-------
damping : float > 0
    ``lambda`` as a fraction of the chain's reach (default 0.03).
adaptive : bool
    Adapt ``lambda`` as above (default True).
rest_weight : float in [0, 1]
    Short for the secondary objective ``TowardRest(rest_weight)``
    (:mod:`ikcore.objectives`; default 0: none).
"""

from ...checks import check_bool, check_fraction, check_positive
from . import StepRule
from . import run as run_jacobian

OPTIONS = {
    "damping": (0.03, check_positive),
    "adaptive": (True, check_bool),
    "rest_weight": (0.0, check_fraction),
}
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


class Damped(StepRule):
    """``w = J^T (J J^T + lambda^2 I)^-1 e``, ``lambda`` from ``low`` (after a kept step, halved
    down to it) to as much as a refused step needs (``adaptive``: four times more a refusal)."""

    def __init__(self, reach, start, low, adaptive):
        super().__init__(reach)
        self.start, self.low, self.adaptive = start, low, adaptive
        self.damping = start

    def step(self, jac, e, descent):
        turns, self.damping = self.with_secondary(jac, e, descent, self.damping)
        return turns

    def refused(self):
        if not self.adaptive:
            return False
        self.damping = max(4.0 * self.damping, 1e-3 * self.reach)
        return True

    def accepted(self):
        if self.adaptive:
            self.damping = max(0.5 * self.damping, self.low)

    def reset(self):
        self.damping = self.start

    def relax(self):
        self.damping = self.low


def default_rule(reach, damping=0.03, adaptive=True):
    """The rule of this method's options: ``damping`` a fraction of ``reach``."""
    damping *= reach
    return Damped(reach, damping, 0.01 * damping if adaptive else damping, adaptive)


def run(problem, steps=None):
    """Solve ``problem`` by damped least squares."""
    o = problem.options
    return run_jacobian(problem, default_rule(problem.chain.reach, o["damping"], o["adaptive"]), steps)
