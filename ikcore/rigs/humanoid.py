"""The humanoid: a character on uneven ground that walks to a door and reaches for its knob.

The body is :mod:`ikcore.rigs.humanoid_rig` (one skeleton, the pelvis its
root, six chains hanging from its nodes); where it stands and how it walks,
:mod:`ikcore.rigs.humanoid_walk`; what a skinned mesh follows,
:mod:`ikcore.rigs.humanoid_skin`. Every frame, in this order:

1. **Walk.** The knob decides where the character stands (its right shoulder
   in front of the knob, facing the door). Farther than bending reaches, it
   walks there: the body moves, and one foot at a time lifts, swings and lands
   on the ground; planted feet stay put.
2. **Pelvis.** The pelvis stands its height above the feet's mean ground (or
   at the height the reader drags the ``pelvis`` target to), then is lowered
   where a planted foot would be out of the leg's reach: on a slope or a step
   both feet stay reachable, knees slightly bent.
3. **Legs** (``leg_method``, ``two_bone`` by default, a pole in front of the
   knee): each ankle goes to its foot's point on the ground, lifted by the
   ankle's height along the ground's normal; the foot then turns its sole to
   the normal, within the ankle's limits.
4. **Spine** (the panel's method): the chest goes to its rest place, swayed by
   breathing, and leans toward the knob by as much as the arm alone falls
   short of it.
5. **Neck** (``neck_method``, ``look`` by default): the head turns to look at
   the ``look`` target within the look's limits (a turn and a nod). Under
   ``look`` the neck is posed in closed form: its two joints each turn by half
   the look's rotation (the same axis, half the angle), so the head takes the
   look's rotation itself. Under a solver's method, the methods that take an
   orientation are given the look's rotation, the others its position, and
   the head's twist about its bone is set after (it is what a position leaves
   free).
6. **Arms** (the panel's method): the right hand takes the knob's grip (the
   knob target's orientation: the hand's rotation from rest) with the palm on
   the knob; the left arm hangs, swaying with the breath. The hand's rotation
   is set within the wrist's limits; where they cut it, the wrist's target
   moves so the palm still meets the knob.

``two_bone`` solves the two-bone chains (the arms, and the legs or neck when
chosen for them); the spine, with three bones, is then solved by ``fabrik``: :meth:`HumanoidScene.chain_method`
says which method each chain used.
"""

import math
import time

from .. import rotation as rot
from ..checks import check_int_range
from ..errors import IKError
from ..kinematics import Frames
from ..solution import CONVERGED
from ..solvers import ORIENTATION_METHODS
from ..vectors import signed_angle
from .humanoid_rig import (ANKLE, ANKLE_BONE, ANKLE_HEIGHT, ARM_REACH, HEAD, HEIGHT, HIP, LEG_REACH, NECK,
                           NECK_POINTS, PALM, PELVIS_HEIGHT, SHOULDER, SIDES, SPINE_LENGTH, SPINE_POINTS, WRIST,
                           WRIST_BONE, Body, arm_points, facing)
from .humanoid_legs import ClosedLeg
from .humanoid_skin import SKIN_STRIDE, bind_pose, describe, skin_bones, write_skin
from .humanoid_walk import Walker, stand_spot
from .scene import Limb, Scene, Target
from .spider import yaw
from .terrain import Terrain

