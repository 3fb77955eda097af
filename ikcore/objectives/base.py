"""The base of the secondary objectives (:mod:`ikcore.objectives`)."""

from ..checks import check_float
from ..errors import IKError


class Objective:
    """A secondary objective: a cost a redundant chain lowers in the null space of its task.

    Subclasses give :meth:`cost`, :meth:`gradient` and :meth:`measure`; the
    solvers step along ``-weight * gradient`` (summed over the objectives) and
    keep a step only when the weighted costs fall.

    Examples
    --------
    >>> import ikcore
    >>> sorted(cls.__name__ for cls in ikcore.Objective.__subclasses__())
    ['AvoidSphere', 'AwayFromLimits', 'TowardRest']
    """

    weight = 1.0

    def cost(self, chain, frames):
        """What the objective lowers, for the pose ``frames`` of ``chain`` (a float >= 0)."""
        raise NotImplementedError

    def gradient(self, chain, frames):
        """Per joint ``j``, the world vector ``g_j`` such that turning joint ``j`` by a small world
        rotation vector ``w`` changes :meth:`cost` by ``g_j . w`` (``None`` where it does not)."""
        raise NotImplementedError

    def measure(self, chain, frames):
        """The objective's own measure of the pose, the figure it improves (see each objective)."""
        raise NotImplementedError


def check_weight(value, name="weight"):
    """``value`` as a finite float >= 0."""
    value = check_float(value, name)
    if value < 0.0:
        raise IKError(f"{name} must be >= 0, got {value!r}")
    return value
