"""A crowd's feet: each walker steps on a clock of its own, its legs in two alternating groups.

Every walker carries a gait phase ``p`` in ``[0, 1)`` that advances at the step
frequency ``f`` (cycles a second). Each leg belongs to one of two groups (a
tetrapod: :data:`ikcore.rigs.spider.GROUPS`); group ``g`` sees the phase
``psi = p + g / 2 (mod 1)`` and its feet are in the air while ``psi <
SWING``, planted otherwise. So each foot spends ``SWING`` of a cycle in the
air, the groups take turns, and both stand together for a moment between turns:
a walker always stands on at least one group.

The frequency follows the walker's speed ``v``: a planted foot stays where it
landed while the body passes over it, ``v (1 - SWING) / f`` in a stance, and
the frequency keeps that at :data:`STRIDE` at most (within
``[F_MIN, F_MAX]``)::

    f = clamp(v (1 - SWING) / STRIDE, F_MIN, F_MAX)

**A step** starts when a group's phase enters the swing. Each of its feet is
sent to where its rest spot (fixed in the body frame) will be in the middle of
its next stance, ``lead = (1 + SWING) / (2 f)`` seconds ahead: the stance
then strays from the rest spot by half a stride either way. The walker will
have turned by what it has still to turn (``left``), at its turn rate at most
(``TURN_RATE lead``), and walked at its speed along the heading halfway
through that turn. The landing point is on the ground as drawn
(its height sampled there, once per step, not per frame), and so is the
point under the middle of the step, to clear a bump between the two. Then,
with ``s = psi / SWING`` the step's progress::

    e = s^2 (3 - 2 s)                              (eased: starts and lands gently)
    foot = lift + e travel + (0, 4 s (1 - s) arc, 0),    travel = land - lift
    arc  = LIFT min(1, |travel| / FULL_STEP) + max(0, clearance)

so a step that goes nowhere (a walker standing still) leaves its foot on the
ground. A step's travel and arc are worked out when it starts, once. When the
phase leaves the swing the foot is exactly on its landing point and stays there.

State: flat lists, per walker (``phase``) or per leg (``8 k + i`` for leg ``i``
of walker ``k``), laid out when the crowd's size changes.
"""

import math
import random

from .walkers import TURN_RATE

#: Share of a cycle each foot spends in the air.
SWING = 0.4
#: The most a body travels over a planted foot in one stance (units).
STRIDE = 0.5
#: Step frequencies (cycles a second): the slowest, while standing, and the fastest.
F_MIN, F_MAX = 1.1, 2.4
#: Height of a full step's arc, and the step length from which it is full.
LIFT, FULL_STEP = 0.16, 0.25


