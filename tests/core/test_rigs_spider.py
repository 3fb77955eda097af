"""The spider: feet planted on the terrain, legs within their limits, a gait that walks."""

import math

import pytest

from ikcore import rotation as rot
from ikcore.rigs import make_scene, to_world
from ikcore.rigs.scene import BODY, LINK
from ikcore.rigs.spider import BODY_BONES, GROUPS, LEG, YAW_RANGE, SpiderScene
from ikcore.rigs.terrain import Terrain

DT = 1.0 / 60.0


class Walk:
    """A long walk of the default spider, checked frame by frame."""

    def __init__(self, frames=2000):
        self.scene = s = make_scene("spider")
        self.worst_ground = 0.0  # planted foot: |effector y - terrain height| (and distance to its spot)
        self.worst_yaw = 0.0
        self.worst_violation = 0.0
        self.both_groups_up = 0
        self.body_below_ground = 0
        self.destinations = set()
        start = tuple(s.position)
        self.path = 0.0
        last = start
        for _ in range(frames):
            s.step(DT)
            up = set()
            for foot, limb in zip(s.gait.feet, s.limbs):
                e = limb.bound.effector()
                if foot.planted:
                    self.worst_ground = max(self.worst_ground, abs(e[1] - s.terrain.height(e[0], e[2])),
                                            math.dist(e, foot.position))
                else:
                    up.add(foot.group)
                self.worst_violation = max(self.worst_violation,
                                           max(limb.bound.limited_chain.violations(limb.bound.rotations)))
            self.both_groups_up += len(up) > 1
            self.worst_yaw = max(self.worst_yaw, max(abs(y) for y in s.yaws))
            bx, by, bz = s.body.world_position
            self.body_below_ground += by < s.terrain.height(bx, bz)
            self.destinations.add(s.destination)
            self.path += math.dist(last, s.position)
            last = tuple(s.position)


_walk = []


def walk():
    if not _walk:
        _walk.append(Walk())
    return _walk[0]


def test_planted_feet_stay_on_the_terrain():
    assert walk().worst_ground <= 0.01 * LEG


def test_legs_stay_within_their_limits():
    w = walk()
    assert w.worst_yaw <= YAW_RANGE + 1e-12
    assert w.worst_violation <= 1e-9


def test_it_walks_on_alternating_groups():
    w = walk()
    assert w.path > 10.0  # 33 seconds of walking
    assert len(w.destinations) >= 2  # it wandered on
    assert w.scene.gait.steps > 100
    assert w.both_groups_up == 0
    assert w.body_below_ground == 0
    assert sorted(set(GROUPS)) == [0, 1] and GROUPS.count(0) == 4


def test_it_walks_to_a_destination_and_stops():
    s = make_scene("spider")
    s.set_params(wander=False)
    s.set_destination(-1.0, 2.0)
    for _ in range(60 * 7):
        s.step(DT)
    assert math.dist(s.position, (-1.0, 2.0)) < 0.3
    steps = s.gait.steps
    for _ in range(120):
        s.step(DT)
    assert s.velocity == (0.0, 0.0)
    assert s.gait.steps - steps <= 8  # a last tidy step at most, then it stands
    s.steer(forward=1.0, turn=0.5)
    assert s.destination != (-1.0, 2.0) and s.targets["destination"].pinned


def test_the_body_lowers_where_a_foot_cannot_reach_the_ground():
    s = SpiderScene(terrain=Terrain(amplitude=0.0))
    s.set_params(wander=False, speed=0.0)
    for _ in range(60):
        s.step(DT)
    y = s.body.world_position[1]
    foot = s.gait.feet[2]
    # The ground under foot 2 drops away by 0.7: nominal height would leave the foot out of reach.
    x, fy, z = foot.position
    foot.position = foot.land = (x, fy - 0.7, z)
    s.step(DT)
    assert s.body.world_position[1] < y - 0.1
    assert math.dist(s.limbs[2].bound.effector(), foot.position) <= 0.01 * LEG
    assert s.limbs[2].result[0] == "converged"


@pytest.mark.parametrize("method", [m for m in SpiderScene.methods if m != "two_bone"])
def test_every_method_plants_the_feet(method):
    s = make_scene("spider")
    s.set_params(method=method)
    worst = 0.0
    for _ in range(150):
        s.step(DT)
        for foot, limb in zip(s.gait.feet, s.limbs):
            if foot.planted:
                worst = max(worst, math.dist(limb.bound.effector(), foot.position))
    assert worst <= 0.01 * LEG


