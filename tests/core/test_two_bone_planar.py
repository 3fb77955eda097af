"""Planar legs solved together (:mod:`ikcore.solvers.two_bone.planar`) are the reference two_bone's
solves: the same status, points within 1e-9 of the reach, for any leg, target, pole and start."""

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ikcore
from ikcore import Chain, Hinge
from ikcore import rotation as rot
from ikcore.rigs import make_scene
from ikcore.solvers.two_bone.planar import LegResults, PlanarLeg, planar_leg


def _unit(v):
    n = math.sqrt(sum(x * x for x in v))
    return tuple(x / n for x in v)


def _cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def leg(rng, scale=1.0):
    """A random two-hinge leg in the plane normal to a random axis, its ranges random (some whole
    turns, some wrapping past a half turn), and a function from plane coordinates to points."""
    axis = _unit([rng.gauss(0, 1) for _ in range(3)])
    e1 = _unit(_cross(axis, _unit([rng.gauss(0, 1) for _ in range(3)])))
    e2 = _cross(axis, e1)
    root = tuple(scale * rng.uniform(-2, 2) for _ in range(3))

    def at(x, y, z=0.0):
        return tuple(r + scale * (x * a + y * b + z * c) for r, a, b, c in zip(root, e1, e2, axis))

    l1, l2 = rng.uniform(0.2, 1.5), rng.uniform(0.2, 1.5)
    a, c = rng.uniform(-math.pi, math.pi), rng.uniform(-math.pi, math.pi)
    kx, ky = l1 * math.cos(a), l1 * math.sin(a)
    points = [root, at(kx, ky), at(kx + l2 * math.cos(c), ky + l2 * math.sin(c))]
    ranges = []
    for _ in range(2):
        lo = rng.uniform(-270.0, 90.0)
        ranges.append((-180.0, 180.0) if rng.random() < 0.2 else (lo, lo + rng.uniform(0.0, 300.0)))
    return Chain(points, [Hinge(axis, *r) for r in ranges]), at


def case(rng, chain, at, kind):
    """A target (in the plane, off it, beyond reach, at the root), a pole or none, a start."""
    r = chain.reach / math.dist(at(0, 0), at(1, 0))
    if kind == "pose":
        q = chain.clamp([rot.from_axis_angle(chain.joints[0].axis, rng.uniform(-4, 4)),
                         rot.from_axis_angle(chain.joints[0].axis, rng.uniform(-4, 4))])
        target = chain.forward(q)[-1]
    elif kind == "root":
        target = chain.points[0]
    else:
        z = 0.0 if kind == "plane" else rng.uniform(-0.5, 0.5) * r
        target = at(rng.uniform(-1.5, 1.5) * r, rng.uniform(-1.5, 1.5) * r, z)
    pole = None if rng.random() < 0.3 else at(rng.uniform(-3, 3) * r, rng.uniform(-3, 3) * r, rng.uniform(-1, 1))
    start = chain.clamp([rot.from_axis_angle(chain.joints[0].axis, rng.uniform(-4, 4)),
                         rot.from_axis_angle(chain.joints[0].axis, rng.uniform(-4, 4))])
    return target, pole, start


def solve_together(chain, cases, tolerance):
    """The cases through PlanarLeg.solve, all at once (one pole array, or none for all)."""
    leg = PlanarLeg(chain)
    count = len(cases)
    targets = tuple(list(c) for c in zip(*[t for t, _, _ in cases]))
    poles = None if cases[0][1] is None else tuple(list(c) for c in zip(*[p for _, p, _ in cases]))
    angles = ([chain.joints[0].angle(s[0]) for _, _, s in cases], [chain.joints[1].angle(s[1]) for _, _, s in cases])
    out = LegResults(count)
    leg.solve(count, targets, poles, angles, tolerance, out)
    return angles, out


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([1e-6, 1.0, 1e3, 1e9]),
       st.sampled_from(["pose", "plane", "off", "root"]), st.booleans())
def test_the_legs_solved_together_are_the_reference_solves(seed, scale, kind, with_poles):
    rng = random.Random(seed)
    chain, at = leg(rng, scale)
    cases = []
    for _ in range(8):
        target, pole, start = case(rng, chain, at, kind)
        cases.append((target, pole if with_poles else None, start))
    if with_poles:
        cases = [(t, p if p is not None else at(0.0, 1.0, 0.0), s) for t, p, s in cases]
    tolerance = 1e-3 * chain.reach
    angles, out = solve_together(chain, cases, tolerance)
    for k, (target, pole, start) in enumerate(cases):
        ref = ikcore.solve(chain, target, "two_bone", start=start, pole=pole)
        assert ikcore.STATUSES[out.status[k]] == ref.status
        knee = (out.knees[0][k], out.knees[1][k], out.knees[2][k])
        tip = (out.tips[0][k], out.tips[1][k], out.tips[2][k])
        assert math.dist(knee, ref.positions[1]) <= 1e-9 * chain.reach
        assert math.dist(tip, ref.positions[2]) <= 1e-9 * chain.reach
        assert out.errors[k] == pytest.approx(ref.error, abs=1e-9 * chain.reach)
        # The angles are the reference's rotations about the hinges' axis.
        for angle, q, joint in zip((angles[0][k], angles[1][k]), ref.rotations, chain.joints):
            assert rot.angle_between(joint.rotation(angle), q) <= 1e-9


