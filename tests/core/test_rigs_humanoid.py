"""The humanoid scene, headless: standing, walking, reaching, looking, over thousands of frames."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ikcore import IKError
from ikcore import rotation as rot
from ikcore.rigs import make_scene
from ikcore.rigs.humanoid import LOOK_DOWN, LOOK_UP, LOOK_YAW, NECK_METHODS, HumanoidScene
from ikcore.rigs.humanoid_legs import ClosedLeg
from ikcore.rigs.humanoid_rig import (ANKLE, ANKLE_BONE, ANKLE_HEIGHT, HEIGHT, HIP, LEG_REACH, WRIST, WRIST_BONE,
                                      neck_joints)
from ikcore.rigs.spider import yaw

CHAINS = ["left_leg", "right_leg", "spine", "neck", "left_arm", "right_arm"]


def sole(scene, side):
    """The sole's point under the ankle, in the world."""
    node = scene.body.feet[side]
    up = rot.rotate(node.world_rotation, (0.0, 1.0, 0.0))
    return tuple(p - ANKLE_HEIGHT * u for p, u in zip(node.world_position, up))


def test_layout_chains_skin_and_door():
    scene = make_scene("humanoid")
    layout = scene.layout()
    assert [c["name"] for c in layout["chains"]] == CHAINS
    bones = layout["skin"]["bones"]
    names = [b["name"] for b in bones]
    for name in ("pelvis", "spine_1", "neck", "head", "left_clavicle", "right_upper_arm", "left_forearm", "right_hand", "left_thigh",
                 "right_shin", "left_foot"):
        assert name in names
    assert all(b["parent"] < i for i, b in enumerate(bones))
    assert bones[0]["parent"] == -1
    skin = layout["sections"]["skin"]
    assert skin["stride"] == 7 and skin["count"] == len(bones)
    assert skin["offset"] + 7 * len(bones) == layout["size"]
    door = layout["door"]
    assert set(door) == {"hinge", "size", "yaw", "knob", "knob_radius"}
    targets = {t["name"]: t for t in layout["targets"]}
    assert targets["knob"]["draggable"] and targets["knob"]["oriented"]
    assert targets["look"]["draggable"] and targets["pelvis"]["draggable"]
    assert not targets["foot_l"]["draggable"]
    assert 1.65 < HEIGHT < 1.85


def test_skin_records_follow_the_nodes():
    scene = make_scene("humanoid")
    buf = scene.allocate()
    for _ in range(30):
        scene.step(1 / 60)
    assert scene.write(buf) == len(buf)
    layout = scene.layout()
    offset = layout["sections"]["skin"]["offset"]
    bones = layout["skin"]["bones"]
    records = [buf[offset + 7 * i: offset + 7 * i + 7] for i in range(len(bones))]
    by_name = {b["name"]: (b, r) for b, r in zip(bones, records)}
    # A bone's end (its frame's +Y times its length) is where its child starts.
    for child, parent in (("left_shin", "left_thigh"), ("right_forearm", "right_upper_arm"), ("head", "neck"),
                          ("left_upper_arm", "left_clavicle"), ("right_foot", "right_shin")):
        bone, rec = by_name[parent]
        end = [p + bone["length"] * d for p, d in zip(rec[:3], rot.rotate(tuple(rec[3:]), (0.0, 1.0, 0.0)))]
        assert math.dist(end, by_name[child][1][:3]) < 1e-9 or child == "right_foot"
    # Every frame's +Z is the front: the character walks toward +Z, so the pelvis's +Z points forward, and
    # the thighs' (bent a little at the hip) mostly so; a foot's +Z is its up.
    for name, least in (("pelvis", 0.95), ("left_thigh", 0.5), ("spine_3", 0.8)):
        assert rot.rotate(tuple(by_name[name][1][3:]), (0.0, 0.0, 1.0))[2] > least, name
    assert rot.rotate(tuple(by_name["right_foot"][1][3:]), (0.0, 0.0, 1.0))[1] > 0.8
    assert rot.rotate(tuple(by_name["right_foot"][1][3:]), (0.0, 1.0, 0.0))[2] > 0.8


def run(scene, frames, check):
    buf = scene.allocate()
    for _ in range(frames):
        scene.step(1 / 60)
        scene.write(buf)
        check(scene, buf)


