"""Secondary objectives: what a redundant chain does with the freedom its target leaves.

A chain with more joint axes than its task has rows (7 axes for a 6-D target,
4 or more for a 3-D one) reaches the target in many poses. The Jacobian methods
(:mod:`ikcore.solvers.jacobian`) spend that freedom on the objectives given as
``secondary=[...]``: once the target is met, each step follows the objectives'
descent within the null space of the task, so the target stays met.

An objective has a ``weight`` (the gain of its descent), a :meth:`~Objective.cost`
that it lowers, and a :meth:`~Objective.descent`: per Jacobian column (a joint
axis ``a`` of joint ``j``), ``-weight d cost / d theta``, the rate the cost falls
as joint ``j`` turns about ``a``.
"""

import math

from . import rotation as rot
from .checks import check_float
from .errors import IKError
from .kinematics import turn


class Objective:
    """Base of the secondary objectives (see the module docstring)."""

    weight = 1.0

    def cost(self, chain, frames):
        """What the objective lowers, for the pose ``frames`` of ``chain``."""
        raise NotImplementedError

    def descent(self, chain, frames, owners, axes):
        """Per Jacobian column (joint ``owners[k]``, world axis ``axes[k]``), ``-weight`` times the
        derivative of :meth:`cost` as that joint turns about that axis."""
        raise NotImplementedError


def check_weight(value, name="weight"):
    """``value`` as a finite float >= 0."""
    value = check_float(value, name)
    if value < 0.0:
        raise IKError(f"{name} must be >= 0, got {value!r}")
    return value


class TowardRest(Objective):
    """Keeps the pose near the rest pose: the cost is ``sum_j theta_j^2``, each joint's rotation
    angle squared (a plain sum of angles could rise while this falls).

    Turning joint ``j`` by ``d`` about the world axis ``a`` changes its rotation
    vector ``v_j`` (``theta_j`` its length) by about ``d R_{j-1}^* a``, so the
    cost by ``2 d (R_{j-1} v_j) . a``.
    """

    def __init__(self, weight=1.0):
        self.weight = check_weight(weight)

    def __repr__(self):
        return f"TowardRest(weight={self.weight!r})"

    def cost(self, chain, frames):
        return sum(rot.angle(q) ** 2 for q in frames.rotations)

    def descent(self, chain, frames, owners, axes):
        vectors = []
        for j, q in enumerate(frames.rotations):
            w, x, y, z = q if q[0] >= 0.0 else tuple(-c for c in q)
            s = math.sqrt(x * x + y * y + z * z)
            k = 2.0 * math.atan2(s, w) / s if s > 0.0 else 0.0
            v = (k * x, k * y, k * z)
            vectors.append(turn(frames.worlds[j - 1], v) if j else v)
        return [-2.0 * self.weight * sum(a * b for a, b in zip(vectors[j], axis)) for j, axis in zip(owners, axes)]


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