#: The door: its hinge edge's foot, size (width, height, thickness), its facing, the knob's place on it.
DOOR_Z = 2.2
DOOR_WIDTH, DOOR_HEIGHT, DOOR_THICKNESS = 0.9, 2.05, 0.045
#: The door faces the character: a person going through it faces +Z (heading 0).
DOOR_HEADING = 0.0
KNOB_X, KNOB_HEIGHT, KNOB_OUT, KNOB_RADIUS = -0.36, 1.0, 0.065, 0.03
#: The knob's distance from the door's free edge (the door runs from its hinge toward -x).
KNOB_EDGE = 0.06
#: The grip: the hand pointing at the door, tipped 10 degrees down, thumb up (its rotation from rest).
GRIP = rot.from_axis_angle((-1.0, 0.0, 0.0), math.radians(80.0))
#: The pelvis stands this much lower than with straight legs (the knees a little bent), and never
#: lower than CROUCH above the ground.
BEND, CROUCH = 0.06, 0.55
#: Farthest an ankle may be from its hip (short of straight: the knee keeps a bend, where the iterative
#: methods do not crawl).
FAR = 0.96 * LEG_REACH
#: The arm alone reaches this far from the shoulder at ease; the spine leans for the rest (LEAN at most).
EASE, LEAN = 0.9 * ARM_REACH, 0.32
#: Breathing: period (seconds) and the chest's sway (metres).
BREATH, SWAY = 3.6, 0.008
#: The chest stands this far forward of the spine's root at ease (a slight stoop: the spine is never
#: straight, where the iterative methods crawl).
STOOP = 0.03
_SPINE_BONES = tuple(b[1] - a[1] for a, b in zip(SPINE_POINTS, SPINE_POINTS[1:]))
#: The most each spine joint bends for the lean (97% of its cone).
SPINE_BEND = 0.97 * math.radians(20.0)
#: Poles, in each chain's frame: knees forward, elbows out and back.
KNEE_POLE = 0.6
ELBOW_POLE = (0.6, -0.4, -0.5)
#: The look's limits (radians): the neck and head together.
LOOK_YAW, LOOK_UP, LOOK_DOWN = math.radians(65.0), math.radians(40.0), math.radians(55.0)
#: While walking, the head looks this far ahead (metres), at LOOK_HIGH above the ground there: a glance
#: a little down, not a stoop.
LOOK_AHEAD, LOOK_HIGH = 2.5, 1.3
#: A hanging arm aims anew once the chest has turned this far (the cosine of 3 degrees).
HANG_TURN = math.cos(math.radians(3.0))
#: At most this many solves of the reaching arm a frame, where the wrist's limits cut the grip.
GRIP_PASSES = 8
#: The hand reaches in over this many seconds (and drops back as fast).
REACH_TIME = 0.6

#: The methods that take an orientation and stop at once where the start meets both targets (fabrik_dls
#: sets the last bone to the asked rotation on every call).
_MET_STOPS = ("dls",)

LEG_METHODS = ("two_bone", "fabrik", "ccd", "dls", "fabrik_dls")
#: The neck's: ``look``, posed in closed form, or a solver's method.
NECK_METHODS = ("look", "fabrik", "ccd", "dls", "fabrik_dls", "two_bone")


def even_bend(wx, wz, angle=0.0):
    """The chest's place, in the pelvis frame, when every spine joint bends by the same angle toward
    the horizontal offset ``(wx, wz)``, by the angle that puts it that far out (at most
    ``SPINE_BEND``: beyond it the chest goes as far as that bend takes it); and that angle, as
    ``((x, y, z), angle)``. ``angle`` starts the search (the last frame's: a step or two).

    With bones ``l_k`` bent by ``k a`` from upright, the chest is out by ``f(a) = sum l_k sin(k a)``,
    which grows over ``[0, SPINE_BEND]``: Newton's steps ``a -= (f(a) - m) / f'(a)``, kept within the
    range, until they move it less than 1e-12 radians.
    """
    m = math.hypot(wx, wz)
    ux, uz = (wx / m, wz / m) if m > 1e-12 else (0.0, 1.0)
    l1, l2, l3 = _SPINE_BONES
    a = angle
    for _ in range(20):
        s1, s2, s3 = math.sin(a), math.sin(2.0 * a), math.sin(3.0 * a)
        slope = l1 * math.cos(a) + 2.0 * l2 * math.cos(2.0 * a) + 3.0 * l3 * math.cos(3.0 * a)
        step = (l1 * s1 + l2 * s2 + l3 * s3 - m) / slope
        a = min(SPINE_BEND, max(0.0, a - step))
        if abs(step) < 1e-12 or (a == SPINE_BEND and step < 0.0) or (a == 0.0 and step > 0.0):
            break
    s1, s2, s3 = math.sin(a), math.sin(2.0 * a), math.sin(3.0 * a)
    out = l1 * s1 + l2 * s2 + l3 * s3
    x, y, z = SPINE_POINTS[0]
    return (x + out * ux, y + l1 * math.cos(a) + l2 * math.cos(2.0 * a) + l3 * math.cos(3.0 * a), z + out * uz), a


def _local(origin, q, point):
    """A world ``point`` in the frame at ``origin`` turned by ``q``."""
    return rot.rotate(rot.conjugate(q), (point[0] - origin[0], point[1] - origin[1], point[2] - origin[2]))


