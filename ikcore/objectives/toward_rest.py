"""TowardRest: a pose near the rest pose."""

import math

from .. import rotation as rot
from ..rotation import rotate
from .base import Objective, check_weight


class TowardRest(Objective):
    """Keeps the pose near the rest pose: the cost, and the measure, is ``sum_j theta_j^2``, each
    joint's rotation angle squared (a plain sum of angles could rise while this falls).

    Turning joint ``j`` by a small world rotation vector ``w`` changes its
    rotation vector ``v_j`` (``theta_j`` its length) by ``R_{j-1}^* w`` along
    ``v_j`` (the rotation vector is fixed by the Jacobian of the exponential),
    so the cost by ``2 (R_{j-1} v_j) . w``.

    ``TowardRest(weight)`` is what the Jacobian methods' ``rest_weight``
    option stands for.

    Examples
    --------
    >>> import ikcore
    >>> chain = ikcore.Chain([(0, 0, 0), (0, 1, 0), (0, 2, 0)])
    >>> rest = ikcore.TowardRest(0.1)
    >>> bent = ikcore.solve(chain, (1.0, 1.0, 0.0), method="dls", secondary=[rest])
    >>> rest.measure(chain, ikcore.kinematics.rest(chain))
    0.0
    >>> bent.status, round(rest.measure(chain, bent.frames), 3)
    ('converged', 2.467)
    """

    def __init__(self, weight: float = 1.0) -> None:
        self.weight = check_weight(weight)

    def __repr__(self):
        return f"TowardRest(weight={self.weight!r})"

    def cost(self, chain, frames):
        return sum(rot.angle(q) ** 2 for q in frames.rotations)

    measure = cost

    def gradient(self, chain, frames):
        out = []
        for j, q in enumerate(frames.rotations):
            w, x, y, z = q if q[0] >= 0.0 else (-q[0], -q[1], -q[2], -q[3])
            s = math.sqrt(x * x + y * y + z * z)
            k = 4.0 * math.atan2(s, w) / s if s > 0.0 else 0.0
            v = (k * x, k * y, k * z)  # twice the rotation vector
            out.append(rotate(frames.worlds[j - 1], v) if j else v)
        return out