@pytest.mark.parametrize("method", HumanoidScene.methods)
def test_stands_walks_and_reaches(method):
    scene = make_scene("humanoid")
    # The neck by the panel's method too (its own default, the look in closed form, is in every other test).
    scene.set_params(method=method, neck_method=method)
    planted = {}
    seen = {"walked": False, "reached": 0, "steps": 0}

    def check(scene, buf):
        assert all(math.isfinite(x) for x in buf)
        human = scene.state()["humanoid"]
        seen["walked"] |= human["walking"]
        invariants(scene, planted)
        for side in ("left", "right"):
            assert ANKLE.violation(scene.body.feet[side].rotation, ANKLE_BONE) <= 1e-9
            assert WRIST.violation(scene.body.hands[side].rotation, WRIST_BONE) <= 1e-9
        if human["reach"] == "reaching" and scene.reach_weight == 1.0:
            seen["reached"] += 1
            assert scene.hand_error() <= scene.params["tolerance"] * scene.arms[1].reach * (1 + 1e-9)

    run(scene, 900, check)
    assert seen["walked"] and seen["reached"] > 200
    assert scene.walker.gait.steps >= 4


def test_bad_parameters_raise():
    scene = make_scene("humanoid")
    with pytest.raises(IKError):
        scene.set_params(leg_method="jacobian")
    with pytest.raises(IKError):
        scene.set_params(neck_method="pseudo_inverse")
    with pytest.raises(IKError):
        scene.set_params(method="pseudo_inverse")
    with pytest.raises(IKError):
        scene.set_target("knob", (100.0, 1.0, 0.0))
    with pytest.raises(IKError):
        scene.set_target("foot_l", (0.0, 0.0, 0.0))
    with pytest.raises(IKError):
        make_scene("humanoid", seed=-1)


def invariants(scene, planted):
    """What holds on every frame: feet planted on the ground without sliding, every joint within its
    limits, knees bending forward, nothing NaN."""
    for side, foot in zip(("left", "right"), scene.walker.gait.feet):
        ankle = scene.body.legs[side].effector()
        if foot.planted:
            x, y, z = sole(scene, side)
            assert abs(y - scene.terrain.height(x, z)) <= 1e-3
            # Not sliding: the point it stands on stays put, and the ankle within 1 mm of its place over it.
            assert planted.setdefault(side, foot.position) == foot.position
            assert math.dist(scene.targets["foot_" + side[0]].position, ankle) <= 1e-3
        else:
            planted.pop(side, None)
    for limb in scene.limbs:
        assert max(limb.bound.limited_chain.violations(limb.bound.rotations)) <= 1e-9, limb.name
        assert all(math.isfinite(c) for p in limb.bound.world_points() for c in p)
    for leg in scene.legs:
        assert leg.bound.limited_chain.joints[1].angle(leg.bound.rotations[1]) >= -1e-9


@pytest.mark.parametrize("leg_method", ["fabrik", "ccd", "dls", "fabrik_dls"])
def test_every_leg_method_keeps_the_feet_planted(leg_method):
    scene = make_scene("humanoid")
    scene.set_params(leg_method=leg_method)
    planted = {}
    for _ in range(500):
        scene.step(1 / 60)
        invariants(scene, planted)
    assert scene.walker.gait.steps >= 4 and scene.state()["humanoid"]["reach"] == "reaching"


def settle(scene, frames):
    for _ in range(frames):
        scene.step(1 / 60)


def test_spine_leans_only_when_the_arm_falls_short():
    scene = make_scene("humanoid")
    settle(scene, 500)
    pelvis = scene.body.pelvis
    rest_chest = scene.body.chest.world_position
    knob = scene.targets["knob"].position
    assert scene.hand_error() < 1e-3
    # A knob low and deep enough that the arm alone cannot take it: the character does not walk (the
    # spot moves by less than it walks for) but the chest comes down and forward toward it.
    scene.set_target("knob", (knob[0], knob[1] - 0.2, knob[2] + 0.08))
    settle(scene, 240)
    assert not scene.state()["humanoid"]["walking"]
    chest = scene.body.chest.world_position
    assert chest[2] - rest_chest[2] > 0.05 and chest[1] < rest_chest[1] - 0.02
    assert scene.hand_error() < 1e-3
    assert pelvis.world_position[1] > 0.5


