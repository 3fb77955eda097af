"""Where a walker's feet go: planted on the ground, or stepping along an arc.

Each foot has a rest spot that moves with the body. A planted foot stays where
it landed (on the terrain) until it strays farther than ``stride`` from its
rest spot; then it steps to a spot ahead of the rest spot (ahead along the
body's velocity, so the next stray starts behind it), along an arc::

    s in [0, 1], e = s^2 (3 - 2 s)    (eased: starts and lands gently)
    xz(s) = lerp(start.xz, land.xz, e)
    y(s)  = max(lerp(start.y, land.y, e), ground(xz(s))) + lift sin(pi s)

Feet are split into groups that step in turns (for eight legs, two groups of
four in a tetrapod pattern): a group may start only while no foot of the
other groups is in the air, so the body always stands on the planted group.
"""

import math


class Foot:
    """One foot: planted at ``position``, or stepping from ``start`` to ``land``."""

    __slots__ = ("group", "position", "start", "land", "phase", "stepping")

    def __init__(self, group, position):
        self.group = group
        self.position = position
        self.start = position
        self.land = position
        self.phase = 0.0
        self.stepping = False

    @property
    def planted(self):
        return not self.stepping

    @property
    def ground(self):
        """Where the foot stands, or will stand once it lands."""
        return self.land if self.stepping else self.position


class Gait:
    """Steps feet in alternating groups over a terrain.

    Parameters
    ----------
    terrain : object with ``height(x, z)``
    groups : list of int
        Each foot's group.
    stride : float
        How far (horizontally) a planted foot may stray from its rest spot.
    duration : float
        Seconds per step.
    lift : float
        Height of the arc.
    """

    def __init__(self, terrain, groups, rest_spots, stride=0.3, duration=0.22, lift=0.18):
        self.terrain = terrain
        self.stride = stride
        self.duration = duration
        self.lift = lift
        self.feet = []
        for g, (x, z) in zip(groups, rest_spots):
            self.feet.append(Foot(g, (x, terrain.height(x, z), z)))
        self.groups = sorted(set(groups))
        self.last_group = None
        self.idle = 0.0
        self.steps = 0

    def update(self, dt, rest_spots, velocity):
        """Advance the steps in the air; start a group's steps when its feet stray.

        Parameters
        ----------
        rest_spots : list of (x, z)
            Each foot's rest spot now, in world coordinates.
        velocity : (vx, vz)
            The body's horizontal velocity (for landing ahead).
        """
        height = self.terrain.height
        rate = dt / self.duration
        lift = self.lift
        airborne = False
        for foot in self.feet:
            if not foot.stepping:
                continue
            foot.phase += rate
            if foot.phase >= 1.0:
                foot.stepping = False
                foot.position = foot.land
                continue
            airborne = True
            s = foot.phase
            e = s * s * (3.0 - 2.0 * s)
            (x0, y0, z0), (x1, y1, z1) = foot.start, foot.land
            x = x0 + (x1 - x0) * e
            z = z0 + (z1 - z0) * e
            y = max(y0 + (y1 - y0) * e, height(x, z)) + lift * math.sin(math.pi * s)
            foot.position = (x, y, z)
        if airborne:
            self.idle = 0.0
            return
        # How far each foot strays, and the most any foot of a group does (one pass, no comprehensions:
        # this runs on every frame with all feet down).
        strays = []
        worst = {}
        for foot, (rx, rz) in zip(self.feet, rest_spots):
            p = foot.position
            stray = math.hypot(p[0] - rx, p[2] - rz)
            strays.append(stray)
            if stray > worst.get(foot.group, 0.0):
                worst[foot.group] = stray
        group = self._due(worst, self.stride)
        if group is None:
            # Standing still: after a moment, tidy up feet left off their rest spots.
            self.idle += dt
            if self.idle > 0.4:
                group = self._due(worst, 0.25 * self.stride)
            if group is None:
                return
        self.last_group = group
        self.idle = 0.0
        vx, vz = velocity
        speed = math.hypot(vx, vz)
        # Land ahead of the rest spot by where it will be when the foot lands, plus half a stride.
        lead = self.duration + (0.5 * self.stride / speed if speed > 1e-9 else 0.0)
        for foot, rest, stray in zip(self.feet, rest_spots, strays):
            if foot.group != group or stray <= 0.1 * self.stride:
                continue
            x = rest[0] + vx * lead
            z = rest[1] + vz * lead
            foot.start = foot.position
            foot.land = (x, height(x, z), z)
            foot.phase = 0.0
            foot.stepping = True
            self.steps += 1

    def _due(self, worst, limit):
        """The group to step among those whose worst stray exceeds ``limit``, or ``None``.

        Groups take turns: one other than the group that stepped last comes first.
        """
        first = None
        for g in self.groups:
            if worst.get(g, 0.0) > limit:
                if g != self.last_group:
                    return g
                if first is None:
                    first = g
        return first
