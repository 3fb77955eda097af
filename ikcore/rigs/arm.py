"""The reaching arm: shoulder, elbow, wrist, hand.

The arm hangs from a fixed pedestal node; its rest pose points along +x::

    shoulder (0, 1, 0) -- upper arm 0.55 -- elbow -- forearm 0.45 -- wrist -- hand 0.15 -- tip

Joints (limits in the parent bone's frame, see :mod:`ikcore.constraints`):

- shoulder: ball-and-socket, swing within a 100 degree cone, twist +-90 degrees;
- elbow: hinge about +z, 0 to 150 degrees (it bends one way only);
- wrist: ball-and-socket, 70 degree cone, twist +-80 degrees.

Targets: ``target`` (where the hand's tip goes, with the orientation the hand
takes under ``dls`` and ``fabrik_dls``) and ``pole`` (where the elbow points;
used by methods that take a bend hint). By default the target swings around
the shoulder between 0.7 and 0.9 of the reach (:class:`~ikcore.rigs.paths.Orbit`),
and its orientation is one the arm can take there: that of the natural pose
(elbow towards the pole, hand continuing the forearm; see
:func:`natural_hand`) with the wrist waving gently. Dragging a target pins it.

A target beyond reach leaves the arm pointing at it, and since every frame
starts from the previous frame's pose the arm holds still there.
"""

import math

from .. import rotation as rot
from ..transforms import from_columns
from ..constraints import BallSocket, Hinge
from ..skeleton import Skeleton
from .paths import Orbit
from .scene import Limb, Scene, Target, box, sampled

SHOULDER = (0.0, 1.0, 0.0)
UPPER, FOREARM, HAND = 0.55, 0.45, 0.15
ARM_POINTS = [SHOULDER, (UPPER, 1.0, 0.0), (UPPER + FOREARM, 1.0, 0.0), (UPPER + FOREARM + HAND, 1.0, 0.0)]
REACH = UPPER + FOREARM + HAND
#: Methods that take the target's orientation.
ORIENTING = ("dls", "fabrik_dls")


class ArmScene(Scene):
    """A three-joint arm reaching for a draggable, oriented target."""

    name = "arm"
    default_method = "dls"
    default_max_iterations = 10

    def __init__(self):
        super().__init__()
        self.skeleton = Skeleton()
        self.skeleton.add_node("pedestal")
        joints = [BallSocket(cone_deg=100.0, twist_min_deg=-90.0, twist_max_deg=90.0),
                  Hinge(axis=(0.0, 0.0, 1.0), min_deg=0.0, max_deg=150.0),
                  BallSocket(cone_deg=70.0, twist_min_deg=-80.0, twist_max_deg=80.0)]
        bound = self.skeleton.add_chain("arm", "pedestal", ARM_POINTS, joints,
                                        node_names=["shoulder", "elbow", "wrist", "hand"])
        # The pedestal is drawn as the arm's lead: from the pedestal node (the world's origin) to the shoulder.
        self.arm = self.add_limb(Limb(bound, [0.06, 0.05, 0.035], [0.08, 0.065, 0.05, 0.03], target="target",
                                      lead=0.09))
        self.path = Orbit(SHOULDER, r0=0.8 * REACH, r_amp=0.1 * REACH, r_freq=0.05, az0=0.1, az_amp=0.55,
                          az_freq=0.06, el0=0.05, el_amp=0.35, el_freq=0.09, el_phase=0.6)
        self.add_target(Target("target", self.path(0.0), orientation=rot.IDENTITY, path=self.path, radius=0.05))
        self.add_target(Target("pole", (0.45, 0.35, 0.35), radius=0.035))
        self._options = self.method_options(self.params["method"])

    def advance(self, dt):
        super().advance(dt)
        target = self.targets["target"]
        if not target.pinned:
            t = self.script_time
            wave = rot.multiply(rot.from_axis_angle((0.0, 0.0, 1.0), 0.3 * math.sin(0.5 * t)),
                                rot.from_axis_angle((0.0, 1.0, 0.0), 0.25 * math.sin(0.37 * t)))
            hand = natural_hand(target.position, self.targets["pole"].position)
            target.orientation = rot.multiply(hand, wave)

    def solve(self):
        target = self.targets["target"]
        orientation = target.orientation if self.params["method"] in ORIENTING else None
        # The pedestal node is the world's origin, unturned: world targets are in the arm's own frame
        # already, and solved as such (local), they skip the turn into it and its second set of checks.
        self.track(self.arm, target.position, orientation, self.targets["pole"].position, local=True)

    def extras(self):
        sol = self.arm.solution
        return {"orientation_error": None if sol is None else sol.orientation_error}

    def camera(self):
        return {"position": [1.6, 1.8, 2.6], "target": [0.5, 0.9, 0.1]}

    def bounds(self):
        # The pedestal's foot, the arm at rest, the pole and where the scripted target goes (its slowest
        # component has a period of 20 s).
        # The points themselves come too (the foot's plate by its rim), each to be kept 0.1 inside the
        # view: the box's corners, seen from its side, stand far outside what it holds, and on a narrow
        # window (a phone held upright) fitting them draws the arm a third of the height.
        points = [(0.0, 0.0, 0.0), *ARM_POINTS, self.targets["pole"].position, *sampled(self.path, 60.0, 0.25)]
        plate = [(0.2 * math.cos(k * math.pi / 4), 0.0, 0.2 * math.sin(k * math.pi / 4)) for k in range(8)]
        held = [*plate, *ARM_POINTS, self.targets["pole"].position, *sampled(self.path, 60.0, 1.0)]
        return {**box(points, 0.1), "points": [list(p) for p in held], "pad": 0.1}


