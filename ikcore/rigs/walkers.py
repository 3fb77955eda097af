"""Where a crowd's walkers go: each its own wandering path over the ground, at its own pace.

Every walker heads for a destination of its own, turning towards it at
``TURN_RATE`` at most and walking at its own speed, slowed while it faces away
(by the cosine of the angle still to turn, nothing while that is over 90
degrees). It holds back, as the spider does, while its planted feet pull its
legs round towards their limits: with ``strain`` the largest coxa yaw its legs
were asked for in the last frame, it turns and walks at ``leash`` times its
pace, ``leash = clamp((LIMIT - strain) / SLACK, 0, 1)``, and waits (its gait
still stepping) until its next steps have brought its feet round. Near its
destination it picks a new one, anywhere on the square it wanders over: the
walkers never stop while the scene runs, and their paths
cross the whole ground, each differently. Headings follow the spider's
convention: heading ``h`` faces ``(cos h, -sin h)`` in ``(x, z)``.

The state is a structure of arrays: one flat list per quantity, one entry per
walker, laid out when the crowd's size changes, never per frame.
"""

import math
import random

from ..rotation import wrap_angle
from .spider import YAW_RANGE

#: Radians per second a walker turns at most.
TURN_RATE = 0.9
#: How near (units) a walker comes to its destination before it picks the next one.
ARRIVE = 1.0
#: Each walker's pace: the crowd's speed times a factor drawn from this range.
PACE = (0.7, 1.3)
#: A walker stops when a leg's coxa is asked to turn this far (radians: the spider's yaw range less
#: 5 degrees), and slows down from SLACK before.
LIMIT = YAW_RANGE - math.radians(5.0)
SLACK = math.radians(20.0)


class Walkers:
    """``count`` walkers wandering over the square ``[-room, room]^2``.

    Attributes
    ----------
    x, z, heading : list of float
        Where each walker is and where it faces.
    speed : list of float
        How fast it walked in the last step (units per second, along its heading).
    left : list of float
        The angle it has still to turn towards its destination (radians, into
        ``(-pi, pi]``): with the speed, what the gait plans steps with.
    pace : list of float
        Its own speed factor (:data:`PACE`).
    """

    def __init__(self, room, seed):
        self.room = room
        self.rng = random.Random(seed)
        self.count = 0
        self.x, self.z, self.heading, self.pace = [], [], [], []
        self.speed, self.left, self.goal_x, self.goal_z = [], [], [], []

    def resize(self, count, places):
        """Keep the first ``count`` walkers (those already walking carry on), adding new ones at
        ``places[k] = (x, z, heading)`` for walker ``k``."""
        rng = self.rng
        columns = (self.x, self.z, self.heading, self.pace, self.speed, self.left, self.goal_x, self.goal_z)
        for column in columns:
            del column[count:]
        for k in range(self.count, count):
            x, z, heading = places[k]
            gx, gz = self._pick()
            for column, value in zip(columns, (x, z, heading, rng.uniform(*PACE), 0.0, 0.0, gx, gz)):
                column.append(value)
        self.count = count

    def _pick(self):
        m = self.room
        return self.rng.uniform(-m, m), self.rng.uniform(-m, m)

    def advance(self, dt, speed, strain):
        """Turn and walk every walker for ``dt`` seconds at ``speed`` (units per second) times its pace,
        held back by its legs' ``strain`` (radians, per walker: see the module docstring)."""
        xs, zs, headings, paces = self.x, self.z, self.heading, self.pace
        speeds, lefts, gxs, gzs = self.speed, self.left, self.goal_x, self.goal_z
        for k in range(self.count):
            x, z = xs[k], zs[k]
            dx, dz = gxs[k] - x, gzs[k] - z
            if dx * dx + dz * dz < ARRIVE * ARRIVE:
                gxs[k], gzs[k] = self._pick()
                dx, dz = gxs[k] - x, gzs[k] - z
            # The angle still to turn, into (-pi, pi], and this step's share of it.
            err = wrap_angle(math.atan2(-dz, dx) - headings[k])
            leash = min(1.0, max(0.0, (LIMIT - strain[k]) / SLACK))
            most = TURN_RATE * leash * dt
            step = most if err > most else -most if err < -most else err
            heading = headings[k] = wrap_angle(headings[k] + step)
            left = lefts[k] = err - step
            v = speeds[k] = speed * paces[k] * leash * max(0.0, math.cos(left))
            xs[k] = x + v * math.cos(heading) * dt
            zs[k] = z - v * math.sin(heading) * dt

    def halt(self):
        """Stand still: no speed, no turn (the gait's steps then land where the feet rest)."""
        speeds, lefts = self.speed, self.left
        for k in range(self.count):
            speeds[k] = lefts[k] = 0.0
