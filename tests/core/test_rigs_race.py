"""The race replayed: each lane drawn iteration by iteration at the chart's pace, its pose after k iterations
that of its own solve, and the whole race within the box the page frames."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ikcore import IKError
from ikcore.rigs import make_scene
from ikcore.rigs.race import LANE, LANE_BOX, RACERS, TARGET_RADIUS, lane_box, lane_root

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


@settings(max_examples=60, deadline=None)
@given(hop=st.integers(0, 5000), columns=st.integers(1, 6))
def test_every_hop_target_lies_in_its_lanes_box(hop, columns):
    # By construction (HOPS and LANE_BOX): whatever hop it is, in whatever arrangement, widened by its radius.
    scene = SCENE
    x, y, z = scene._squash(scene.hops.point(hop))
    for k, lane in enumerate(scene.lanes):
        dx, _, dz = lane_root(k, columns)
        b = lane_box(k, columns)
        for axis, v in enumerate((x + dx, y, z + dz)):
            assert b["min"][axis] + TARGET_RADIUS <= v <= b["max"][axis] - TARGET_RADIUS, (hop, k, axis)


SCENE = make_scene("race")


@pytest.mark.parametrize("columns", range(1, 7))
def test_the_lanes_boxes_do_not_overlap_and_the_bounds_hold_them_all(columns):
    boxes = [lane_box(k, columns) for k in range(len(RACERS))]
    for a in range(len(boxes)):
        for b in range(a + 1, len(boxes)):
            apart = any(boxes[a]["max"][i] <= boxes[b]["min"][i] or boxes[b]["max"][i] <= boxes[a]["min"][i]
                        for i in range(3))
            assert apart, (columns, a, b)
    scene = make_scene("race")
    scene.set_params(columns=columns)
    bounds = scene.layout()["bounds"]
    # The bounds are the lanes' boxes together, nothing more.
    assert bounds["min"] == [min(b["min"][i] for b in boxes) for i in range(3)]
    assert bounds["max"] == [max(b["max"][i] for b in boxes) for i in range(3)]


def test_each_lane_decides_its_race_within_its_own_box_and_the_box_is_tight():
    """Over many races every target and every decided pose keeps within its lane's box, and what is drawn
    comes near each face of it: the box frames the race, not empty floor."""
    scene = make_scene("race")
    scene.set_params(rate=6000, pause=0.0, columns=3)
    seen = [[math.inf] * 3, [-math.inf] * 3]  # relative to the lane's root
    races = 0
    while scene.hop < 60:
        scene.step(DT)
        if not scene.replayed:
            continue
        races += 1
        for k, lane in enumerate(scene.lanes):
            b = lane_box(k, 3)
            root = lane_root(k, 3)
            radius = lane.limb.radii[0]
            points = [(p, radius) for p in lane.limb.bound.world_points()]
            points.append((scene.targets[lane.limb.target].position, TARGET_RADIUS))
            for p, r in points:
                for i in range(3):
                    assert b["min"][i] <= p[i] - r and p[i] + r <= b["max"][i], (lane.method, p, b)
                    seen[0][i] = min(seen[0][i], p[i] - r - root[i])
                    seen[1][i] = max(seen[1][i], p[i] + r - root[i])
    assert races >= 60
    reach = scene.lanes[0].limb.reach
    for i in range(3):
        assert LANE_BOX[0][i] * reach <= seen[0][i] < LANE_BOX[0][i] * reach + 0.12 * reach, (i, seen)
        assert LANE_BOX[1][i] * reach - 0.12 * reach < seen[1][i] <= LANE_BOX[1][i] * reach, (i, seen)


def test_the_targets_are_within_reach_but_now_and_then_just_out():
    scene = make_scene("race")
    reach = scene.lanes[0].limb.reach
    distances = [math.dist(scene._squash(scene.hops.point(k)), lane_root(0)) / reach for k in range(600)]
    out = sum(d > 1.0 for d in distances)
    assert 0.01 * len(distances) <= out <= 0.1 * len(distances), out
    assert max(distances) <= 1.13 and min(distances) >= 0.3


def test_lanes_rearranged_in_rows_keep_their_race():
    scene = make_scene("race")
    assert scene.params["columns"] == 6
    roots = [lane.limb.bound.world_points()[0] for lane in scene.lanes]
    # One row: every root on z = 0, a lane apart along x.
    assert all(r[2] == 0.0 for r in roots)
    assert [r[0] for r in roots] == pytest.approx([k * LANE * scene.lanes[0].limb.reach for k in range(6)])
    scene.set_target("target", GOAL)
    for _ in range(6):
        scene.step(DT)
    before = [(lane.errors, [tuple(p) for p in lane.limb.bound.local_points()]) for lane in scene.lanes]
    reached = [effector_error(scene, lane) for lane in scene.lanes]
    target = scene.targets["target"].position
    revision = scene.revision
    scene.set_params(columns=3)
    assert scene.revision == revision  # the same buffer, the lanes' frames moved
    roots = [lane.limb.bound.world_points()[0] for lane in scene.lanes]
    # Two rows of three, the second in front of the first.
    assert [r[2] for r in roots] == [0.0] * 3 + [roots[3][2]] * 3 and roots[3][2] > 0.0
    assert [r[0] for r in roots[:3]] == [r[0] for r in roots[3:]]
    # Lane 0 and its target stay; every other lane's target moved with its lane; the race went on.
    assert scene.targets["target"].position == target and roots[0] == (0.0, 0.0, 0.0)
    for k, lane in enumerate(scene.lanes):
        here = scene.targets[lane.limb.target].position
        assert math.dist([a - b for a, b in zip(here, roots[k])], target) < 1e-12
        assert (lane.errors, [tuple(p) for p in lane.limb.bound.local_points()]) == before[k]
        assert effector_error(scene, lane) == pytest.approx(reached[k], rel=1e-9, abs=1e-12)
    with pytest.raises(IKError, match="columns"):
        scene.set_params(columns=0)


def test_the_page_is_offered_each_arrangement_with_its_box_and_camera():
    scene = make_scene("race")
    layout = scene.layout()
    offered = layout["race"]["arrangements"]
    assert [a["columns"] for a in offered] == [1, 2, 3, 4, 5, 6]
    for a in offered:
        assert a["bounds"] == scene.bounds(a["columns"]) and a["camera"] == scene.camera(a["columns"])
        assert a["roots"] == [list(lane_root(k, a["columns"])) for k in range(6)]
        position, target = a["camera"]["position"], a["camera"]["target"]
        # Looking at the middle of the box, from the front (+z) and above.
        assert target == pytest.approx([(lo + hi) / 2 for lo, hi in zip(a["bounds"]["min"], a["bounds"]["max"])])
        assert position[0] == pytest.approx(target[0]) and position[1] > target[1] and position[2] > target[2]
    # One row: wide and shallow; rows behind one another: seen from higher up.
    wide, grid = offered[5], offered[2]
    extent = lambda b, i: b["max"][i] - b["min"][i]  # noqa: E731
    assert extent(wide["bounds"], 0) > 2.5 * extent(grid["bounds"], 0) / 1.5
    slope = lambda c: (c["position"][1] - c["target"][1]) / (c["position"][2] - c["target"][2])  # noqa: E731
    assert slope(grid["camera"]) > slope(wide["camera"])
    assert layout["param_specs"]["columns"]["panel"] is False


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