def test_steps_to_a_knob_beyond_reach_then_reaches():
    scene = make_scene("humanoid")
    settle(scene, 500)
    start = list(scene.walker.position)
    steps = scene.walker.gait.steps
    knob = scene.targets["knob"].position
    scene.set_target("knob", (knob[0] - 1.2, knob[1], knob[2] - 0.5))
    planted = {}
    airborne = 0
    for frame in range(700):
        scene.step(1 / 60)
        invariants(scene, planted)
        feet = scene.walker.gait.feet
        assert not (feet[0].stepping and feet[1].stepping)  # one foot at a time
        airborne += feet[0].stepping or feet[1].stepping
    assert scene.walker.gait.steps - steps >= 4 and airborne > 30
    assert math.dist(scene.walker.position, start) > 1.0
    assert scene.state()["humanoid"]["reach"] == "reaching" and scene.hand_error() < 1e-3


@pytest.mark.parametrize("neck_method", NECK_METHODS)
def test_head_looks_at_the_look_target_within_the_neck(neck_method):
    scene = make_scene("humanoid")
    scene.set_params(neck_method=neck_method)
    settle(scene, 500)
    head = scene.body.neck.nodes[1]

    def face():
        return rot.rotate(head.world_rotation, (0.0, 0.0, 1.0))

    eye = head.world_position
    for goal in ((eye[0] + 1.0, eye[1], eye[2] + 1.0), (eye[0] - 0.8, eye[1] - 0.5, eye[2] + 1.0)):
        scene.set_target("look", goal)
        settle(scene, 60)
        d = [g - e for g, e in zip(goal, head.world_position)]
        n = math.hypot(*d)
        assert sum(a * b / n for a, b in zip(face(), d)) > math.cos(math.radians(12.0))
    # Behind the character: beyond the neck's limits, the head stops at them.
    scene.set_target("look", (eye[0], eye[1], eye[2] - 2.0))
    settle(scene, 60)
    neck = scene.body.neck
    assert max(neck.limited_chain.violations(neck.rotations)) <= 1e-9
    assert face()[2] > 0.0


@settings(max_examples=300, deadline=None)
@given(st.floats(-LOOK_YAW, LOOK_YAW), st.floats(-LOOK_UP, LOOK_DOWN))
def test_the_looks_halves_keep_within_the_necks_limits(turn, pitch):
    """Posed in closed form, the neck's two joints each take half the look's rotation: over the whole
    range of the look (its turn and nod as the scene clamps them) the halves lie within the joints'
    cones and twists, and together turn the head by the look."""
    whole = rot.multiply(yaw(turn), rot.from_axis_angle((1.0, 0.0, 0.0), pitch))
    half = rot.halve(whole)
    neck, head = neck_joints()
    up = (0.0, 1.0, 0.0)
    assert neck.violation(half, up) == 0.0 and head.violation(half, up) == 0.0
    assert rot.angle_between(rot.multiply(half, half), whole) <= 1e-12


def test_the_look_in_closed_form_reports_the_neck():
    scene = make_scene("humanoid")
    settle(scene, 200)
    neck = next(c for c in scene.state()["chains"] if c["name"] == "neck")
    assert scene.state()["humanoid"]["methods"]["neck"] == "look"
    assert neck["status"] == "converged" and neck["error"] < 1e-12 and neck["iterations"] in (0, 1)
    assert math.dist(neck["effector"], neck["target"]) < 1e-12


def test_pelvis_target_crouches_and_release_stands_up():
    scene = make_scene("humanoid")
    settle(scene, 500)
    standing = scene.body.pelvis.world_position[1]
    scene.set_target("pelvis", (0.0, standing - 0.25, 0.0))
    settle(scene, 90)
    assert abs(scene.body.pelvis.world_position[1] - (standing - 0.25)) < 0.02
    assert scene.hand_error() < 1e-3
    scene.release("pelvis")
    settle(scene, 90)
    assert abs(scene.body.pelvis.world_position[1] - standing) < 0.02


def test_reach_off_hangs_both_arms_and_idles():
    scene = make_scene("humanoid")
    settle(scene, 500)
    scene.set_params(reach=False)
    settle(scene, 60)
    state = scene.state()["humanoid"]
    assert state["reach"] == "idle" and not state["walking"]
    for side in ("left", "right"):
        shoulder, elbow, wrist = scene.body.arms[side].world_points()
        assert wrist[1] < shoulder[1] - 0.45


