"""Where the humanoid stands, and how it walks there.

The character reaches for the knob from a spot in front of the door: its right
shoulder ``STAND_OFF`` behind the knob along the door's facing, the body
facing the door (:func:`stand_spot`). When it stands farther than ``START``
from that spot, or turned more than ``TURN_START`` from the door's facing,
the knob is beyond what bending reaches and it walks: the body moves toward the
spot (facing where it goes on the way, then the door), and the feet step with
the walkers' :class:`~ikcore.rigs.gait.Gait`, one foot at a time (two groups
of one: a foot lifts, swings and lands on the ground, then the other). Planted
feet stay where they landed; the body holds back while a planted foot lags far
behind its rest spot (the leash), so it never outruns its legs. It stops
within ``ARRIVE`` of the spot and ``TURN_ARRIVE`` of the facing.
"""

import math

from .. import rotation as rot
from .gait import Gait
from .humanoid_rig import SHOULDER, facing

#: The right shoulder stands this far behind the knob (horizontally, along the door's facing).
STAND_OFF = 0.36
#: Walk when the spot is farther than this, or the heading off by more (radians); stop within the
#: ARRIVE ones.
START, TURN_START = 0.22, 0.35
ARRIVE, TURN_ARRIVE = 0.02, 0.03
#: Farther than this from the spot, the body faces where it walks.
FACE_WALK = 0.8
SPEED = 0.65  # metres per second at most
#: The body turns at most this far (radians) from a planted foot's heading.
TWIST = math.radians(25.0)
TURN_RATE = 1.6  # radians per second
#: Feet's rest spots: this far either side of the body's centre line.
STANCE = 0.10
STRIDE, STEP_TIME, LIFT = 0.16, 0.42, 0.09


def stand_spot(knob, door_heading):
    """The body's spot ``(x, z)`` to reach ``knob`` with the right hand, facing ``door_heading``."""
    fx, fz = facing(door_heading)
    # The right side is the facing turned a quarter turn clockwise seen from above: -x at heading 0.
    rx, rz = -fz, fx
    side = SHOULDER[0]
    return (knob[0] - STAND_OFF * fx - side * rx, knob[2] - STAND_OFF * fz - side * rz)


class Walker:
    """The body's horizontal place and heading, and the feet under it.

    Parameters
    ----------
    terrain : Terrain
    position : (x, z)
    heading : float
        Radians about +Y, 0 facing +Z.
    """

    def __init__(self, terrain, position, heading):
        self.terrain = terrain
        self.position = [float(position[0]), float(position[1])]
        self.heading = float(heading)
        self.velocity = (0.0, 0.0)
        self.walking = False
        self.gait = Gait(terrain, [0, 1], self.rest_spots(), stride=STRIDE, duration=STEP_TIME, lift=LIFT)

    def rest_spots(self):
        """Each foot's rest spot now, ``(x, z)``: left, right."""
        x, z = self.position
        fx, fz = facing(self.heading)
        # The left side: (fz, -fx).
        lx, lz = fz * STANCE, -fx * STANCE
        return [(x + lx, z + lz), (x - lx, z - lz)]

    @property
    def stepping(self):
        """Whether a foot is in the air."""
        return any(foot.stepping for foot in self.gait.feet)

    def update(self, dt, spot, heading, limit, planted=()):
        """Walk toward ``spot`` ``(x, z)`` to face ``heading`` (clamped to ``+-limit`` on both axes),
        then step the feet. ``planted``: the headings of the feet on the ground, which the body turns
        no farther than ``TWIST`` from (the hips and ankles turn no farther)."""
        x0, z0 = self.position
        sx = min(limit, max(-limit, spot[0]))
        sz = min(limit, max(-limit, spot[1]))
        dx, dz = sx - x0, sz - z0
        dist = math.hypot(dx, dz)
        off = rot.wrap_angle(heading - self.heading)
        if self.walking:
            self.walking = dist > ARRIVE or abs(off) > TURN_ARRIVE
        else:
            self.walking = dist > START or abs(off) > TURN_START
        vx = vz = 0.0
        if self.walking and dt > 0.0:
            want = math.atan2(dx, dz) if dist > FACE_WALK else heading
            turn = TURN_RATE * self._leash() * dt
            new = rot.wrap_angle(self.heading + max(-turn, min(turn, rot.wrap_angle(want - self.heading))))
            for foot in planted:
                off = rot.wrap_angle(new - foot)
                if abs(off) > TWIST:
                    new = rot.wrap_angle(foot + math.copysign(TWIST, off))
            self.heading = new
            speed = min(SPEED * self._leash(), dist / dt, 2.0 * dist + 0.1)
            if dist > 1e-12:
                vx, vz = speed * dx / dist, speed * dz / dist
                self.position[0] = x0 + vx * dt
                self.position[1] = z0 + vz * dt
        self.velocity = (vx, vz)
        self.gait.update(dt, self.rest_spots(), self.velocity)

    def _leash(self):
        # 1 while every planted foot stays within a stride of its rest spot, down to 0 at 1.6 strides.
        strain = 0.0
        for foot, (rx, rz) in zip(self.gait.feet, self.rest_spots()):
            if not foot.stepping:
                p = foot.position
                strain = max(strain, math.hypot(p[0] - rx, p[2] - rz))
        return min(1.0, max(0.0, (1.6 * STRIDE - strain) / (0.6 * STRIDE)))