def test_legs_without_points_get_the_same_angles_errors_and_statuses():
    rng = random.Random(7)
    chain, at = leg(rng)
    cases = [case(rng, chain, at, kind) for kind in ("pose", "plane", "off", "root") for _ in range(5)]
    cases = [(t, p if p is not None else at(0.0, 1.0, 0.0), s) for t, p, s in cases]
    tolerance = 1e-3 * chain.reach
    angles, out = solve_together(chain, cases, tolerance)
    starts = ([chain.joints[0].angle(s[0]) for _, _, s in cases], [chain.joints[1].angle(s[1]) for _, _, s in cases])
    targets, poles = (tuple(list(c) for c in zip(*[case[i] for case in cases])) for i in (0, 1))
    bare = LegResults(len(cases), points=False)
    PlanarLeg(chain).solve(len(cases), targets, poles, starts, tolerance, bare)
    assert bare.knees is None and bare.tips is None
    assert starts == angles and bare.errors == out.errors and bare.status == out.status


@pytest.mark.parametrize("width", [0.0, 1e-7, 1e-3])
def test_a_range_too_narrow_for_the_cosine_test_still_gets_the_references_angles(width):
    # Near cos = 1 the fast path's range test cannot tell angles under about 1e-8 radians apart: a
    # hip held to a hair-wide range passes it for a triangle that puts the hip just past the range.
    # The angles, the points they pose and the status must still be the reference's.
    chain = Chain([(0, 0, 0), (1, 0, 0), (2, 0, 0)], [Hinge((0, 0, 1), 10.0, 10.0 + width), Hinge((0, 0, 1))])
    tolerance = 1e-10 * chain.reach
    alpha = math.acos(0.75)  # the triangle's angle at the root for a target 1.5 away
    for off in (-2e-8, 1e-11, 1e-9, 5e-9, 1e-8, 1.4e-8, 2e-8):
        aim = math.radians(10.0 + width) + off + alpha
        target = (1.5 * math.cos(aim), 1.5 * math.sin(aim), 0.0)
        ref = ikcore.solve(chain, target, "two_bone", tolerance=tolerance)
        angles, out = solve_together(chain, [(target, None, [rot.IDENTITY, rot.IDENTITY])], tolerance)
        assert ikcore.STATUSES[out.status[0]] == ref.status
        posed = chain.forward([joint.rotation(a[0]) for joint, a in zip(chain.joints, angles)])
        assert math.dist(posed[1], (out.knees[0][0], out.knees[1][0], out.knees[2][0])) <= 1e-12 * chain.reach
        assert math.dist(posed[2], (out.tips[0][0], out.tips[1][0], out.tips[2][0])) <= 1e-12 * chain.reach
        assert math.dist(posed[2], ref.positions[2]) <= 1e-12 * chain.reach
        for angle, q, joint in zip((angles[0][0], angles[1][0]), ref.rotations, chain.joints):
            assert rot.angle_between(joint.rotation(angle), q) <= 1e-9


def test_only_planar_legs_are_solved_together():
    rng = random.Random(4)
    chain, _ = leg(rng)
    assert planar_leg(chain) is not None
    z = (0.0, 0.0, 1.0)
    assert planar_leg(Chain([(0, 0, 0), (1, 0, 0), (2, 0, 0)], [Hinge(z), Hinge((0, 1, 0))])) is None
    assert planar_leg(Chain([(0, 0, 0), (1, 0, 0), (2, 0, 0)], [Hinge(z), None])) is None
    assert planar_leg(Chain([(0, 0, 0), (1, 0, 0), (2, 0, 1)], [Hinge(z), Hinge(z)])) is None
    assert planar_leg(Chain([(0, 0, 0), (1, 0, 0), (2, 0, 0), (3, 0, 0)], [Hinge(z)] * 3)) is None


