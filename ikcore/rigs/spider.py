"""The spider: a body on eight three-bone legs, walking over uneven terrain.

Body frame: forward +x, up +y, right +z. Each leg hangs from the body:

- the **coxa** (hip) turns about the body's up axis, a hinge of +-``YAW_RANGE``
  degrees about the leg's rest heading; it is aimed at the foot directly
  (``atan2`` of the foot seen from the hip), which puts the foot in the plane
  of the other two bones;
- **femur** and **tibia** form a bound chain (:mod:`ikcore.skeleton`) hanging
  from the coxa, with hinges about the coxa's z axis: femur -75..45 degrees and
  tibia -55..80 degrees from rest. It is solved with the scene's method
  (``two_bone`` by default, with a pole above the knee so knees point up).

Every frame:

1. the body turns towards its destination (at most ``TURN_RATE``) and walks,
   slowing as it arrives; with ``wander`` on it then picks a new destination.
   The wandering is the scene's scripted motion: with ``animate`` off the
   spider stands still until it is sent somewhere (``set_target``, ``steer``);
2. the gait (:mod:`ikcore.rigs.gait`) lifts a group of four feet when one
   strays more than a stride from its rest spot, and carries them along arcs
   to spots ahead, on the terrain; the other four stay planted;
3. the body's height follows the feet (their mean height plus ``HEIGHT``) and
   it tilts to the least-squares plane through them (at most ``MAX_TILT``);
4. where a planted foot would be out of reach, the body lowers until it is not;
5. each leg's coxa is aimed and its chain solved for the foot.
"""

import math
import random
import time

from .. import rotation as rot
from ..checks import check_float
from ..constraints import Hinge
from ..errors import IKError
from ..skeleton import Skeleton
from ..solution import STATUSES
from ..solvers.two_bone.leg_tracker import LegTracker
from .gait import Gait
from .scene import BODY, Limb, Scene, Target
from .terrain import Terrain

COXA, FEMUR, TIBIA = 0.18, 0.55, 0.75
LEG = COXA + FEMUR + TIBIA
FEMUR_REST, TIBIA_REST = math.radians(40.0), math.radians(-75.0)
YAW_RANGE = math.radians(65.0)
HEIGHT = 0.42  # body above the feet's mean height
MAX_TILT = math.radians(22.0)
TURN_RATE = 1.2  # radians per second
#: Farthest a planted foot may be from the femur's root (the knee's range allows 0.23 .. 1.24).
FAR = 1.16
HIPS = [40.0, 78.0, 108.0, 145.0]  # degrees from forward, per side
#: Tetrapod groups: left 1, 3 with right 2, 4 step together.
GROUPS = [0, 1, 0, 1, 1, 0, 1, 0]
POLE = (COXA + 0.5 * FEMUR, 1.5, 0.0)  # in the coxa's frame: knees up
#: The body's two drawn bones, in its frame: (from, to, radius).
BODY_BONES = (((0.28, 0.02, 0.0), (-0.12, 0.0, 0.0), 0.24), ((-0.38, 0.06, 0.0), (-0.85, 0.16, 0.0), 0.33))
#: A leg's rest points in its coxa's frame: the femur's root, the knee, the foot.
_KNEE = (COXA + FEMUR * math.cos(FEMUR_REST), FEMUR * math.sin(FEMUR_REST), 0.0)
LEG_POINTS = ((COXA, 0.0, 0.0), _KNEE,
              (_KNEE[0] + TIBIA * math.cos(TIBIA_REST), _KNEE[1] + TIBIA * math.sin(TIBIA_REST), 0.0))


def leg_joints():
    """The femur's and the tibia's hinges, about the coxa's z axis (degrees from rest)."""
    return [Hinge((0.0, 0.0, 1.0), -75.0, 45.0), Hinge((0.0, 0.0, 1.0), -55.0, 80.0)]


def mounts():
    """Where the eight legs hang from the body, in its frame: per leg ``(hip, base, rest)``.

    ``hip`` is the coxa's point ``(x, y, z)``, ``base`` its rest heading (radians
    about +y from forward; left legs, on -z, first) and ``rest`` the foot's rest
    spot ``(x, z)``: the rest foot, ``LEG_POINTS[-1][0]`` out from the hip along
    its heading.
    """
    reach = LEG_POINTS[-1][0]
    out = []
    for i in range(8):
        side = -1.0 if i < 4 else 1.0  # left legs on -z
        a = math.radians(HIPS[i % 4])
        base = a if side < 0 else -a
        hip = (0.36 * math.cos(a), 0.0, side * 0.24 * math.sin(a))
        out.append((hip, base, (hip[0] + reach * math.cos(base), hip[2] - reach * math.sin(base))))
    return out