class PhaseGait:
    """The feet of a crowd of eight-legged walkers (see the module docstring).

    Parameters
    ----------
    rest : list of (x, z)
        Each leg's rest spot in the body frame (forward +x, right +z).
    groups : list of int
        Each leg's group, 0 or 1.
    ground : callable
        ``ground(x, z)``: the height feet land on.
    seed : int
        Chooses each walker's starting phase.

    Attributes
    ----------
    fx, fy, fz : list of float
        Each foot, in the world.
    land_x, land_y, land_z : list of float
        Where each foot stands, or will once it lands: its footing.
    swinging : list of bool
        Per walker and group (``2 k + g``): whether that group's feet are in the air.
    changed : list of int
        The walkers whose footing changed in the last :meth:`update` (a group lifted).
    """

    def __init__(self, rest, groups, ground, seed):
        self.rest = list(rest)
        self.legs = len(self.rest)
        self.group_legs = [[i for i, g in enumerate(groups) if g == group] for group in (0, 1)]
        self._groups = tuple(enumerate(self.group_legs))
        self.ground = ground
        self.rng = random.Random(seed)
        self.count = 0
        self.phase, self.swinging, self.changed = [], [], []
        self.fx, self.fy, self.fz = [], [], []
        self.lift_x, self.lift_y, self.lift_z = [], [], []
        self.travel_x, self.travel_y, self.travel_z = [], [], []
        self.land_x, self.land_y, self.land_z = [], [], []
        self.arc = []

    def resize(self, count, walkers):
        """Keep the first ``count`` walkers' feet; new walkers stand with every foot on its rest spot."""
        legs = self.legs
        feet = (self.fx, self.fy, self.fz, self.lift_x, self.lift_y, self.lift_z,
                self.travel_x, self.travel_y, self.travel_z, self.land_x, self.land_y, self.land_z, self.arc)
        for column in feet:
            del column[legs * count:]
        del self.phase[count:]
        del self.swinging[2 * count:]
        for k in range(self.count, count):
            self.phase.append(self.rng.random())
            self.swinging += [False, False]
            c, s = math.cos(walkers.heading[k]), math.sin(walkers.heading[k])
            for rx, rz in self.rest:
                x = walkers.x[k] + c * rx + s * rz
                z = walkers.z[k] - s * rx + c * rz
                y = self.ground(x, z)
                for column, value in zip(feet, (x, y, z, x, y, z, 0.0, 0.0, 0.0, x, y, z, 0.0)):
                    column.append(value)
        self.count = count
        self.changed.clear()

    def planted(self, k):
        """Whether foot ``k`` is on the ground."""
        i = k % self.legs
        return not self.swinging[2 * (k // self.legs) + (i not in self.group_legs[0])]

    def update(self, dt, walkers):
        """Advance every walker's phase by ``dt`` seconds; lift, carry and land its feet."""
        self.changed.clear()
        speeds = walkers.speed
        phases, swinging = self.phase, self.swinging
        legs = self.legs
        stance = (1.0 - SWING) / STRIDE
        for k in range(self.count):
            f = min(F_MAX, max(F_MIN, stance * speeds[k]))
            p = phases[k] + f * dt
            if p >= 1.0:
                p -= 1.0
            phases[k] = p
            for g, group in self._groups:
                # Group g's phase: half a cycle after group 0's.
                psi = p + 0.5 * g
                if psi >= 1.0:
                    psi -= 1.0
                j = 2 * k + g
                if psi < SWING:
                    if not swinging[j]:
                        swinging[j] = True
                        self._lift(k, group, f, walkers)
                    self._carry(legs * k, group, psi / SWING)
                elif swinging[j]:
                    swinging[j] = False
                    self._land(legs * k, group)

    def _lift(self, k, group, f, walkers):
        """Start the steps of walker ``k``'s ``group`` of legs (see the module docstring)."""
        lead = (1.0 + SWING) / (2.0 * f)
        most = TURN_RATE * lead
        turn = min(most, max(-most, walkers.left[k]))
        heading = walkers.heading[k] + 0.5 * turn
        travel = walkers.speed[k] * lead
        x0 = walkers.x[k] + travel * math.cos(heading)
        z0 = walkers.z[k] - travel * math.sin(heading)
        heading += 0.5 * turn
        c, s = math.cos(heading), math.sin(heading)
        ground = self.ground
        first = self.legs * k
        for i in group:
            n = first + i
            rx, rz = self.rest[i]
            x, z = x0 + c * rx + s * rz, z0 - s * rx + c * rz
            y = ground(x, z)
            ax, ay, az = self.lift_x[n], self.lift_y[n], self.lift_z[n] = self.fx[n], self.fy[n], self.fz[n]
            self.land_x[n], self.land_y[n], self.land_z[n] = x, y, z
            dx, dy, dz = self.travel_x[n], self.travel_y[n], self.travel_z[n] = x - ax, y - ay, z - az
            # The ground under the step's middle above the straight line between its ends: clear it.
            clearance = ground(0.5 * (ax + x), 0.5 * (az + z)) - 0.5 * (ay + y)
            self.arc[n] = LIFT * min(1.0, math.hypot(dx, dz) / FULL_STEP) + max(0.0, clearance)
        self.changed.append(k)

    def _carry(self, first, group, s):
        """Feet of ``group`` (legs from ``first``) at progress ``s`` of their steps."""
        e = s * s * (3.0 - 2.0 * s)
        up = 4.0 * s * (1.0 - s)
        ax, ay, az, dx, dy, dz = self.lift_x, self.lift_y, self.lift_z, self.travel_x, self.travel_y, self.travel_z
        fx, fy, fz, arc = self.fx, self.fy, self.fz, self.arc
        for i in group:
            n = first + i
            fx[n] = ax[n] + e * dx[n]
            fy[n] = ay[n] + e * dy[n] + up * arc[n]
            fz[n] = az[n] + e * dz[n]

    def _land(self, first, group):
        """Feet of ``group`` (legs from ``first``) on their landing points."""
        for i in group:
            n = first + i
            self.fx[n], self.fy[n], self.fz[n] = self.land_x[n], self.land_y[n], self.land_z[n]
