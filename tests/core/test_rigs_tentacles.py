"""The tentacles keep out of one another: over a long run of the scene with its scripted targets, no two
tentacles' bones come closer than their radii allow (each bone a capsule around its axis)."""

import math

from ikcore.rigs import make_scene
from ikcore.rigs.tentacle import Sector

DT = 1.0 / 60.0
SECONDS = 40.0


def segment_gap(p0, p1, q0, q1):
    """The shortest distance between the segments p0-p1 and q0-q1."""
    d1 = [b - a for a, b in zip(p0, p1)]
    d2 = [b - a for a, b in zip(q0, q1)]
    r = [a - b for a, b in zip(p0, q0)]
    a = sum(x * x for x in d1)
    e = sum(x * x for x in d2)
    f = sum(x * y for x, y in zip(d2, r))
    c = sum(x * y for x, y in zip(d1, r))
    b = sum(x * y for x, y in zip(d1, d2))
    den = a * e - b * b
    s = min(1.0, max(0.0, (b * f - c * e) / den)) if den > 1e-18 else 0.0
    t = (b * s + f) / e
    if t < 0.0:
        t, s = 0.0, min(1.0, max(0.0, -c / a))
    elif t > 1.0:
        t, s = 1.0, min(1.0, max(0.0, (b - c) / a))
    return math.dist([x + s * y for x, y in zip(p0, d1)], [x + t * y for x, y in zip(q0, d2)])


def smallest_clearance(scene):
    """The smallest gap between the capsules of two different tentacles (negative: they overlap)."""
    chains = [(limb.bound.world_points(), limb.radii) for limb in scene.limbs]
    worst = math.inf
    for i, (p, rp) in enumerate(chains):
        for q, rq in chains[i + 1:]:
            for a in range(len(rp)):
                for b in range(len(rq)):
                    # Far apart on a coarse look: skip the exact distance.
                    if math.dist(p[a], q[b]) > 0.4 + 2 * (math.dist(p[a], p[a + 1]) + math.dist(q[b], q[b + 1])):
                        continue
                    worst = min(worst, segment_gap(p[a], p[a + 1], q[b], q[b + 1]) - rp[a] - rq[b])
    return worst


def test_tentacles_never_pass_through_one_another():
    scene = make_scene("tentacles")
    worst = math.inf
    for frame in range(int(SECONDS / DT)):
        scene.step(DT)
        if frame % 10 == 0:
            worst = min(worst, smallest_clearance(scene))
    assert worst > 0.02, f"two tentacles came within {worst:.3f} of touching (negative: through each other)"


def test_each_target_keeps_to_its_sector_and_within_reach():
    scene = make_scene("tentacles")
    n = len(scene.limbs)
    for k, limb in enumerate(scene.limbs):
        path = scene.targets[limb.target].path.path
        assert isinstance(path, Sector)
        root = limb.bound.world_points()[0]
        mid = 2.0 * math.pi * (k + 0.5) / n
        for step in range(600):
            p = path(0.1 * step)
            assert 0.55 * limb.reach < math.dist(p, root) < 0.93 * limb.reach
            # Within its quarter of the crown, seen from above.
            angle = math.atan2(-p[2], p[0])
            assert abs(math.remainder(angle - mid, 2.0 * math.pi)) < math.pi / n


def test_the_layout_frames_every_tentacle_and_target():
    scene = make_scene("tentacles")
    bounds = scene.layout()["bounds"]
    for _ in range(600):
        scene.step(DT)
        for limb in scene.limbs:
            for point in (*limb.bound.world_points(), scene.targets[limb.target].position):
                assert all(lo <= v <= hi for lo, v, hi in zip(bounds["min"], point, bounds["max"])), point