def ground_plane(feet):
    """The body's aim over the feet: the least-squares plane's unit normal (tilted ``MAX_TILT`` at
    most) and the feet's mean height, as ``((nx, ny, nz), mean y)``."""
    # The mean, then the plane y = a + b x + c z through the points centred on it (a 2 x 2 system).
    sx = sy = sz = 0.0
    for x, y, z in feet:
        sx += x
        sy += y
        sz += z
    n = len(feet)
    mx = sx / n
    my = sy / n
    mz = sz / n
    sxx = sxz = szz = sxy = szy = 0.0
    for x, y, z in feet:
        x -= mx
        y -= my
        z -= mz
        sxx += x * x
        sxz += x * z
        szz += z * z
        sxy += x * y
        szy += z * y
    det = sxx * szz - sxz * sxz
    b = (sxy * szz - szy * sxz) / det
    c = (szy * sxx - sxy * sxz) / det
    nx, ny, nz = -b, 1.0, -c
    k = 1.0 / math.sqrt(nx * nx + ny * ny + nz * nz)
    nx, ny, nz = nx * k, ny * k, nz * k
    if ny < math.cos(MAX_TILT):
        h = math.hypot(nx, nz)
        s = math.sin(MAX_TILT) / h
        nx, ny, nz = nx * s, math.cos(MAX_TILT), nz * s
    return (nx, ny, nz), my


def yaw(angle):
    """The rotation by ``angle`` radians about +Y, the world's up (heading 0 faces +Z)."""
    return (math.cos(0.5 * angle), 0.0, math.sin(0.5 * angle), 0.0)