def test_terrain_grid_for_the_page():
    s = make_scene("spider")
    info = s.layout()["terrain"]
    grid = s.terrain_grid(info["resolution"])
    n = grid["resolution"]
    assert len(grid["heights"]) == n * n and grid["half"] == info["half"]
    h = grid["half"]
    assert grid["heights"][n + 2] == pytest.approx(s.terrain.height(-h + 2 * grid["step"], -h + grid["step"]))


def test_the_coxa_turns_the_foot_into_the_legs_plane():
    s = make_scene("spider")
    for _ in range(50):
        s.step(DT)
    for i in range(8):
        local = s._aim(i)
        assert math.dist(local, s.skeleton.to_local(f"coxa{i}", s.targets[f"foot{i}"].position)) <= 1e-12
        if abs(s.yaws[i]) < YAW_RANGE:
            assert abs(local[2]) <= 1e-12  # in the plane of femur and tibia (the hinges' axis is z)


def test_rest_spots_follow_the_body_when_moved_from_outside():
    # rest_spots() keeps its list while the body stays put; moving or turning it must give new spots.
    s = make_scene("spider")
    for _ in range(30):
        s.step(DT)
    before = list(s.rest_spots())
    s.position[0] += 1.0
    moved = s.rest_spots()
    assert all(b[0] == pytest.approx(a[0] + 1.0) and b[1] == pytest.approx(a[1]) for a, b in zip(before, moved))
    s.heading += math.pi
    turned = s.rest_spots()
    x0, z0 = s.position
    assert all(math.dist((x0, z0), b) == pytest.approx(math.dist((x0, z0), a)) and a != pytest.approx(b)
               for a, b in zip(moved, turned))


def test_the_drawn_body_and_coxae_join_the_legs():
    # Each coxa is drawn as its leg's lead bone, from the coxa node to the leg's root, as the skeleton
    # places them; the body's bones turn with the body.
    s = make_scene("spider")
    layout = s.layout()
    bones = layout["sections"]["bones"]
    buf = s.allocate()
    for frame in range(120):
        s.step(DT)
        s.write(buf)
        to_world(buf, layout)
        s.skeleton.update()
        bp, bq = s.body.world_position, s.body.world_rotation
        for chain, coxa, limb in zip(layout["chains"], s.coxae, s.limbs):
            # The coxa's world pose (which the spider sets itself with its aim) is its local one under the body.
            placed = [p + r for p, r in zip(bp, rot.rotate(bq, coxa.translation))]
            assert math.dist(coxa.world_position, placed) <= 1e-12
            assert math.dist(coxa.world_rotation, rot.multiply(bq, coxa.rotation)) <= 1e-12
            first, count = chain["bones"]
            assert count == 3
            o = bones["offset"] + first * bones["stride"]
            link = buf[o:o + 8]
            assert math.dist(link[0:3], coxa.world_position) <= 1e-12
            assert math.dist(link[3:6], limb.bound.nodes[0].world_position) <= 1e-12
            assert tuple(link[6:8]) == (0.055, LINK)
        body = [(p, q) for p, q, _, kind in s.extra_bones() if kind == BODY]
        rest = [p for a, b, _ in BODY_BONES for p in (a, b)]
        assert len(body) == len(BODY_BONES) == len(s.extra_bones())
        assert all(math.dist(s.skeleton.to_local("body", p), r) <= 1e-12
                   for p, r in zip((p for pair in body for p in pair), rest))


def test_with_scripted_motion_off_the_spider_waits_to_be_sent():
    # Its wandering is the scene's scripted motion (what a reader who asks for reduced motion gets turned
    # off): it stands, its feet settle, until it is sent somewhere.
    scene = make_scene("spider")
    scene.set_params(animate=False)
    start = scene.state()["body"]["position"]
    for _ in range(120):
        scene.step(1 / 60)
    state = scene.state()
    assert math.dist(state["body"]["position"][::2], start[::2]) < 1e-9
    assert state["targets"]["destination"]["held"]
    scene.set_target("destination", (2.0, 0.0, 1.0))
    for _ in range(120):
        scene.step(1 / 60)
    assert math.dist(scene.state()["body"]["position"][::2], start[::2]) > 0.3
