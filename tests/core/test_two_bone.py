"""The analytic two-bone solver: exact in one step, pole and bend plane, honest ends."""

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ikcore
from ikcore import BallSocket, Chain, Hinge, IKError
from ikcore import rotation as rot

ARM = Chain([(0, 0, 0), (1, 0, 0), (1, 1.5, 0)])  # bent at rest, in the z = 0 plane


def random_rotation(rng):
    return rot.from_axis_angle((rng.gauss(0, 1), rng.gauss(0, 1), rng.gauss(0, 1)), rng.uniform(0, math.pi))


def bend_normal(positions):
    """Unit normal of the plane through root, knee and tip (knee side by the right-hand rule)."""
    a, b, c = positions
    u = [b[i] - a[i] for i in range(3)]
    v = [c[i] - a[i] for i in range(3)]
    n = (u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0])
    norm = math.sqrt(sum(x * x for x in n))
    return tuple(x / norm for x in n)


def dot(a, b):
    return sum(x * y for x, y in zip(a, b))


def test_reachable_targets_are_exact_in_one_iteration():
    rng = random.Random(1)
    for _ in range(300):
        chain = Chain([tuple(rng.uniform(-2, 2) for _ in range(3)) for _ in range(3)])
        l1, l2 = chain.lengths
        # A reachable distance, including both ends of the shell.
        d = rng.choice([abs(l1 - l2), l1 + l2, rng.uniform(abs(l1 - l2), l1 + l2)])
        g = [rng.gauss(0, 1) for _ in range(3)]
        n = math.sqrt(dot(g, g))
        target = tuple(p + d * c / n for p, c in zip(chain.points[0], g))
        start = [random_rotation(rng) for _ in range(2)] if rng.random() < 0.5 else None
        sol = ikcore.solve(chain, target, "two_bone", start=start)
        assert sol.converged and sol.iterations == 1
        assert sol.error <= 1e-12 * chain.reach
        assert len(sol.errors) == 2


def test_pole_chooses_the_bend_plane_and_side():
    target = (1.5, 1.0, 0.0)
    for pole in [(0, 0, 5), (0, 0, -5), (0, 5, 0), (3, -2, 1)]:
        sol = ikcore.solve(ARM, target, "two_bone", pole=pole)
        assert sol.converged
        root, knee, tip = sol.positions
        # Root, target and pole span the bend plane: the knee lies in it...
        plane = bend_normal([root, target, pole])
        assert dot(plane, knee) == pytest.approx(0.0, abs=1e-12)
        # ...on the pole's side of the root-target line.
        u = [c / math.dist(root, target) for c in target]
        side = [p - dot(pole, u) * c for p, c in zip(pole, u)]
        assert dot(side, knee) > 0.0


def test_without_pole_the_start_bend_plane_and_side_are_kept():
    rng = random.Random(2)
    for _ in range(50):
        start = [random_rotation(rng) for _ in range(2)]
        before = ARM.forward(start)
        normal = bend_normal(before)
        # A target in the start's bend plane, off the root-tip line.
        a, b = [rng.uniform(-1, 1) for _ in range(2)]
        tip = [c / math.dist(before[0], before[2]) for c in before[2]]
        other = [normal[1] * tip[2] - normal[2] * tip[1], normal[2] * tip[0] - normal[0] * tip[2],
                 normal[0] * tip[1] - normal[1] * tip[0]]
        target = tuple(a * t + b * o for t, o in zip(tip, other))
        if not 0.6 <= math.dist(target, (0, 0, 0)) <= 2.4:
            continue
        sol = ikcore.solve(ARM, target, "two_bone", start=start)
        assert sol.converged
        assert bend_normal(sol.positions) == pytest.approx(normal, abs=1e-9)


def test_straight_start_bends_deterministically():
    chain = Chain([(0, 0, 0), (1, 0, 0), (2, 0, 0)])
    first = ikcore.solve(chain, (1.0, 0.0, 0.0), "two_bone")
    again = ikcore.solve(chain, (1.0, 0.0, 0.0), "two_bone")
    assert first.converged and first.positions == again.positions
    # Off the line, the knee bends toward where the upper bone pointed.
    sol = ikcore.solve(chain, (0.0, 1.5, 0.0), "two_bone")
    assert sol.converged and sol.positions[1][0] > 0.0 and abs(sol.positions[1][2]) < 1e-12


def test_too_far_is_stretched_straight_at_the_target():
    target = (3.0, 4.0, 0.0)
    sol = ikcore.solve(ARM, target, "two_bone")
    assert sol.status == "unreachable" and sol.iterations == 1
    root, knee, tip = sol.positions
    assert tip == pytest.approx((0.6 * 2.5, 0.8 * 2.5, 0.0))
    assert knee == pytest.approx((0.6, 0.8, 0.0))
    assert sol.error == pytest.approx(5.0 - 2.5)