@settings(max_examples=min(5, settings().max_examples), deadline=None)
@given(dx=st.floats(-0.9, 0.9), dy=st.floats(-0.25, 0.3), dz=st.floats(-0.8, 0.0),
       method=st.sampled_from(HumanoidScene.methods))
def test_any_knob_near_the_door_is_reached(dx, dy, dz, method):
    scene = make_scene("humanoid")
    scene.set_params(method=method)
    x, y, z = scene.targets["knob"].position
    scene.set_target("knob", (x + dx, y + dy, z + dz))
    planted = {}
    for _ in range(720):
        scene.step(1 / 60)
        invariants(scene, planted)
    assert scene.state()["humanoid"]["reach"] == "reaching"
    assert scene.hand_error() <= scene.params["tolerance"] * scene.arms[1].reach * (1 + 1e-9)


def test_bind_pose_is_an_a_pose_standing_straight():
    layout = make_scene("humanoid").layout()
    bones = layout["skin"]["bones"]
    rest = {b["name"]: r for b, r in zip(bones, layout["skin"]["rest"])}
    assert len(layout["skin"]["rest"]) == len(bones) and all(len(r) == 7 for r in rest.values())
    # Legs straight down, the pelvis at standing height, the feet's soles on y = 0.
    for name in ("left_thigh", "right_shin"):
        assert rot.rotate(tuple(rest[name][3:]), (0.0, 1.0, 0.0))[1] < -0.999
    foot = rest["left_foot"]
    assert abs(foot[1] - ANKLE_HEIGHT) < 1e-9
    # Arms out from the body: the left hand's bone runs down and toward +x, the right's toward -x.
    for name, sign in (("left_upper_arm", 1.0), ("right_upper_arm", -1.0)):
        along = rot.rotate(tuple(rest[name][3:]), (0.0, 1.0, 0.0))
        assert along[1] < -0.9 and sign * along[0] > 0.15
    top = rest["head"][1] + bones[[b["name"] for b in bones].index("head")]["length"]
    assert abs(top - HEIGHT) < 1e-9


def test_animate_off_stands_until_the_knob_is_placed():
    scene = make_scene("humanoid")
    settle(scene, 60)
    scene.set_params(animate=False)
    settle(scene, 60)
    where = list(scene.walker.position)
    settle(scene, 120)
    assert scene.walker.position == where and not scene.state()["humanoid"]["walking"]
    knob = scene.targets["knob"].position
    scene.set_target("knob", knob)
    settle(scene, 60)
    assert math.dist(scene.walker.position, where) > 0.1


@given(st.floats(-0.4, 0.4), st.floats(0.2, 0.95), st.floats(-0.5, 0.5))
@settings(max_examples=60, deadline=None)
def test_closed_form_legs_give_the_general_two_bone_pose(dx, down, dz):
    # The legs' closed form (ikcore.rigs.humanoid_legs) is the general two_bone method's answer with the
    # same pole, or None where that answer is not exact within the limits.
    limb = make_scene("humanoid").legs[0]
    chain = limb.bound.limited_chain
    pole = (HIP[0], HIP[1] - 0.5 * LEG_REACH, 0.6)
    target = (HIP[0] + dx, HIP[1] - down, dz)
    posed = ClosedLeg(chain).pose(target, pole)
    general = limb.bound.tracker("two_bone", pole=pole, local=True, tolerance=1e-9).solve_from(target)
    if posed is None:
        # Out of reach, or the limits cut the pose: the same closed form without the limits is then
        # none too, or not the general method's (limited) answer.
        free = ClosedLeg(chain.free()).pose(target, pole)
        assert free is None or general.status != "converged" or max(
            math.dist(a, b) for a, b in zip(free[0].points, general.frames.points)) > 1e-9
        return
    frames, error = posed
    assert error < 1e-12 and general.status == "converged"
    for ours, theirs in zip(frames.points, general.frames.points):
        assert math.dist(ours, theirs) < 1e-9
    assert all(abs(a - b) < 1e-9 or abs(a + b) < 1e-9 for q, r in zip(frames.rotations, general.rotations)
               for a, b in zip(q, r))