class HumanoidScene(Scene):
    """A character on uneven ground that walks to a door and reaches for its knob (see the module).

    Parameters
    ----------
    seed : int
        Chooses the terrain.
    """

    name = "humanoid"
    methods = ("fabrik", "ccd", "dls", "fabrik_dls", "two_bone")
    default_method = "fabrik"
    default_max_iterations = 40
    #: ``leg_method``: the legs' method; ``neck_method``: the neck's; ``reach``: whether the right hand goes
    #: to the knob (else both arms hang, and the character stands where it is).
    extra_params = {"leg_method": {"kind": "choice", "choices": list(LEG_METHODS)},
                    "neck_method": {"kind": "choice", "choices": list(NECK_METHODS)}, "reach": {"kind": "bool"}}
    options = {"seed": lambda value, name: check_int_range(value, name, 0, 2**31 - 1)}

    def __init__(self, seed=11):
        super().__init__()
        self.params["leg_method"] = "two_bone"
        self.params["neck_method"] = "look"
        self.params["reach"] = True
        self.terrain = Terrain(seed=seed, amplitude=0.16, scale=2.6, octaves=3)
        self.body = body = Body()
        self.skeleton = body.skeleton
        # The chains, in the contract's order; per chain its frame's node and its role.
        self.legs = [self.add_limb(Limb(body.legs[side], [0.075, 0.055], target=f"foot_{s}"))
                     for side, s, _ in SIDES]
        self.spine = self.add_limb(Limb(body.spine, [0.12, 0.13, 0.14], target="chest"))
        self.neck = self.add_limb(Limb(body.neck, [0.05, 0.1], target="head"))
        self.arms = [self.add_limb(Limb(body.arms[side], [0.05, 0.04], target=("hand_" + s), lead=0.05))
                     for side, s, _ in SIDES]
        ground = self.terrain.height(KNOB_X, DOOR_Z)
        self.knob_rest = (KNOB_X, ground + KNOB_HEIGHT, DOOR_Z - 0.5 * DOOR_THICKNESS - KNOB_OUT)
        self.door_ground = ground
        self.walker = Walker(self.terrain, (0.0, 0.0), 0.0)
        self.add_target(Target("knob", self.knob_rest, orientation=GRIP, radius=KNOB_RADIUS))
        self.add_target(Target("look", self.knob_rest, radius=0.04))
        self.add_target(Target("pelvis", (0.0, PELVIS_HEIGHT, 0.0), radius=0.06))
        # What each chain reaches for, in the world (not draggable: the scene places them each frame).
        for name in ("foot_l", "foot_r", "chest", "head", "hand_l", "hand_r"):
            self.add_target(Target(name, (0.0, 1.0, 0.0), draggable=False, radius=0.03))
        self._goals = {limb.name: self.targets[limb.target] for limb in self.limbs}
        # The legs' closed-form pose under two_bone, and per leg what it last gave: (target, frames, error).
        self._closed = [ClosedLeg(limb.bound.limited_chain) for limb in self.legs]
        self._closed_kept = [None, None]
        # Per foot, the (shin's world rotation, ground normal, heading) its sole was last turned for.
        self._soles = [None, None]
        # The spine's even bend last frame (radians a joint).
        self._bend = 0.0
        self._pelvis_place = None
        # The look's rotation the neck was last posed for in closed form, and that pose's frames.
        self._look = None
        # Per chain, the (target, orientation) in its frame it was last solved for.
        self._asked = {}
        # Per arm, the world's down in the chest's frame its hang was last aimed by.
        self._hang_down = {"left": None, "right": None}
        # Per foot: its heading (kept while planted) and the ground's normal under it (for a place).
        self.foot_headings = [0.0, 0.0]
        self._normals = [None, None]
        self.reach_weight = 0.0
        self.pelvis_y = self.walker_ground() + PELVIS_HEIGHT - BEND
        self.skin = skin_bones(body)
        self._skin_records = [(b[4], b[5]) for b in self.skin]
        self._bind = bind_pose()
        self.advance(0.0)
        self.solve()

    # -- parameters ----------------------------------------------------------------------------

    def chain_method(self, limb):
        """The method ``limb`` is solved with: the legs' ``leg_method``, the neck's ``neck_method``
        (``look``: posed in closed form), the others the panel's (``fabrik`` for the three-bone spine
        when the panel says ``two_bone``)."""
        if limb in self.legs:
            return self.params["leg_method"]
        if limb is self.neck:
            return self.params["neck_method"]
        method = self.params["method"]
        if method == "two_bone" and limb.bound.chain.size != 2:
            return "fabrik"
        return method

    # -- input ---------------------------------------------------------------------------------

    def place(self, target, position, orientation):
        if target.name == "knob":
            limit = self.terrain.half - 2.0
            if abs(position[0]) > limit or abs(position[2]) > limit:
                raise IKError(f"target 'knob' must lie within +-{limit} on x and z, got {position!r}")
        super().place(target, position, orientation)

    def scripted(self, target):
        # The look follows the knob, the pelvis the body, until the reader places them.
        return target.name in ("look", "pelvis") or super().scripted(target)

    # -- the frame -----------------------------------------------------------------------------

    def walker_ground(self):
        """The mean ground height under the feet (where they stand or will land)."""
        feet = self.walker.gait.feet
        return 0.5 * (feet[0].ground[1] + feet[1].ground[1])

    def advance(self, dt):
        knob = self.targets["knob"]
        reach = self.params["reach"]
        walker = self.walker
        # It walks to the knob while the scene animates, or once the reader has placed the knob; with the
        # scripted motion off it otherwise stands where it is (a foot in the air still lands).
        if reach and (self.params["animate"] or knob.pinned):
            spot, heading = stand_spot(knob.position, DOOR_HEADING), DOOR_HEADING
        else:
            spot, heading = tuple(walker.position), walker.heading
        planted = [h for foot, h in zip(walker.gait.feet, self.foot_headings) if not foot.stepping]
        walker.update(dt, spot, heading, self.terrain.half - 2.0, planted)
        self._move_look(dt)
        # The hand reaches once the character stands.
        rate = dt / REACH_TIME
        if reach and not walker.walking and not walker.stepping:
            self.reach_weight = min(1.0, self.reach_weight + rate)
        else:
            self.reach_weight = max(0.0, self.reach_weight - rate)
        self._place_feet()
        self._place_pelvis(dt)

    def _move_look(self, dt):
        # The look's own motion: the way ahead while walking, the knob otherwise, eased so the head
        # turns rather than snaps.
        look = self.targets["look"]
        if not self.held(look):
            walker = self.walker
            if walker.walking:
                fx, fz = facing(walker.heading)
                x, z = walker.position[0] + LOOK_AHEAD * fx, walker.position[1] + LOOK_AHEAD * fz
                goal = (x, self.terrain.height(x, z) + LOOK_HIGH, z)
            else:
                goal = self.targets["knob"].position
            w = 1.0 if dt == 0.0 else min(1.0, 3.0 * dt)
            p = look.position
            look.position = (p[0] + (goal[0] - p[0]) * w, p[1] + (goal[1] - p[1]) * w, p[2] + (goal[2] - p[2]) * w)

    def _place_feet(self):
        heading = self.walker.heading
        for i, foot in enumerate(self.walker.gait.feet):
            if foot.stepping:
                # The foot turns toward the body's heading as it swings.
                turn = rot.wrap_angle(heading - self.foot_headings[i])
                self.foot_headings[i] += turn * min(1.0, foot.phase * 1.5)

    def _place_pelvis(self, dt):
        walker = self.walker
        x, z = walker.position
        pelvis = self.targets["pelvis"]
        ground = self.walker_ground()
        if pelvis.pinned:
            want = min(ground + PELVIS_HEIGHT - BEND, max(ground + CROUCH, pelvis.position[1]))
        else:
            want = ground + PELVIS_HEIGHT - BEND
        w = 1.0 if dt == 0.0 else min(1.0, 5.0 * dt)
        # Eased (a step landing does not jolt it), and there once within a micrometre.
        y = want if abs(want - self.pelvis_y) < 1e-6 else self.pelvis_y + (want - self.pelvis_y) * w
        # Lower it where a foot on the ground would be out of reach of its hip.
        fx, fz = facing(walker.heading)
        for (side, s, sign), foot in zip(SIDES, walker.gait.feet):
            ax, ay, az = self._ankle(foot.position, self._normal(foot))
            # The hip in the world: the pelvis turned by its heading (left is (fz, -fx)).
            hx = x + sign * HIP[0] * fz
            hz = z - sign * HIP[0] * fx
            dh = math.hypot(ax - hx, az - hz)
            if dh < FAR:
                top = ay + math.sqrt(FAR * FAR - dh * dh) - HIP[1]
                if y > top:
                    y = top
        self.pelvis_y = y
        if not pelvis.pinned:
            pelvis.position = (x, y, z)
        place = ((x, y, z), yaw(walker.heading))
        if place != self._pelvis_place:
            # (Setting it marks everything below dirty: only when it moved.)
            self._pelvis_place = place
            self.body.pelvis.set_local(*place)

    def _normal(self, foot):
        # The ground's normal where the foot stands (or will land), worked out again when that moves.
        i = 0 if foot is self.walker.gait.feet[0] else 1
        place = foot.ground
        kept = self._normals[i]
        if kept is None or kept[0] != place:
            kept = self._normals[i] = (place, self.terrain.normal(place[0], place[2]))
        return kept[1]

    @staticmethod
    def _ankle(ground, normal):
        """The ankle over a foot's point on the ground: lifted the ankle's height along the normal."""
        return (ground[0] + ANKLE_HEIGHT * normal[0], ground[1] + ANKLE_HEIGHT * normal[1],
                ground[2] + ANKLE_HEIGHT * normal[2])

    def solve(self):
        pelvis = self.body.pelvis
        origin, q = pelvis.world_position, pelvis.world_rotation
        for (side, s, sign), limb, foot in zip(SIDES, self.legs, self.walker.gait.feet):
            self._solve_leg(limb, origin, q, sign, foot)
        self._solve_spine()
        chest = self.body.chest
        c_origin, c_q = chest.world_position, chest.world_rotation
        self._solve_neck(c_origin, c_q)
        for (side, s, sign), limb in zip(SIDES, self.arms):
            self._solve_arm(limb, side, sign, c_origin, c_q)

    def _track(self, limb, target, orientation=None, pole=None):
        """Solve ``limb`` for ``target`` (in its frame) with its method, warm, through a tracker kept on
        the limb (made again when its method or the parameters change)."""
        lap = self._lap
        t0 = time.perf_counter() if lap is None else lap
        method = self.chain_method(limb)
        tracker = limb.tracker
        if tracker is None or tracker.method != method:
            tracker = limb.tracker = limb.bound.tracker(
                method, pole=pole, local=True, tolerance=self.params["tolerance"] * limb.reach,
                max_iterations=self.params["max_iterations"], **self.method_options(method))
        if orientation is not None and method not in ORIENTATION_METHODS:
            orientation = None
        bound = limb.bound
        solution = limb.solution
        if (solution is not None and self._asked.get(limb.name) == (target, orientation)
                and bound.solution is solution and bound.holds(solution.rotations)):
            # The same target in the chain's frame, and the chain still in the pose that answered it: a
            # solve would start there and stop at once (a planted leg under a still pelvis).
            limb.result = (solution.status, solution.error, 0)
            return solution
        # What the chain reaches for, in the world (the state's and the HUD's target).
        self._goals[limb.name].position = rot.transform_points([target], *bound.parent_transform())[0]
        if pole is None and solution is not None and (orientation is None or method in _MET_STOPS):
            # No pole to swivel toward: where the chain's pose already meets the target within the
            # tolerances, a solve would stop at once and keep that pose (a chest or a head moved a
            # fraction of a millimetre by the breath since the last solve).
            settings = tracker.settings
            frames = bound.frames()
            error = math.dist(frames.points[-1], target)
            if error <= settings.tolerance and (orientation is None or rot.angle_between(
                    frames.worlds[-1], orientation) <= settings.orientation_tolerance):
                limb.result = (CONVERGED, error, 0)
                return solution
        self._asked[limb.name] = (target, orientation)
        return self._solved(limb, tracker.solve_from(target, orientation), lap, t0)

    def _solve_leg(self, limb, origin, q, sign, foot):
        normal = self._normal(foot)
        world = self._ankle(foot.position, normal)
        ankle = _local(origin, q, world)
        pole = (sign * HIP[0], HIP[1] - 0.5 * LEG_REACH, KNEE_POLE)
        i = 0 if sign > 0 else 1
        if not (self.params["leg_method"] == "two_bone" and limb.bound.constrained
                and self._pose_leg(limb, i, ankle, pole, world)):
            self._closed_kept[i] = None
            self._track(limb, ankle, pole=pole)
        # The sole to the ground: the foot's heading, tilted onto the normal, within the ankle.
        shin = limb.bound.nodes[-1].world_rotation
        asked = (shin, normal, self.foot_headings[i])
        if asked == self._soles[i]:
            # The same shin, ground and heading as last frame: the foot's turn is the one it has.
            return
        self._soles[i] = asked
        wanted = rot.multiply(rot.shortest_arc((0.0, 1.0, 0.0), normal), yaw(self.foot_headings[i]))
        node = self.body.feet["left" if sign > 0 else "right"]
        turn = ANKLE.clamp(rot.multiply(rot.conjugate(shin), wanted), ANKLE_BONE)
        if turn != node.rotation:
            node.rotation = turn

    def _pose_leg(self, limb, i, target, pole, world):
        """Pose leg ``i`` in closed form (:mod:`ikcore.rigs.humanoid_legs`) for ``target`` (in its frame;
        ``world`` in the world) with the knee toward ``pole``; False where that pose is not exact or not
        within the limits (the caller then solves it with the general method)."""
        lap = self._lap
        t0 = time.perf_counter() if lap is None else lap
        bound = limb.bound
        kept = self._closed_kept[i]
        if kept is not None and kept[0] == target and bound.holds(kept[1].rotations):
            # The same target, the leg still in the pose that met it (a planted leg under a still pelvis).
            limb.result = (CONVERGED, kept[2], 0)
            return True
        posed = self._closed[i].pose(target, pole)
        if posed is None:
            return False
        frames, error = posed
        bound.take_frames(frames)
        self._closed_kept[i] = (target, frames, error)
        self._goals[limb.name].position = world
        limb.solution = None
        limb.result = (CONVERGED, error, 1)
        self._timed(limb, lap, t0)
        return True

    def _solve_spine(self):
        # In the pelvis frame: the chest where the spine, bent evenly (each joint by the same angle
        # toward one side), puts it forward of the hips by a slight stoop, swayed by breath, and
        # toward the knob by what the right arm alone falls short of.
        phase = 2.0 * math.pi * self.script_time / BREATH
        wx = SWAY * 0.6 * math.sin(0.5 * phase)
        wz = STOOP + SWAY * math.sin(phase)
        if self.reach_weight > 0.0:
            pelvis = self.body.pelvis
            wrist = _local(pelvis.world_position, pelvis.world_rotation, self._wrist_goal())
            sx, sy, sz = arm_points(-1.0)[0]
            vx, vy, vz = wrist[0] - sx, wrist[1] - (SPINE_POINTS[-1][1] + sy), wrist[2] - sz
            d = math.sqrt(vx * vx + vy * vy + vz * vz)
            lean = min(LEAN, d - EASE) * self.reach_weight
            h = math.hypot(vx, vz)
            if lean > 0.0 and h > 1e-9:
                # All of it forward, toward the knob: bending, the chest comes down by itself.
                wx, wz = wx + lean * vx / h, wz + lean * vz / h
        target, self._bend = even_bend(wx, wz, self._bend)
        self._track(self.spine, target)

    def _solve_neck(self, origin, q):
        look = _local(origin, q, self.targets["look"].position)
        base = NECK_POINTS[0]
        # From between the eyes: yaw about the neck, pitch down positive; within the look's limits.
        dx, dy, dz = look[0] - base[0], look[1] - (base[1] + NECK + 0.09), look[2] - (base[2] + 0.08)
        turn = max(-LOOK_YAW, min(LOOK_YAW, math.atan2(dx, dz)))
        pitch = max(-LOOK_UP, min(LOOK_DOWN, math.atan2(-dy, math.hypot(dx, dz))))
        whole = rot.multiply(yaw(turn), rot.from_axis_angle((1.0, 0.0, 0.0), pitch))
        if self.params["neck_method"] == "look":
            self._pose_neck(whole, origin, q)
            return
        half = rot.multiply(yaw(0.5 * turn), rot.from_axis_angle((1.0, 0.0, 0.0), 0.5 * pitch))
        n = rot.rotate(half, (0.0, NECK, 0.0))
        h = rot.rotate(whole, (0.0, HEAD, 0.0))
        top = (base[0] + n[0] + h[0], base[1] + n[1] + h[1], base[2] + n[2] + h[2])
        self._track(self.neck, top, orientation=whole)
        # The head's twist about its bone, which a position leaves free: turn the face to the look's.
        frames = self.neck.bound.frames()
        world = frames.worlds[-1]
        bone = rot.rotate(world, (0.0, 1.0, 0.0))
        twist = signed_angle(bone, rot.rotate(world, (0.0, 0.0, 1.0)), rot.rotate(whole, (0.0, 0.0, 1.0)))
        if abs(twist) > 1e-6:
            neck, head = frames.rotations
            self.neck.bound.set_rotations([neck, rot.multiply(head, yaw(twist))])

    def _pose_neck(self, whole, origin, q):
        """The neck under ``look``: the head turned by ``whole`` (in the chest's frame, ``origin`` and
        ``q`` in the world), each of the two joints by its half (:func:`ikcore.rotation.halve`), so
        that the head's rotation is ``whole`` itself. Within the look's limits (``LOOK_YAW``,
        ``LOOK_UP``, ``LOOK_DOWN``) both halves lie within the joints' cones and twists."""
        lap = self._lap
        t0 = time.perf_counter() if lap is None else lap
        bound = self.neck.bound
        kept = self._look
        if kept is not None and kept[0] == whole and bound.holds(kept[1].rotations):
            iterations = 0  # the same look, the neck still in the pose that gave it
        else:
            h = rot.halve(whole)
            (bx, by, bz), (nx, ny, nz), (hx, hy, hz) = NECK_POINTS[0], rot.rotate(h, (0.0, NECK, 0.0)), \
                rot.rotate(whole, (0.0, HEAD, 0.0))
            frames = Frames([h, h], [h, whole], [(bx, by, bz), (bx + nx, by + ny, bz + nz),
                                                 (bx + nx + hx, by + ny + hy, bz + nz + hz)])
            bound.take_frames(frames)
            self._look = kept = (whole, frames)
            self.neck.solution = None
            iterations = 1
        # The head's top where the look puts it, against the top's place through the skeleton.
        goal = self._goals["neck"].position = rot.transform_points([kept[1].points[-1]], origin, q)[0]
        self.neck.result = (CONVERGED, math.dist(bound.effector(), goal), iterations)
        self._timed(self.neck, lap, t0)

    def _wrist_goal(self):
        # The right wrist's goal in the world: the palm on the knob with the grip's rotation.
        knob = self.targets["knob"]
        back = rot.rotate(knob.orientation, (0.0, -PALM, 0.0))
        p = knob.position
        return (p[0] - back[0], p[1] - back[1], p[2] - back[2])

    def _solve_arm(self, limb, side, sign, origin, q):
        bound = limb.bound
        shoulder = arm_points(sign)[0]
        # Hanging: the arm 97% stretched toward a point below the shoulder (in the world), a little out and
        # forward of it. The world's down in the chest's frame is taken again only when the chest has
        # turned HANG_TURN from where it was: the arm rides the breath with the chest, and follows a lean.
        down = rot.rotate(rot.conjugate(q), (0.0, -1.0, 0.0))
        kept = self._hang_down[side]
        if kept is None or down[0] * kept[0] + down[1] * kept[1] + down[2] * kept[2] < HANG_TURN:
            kept = self._hang_down[side] = down
        hx, hy, hz = kept[0] + sign * 0.06, kept[1], kept[2] + 0.11
        k = 0.97 * ARM_REACH / math.sqrt(hx * hx + hy * hy + hz * hz)
        hang = (shoulder[0] + hx * k, shoulder[1] + hy * k, shoulder[2] + hz * k)
        weight = self.reach_weight if sign < 0 else 0.0
        hand = self.body.hands[side]
        if weight <= 0.0:
            self._track(limb, hang, pole=(sign * ELBOW_POLE[0],) + ELBOW_POLE[1:])
            if hand.rotation != rot.IDENTITY:
                hand.rotation = rot.IDENTITY
            return
        goal = _local(origin, q, self._wrist_goal())
        target = tuple(a + (b - a) * weight for a, b in zip(hang, goal))
        grip = rot.multiply(rot.conjugate(q), self.targets["knob"].orientation)
        pole = (sign * ELBOW_POLE[0],) + ELBOW_POLE[1:]
        knob = _local(origin, q, self.targets["knob"].position)
        tolerance = self.params["tolerance"] * limb.reach
        for _ in range(GRIP_PASSES):
            solution = self._track(limb, target, pole=pole)
            forearm = solution.frames.worlds[-1]
            want = rot.multiply(rot.conjugate(forearm), grip)
            if weight < 1.0:
                want = rot.normalize(tuple(a * weight + b * (1.0 - weight) for a, b in zip(want, rot.IDENTITY)))
            local = WRIST.clamp(want, WRIST_BONE)
            if local is want or weight < 1.0:
                break
            # The wrist's limits cut the grip: move the wrist so that the palm, turned as far as they
            # allow, still meets the knob (the forearm's new direction turns the hand again: a few passes).
            palm = rot.rotate(rot.multiply(forearm, local), (0.0, -PALM, 0.0))
            wx, wy, wz = solution.frames.points[-1]
            if math.dist((wx + palm[0], wy + palm[1], wz + palm[2]), knob) <= tolerance:
                break
            target = (knob[0] - palm[0], knob[1] - palm[1], knob[2] - palm[2])
        if local != hand.rotation:
            hand.rotation = local

    # -- output --------------------------------------------------------------------------------

    def hand_error(self):
        """How far the right palm is from the knob (metres)."""
        hand = self.body.hands["right"]
        palm = rot.rotate(hand.world_rotation, (0.0, -PALM, 0.0))
        p = hand.world_position
        return math.dist((p[0] + palm[0], p[1] + palm[1], p[2] + palm[2]), self.targets["knob"].position)

    def layout(self):
        out = super().layout()
        skin = {"offset": out["size"], "count": len(self.skin), "stride": SKIN_STRIDE}
        out["sections"]["skin"] = skin
        out["size"] += skin["count"] * SKIN_STRIDE
        out["skin"] = describe(self.skin, self._bind)
        out["door"] = self.door()
        return out

    def door(self):
        """``layout()["door"]``: the hinge edge's foot, the size, the facing and the knob at rest."""
        return {"hinge": [KNOB_X - KNOB_EDGE + DOOR_WIDTH, self.door_ground, DOOR_Z],
                "size": [DOOR_WIDTH, DOOR_HEIGHT, DOOR_THICKNESS], "yaw": DOOR_HEADING,
                "knob": list(self.knob_rest), "knob_radius": KNOB_RADIUS}

    def write(self, buf):
        size = super().write(buf)
        return write_skin(buf, size, self._skin_records)

    def terrain_info(self):
        return {"half": self.terrain.half, "resolution": 97, "seed": self.terrain.seed}

    def terrain_grid(self, resolution=97):
        """The terrain's heights for drawing (see :meth:`Terrain.grid`)."""
        return self.terrain.grid(resolution)

    def camera(self):
        return {"position": [2.6, 1.9, -1.4], "target": [0.0, 1.0, 0.9]}

    def bounds(self):
        x, z = self.walker.position
        knob = self.targets["knob"].position
        ground = self.terrain.height(x, z)
        return {"min": [min(x, knob[0]) - 0.8, ground - 0.1, min(z, knob[2]) - 0.8],
                "max": [max(x, knob[0]) + 0.8, ground + HEIGHT + 0.3, max(z, knob[2], DOOR_Z) + 0.3]}

    def extras(self):
        walker = self.walker
        if not self.params["reach"]:
            reach = "idle"
        elif walker.walking or walker.stepping:
            reach = "stepping"
        else:
            reach = "reaching"
        return {"humanoid": {"walking": walker.walking or walker.stepping, "reach": reach,
                             "reach_weight": self.reach_weight, "hand_error": self.hand_error(),
                             "position": list(walker.position), "heading": walker.heading,
                             "methods": {limb.name: self.chain_method(limb) for limb in self.limbs},
                             "feet": [{"planted": f.planted, "position": list(f.position), "heading": h}
                                      for f, h in zip(walker.gait.feet, self.foot_headings)],
                             "steps": walker.gait.steps}}