def test_at_full_stretch_the_leg_is_exactly_straight():
    # The knee's angle comes from its half angle: at full stretch no rounding bends it.
    chain = Chain([(0, 0, 0), (0.55, 0, 0), (1.3, 0, 0)], [Hinge((0, 0, 1), -90, 90), Hinge((0, 0, 1), -90, 90)])
    for heading in (0.1, 1.0):
        target = (1.3 * math.cos(heading), 1.3 * math.sin(heading), 0.0)
        angles, out = solve_together(chain, [(target, None, [rot.IDENTITY] * 2)], 1e-3)
        assert angles[1][0] == 0.0
        ref = ikcore.solve(chain, target, "two_bone")
        assert ref.rotations[1] == (1.0, 0.0, 0.0, 0.0) or rot.angle(ref.rotations[1]) == 0.0
    # Past the hip's range the straight leg, swung to the hip's end, is not the nearest pose: the
    # knee turns the lower bone on toward the target.
    target = (1.3 * math.cos(2.5), 1.3 * math.sin(2.5), 0.0)
    angles, out = solve_together(chain, [(target, None, [rot.IDENTITY] * 2)], 1e-3)
    straight = math.dist((0.0, 1.3, 0.0), target)
    assert angles[0][0] == math.radians(90) and angles[1][0] > 0.5 and out.errors[0] < straight - 0.1


def test_targets_on_the_edges_of_the_shell_get_the_status_solve_gives_them():
    # Out of the knee's range, a target on an edge of the reach shell is "stalled" (a leg without
    # limits reaches it), a target 1 ulp outside it "unreachable": the legs' distance from the root
    # must be the one Chain.reachable measures, or the statuses flip at the edges.
    rng = random.Random(3)
    chain = Chain([(0, 0, 0), (1, 0, 0), (1.5, 0, 0)], [Hinge((0, 0, 1), -90, 90), Hinge((0, 0, 1), 0, 120)])
    cases = []
    for _ in range(300):
        u = _unit([rng.gauss(0, 1) for _ in range(3)])
        for radius in (chain.min_reach, chain.reach):
            for f in (1.0 - 2.0 ** -52, 1.0, 1.0 + 2.0 ** -52):
                cases.append((tuple(f * radius * c for c in u), None, [rot.IDENTITY] * 2))
    _, out = solve_together(chain, cases, 1e-3)
    statuses = [ikcore.STATUSES[code] for code in out.status]
    want = [ikcore.solve(chain, target, "two_bone").status for target, _, _ in cases]
    assert sum(not chain.reachable(t) for t, _, _ in cases) > 20 and sum(s == "stalled" for s in want) > 20
    assert statuses == want


def test_angles_posed_at_the_ends_of_their_ranges_never_leave_them():
    # A target the leg reaches with a joint on an end of its range: the side found by the cosine
    # tests lies within both ranges, and rounding must not put its angle a hair past the end (about
    # one solve in fifty did, for ranges whose numbers are atan2's own, before the ends were guarded).
    rng = random.Random(7)
    for _ in range(60):
        (lo0, hi0), (lo1, hi1) = sorted((rng.uniform(-170, 170), rng.uniform(-170, 170))), \
            sorted((rng.uniform(-170, 170), rng.uniform(-170, 170)))
        l1, l2 = rng.uniform(0.3, 1.0), rng.uniform(0.3, 1.0)
        chain = Chain([(0, 0, 0), (l1, 0, 0), (l1 + l2, 0, 0)],
                      [Hinge((0, 0, 1), lo0, hi0), Hinge((0, 0, 1), lo1, hi1)])
        leg = PlanarLeg(chain)
        ends = [(math.radians(rng.choice((lo0, hi0, rng.uniform(lo0, hi0)))), math.radians(rng.choice((lo1, hi1))))
                for _ in range(40)]
        targets = tuple(list(c) for c in zip(*((l1 * math.cos(a) + l2 * math.cos(a + b),
                                                l1 * math.sin(a) + l2 * math.sin(a + b), 0.0) for a, b in ends)))
        t0s, t1s = [0.0] * len(ends), [0.0] * len(ends)
        leg.solve(len(ends), targets, None, (t0s, t1s), 1e-9 * chain.reach, LegResults(len(ends)))
        assert all(math.radians(lo0) <= t <= math.radians(hi0) for t in t0s)
        assert all(math.radians(lo1) <= t <= math.radians(hi1) for t in t1s)


def test_the_spider_solves_its_legs_together_and_draws_what_it_solved():
    scene = make_scene("spider")
    for _ in range(30):
        scene.step(1 / 60)
    for limb in scene.limbs:
        status, error, iterations = limb.result
        assert status == "converged" and iterations == 1
        # The leg's nodes hold the solved rotations, and its frames their forward kinematics.
        frames = limb.bound.frames()
        assert frames.rotations == limb.bound.rotations
        for p, q in zip(frames.points, limb.bound.chain.forward(frames.rotations)):
            assert math.dist(p, q) <= 1e-12
        foot = scene.targets[limb.target].position
        assert math.dist(limb.bound.effector(), foot) <= error + 1e-9
