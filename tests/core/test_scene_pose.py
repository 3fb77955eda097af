"""The page's "Download pose": every scene's pose, written as JSON text and read back by ikcore."""

import json
import math

import pytest

import ikcore
from ikcore import rotation as rot
from ikcore.pose import dump_pose, load_pose
from ikcore.rigs import CHAIN_SCENES, make_scene


def stepped(name, frames=12):
    scene = make_scene(name)
    for _ in range(frames):
        scene.step(1 / 30)
    return scene


@pytest.mark.parametrize("name", CHAIN_SCENES)
def test_scene_pose_round_trip(name):
    scene = stepped(name)
    text = json.dumps(scene.pose())
    pose = load_pose(text)
    assert pose.scene == name and pose.method == scene.params["method"]
    assert [c.name for c in pose.chains] == [limb.name for limb in scene.limbs]
    for limb, back in zip(scene.limbs, pose.chains):
        bound = limb.bound
        assert back.chain.points == bound.chain.points
        for a, b in zip(back.rotations, bound.rotations):
            assert rot.angle_between(a, b) < 1e-9
        # The world points are what the page draws: the bound nodes' world positions.
        for p, node in zip(back.world_positions, bound.nodes):
            assert math.dist(p, node.world_position) < 1e-9 * (1 + bound.chain.reach)
        # The chain can be solved again from the read pose, warm-started from its rotations.
        goal = back.positions[-1]
        sol = ikcore.solve(back.chain, goal, "fabrik", start=back.rotations, tolerance=1e-6 * back.chain.reach)
        assert sol.status == "converged"


def test_spider_legs_carry_the_body_frame():
    scene = stepped("spider", 20)
    pose = load_pose(json.dumps(scene.pose()))
    frames = {c.frame for c in pose.chains}
    # Legs hang from the moving body: a frame that is not the world's.
    assert all(f != ((0.0, 0.0, 0.0), rot.IDENTITY) for f in frames)


def arm():
    return ikcore.Chain([(0, 0, 0), (0, 1, 0), (0, 2, 0)], [ikcore.Hinge((1, 0, 0), -90, 90), None])


def framed():
    q = rot.from_axis_angle((0, 1, 0), 0.7)
    return dump_pose("arm", "ccd", [("arm", arm(), [rot.from_axis_angle((1, 0, 0), 0.4), rot.IDENTITY],
                                     ((1.0, 2.0, 3.0), q))])


def test_frame_and_world_positions():
    data = framed()
    pose = load_pose(json.dumps(data))
    back = pose["arm"]
    assert back.world_positions[0] == pytest.approx((1.0, 2.0, 3.0))
    for p, w in zip(back.positions, back.world_positions):
        assert math.dist(p, (0, 0, 0)) == pytest.approx(math.dist(w, (1, 2, 3)))
    # A pose without a frame: the world's.
    del data["chains"][0]["frame"], data["chains"][0]["world_positions"]
    plain = load_pose(data)["arm"]
    assert plain.world_positions == plain.positions


@pytest.mark.parametrize("mutate, match", [
    (lambda c: c.update(frame=[1, 2, 3]), r"chains\[0\]\.frame must be an object"),
    (lambda c: c["frame"].update(rotation=[0, 0, 0, 0]), r"chains\[0\]\.frame\.rotation"),
    (lambda c: c["frame"].update(position=[0, float("inf"), 0]), r"chains\[0\]\.frame\.position"),
    (lambda c: c["world_positions"][1].__setitem__(1, 5.0), r"chains\[0\]\.world_positions\[1\] does not match"),
    (lambda c: c.update(world_positions=[[0, 0, 0]]), r"world_positions must hold 3 points"),
    (lambda c: c.pop("frame"), r"world_positions needs chains\[0\]\.frame"),
    (lambda c: c["rotations"].__setitem__(0, "q"), r"rotations"),
])
def test_bad_frames_raise_naming_the_value(mutate, match):
    data = framed()
    mutate(data["chains"][0])
    with pytest.raises(ikcore.IKError, match=match):
        load_pose(json.dumps(data))


def test_the_largest_crowd_s_pose_reads_back():
    # 400 spiders of 8 legs: 3200 chains, each a leg, which load_pose takes back.
    scene = make_scene("crowd", count=400)
    scene.step(1 / 60)
    pose = ikcore.load_pose(json.dumps(scene.pose()))
    assert len(pose.chains) == 3200
