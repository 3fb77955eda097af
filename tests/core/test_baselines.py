"""``ikcore.rigs.baselines``: the work a scene's frame is measured against does what it says, for the
scene's own chains and legs; ``ikcore.rigs.timing.against_baseline`` times the two in turn."""

import math

import pytest

from ikcore import kinematics
from ikcore.rigs import baselines, make_scene, timing


def crowd(constraints=True, frames=30):
    scene = make_scene("crowd", count=12)
    scene.set_params(constraints=constraints)
    for _ in range(frames):
        scene.step(1 / 60)
    return scene


@pytest.mark.parametrize("constraints", [True, False])
def test_the_bare_legs_solve_the_crowds_own_legs(constraints):
    scene = crowd(constraints)
    call, count = baselines.bare_legs(scene)
    assert count == scene.legs.count == 8 * 12
    feet = call()
    leg = scene.legs.kernels[constraints]
    for n in range(count):
        # The crowd's targets are in its legs' plane coordinates: from the femur's root.
        target = (scene.legs.xs[n], scene.legs.ys[n], scene.legs.zs[n])
        d = math.hypot(*target)
        # The foot lies along the target's direction, at its distance held within the leg's shell.
        held = min(max(d, abs(leg.l1 - leg.l2)), leg.l1 + leg.l2)
        assert feet[n] == pytest.approx(tuple(held * c / d for c in target), abs=1e-12)


def test_the_bare_two_bone_bends_its_knee_toward_the_pole():
    knees, feet = [None] * 3, [None] * 3
    xs, ys, zs = [1.2, 0.3, 5.0], [0.0, 0.4, 0.0], [0.0, 0.0, 0.0]
    px, py, pz = [0.5, 0.0, 0.0], [1.0, 1.0, -1.0], [0.0, 0.5, 0.0]
    baselines.bare_two_bone(xs, ys, zs, px, py, pz, 1.0, 0.7, knees, feet)
    for k in range(3):
        assert math.dist((0.0, 0.0, 0.0), knees[k]) == pytest.approx(1.0)
        assert math.dist(knees[k], feet[k]) == pytest.approx(0.7)
        # The knee on the pole's side of the line to the target.
        d = math.hypot(xs[k], ys[k], zs[k])
        u = (xs[k] / d, ys[k] / d, zs[k] / d)
        along = sum(a * b for a, b in zip(knees[k], u))
        across = [a - along * b for a, b in zip(knees[k], u)]
        pole = (px[k], py[k], pz[k])
        assert sum(a * b for a, b in zip(across, pole)) >= -1e-12
    assert feet[2] == pytest.approx((1.7, 0.0, 0.0))  # out of reach: stretched toward it


def test_the_forward_pass_poses_every_chain_as_it_stands():
    scene = make_scene("spider")
    for _ in range(10):
        scene.step(1 / 60)
    call, count = baselines.forward_pass(scene)
    assert count == len(scene.limbs) == 8
    for limb, (_, points) in zip(scene.limbs, call()):
        expected = kinematics.forward(limb.bound.chain, list(limb.bound.rotations))
        assert [c for p in points for c in p] == pytest.approx([c for p in expected for c in p], abs=1e-12)
        # Posed, not at rest: the legs bent to their feet.
        rest = limb.bound.chain.points
        assert max(math.dist(p, q) for p, q in zip(points, rest)) > 1e-3


def test_each_scene_has_its_baseline():
    what, _ = baselines.baseline(crowd(frames=1))
    assert what == "the bare two-bone maths for its 96 legs"
    assert baselines.baseline(make_scene("robot"))[0] == "one forward pass of its 1 chain"
    assert baselines.baseline(make_scene("tentacles"))[0] == "one forward pass of its 4 chains"
    with pytest.raises(ValueError, match="no chains"):
        baselines.baseline(baselines.EmptyScene())


def test_an_empty_frame_steps_and_writes_nothing():
    scene = baselines.EmptyScene()
    buf = scene.allocate()
    for _ in range(3):
        scene.step(1 / 60)
        assert scene.write(buf) == 0
    assert scene.frame == 3 and len(buf) == 0


def test_seconds_per_call_grows_with_the_work():
    small = baselines.seconds_per_call(lambda: sum(range(100)), least=0.005)
    large = baselines.seconds_per_call(lambda: sum(range(10000)), least=0.005)
    assert 0.0 < small < large


def test_a_frame_against_its_baseline_is_timed_in_turns():
    r = timing.against_baseline("crowd", frames=5, rounds=3, warmup=2, count=5)
    assert r["what"] == "the bare two-bone maths for its 40 legs"
    assert len(r["rounds"]) == 3 and all(f > 0.0 and b > 0.0 for f, b in r["rounds"])
    assert r["ratio"] == pytest.approx(sorted(f / b for f, b in r["rounds"])[1])


def test_a_joint_of_the_forward_pass_is_a_small_positive_time():
    joint = baselines.joint_seconds()
    arm_pass = baselines.seconds_per_call(baselines.forward_pass(make_scene("robot"))[0], least=0.005)
    # The robot's chain is the same arm: its forward pass is about seven joints.
    assert 0.0 < joint < arm_pass < 20 * joint