def natural_hand(target, pole):
    """The hand's world rotation in the arm's natural pose for ``target``.

    The natural pose bends the elbow towards ``pole`` with the hand straight
    on the forearm: a two-bone triangle, shoulder ``S``, elbow ``E``, tip ``T``,
    sides ``a = UPPER`` and ``b = FOREARM + HAND``. With ``u`` the unit vector
    from ``S`` to ``T`` (distance ``d``) and ``v`` the unit part of ``pole - S``
    normal to ``u``::

        cos A = (a^2 + d^2 - b^2) / (2 a d),   E = S + a (cos A u + sin A v)

    The hand's x axis is the forearm ``f = (T - E) / |T - E|`` and its z axis
    the elbow's hinge axis ``n = v x u`` (the rest hinge axis +z, carried by the
    shoulder), so the result is the rotation with columns ``(f, n x f, n)``.
    """
    a, b = UPPER, FOREARM + HAND
    sx, sy, sz = SHOULDER
    ux, uy, uz = target[0] - sx, target[1] - sy, target[2] - sz
    d = math.sqrt(ux * ux + uy * uy + uz * uz)
    if d < 1e-9:
        return rot.IDENTITY
    ux, uy, uz = ux / d, uy / d, uz / d
    px, py, pz = pole[0] - sx, pole[1] - sy, pole[2] - sz
    k = px * ux + py * uy + pz * uz
    vx, vy, vz = px - k * ux, py - k * uy, pz - k * uz
    nv = math.sqrt(vx * vx + vy * vy + vz * vz)
    if nv < 1e-9:
        vx, vy, vz = rot.perpendicular((ux, uy, uz))
    else:
        vx, vy, vz = vx / nv, vy / nv, vz / nv
    d = min(max(d, abs(a - b) + 1e-9), a + b - 1e-9)
    c = max(-1.0, min(1.0, (a * a + d * d - b * b) / (2.0 * a * d)))
    s = math.sqrt(1.0 - c * c)
    ex, ey, ez = a * (c * ux + s * vx), a * (c * uy + s * vy), a * (c * uz + s * vz)
    fx, fy, fz = d * ux - ex, d * uy - ey, d * uz - ez
    nf = math.sqrt(fx * fx + fy * fy + fz * fz)
    fx, fy, fz = fx / nf, fy / nf, fz / nf
    nx, ny, nz = vy * uz - vz * uy, vz * ux - vx * uz, vx * uy - vy * ux
    yx, yy, yz = ny * fz - nz * fy, nz * fx - nx * fz, nx * fy - ny * fx
    return from_columns((fx, fy, fz), (yx, yy, yz), (nx, ny, nz))
