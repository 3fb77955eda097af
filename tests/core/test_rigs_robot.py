"""The robot scene and its arm, headless: the Panda-like chain against the published Denavit-Hartenberg
frames, the obstacle swung clear of (and passed through when avoid_obstacle is off) with the hand held, the
chain records' measures, the objectives' switches."""

import math
import random

import pytest

import ikcore

from ikcore import rotation as rot
from ikcore.objectives.avoid_sphere import clearance
from ikcore.rigs import make_scene, panda
from ikcore.rigs.panda import DH, LIMITS, READY, dh_frames, rotations, to_y_up

DT = 1 / 60


@pytest.mark.parametrize("seed", range(3))
def test_panda_follows_its_published_kinematics(seed):
    # Every joint axis and the flange, in any in-limit pose, where the DH parameters put them (joints 1 and 5
    # moved along their own axes only); the flange's turn from rest is its DH rotation times the rest's inverse.
    rng = random.Random(seed)
    arm, ready = panda()
    angles = [rng.uniform(lo, hi) for lo, hi in LIMITS]
    frames = dh_frames(angles)
    points = arm.forward(rotations(arm, angles))
    worlds = arm.world_rotations(rotations(arm, angles))
    for j in range(7):
        origin, axis, _ = frames[j]
        p, a = to_y_up(origin), to_y_up(axis)
        # The chain's joint j lies on the DH axis of joint j, which its own hinge axis follows.
        off = [x - y for x, y in zip(points[j], p)]
        along = sum(o * c for o, c in zip(off, a))
        assert math.dist(off, [along * c for c in a]) < 1e-9
        world_axis = rot.rotate(worlds[j - 1], arm.joints[j].axis) if j else arm.joints[0].axis
        assert world_axis == pytest.approx(a, abs=1e-12)
    assert points[-1] == pytest.approx(to_y_up(frames[-1][0]), abs=1e-12)
    rest = dh_frames([0.0] * 7)[-1][2]
    flange = frames[-1][2]
    # The world turn from the rest flange to this one, as a matrix in Panda coordinates: F R0^T.
    turn_panda = [[sum(flange[i][k] * rest[j][k] for k in range(3)) for j in range(3)] for i in range(3)]
    for e in ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)):
        moved = [sum(turn_panda[i][k] * e[k] for k in range(3)) for i in range(3)]
        assert rot.rotate(worlds[-1], to_y_up(e)) == pytest.approx(to_y_up(moved), abs=1e-12)
    assert len(DH) == 8 and min(math.dist(a, b) for a, b in zip(points, points[1:])) > 0.05
    assert [arm.joints[j].angle(q) for j, q in enumerate(ready)] == pytest.approx(READY)


def elbow_scene(avoid):
    """The robot held still, the obstacle dropped on its elbow, 90 frames solved."""
    scene = make_scene("robot")
    scene.set_params(animate=False, avoid_obstacle=avoid)
    buf = scene.allocate()
    scene.step(DT)
    hand = scene.state()["chains"][0]["effector"]
    elbow = scene.arm.bound.frames().points[3]
    scene.set_target("obstacle", elbow)
    for _ in range(90):
        scene.step(DT)
        scene.write(buf)
    return scene, buf, hand


def test_the_elbow_swings_clear_of_the_obstacle_while_the_hand_holds():
    scene, buf, hand = elbow_scene(True)
    chain = scene.state()["chains"][0]
    assert chain["status"] == "converged"
    assert chain["clearance"] > 0.03
    assert math.dist(chain["effector"], hand) < 2e-3
    assert scene.arm.solution.orientation_error < 2e-2
    # The record carries the same measures: after the chain's four floats.
    layout = scene.layout()
    assert layout["chain_measures"] == ["clearance", "limit_margin"]
    at = layout["sections"]["chains"]["offset"] + 4
    assert buf[at] == pytest.approx(chain["clearance"]) and buf[at + 1] == pytest.approx(chain["limit_margin"])
    frames = scene.arm.bound.frames()
    assert chain["clearance"] == pytest.approx(clearance(frames.points, scene.targets["obstacle"].position, 0.1))
    assert 0.0 < chain["limit_margin"] <= 0.5


def test_without_avoidance_the_arm_passes_through_the_obstacle():
    scene, _, hand = elbow_scene(False)
    chain = scene.state()["chains"][0]
    assert chain["status"] == "converged"
    assert chain["clearance"] < 0.0
    assert math.dist(chain["effector"], hand) < 2e-3


def test_switches_pick_the_objectives_and_their_weights():
    scene = make_scene("robot")
    assert scene.method_options("dls")["secondary"] == [scene.sphere]
    scene.set_params(avoid_obstacle=False, away_from_limits=True, toward_rest=True, toward_rest_weight=2.5)
    names = [(type(o).__name__, o.weight) for o in scene.method_options("dls")["secondary"]]
    assert names == [("AwayFromLimits", 1.0), ("TowardRest", 2.5)]
    scene.set_params(away_from_limits=False, toward_rest=False)
    assert "secondary" not in scene.method_options("dls")
    # Only the methods that take secondary objectives are offered.
    assert set(scene.methods) <= {"dls", "pseudo_inverse", "fabrik_dls", "jacobian_transpose"}


def test_panda_solve_rate_on_6d_targets():
    # The robot-grade rate on a lean sample of the benchmark's own targets (tests/bench/robot.py runs 2000):
    # from the ready pose, within 1e-4 m and 1e-3 rad, at most one miss in 200.
    arm, ready = panda()
    rng = random.Random(11)
    met = 0
    for _ in range(200):
        pose = rotations(arm, [rng.uniform(lo, hi) for lo, hi in LIMITS])
        sol = ikcore.solve(arm, arm.forward(pose)[-1], "dls", orientation=arm.world_rotations(pose)[-1],
                           start=ready, tolerance=1e-4, max_iterations=1000)
        met += sol.error <= 1e-4 and sol.orientation_error <= 1e-3
    assert met >= 199, met
