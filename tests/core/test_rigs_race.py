"""The race replayed: each lane drawn iteration by iteration at the chart's pace, its pose after k iterations
that of its own solve, and the whole race within the box the page frames."""

import math

import pytest

from ikcore.rigs import make_scene
from ikcore.rigs.race import RACERS, lane_root

DT = 1.0 / 60.0
X0, _, Z0 = lane_root(0)
#: A target lane 0 reaches: every lane gets its copy.
GOAL = (X0 + 0.55, 0.9, Z0 + 0.5)


def effector_error(scene, lane):
    return math.dist(lane.limb.bound.effector(), scene.targets[lane.limb.target].position)


@pytest.mark.parametrize("rate", [4, 30])
def test_each_lane_is_replayed_iteration_by_iteration(rate):
    scene = make_scene("race")
    scene.set_params(rate=rate)
    scene.set_target("target", GOAL)
    seen = {lane.method: set() for lane in scene.lanes}
    while not scene.replayed:
        scene.step(DT)
        k = int(scene.elapsed * rate)
        for lane, chain in zip(scene.lanes, scene.state()["chains"]):
            if not lane.done:
                assert chain["status"] == "running"
                continue
            # Every lane is where the replay has got to: they race from the same start.
            assert lane.shown == min(k, lane.iterations)
            seen[lane.method].add(lane.shown)
            if lane.shown < lane.iterations:
                assert chain["status"] == "running" and chain["iterations"] == lane.shown
                assert chain["error"] == lane.errors[lane.shown]
                # The pose drawn is the solve's own after that many iterations: its error is the curve's.
                assert effector_error(scene, lane) == pytest.approx(lane.errors[lane.shown], rel=1e-9, abs=1e-12)
            else:
                assert chain["status"] == lane.status and chain["error"] == lane.errors[-1]
                assert effector_error(scene, lane) == pytest.approx(lane.errors[-1], rel=1e-9, abs=1e-12)
    slowest = max(lane.iterations for lane in scene.lanes)
    assert slowest >= 4
    if rate == 4:
        # Slow enough to see: every iteration of every lane was drawn on some frame.
        for lane in scene.lanes:
            assert seen[lane.method] == set(range(lane.iterations + 1)), lane.method
        assert scene.elapsed >= slowest / rate


def test_without_replay_a_lane_shows_its_result_once_solved():
    scene = make_scene("race")
    scene.set_params(replay=False)
    scene.set_target("target", GOAL)
    for n in range(1, 7):
        scene.step(DT)
        lane = scene.lanes[n - 1]
        assert lane.shown == lane.iterations
        assert effector_error(scene, lane) == pytest.approx(lane.errors[-1], rel=1e-9, abs=1e-12)
    assert scene.replayed


def test_the_replay_neither_times_nor_changes_a_lane_result():
    scene = make_scene("race")
    scene.set_target("target", GOAL)
    for _ in range(6):
        scene.step(DT)
    results = [(lane.limb.solution, lane.ms, list(lane.errors)) for lane in scene.lanes]
    while not scene.replayed:
        scene.step(DT)
    assert [(lane.limb.solution, lane.ms, lane.errors) for lane in scene.lanes] == results


def test_the_page_is_told_which_parameters_to_show():
    layout = make_scene("race").layout()
    # Every lane has its own method: the scene's is used by none; damping by the DLS lanes, whatever it is.
    assert layout["param_methods"] == {"method": []}
    assert {"damping", "tolerance", "max_iterations", "rate", "pause", "replay"} <= set(layout["param_specs"])
    assert [t["scripted"] for t in layout["targets"]] == [True] + [False] * (len(RACERS) - 1)
    arm = make_scene("arm").layout()
    assert arm["param_methods"] == {"damping": ["dls", "fabrik_dls"]}
    spider = make_scene("spider").layout()["param_methods"]
    assert "two_bone" not in spider["tolerance"] and "two_bone" not in spider["max_iterations"]
    assert "ccd" in spider["tolerance"] and spider["damping"] == ["dls", "fabrik_dls"]


def test_the_race_is_decided_within_its_bounds():
    # The targets, and the poses the lanes reach them in (what the camera frames: a solve may swing a chain
    # further out for an iteration on the way).
    scene = make_scene("race")
    scene.set_params(rate=6000, pause=0.0)
    bounds = scene.layout()["bounds"]
    inside = lambda p: all(lo <= v <= hi for lo, v, hi in zip(bounds["min"], p, bounds["max"]))  # noqa: E731
    races = 0
    while scene.hop < 40:
        scene.step(DT)
        for lane in scene.lanes:
            assert inside(scene.targets[lane.limb.target].position)
        if scene.replayed:
            races += 1
            for lane in scene.lanes:
                assert all(inside(p) for p in lane.limb.bound.world_points()), lane.method
    assert races >= 40


def test_lanes_stand_in_two_rows_of_three_apart_from_one_another():
    scene = make_scene("race")
    roots = [lane.limb.bound.world_points()[0] for lane in scene.lanes]
    assert [r[2] for r in roots] == [roots[0][2]] * 3 + [roots[3][2]] * 3 and roots[3][2] > roots[0][2]
    # Each lane's targets keep to its own part of the floor: no two lanes' boxes of targets overlap.
    reach = scene.lanes[0].limb.reach
    for a in range(6):
        for b in range(a + 1, 6):
            dx = abs(roots[a][0] - roots[b][0])
            dz = abs(roots[a][2] - roots[b][2])
            assert dx >= 2 * 0.35 * reach * 1.2 or dz >= 2 * 0.85 * reach, (a, b)


def test_with_scripted_motion_off_only_a_race_the_user_starts_is_replayed():
    scene = make_scene("race")
    scene.set_params(animate=False)
    for _ in range(6):
        scene.step(DT)
    assert scene.replayed  # the scene's own first race: shown decided, nothing moves by itself
    scene.set_target("target", GOAL)
    for _ in range(6):
        scene.step(DT)
    assert not scene.replayed and all(lane.shown < lane.iterations for lane in scene.lanes if lane.iterations > 1)