def test_too_near_is_folded_toward_the_target():
    target = (0.0, 0.2, 0.0)  # nearer than |1 - 1.5| = 0.5
    sol = ikcore.solve(ARM, target, "two_bone")
    assert sol.status == "unreachable"
    assert sol.positions[2] == pytest.approx((0.0, 0.5, 0.0))
    assert sol.error == pytest.approx(0.3)
    at_root = ikcore.solve(ARM, (0.0, 0.0, 0.0), "two_bone")
    assert at_root.status == "unreachable" and at_root.error == pytest.approx(0.5)


def test_equal_bones_fold_onto_the_root():
    chain = Chain([(0, 0, 0), (1, 0, 0), (1, 1, 0)])
    sol = ikcore.solve(chain, (0.0, 0.0, 0.0), "two_bone")
    assert sol.converged and all(math.isfinite(c) for p in sol.positions for c in p)


def test_unreachable_resolve_does_not_move():
    sol = ikcore.solve(ARM, (5.0, 5.0, 5.0), "two_bone")
    again = ikcore.solve(ARM, (5.0, 5.0, 5.0), "two_bone", start=sol.rotations)
    assert max(math.dist(a, b) for a, b in zip(sol.positions, again.positions)) < 1e-12


def test_limits_are_applied_and_reported_honestly():
    chain = Chain([(0, 0, 0), (1, 0, 0), (2, 0, 0)], [None, Hinge((0, 0, 1), -30, 30)])
    # Needs a 90-degree knee: the hinge stops it at 30 degrees.
    sol = ikcore.solve(chain, (1.0, 1.0, 0.0), "two_bone", pole=(0, 5, 0))
    assert max(chain.violations(sol.rotations)) <= 1e-12
    assert sol.status == "stalled" and sol.error > 1e-3 * chain.reach
    # Within the limits the closed form stays exact.
    ok = ikcore.solve(chain, (1.95, 0.2, 0.0), "two_bone")  # a 23-degree knee
    assert ok.converged
    cone = Chain([(0, 0, 0), (1, 0, 0), (2, 0, 0)], [BallSocket(10), None])
    sol = ikcore.solve(cone, (0.0, 2.0, 0.0), "two_bone")
    assert max(cone.violations(sol.rotations)) <= 1e-12 and not sol.converged


def _nearest_on_grid(l1, l2, psi, hip, knee, target, steps=150):
    """The least distance to ``target``'s foot on the z = 0 plane of a planar leg's tip over a grid of
    ``steps`` x ``steps`` hip and knee angles spanning their ranges (radians): an upper bound on
    the nearest pose the ranges allow."""
    tx, ty = target[0], target[1]
    hips = [hip[0] + (hip[1] - hip[0]) * i / (steps - 1) for i in range(steps)]
    knees = [knee[0] + (knee[1] - knee[0]) * i / (steps - 1) for i in range(steps)]
    best = math.inf
    for a in hips:
        kx, ky = l1 * math.cos(a) - tx, l1 * math.sin(a) - ty
        for b in knees:
            best = min(best, math.hypot(kx + l2 * math.cos(a + psi + b), ky + l2 * math.sin(a + psi + b)))
    return best


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_a_planar_leg_ends_at_the_nearest_pose_its_ranges_allow(seed):
    # Where neither elbow side meets the triangle within the ranges, the nearest pose lies on the
    # ranges' ends: two_bone weighs them, and no pose of a fine grid over both ranges comes nearer.
    # Every pose lies in the leg's plane, so a target off it is met best where its foot on the plane
    # is: at hypot(in-plane distance, height).
    rng = random.Random(seed)
    l1, l2, psi = rng.uniform(0.2, 1.5), rng.uniform(0.2, 1.5), rng.uniform(-1.0, 1.0)
    chain = Chain([(0, 0, 0), (l1, 0, 0), (l1 + l2 * math.cos(psi), l2 * math.sin(psi), 0)],
                  [Hinge((0, 0, 1), lo, lo + rng.uniform(5.0, 300.0))
                   for lo in (rng.uniform(-180.0, 150.0), rng.uniform(-180.0, 150.0))])
    heading, distance = rng.uniform(-math.pi, math.pi), rng.uniform(0.0, 1.3) * chain.reach
    height = rng.choice([0.0, rng.uniform(-0.5, 0.5) * chain.reach])
    target = (distance * math.cos(heading), distance * math.sin(heading), height)
    sol = ikcore.solve(chain, target, "two_bone")
    hip, knee = ((j.range.lo, j.range.hi) for j in chain.plan.joints)
    nearest = math.hypot(_nearest_on_grid(l1, l2, psi, hip, knee, target), height)
    assert sol.error <= nearest + 1e-9 * chain.reach


def _turned(axis, angle, v):
    """``v`` turned by ``angle`` about the unit ``axis`` (Rodrigues)."""
    c, s = math.cos(angle), math.sin(angle)
    k = dot(axis, v)
    cross = (axis[1] * v[2] - axis[2] * v[1], axis[2] * v[0] - axis[0] * v[2], axis[0] * v[1] - axis[1] * v[0])
    return tuple(v[i] * c + cross[i] * s + axis[i] * k * (1.0 - c) for i in range(3))


