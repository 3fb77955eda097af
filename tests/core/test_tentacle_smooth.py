"""The tentacles scene with its defaults (FABRIK, cones, no restarts): 2,000 frames, smooth.

One run of 2,000 frames at 60 frames per second is recorded once per module; the tests
read it. Motion is measured in the crown's frame (each chain's own frame), so the crown's
sway does not count as the tentacles' own motion.
"""

import math

import pytest

import ikcore
from ikcore.rigs import make_scene
from ikcore.rigs.tentacle import RISE, TentacleScene

FRAMES = 2000
DT = 1.0 / 60.0
# Bounds, degrees: the joint cone (a limit) and what the scene stays well within.
CONE = 25.0
MAX_BEND = 20.0
MAX_KINK = 5.0


def bends(points):
    """Angles (degrees) between consecutive bones."""
    out = []
    for a, b, c in zip(points, points[1:], points[2:]):
        u = [y - x for x, y in zip(a, b)]
        v = [y - x for x, y in zip(b, c)]
        d = sum(x * y for x, y in zip(u, v)) / (math.hypot(*u) * math.hypot(*v))
        out.append(math.degrees(math.acos(max(-1.0, min(1.0, d)))))
    return out


class Record:
    """What one long run recorded, per frame and chain."""

    def __init__(self):
        self.scene = scene = make_scene("tentacles")
        buf = scene.allocate()
        self.statuses = []       # per frame, per chain
        self.iterations = []
        self.max_bend = 0.0
        self.max_kink = 0.0
        self.nonfinite = 0
        # Per frame and chain: the largest move of any point, and the target's move (chain frame).
        self.moves = []
        prev = None
        for _ in range(FRAMES):
            scene.step(DT)
            scene.write(buf)
            if not all(map(math.isfinite, buf)):
                self.nonfinite += 1
            now = []
            for limb in scene.limbs:
                sol = limb.solution
                self.statuses.append(sol.status)
                self.iterations.append(sol.iterations)
                b = bends(limb.bound.world_points())
                self.max_bend = max(self.max_bend, max(b))
                self.max_kink = max(self.max_kink, max(abs(x - y) for x, y in zip(b, b[1:])))
                now.append((limb.bound.local_points(), limb.bound.to_local(scene.targets[limb.target].position)))
            if prev is not None:
                for (points, target), (before, was) in zip(now, prev):
                    self.moves.append((max(math.dist(p, q) for p, q in zip(points, before)), math.dist(target, was)))
            prev = now


@pytest.fixture(scope="module")
def record():
    return Record()


def test_the_defaults_are_fabrik_with_cones_and_no_restarts():
    scene = make_scene("tentacles")
    assert scene.params["method"] == "fabrik" and scene.params["constraints"]
    assert scene.method_options("fabrik")["max_restarts"] == 0
    assert "max_restarts" not in scene.method_options("dls")
    assert len(scene.limbs) >= 4
    for limb in scene.limbs:
        chain = limb.bound.chain
        assert chain.size >= 20
        assert all(isinstance(j, ikcore.BallSocket) and j.twist.full for j in chain.joints)
        assert all(j.cone_deg == CONE for j in chain.joints[1:])
        radii = limb.radii
        assert all(a > b for a, b in zip(radii, radii[1:]))  # tapered
        assert all(a > b for a, b in zip(chain.lengths, chain.lengths[1:]))


def test_no_nan_in_2000_frames(record):
    assert record.nonfinite == 0
    assert record.scene.frame == FRAMES


def test_converges_on_nearly_every_frame_in_about_one_iteration(record):
    n = len(record.statuses)
    assert sum(s == "converged" for s in record.statuses) >= 0.99 * n
    assert set(record.statuses) <= {"converged", "stalled", "max_iterations"}
    assert sum(record.iterations) <= 1.2 * n


def test_bends_stay_small_and_even(record):
    # Well inside the cones: the limits are a safety net, not the shape.
    assert record.max_bend <= MAX_BEND < CONE
    # Neighbouring joints bend alike: a smooth curl, no kink.
    assert record.max_kink <= MAX_KINK


def test_no_point_jumps(record):
    reach = record.scene.limbs[0].reach
    assert max(m for m, _ in record.moves) <= 1.1 * max(t for _, t in record.moves)
    for moved, target in record.moves:
        assert moved <= 2.0 * target + 2e-3 * reach


def test_the_tentacles_unfurl_from_a_curled_start():
    scene = TentacleScene()
    for limb in scene.limbs:
        # Not a straight line: every joint bends a little, and the target sits on the tip.
        points = limb.bound.world_points()
        assert min(bends(points)) > 1.0
        assert math.dist(points[-1], scene.targets[limb.target].position) <= 1e-9
    frames = int(RISE / DT) + 5
    for _ in range(frames):
        scene.step(DT)
        assert all(limb.solution.converged for limb in scene.limbs)
    # Risen onto the paths.
    for limb in scene.limbs:
        target = scene.targets[limb.target]
        assert target.position == target.path.path(scene.script_time)


def test_a_dragged_target_is_followed_and_released():
    scene = make_scene("tentacles")
    for _ in range(240):
        scene.step(DT)
    limb = scene.limbs[1]
    root = limb.bound.world_points()[0]
    start = scene.targets[limb.target].position
    goal = (root[0] + 0.2 * limb.reach, root[1] + 0.75 * limb.reach, root[2] - 0.2 * limb.reach)
    prev = limb.bound.local_points()
    for k in range(1, 91):
        u = k / 90.0
        scene.set_target(limb.target, tuple(a + u * (b - a) for a, b in zip(start, goal)))
        scene.step(DT)
        points = limb.bound.local_points()
        assert max(math.dist(p, q) for p, q in zip(points, prev)) <= 0.05 * limb.reach
        assert max(bends(points)) <= CONE + 1e-9
        prev = points
    assert limb.solution.converged
    assert math.dist(limb.bound.effector(), goal) <= scene.params["tolerance"] * limb.reach
    scene.release(limb.target)
    scene.step(DT)
    assert not scene.targets[limb.target].pinned
