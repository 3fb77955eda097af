"""Secondary objectives: what a redundant chain does with the freedom its target leaves.

A chain with more joint axes than its task has rows (7 axes for a 6-D target,
4 or more for a 3-D one) reaches the target in many poses. The Jacobian methods
(:mod:`ikcore.solvers.jacobian`) spend that freedom on the objectives given as
``secondary=[...]``: once the target is met, each step follows the objectives'
descent within the null space of the task, so the target stays met
(:mod:`ikcore.solvers.jacobian.secondary`). The objectives:

- :class:`~.toward_rest.TowardRest`: the rest pose (joint angles near zero);
- :class:`~.away_from_limits.AwayFromLimits`: every limited joint away from
  the ends of its ranges;
- :class:`~.avoid_sphere.AvoidSphere`: every bone clear of a sphere.

An objective has a ``weight`` (the gain of its descent), a :meth:`~Objective.cost`
that it lowers, its :meth:`~Objective.gradient` and its own
:meth:`~Objective.measure` (what it improves, as a reader would judge it).
Poses are :class:`~ikcore.kinematics.Frames` in the chain's own frame.
"""

from ..errors import IKError
from .avoid_sphere import AvoidSphere
from .away_from_limits import AwayFromLimits
from .base import Objective, check_weight
from .toward_rest import TowardRest

__all__ = ["AvoidSphere", "AwayFromLimits", "Objective", "TowardRest", "check_objectives", "check_weight",
           "descent", "total_cost"]


def check_objectives(value):
    """``value`` as a tuple of objectives; an :class:`IKError` for anything else."""
    try:
        items = tuple(value)
    except TypeError:
        raise IKError(f"secondary must be a list of objectives, got {value!r}") from None
    for i, item in enumerate(items):
        if not isinstance(item, Objective):
            raise IKError(f"secondary[{i}] must be an objective (TowardRest, AwayFromLimits, AvoidSphere), "
                          f"got {item!r}")
    return items


def descent(objectives, chain, frames):
    """Per joint, the world vector the objectives' weighted costs fall fastest along,
    ``-sum_o weight_o * gradient_o`` (``None`` where no objective moves)."""
    out = [None] * chain.size
    for objective in objectives:
        k = -objective.weight
        if k == 0.0:
            continue
        for j, g in enumerate(objective.gradient(chain, frames)):
            if g is None:
                continue
            d = out[j]
            out[j] = (k * g[0], k * g[1], k * g[2]) if d is None else (d[0] + k * g[0], d[1] + k * g[1],
                                                                      d[2] + k * g[2])
    return out


def total_cost(objectives, chain, frames):
    """``sum_o weight_o * cost_o``: what the secondary steps lower."""
    return sum(o.weight * o.cost(chain, frames) for o in objectives if o.weight)