class SpiderScene(Scene):
    """An eight-legged walker on a procedural heightfield.

    Parameters
    ----------
    seed : int
        Chooses the terrain and the wandering.
    terrain : Terrain, optional
        Another ground (anything with ``height``, ``sample``, ``grid``, ``half``
        and ``seed`` like :class:`~ikcore.rigs.terrain.Terrain`).
    """

    name = "spider"
    methods = ("two_bone", "ccd", "fabrik", "jacobian_transpose", "pseudo_inverse", "dls", "fabrik_dls")
    default_method = "two_bone"
    default_max_iterations = 10
    #: ``speed`` in units per second; ``wander``: pick a new destination on arrival.
    extra_params = {"speed": {"kind": "float", "min": 0.0, "max": 3.0}, "wander": {"kind": "bool"}}

    def __init__(self, seed=7, terrain=None):
        super().__init__()
        self.params["speed"] = 0.7
        self.params["wander"] = True
        self.terrain = Terrain(seed=seed) if terrain is None else terrain
        self.rng = random.Random(seed)
        self.skeleton = sk = Skeleton()
        self.body = sk.add_node("body")
        self.hips, self.bases, self.coxae, self.rest_local = [], [], [], []
        joints = leg_joints()
        for i, (hip, base, rest) in enumerate(mounts()):
            coxa = sk.add_node(f"coxa{i}", "body", hip, yaw(base))
            bound = sk.add_chain(f"leg{i}", coxa, LEG_POINTS, joints)
            # The coxa is drawn as the leg's lead: from the coxa node to the femur's root.
            self.add_limb(Limb(bound, [0.05, 0.03], [0.055, 0.045, 0.025], target=f"foot{i}", lead=0.055))
            self.hips.append(hip)
            self.bases.append(base)
            self.coxae.append(coxa)
            self.rest_local.append(rest)
        self.yaws = [0.0] * 8
        self.heading = 0.0
        self.position = [0.0, 0.0]
        self._rest_key = self._rest_spots = None  # see rest_spots
        self._footing = self._plane = None  # see _pose_body
        self.velocity = (0.0, 0.0)
        self.normal = (0.0, 1.0, 0.0)
        self.gait = Gait(self.terrain, GROUPS, self.rest_spots())
        self.destination = self._pick()
        self.body_y = self.terrain.height(0.0, 0.0) + HEIGHT
        self.add_target(Target("destination", self._ground(self.destination), radius=0.08))
        for i, foot_ in enumerate(self.gait.feet):
            self.add_target(Target(f"foot{i}", foot_.position, draggable=False, radius=0.035))
        # Per leg, what every frame reads (looked up once here, not by name or index each frame):
        # (index, hip, rest heading, coxa, foot target).
        self._feet = [self.targets[f"foot{i}"] for i in range(8)]
        self._legs = [(i, self.hips[i], self.bases[i], self.coxae[i], self._feet[i]) for i in range(8)]
        self._pose_body(0.0)
        for i in range(8):
            self._aim(i)
        # The legs solved together under two_bone with their limits: eight planar legs of one shape.
        first = self.limbs[0].bound.limited_chain
        self._hip, self._knee = first.joints
        self._reach = first.reach
        self._legs_tracked = LegTracker(first, pole=POLE)
        self._legs_tracked.resize(8)

    # -- steering ------------------------------------------------------------------------------

    def _ground(self, xz):
        return (xz[0], self.terrain.height(xz[0], xz[1]), xz[1])

    def _pick(self):
        m = self.terrain.half - 3.0
        return (self.rng.uniform(-m, m), self.rng.uniform(-m, m))

    def set_destination(self, x, z):
        """Walk to ``(x, z)`` (on the terrain's square, 2 units from its edge at most)."""
        x = check_float(x, "destination x")
        z = check_float(z, "destination z")
        m = self.terrain.half - 2.0
        if abs(x) > m or abs(z) > m:
            raise IKError(f"destination ({x!r}, {z!r}) must lie within +-{m} on x and z")
        self.destination = (x, z)
        target = self.targets["destination"]
        target.position = self._ground(self.destination)
        target.pinned = True

    def held(self, target):
        # The destination moves by itself only while the spider wanders; it has no script of its own.
        if target.name == "destination":
            return target.pinned or not (self.params["wander"] and self.params["animate"])
        return super().held(target)

    def steer(self, forward=1.0, turn=0.0):
        """Set a destination ``2 x forward`` ahead, ``turn`` radians left of the heading (for keys)."""
        forward = check_float(forward, "forward")
        turn = check_float(turn, "turn")
        h = self.heading + turn
        m = self.terrain.half - 2.0
        x = min(m, max(-m, self.position[0] + 2.0 * forward * math.cos(h)))
        z = min(m, max(-m, self.position[1] - 2.0 * forward * math.sin(h)))
        self.set_destination(x, z)

    def place(self, target, position, orientation):
        self.set_destination(position[0], position[2])

    # -- the frame -----------------------------------------------------------------------------

    def rest_spots(self):
        """Each foot's rest spot now, horizontal world ``(x, z)``.

        The list is kept while the body stays where it is (the gait's spots
        after one frame's walk are the walk's before the next): callers must
        not change it.
        """
        x0, z0 = self.position
        key = (self.heading, x0, z0)
        if key != self._rest_key:
            c, s = math.cos(self.heading), math.sin(self.heading)
            self._rest_spots = [(x0 + c * x + s * z, z0 - s * x + c * z) for x, z in self.rest_local]
            self._rest_key = key
        return self._rest_spots

    def advance(self, dt):
        self._walk(dt)
        self.gait.update(dt, self.rest_spots(), self.velocity)
        self._pose_body(dt)
        for target, foot in zip(self._feet, self.gait.feet):
            target.position = foot.position

    def _walk(self, dt):
        if not (self.params["animate"] or self.targets["destination"].pinned):
            # Scripted motion off: no walk of its own (the feet still settle), until it is sent somewhere.
            self.velocity = (0.0, 0.0)
            return
        x0, z0 = self.position
        dx = self.destination[0] - x0
        dz = self.destination[1] - z0
        dist = math.hypot(dx, dz)
        if dist < 0.3:
            if self.params["wander"] and not self.targets["destination"].pinned:
                self.destination = self._pick()
                self.targets["destination"].position = self._ground(self.destination)
            self.velocity = (0.0, 0.0)
            return
        # Hold back while planted feet lag far behind their rest spots (waiting for the others to land).
        stride = self.gait.stride
        strain = 0.0  # the farthest planted foot (distances are >= 0; four feet are always down)
        for foot, (rx, rz) in zip(self.gait.feet, self.rest_spots()):
            if not foot.stepping:
                p = foot.position
                d = math.hypot(p[0] - rx, p[2] - rz)
                if d > strain:
                    strain = d
        leash = min(1.0, max(0.0, (1.6 * stride - strain) / (0.4 * stride)))
        want = math.atan2(-dz, dx)
        err = rot.wrap_angle(want - self.heading)
        turn = TURN_RATE * leash * dt
        self.heading = heading = rot.wrap_angle(self.heading + max(-turn, min(turn, err)))
        speed = self.params["speed"] * leash * max(0.0, math.cos(err)) * min(1.0, dist)
        vx, vz = speed * math.cos(heading), -speed * math.sin(heading)
        self.position[0] = x0 + vx * dt
        self.position[1] = z0 + vz * dt
        self.velocity = (vx, vz)

    def _pose_body(self, dt):
        # Where each foot stands, or will once it lands: these points change only when a step starts
        # (a landing foot's position becomes its land), so the plane is fitted again only then.
        feet = [f.land if f.stepping else f.position for f in self.gait.feet]
        if feet != self._footing:
            self._footing = feet
            self._plane = ground_plane(feet)
        (nx, ny, nz), my = self._plane
        # Ease the tilt and height (a step landing does not jolt the body).
        w = 1.0 if dt == 0.0 else min(1.0, 6.0 * dt)
        ox, oy, oz = self.normal
        nx, ny, nz = ox + (nx - ox) * w, oy + (ny - oy) * w, oz + (nz - oz) * w
        k = 1.0 / math.sqrt(nx * nx + ny * ny + nz * nz)
        self.normal = (nx * k, ny * k, nz * k)
        want = my + HEIGHT
        self.body_y += (want - self.body_y) * w
        q = rot.multiply(rot.shortest_arc((0.0, 1.0, 0.0), self.normal), yaw(self.heading))
        x0, z0 = self.position
        self.body.set_local((x0, self.body_y, z0), q)
        # Lower the body where a foot on the ground would be out of reach (twice: the drop changes the hips).
        # The matrix is kept for the legs' aim and the drawn body (see _body_frame).
        m = rot.to_matrix(q)
        self._frame = (q, m)
        for _ in range(2):
            drop = self._needed_drop(m)
            if drop <= 1e-12:
                break
            self.body_y -= drop
            self.body.set_local((x0, self.body_y, z0))

    def _needed_drop(self, m):
        """How far the body must come down for every planted foot to be within reach.

        ``m`` is the body's rotation matrix (:func:`ikcore.rotation.to_matrix`).
        """
        bx, by, bz = self.body.world_position
        # Rows of R^T are R's columns: the body frame's axes in world coordinates.
        m0, m1, m2, m3, m4, m5, m6, m7, m8 = m
        drop = 0.0
        for (hx, hy, hz), foot in zip(self.hips, self.gait.feet):
            if foot.stepping:
                continue
            px, py, pz = foot.position
            x, y, z = px - bx, py - by, pz - bz
            fx = m0 * x + m3 * y + m6 * z
            fz = m2 * x + m5 * y + m8 * z
            dh = math.hypot(fx - hx, fz - hz) - COXA
            if dh < 0.0:
                dh = 0.0
            if dh < FAR:
                fy = m1 * x + m4 * y + m7 * z
                need = hy - fy - math.sqrt(FAR * FAR - dh * dh)
                if need > drop:
                    drop = need
        return drop

    def _aim(self, i):
        """Turn coxa ``i`` towards its foot; return the foot in the coxa's frame."""
        q, m = self._body_frame()
        return self._aim_leg(self._legs[i], self.body.world_position, q, m, self.params["constraints"])

    def _aim_leg(self, leg, origin, q, m, clamp):
        """:meth:`_aim` for one record of ``self._legs``, given the body's world position and rotation
        ``q`` (current), its rotation matrix ``m`` (:func:`ikcore.rotation.to_matrix`) and whether the
        yaw is limited (one frame's legs share them). The coxa's world transform is set here too, from
        the body's (the chain's frame, which the solve and the page read)."""
        i, (hx, hy, hz), base, coxa, target = leg
        bx, by, bz = origin
        m0, m1, m2, m3, m4, m5, m6, m7, m8 = m
        fx, fy, fz = target.position
        x, y, z = fx - bx, fy - by, fz - bz
        # The foot in the body frame (R^T times the offset), then from the hip.
        lx = m0 * x + m3 * y + m6 * z - hx
        ly = m1 * x + m4 * y + m7 * z - hy
        lz = m2 * x + m5 * y + m8 * z - hz
        if lx * lx + lz * lz > 1e-18:
            # Into (-pi, pi] as rot.wrap_angle does, without its call: atan2 is in (-pi, pi] and so is
            # the rest heading, so |yaw| < 2 pi, which its fmod leaves as it is (the same float).
            yaw = math.atan2(-lz, lx) - base
            if yaw > math.pi:
                yaw -= math.tau
            elif yaw <= -math.pi:
                yaw += math.tau
        else:
            yaw = self.yaws[i]
        if clamp:
            if yaw > YAW_RANGE:
                yaw = YAW_RANGE
            elif yaw < -YAW_RANGE:
                yaw = -YAW_RANGE
        self.yaws[i] = yaw
        half = 0.5 * (base + yaw)
        w, y = math.cos(half), math.sin(half)
        # The coxa turns by yaw(base + yaw) = (w, 0, y, 0) at the hip: in the world, the body's rotation
        # times it (the product with the zero terms left out) at the body's position plus R hip.
        qw, qx, qy, qz = q
        coxa.place((w, 0.0, y, 0.0),
                    (bx + m0 * hx + m1 * hy + m2 * hz, by + m3 * hx + m4 * hy + m5 * hz,
                     bz + m6 * hx + m7 * hy + m8 * hz),
                    (qw * w - qy * y, qx * w - qz * y, qw * y + qy * w, qz * w + qx * y))
        # Into the coxa's frame: turn back about y by the coxa's angle, whose cosine and sine are
        # those of its quaternion's rotation (double angles: no more calls).
        c, s = w * w - y * y, 2.0 * w * y
        return (c * lx - s * lz, ly, s * lx + c * lz)

    def _body_frame(self):
        # The body's world rotation and its matrix: _pose_body's, unless a caller turned it since.
        frame = self._frame
        q = self.body.world_rotation
        if q != frame[0]:
            frame = self._frame = (q, rot.to_matrix(q))
        return frame

    def solve(self):
        origin = self.body.world_position
        q, m = self._body_frame()
        clamp = self.params["constraints"]
        if self.params["method"] != "two_bone" or not clamp:
            for leg, limb in zip(self._legs, self.limbs):
                self.track(limb, self._aim_leg(leg, origin, q, m, clamp), None, POLE, True)
            return
        # two_bone with the limits: the eight legs at once, as planar legs (ikcore.solvers.two_bone.planar).
        lap = self._lap
        t0 = time.perf_counter() if lap is None else lap
        legs = self._legs_tracked
        xs, ys, zs = legs.targets
        hips, knees = legs.angles
        for k, (leg, limb) in enumerate(zip(self._legs, self.limbs)):
            xs[k], ys[k], zs[k] = self._aim_leg(leg, origin, q, m, clamp)
            # Each leg starts from its chain's pose (another method may have posed it since).
            femur, tibia = limb.bound.rotations
            hips[k], knees[k] = self._hip.angle(femur), self._knee.angle(tibia)
        legs.solve(self.params["tolerance"] * self._reach)
        out = legs.results
        for k, limb in enumerate(self.limbs):
            limb.bound.take_frames(legs.frames(k))
            limb.result = (STATUSES[out.status[k]], out.errors[k], 1)
            limb.solution = None
        if lap is not False:
            t1 = time.perf_counter()
            ms = (t1 - t0) * 1000.0 / 8
            for limb in self.limbs:
                limb.ms = ms

    def limb_target(self, limb):
        return self.targets[limb.target].position

    # -- output --------------------------------------------------------------------------------

    def extra_bones(self):
        px, py, pz = self.body.world_position
        m0, m1, m2, m3, m4, m5, m6, m7, m8 = self._body_frame()[1]
        out = []
        for (ax, ay, az), (bx, by, bz), radius in BODY_BONES:
            out.append(((px + m0 * ax + m1 * ay + m2 * az, py + m3 * ax + m4 * ay + m5 * az,
                         pz + m6 * ax + m7 * ay + m8 * az),
                        (px + m0 * bx + m1 * by + m2 * bz, py + m3 * bx + m4 * by + m5 * bz,
                         pz + m6 * bx + m7 * by + m8 * bz), radius, BODY))
        return out

    def terrain_info(self):
        return {"half": self.terrain.half, "resolution": 97, "seed": self.terrain.seed}

    def terrain_grid(self, resolution=97):
        """The terrain's heights for drawing (see :meth:`Terrain.grid`)."""
        return self.terrain.grid(resolution)

    def camera(self):
        return {"position": [4.0, 3.5, 5.0], "target": [0.0, 0.3, 0.0]}

    def bounds(self):
        # The spider where it stands, legs spread (the page's camera then follows its body), and the ground
        # under it.
        x, y, z = self.body.world_position
        span = COXA + 0.9 * (FEMUR + TIBIA) + 0.36
        ground = self.terrain.height(x, z)
        return {"min": [x - span, ground - 0.1, z - span], "max": [x + span, y + 0.5, z + span]}

    def extras(self):
        return {"body": {"position": list(self.body.world_position), "rotation": list(self.body.world_rotation),
                         "heading": self.heading, "velocity": list(self.velocity)},
                "destination": list(self.destination), "wander": self.params["wander"],
                "feet": [{"planted": f.planted, "group": f.group, "position": list(f.position)}
                         for f in self.gait.feet],
                "yaws_deg": [math.degrees(y) for y in self.yaws], "steps": self.gait.steps}
