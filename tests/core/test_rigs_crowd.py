"""The crowd: many spiders, every leg solved in one call a frame; feet on the ground, legs within limits."""

import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ikcore
from ikcore.pose import load_pose
from ikcore.rigs import make_scene
from ikcore.rigs.crowd import BODY_COLUMNS, LEG_COLUMNS, MAX_COUNT, CrowdScene
from ikcore.rigs.heightgrid import HeightGrid
from ikcore.rigs.spider import YAW_RANGE
from ikcore.rigs.terrain import Terrain

DT = 1.0 / 60.0
FRAMES = 600


class Walk:
    """600 frames of the default crowd (100 spiders), checked frame by frame."""

    def __init__(self):
        self.scene = s = make_scene("crowd")
        buf = s.allocate()
        self.start = list(zip(s.walkers.x, s.walkers.z))
        self.worst_share = 1.0  # per frame: planted feet within tolerance / planted feet
        self.worst_yaw = 0.0
        self.worst_violation = 0.0  # radians outside a hinge's range
        self.worst_ground = 0.0  # planted foot target: |y - drawn ground height|
        self.body_below_ground = 0
        self.nonfinite = 0
        self.converged = []
        ranges = s.legs.rig()
        (f0, f1), (t0, t1) = ranges["femur_range"], ranges["tibia_range"]
        height = s.ground.height
        tolerance = s.params["tolerance"] * s.legs.reach
        for _ in range(FRAMES):
            s.step(DT)
            s.write(buf)
            if not all(map(math.isfinite, buf)):
                self.nonfinite += 1
            planted = within = 0
            for (down, (x, y, z), error) in s.feet():
                if down:
                    planted += 1
                    within += error <= tolerance
                    self.worst_ground = max(self.worst_ground, abs(y - height(x, z)))
            self.worst_share = min(self.worst_share, within / planted)
            g = s.legs
            self.worst_yaw = max(self.worst_yaw, max(map(abs, g.yaw)))
            self.worst_violation = max(self.worst_violation, max(f0 - a for a in g.femur), max(a - f1 for a in g.femur),
                                       max(t0 - a for a in g.tibia), max(a - t1 for a in g.tibia))
            b = s.bodies
            self.body_below_ground += sum(b.y[k] < height(s.walkers.x[k], s.walkers.z[k]) for k in range(s.count))
            self.converged.append(s.converged)
        self.buf = buf


_walk = []


def walk():
    if not _walk:
        _walk.append(Walk())
    return _walk[0]


def test_planted_feet_are_reached_and_on_the_drawn_ground():
    w = walk()
    assert w.nonfinite == 0
    assert w.worst_share >= 0.99, f"worst frame: {w.worst_share:.2%} of planted feet within tolerance"
    assert w.worst_ground < 1e-12


def test_every_leg_stays_within_its_limits_on_every_frame():
    w = walk()
    assert w.worst_yaw <= YAW_RANGE + 1e-12
    assert w.worst_violation <= 1e-9


def test_bodies_ride_above_the_ground():
    assert walk().body_below_ground == 0


def test_each_spider_walks_its_own_way():
    s = walk().scene
    moved = [math.dist(a, b) for a, b in zip(walk().start, zip(s.walkers.x, s.walkers.z))]
    assert min(moved) > 0.5, "every spider walks"
    assert len({round(m, 6) for m in moved}) == s.count
    assert len(set(s.walkers.pace)) == s.count and len(set(s.gait.phase)) == s.count
    # Its legs take turns: each spider has a group in the air at some point, never both groups at once.
    assert not any(s.gait.swinging[2 * k] and s.gait.swinging[2 * k + 1] for k in range(s.count))


def test_the_buffer_holds_the_header_and_the_columns():
    w = walk()
    s, buf = w.scene, w.buf
    columns = s.layout()["crowd"]["columns"]
    assert buf[0] == s.count and buf[1] == s.converged == w.converged[-1]
    assert buf[2] == max(s.legs.results.errors)
    body = (s.walkers.x, s.bodies.y, s.walkers.z, s.bodies.qw, s.bodies.qx, s.bodies.qy, s.bodies.qz)
    for name, values in zip(BODY_COLUMNS + LEG_COLUMNS, body + (s.legs.yaw, s.legs.femur, s.legs.tibia)):
        at = columns[name]
        assert list(buf[at:at + len(values)]) == values, name
    assert len(buf) == s.layout()["size"]


def test_the_pose_from_the_angles_puts_each_tip_where_the_solve_did():
    """The pose is built from the buffer's quantities (body pose, yaw, femur and tibia angles), as the
    page draws the legs: each world tip lies at the solve's error from its foot target."""
    s = walk().scene
    pose = load_pose(json.dumps(s.pose()))
    assert len(pose.chains) == 8 * s.count
    for chain, (_, foot, error) in zip(pose.chains, s.feet()):
        assert abs(math.dist(chain.world_positions[-1], foot) - error) <= 1e-9


