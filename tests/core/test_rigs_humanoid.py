"""The humanoid scene, headless: standing, walking, reaching, looking, over thousands of frames."""

import math

import pytest

from ikcore import IKError
from ikcore import rotation as rot
from ikcore.rigs import make_scene
from ikcore.rigs.humanoid import HumanoidScene
from ikcore.rigs.humanoid_rig import ANKLE, ANKLE_BONE, ANKLE_HEIGHT, HEIGHT, WRIST, WRIST_BONE

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
    for name in ("pelvis", "spine_1", "neck", "head", "clavicle_l", "upper_arm_r", "forearm_l", "hand_r", "thigh_l",
                 "shin_r", "foot_l"):
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
    for child, parent in (("shin_l", "thigh_l"), ("forearm_r", "upper_arm_r"), ("head", "neck"),
                          ("upper_arm_l", "clavicle_l"), ("foot_r", "shin_r")):
        bone, rec = by_name[parent]
        end = [p + bone["length"] * d for p, d in zip(rec[:3], rot.rotate(tuple(rec[3:]), (0.0, 1.0, 0.0)))]
        assert math.dist(end, by_name[child][1][:3]) < 1e-9 or child == "foot_r"
    # Every frame's +Z is the front: at rest the character faces +Z, so the thighs' +Z points forward.
    front = rot.rotate(tuple(by_name["thigh_l"][1][3:]), (0.0, 0.0, 1.0))
    assert front[2] > 0.8


def run(scene, frames, check):
    buf = scene.allocate()
    for _ in range(frames):
        scene.step(1 / 60)
        scene.write(buf)
        check(scene, buf)


@pytest.mark.parametrize("method", HumanoidScene.methods)
def test_stands_walks_and_reaches(method):
    scene = make_scene("humanoid")
    scene.set_params(method=method)
    planted = {}
    seen = {"walked": False, "reached": 0, "steps": 0}

    def check(scene, buf):
        assert all(math.isfinite(x) for x in buf)
        state = scene.state()
        human = state["humanoid"]
        seen["walked"] |= human["walking"]
        for side, foot in zip(("left", "right"), scene.walker.gait.feet):
            ankle = scene.body.legs[side].effector()
            if foot.planted:
                x, y, z = sole(scene, side)
                assert abs(y - scene.terrain.height(x, z)) <= 1e-3
                kept = planted.setdefault(side, ankle)
                assert math.dist(kept, ankle) <= 1e-3
            else:
                planted.pop(side, None)
        for limb in scene.limbs:
            chain = limb.bound.limited_chain
            assert max(chain.violations(limb.bound.rotations)) <= 1e-9, limb.name
        for leg in scene.legs:
            knee = leg.bound.limited_chain.joints[1]
            assert knee.angle(leg.bound.rotations[1]) >= -1e-9
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
        scene.set_params(method="pseudo_inverse")
    with pytest.raises(IKError):
        scene.set_target("knob", (100.0, 1.0, 0.0))
    with pytest.raises(IKError):
        scene.set_target("foot_l", (0.0, 0.0, 0.0))
    with pytest.raises(IKError):
        make_scene("humanoid", seed=-1)