def _nearest_over_knee_grid(l1, l2, d0, d1, axis, knee, cone, target, steps=2001):
    """The least miss of a cone hip and a hinge knee over ``steps`` knee angles spanning its range
    (radians): an upper bound on the nearest pose their limits allow.

    With the knee at ``theta`` the tip is ``R_0 v``, ``v = l1 d0 + l2 rot(axis, theta) d1``, ``r``
    from the root at ``beta`` from ``d0``. A twist-free cone of half-angle ``c`` about ``d0`` turns it
    to any direction between ``beta - c`` and ``beta + c`` from ``d0``; the nearest of those to the
    target (at ``theta_t`` from ``d0``, ``d`` from the root) misses it by the law of cosines."""
    d = math.sqrt(dot(target, target))
    theta_t = math.acos(max(-1.0, min(1.0, dot(target, d0) / d))) if d > 0.0 else 0.0
    best = math.inf
    for k in range(steps):
        lower = _turned(axis, knee[0] + (knee[1] - knee[0]) * k / (steps - 1), d1)
        v = tuple(l1 * a + l2 * b for a, b in zip(d0, lower))
        r = math.sqrt(dot(v, v))
        beta = math.acos(max(-1.0, min(1.0, dot(v, d0) / r)))
        phi = min(max(theta_t, beta - cone), beta + cone)
        best = min(best, math.sqrt(max(0.0, d * d + r * r - 2.0 * d * r * math.cos(theta_t - phi))))
    return best


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_a_cone_hip_and_a_hinge_knee_end_at_the_nearest_pose_their_limits_allow(seed):
    # Where neither elbow side meets the target within a twist-free cone at the hip and a hinge's
    # range at the knee, two_bone searches the knee's angle for the nearest pose the limits allow:
    # no knee angle of a fine grid over the range comes nearer (the cone's best for each by the
    # law of cosines), whatever the rest bend and the hinge's axis.
    rng = random.Random(seed)
    l1, l2, bend = rng.uniform(0.2, 1.5), rng.uniform(0.2, 1.5), rng.choice([0.0, rng.uniform(-1.0, 1.0)])
    d0, d1 = (1.0, 0.0, 0.0), (math.cos(bend), math.sin(bend), 0.0)
    axis = rng.choice([(0.0, 0.0, 1.0), tuple(rng.gauss(0, 1) for _ in range(3))])
    axis = tuple(a / math.sqrt(dot(axis, axis)) for a in axis)
    lo = rng.uniform(-180.0, 150.0)
    hi = lo + rng.uniform(5.0, 300.0)
    cone = rng.uniform(5.0, 150.0)
    chain = Chain([(0, 0, 0), (l1, 0, 0), (l1 + l2 * d1[0], l2 * d1[1], 0)], [BallSocket(cone), Hinge(axis, lo, hi)])
    v = [rng.gauss(0, 1) for _ in range(3)]
    d = rng.uniform(0.0, 1.3) * chain.reach
    target = tuple(d * x / math.sqrt(sum(y * y for y in v)) for x in v)
    sol = ikcore.solve(chain, target, "two_bone")
    assert max(chain.violations(sol.rotations)) <= 1e-9
    if sol.converged:
        assert sol.error <= 1e-3 * chain.reach
    else:
        nearest = _nearest_over_knee_grid(l1, l2, d0, d1, axis, (math.radians(lo), math.radians(hi)),
                                          math.radians(cone), target)
        assert sol.error <= nearest + 1e-9 * chain.reach


def test_a_cone_hip_and_a_hinge_knee_find_the_nearer_of_two_dips():
    # The miss over the knee's range dips twice here: at the range's lower end (0.0305 from the
    # target) and, narrower, near 62 degrees (0.0276), which every iterative method finds.
    l1, l2 = 0.3683091100266382, 0.8717204624874688
    chain = Chain([(0, 0, 0), (l1, 0, 0), (l1 + l2, 0, 0)],
                  [BallSocket(107.75051030191811), Hinge((0, 0, 1), -61.52933560204677, 125.91804744196953)])
    target = (-0.9982463818061805, -0.5028673914711426, -0.04707947912905158)
    sol = ikcore.solve(chain, target, "two_bone")
    ccd = ikcore.solve(chain, target, "ccd", max_iterations=500)
    assert sol.status == "stalled" and max(chain.violations(sol.rotations)) <= 1e-12
    assert sol.error <= ccd.error + 1e-12 and abs(sol.error - 0.0275732074) < 1e-9
    assert abs(math.degrees(chain.plan.joints[1].constraint.angle(sol.rotations[1])) - 62.3704) < 1e-3


def test_two_bone_refuses_other_chains_and_orientation():
    with pytest.raises(IKError, match="2 bones, got 3"):
        ikcore.solve(Chain([(0, 0, 0), (1, 0, 0), (2, 0, 0), (3, 0, 0)]), (1, 1, 0), "two_bone")
    with pytest.raises(IKError, match="2 bones, got 1"):
        ikcore.solve(Chain([(0, 0, 0), (1, 0, 0)]), (1, 0, 0), "two_bone")
    with pytest.raises(IKError, match="orientation"):
        ikcore.solve(ARM, (1, 1, 0), "two_bone", orientation=(1, 0, 0, 0))