def test_the_count_changes_without_a_new_buffer():
    s = CrowdScene(count=10)
    size = s.layout()["size"]
    for _ in range(30):
        s.step(DT)
    x, femur = list(s.walkers.x), list(s.legs.femur)
    s.set_params(count=25)
    assert s.count == 25 and s.legs.count == 200 and s.layout()["size"] == size
    # The spiders already walking carry on where they were (their legs re-solved for the same feet).
    assert s.walkers.x[:10] == x
    assert max(abs(a - b) for a, b in zip(femur, s.legs.femur)) < 1e-12
    s.step(DT)
    assert s.state()["crowd"]["legs"] == 200
    s.set_params(count=3)
    s.step(DT)
    assert s.count == 3 and len(s.legs.results.errors) == 24 and s.state()["crowd"]["spiders"] == 3


@pytest.mark.parametrize("count", [0, MAX_COUNT + 1, 2.5, "100", True, None])
def test_a_count_out_of_range_is_refused(count):
    s = CrowdScene(count=5)
    if count is not None:
        with pytest.raises(ikcore.IKError, match="count"):
            s.set_params(count=count)
        assert s.count == 5
    with pytest.raises(ikcore.IKError, match="count"):
        make_scene("crowd", count=count)


def test_standing_still_the_feet_settle_on_their_rest_spots():
    s = CrowdScene(count=4)
    s.set_params(animate=False)
    for _ in range(120):
        s.step(DT)
    before = list(s.gait.fx)
    for _ in range(60):
        s.step(DT)
    assert max(abs(a - b) for a, b in zip(before, s.gait.fx)) < 1e-9
    assert s.converged == 32


def test_without_limits_the_legs_are_solved_free():
    s = CrowdScene(count=6)
    s.set_params(constraints=False)
    for _ in range(60):
        s.step(DT)
    assert s.converged == 48


# -- the ground the feet land on ---------------------------------------------------------------

_terrain = Terrain(seed=3, half=4.0)
_grid = _terrain.grid(17)
_ground = HeightGrid(_grid)


def _corners(r, c):
    n, h = _grid["resolution"], _grid["heights"]
    return [h[(r + i) * n + c + j] for i in (0, 1) for j in (0, 1)]


#: The largest height difference between two corners of one cell, over every cell.
_steepest = max(max(a) - min(a) for a in (_corners(r, c) for r in range(_grid["resolution"] - 1)
                                          for c in range(_grid["resolution"] - 1)))


def test_the_drawn_ground_holds_every_sample():
    step, n = _grid["step"], _grid["resolution"]
    for r in range(n):
        for c in range(n):
            assert _ground.height(-4.0 + c * step, -4.0 + r * step) == pytest.approx(
                _grid["heights"][r * n + c], abs=1e-12)


@settings(max_examples=200, deadline=None)
@given(st.floats(-5.0, 5.0), st.floats(-5.0, 5.0))
def test_the_drawn_ground_lies_between_its_cells_corners_and_is_continuous(x, z):
    step, n = _grid["step"], _grid["resolution"]
    c = min(max(int((min(max(x, -4.0), 4.0) + 4.0) // step), 0), n - 2)
    r = min(max(int((min(max(z, -4.0), 4.0) + 4.0) // step), 0), n - 2)
    corners = _corners(r, c)
    y = _ground.height(x, z)
    assert min(corners) - 1e-12 <= y <= max(corners) + 1e-12
    # A step of e crosses at most into a neighbouring cell: the steepest cell anywhere bounds it.
    slope = _steepest / step
    e = 1e-7
    assert abs(_ground.height(x + e, z) - y) <= 2 * slope * e + 1e-12
    assert abs(_ground.height(x, z + e) - y) <= 2 * slope * e + 1e-12


def test_the_state_counts_the_feet_by_the_tolerance_their_legs_were_solved_with():
    # A new tolerance counts from the next frame, for the statuses and the planted feet alike.
    scene = make_scene("crowd", count=20)
    scene.step(1 / 60)
    scene.set_params(tolerance=5e-324)
    crowd = scene.state()["crowd"]
    assert crowd["converged"] == crowd["legs"]
    assert crowd["planted_within_tolerance"] == crowd["planted"]
    scene.step(1 / 60)
    crowd = scene.state()["crowd"]
    assert crowd["planted_within_tolerance"] <= crowd["converged"] < crowd["legs"]


def test_a_crowd_of_any_size_starts_spread_over_the_whole_terrain():
    from ikcore.rigs.crowd import HALF, MARGIN, places

    room = HALF - MARGIN
    for count in (20, 100, 400):
        spots = places(count)
        assert spots == places(400)[:count]  # spider k's place does not depend on the count
        assert all(abs(x) <= room and abs(z) <= room for x, z, _ in spots)
        quarters = [sum(1 for x, z, _ in spots if (x > 0) == sx and (z > 0) == sz) for sx in (0, 1) for sz in (0, 1)]
        assert min(quarters) >= 0.12 * count, (count, quarters)
        # As far apart as an even spread allows (a square lattice would give 2 room / sqrt(count)).
        nearest = min(math.dist(a[:2], b[:2]) for i, a in enumerate(spots) for b in spots[i + 1:])
        assert nearest >= 0.5 * 2 * room / math.sqrt(count), (count, nearest)
