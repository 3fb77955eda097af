"""The Jacobian methods: their machinery (Jacobian, m x m solves, steps) and how they solve.

Targets are seeded: reachable ones come from random poses of the chain itself
(so they respect its limits), or from the standard benchmark draw for free chains.
"""

import math
import random

import pytest

import ikcore
from ikcore import BallSocket, Chain, Hinge, IKError
from ikcore import rotation as rot
from ikcore.solvers import _jacobian as jac
from ikcore.solvers import _jacobian_columns as columns
from ikcore.solvers import _jacobian_flat as flat
from ikcore.solvers import _jacobian_normal as normal
from ikcore.solvers._limits import limit_table

JACOBIAN_METHODS = ("jacobian_transpose", "pseudo_inverse", "dls")


# ---------------------------------------------------------------------------------------------
# Helpers


def random_rotation(rng, max_angle=math.pi):
    axis = (rng.gauss(0, 1), rng.gauss(0, 1), rng.gauss(0, 1))
    return rot.from_axis_angle(axis, rng.uniform(0.0, max_angle))


def random_pose(chain, rng, max_angle=math.pi):
    """A random pose within the chain's limits."""
    return chain.clamp([random_rotation(rng, max_angle) for _ in range(chain.size)])


def straight(n, joints=None):
    return Chain([(float(i), 0.0, 0.0) for i in range(n + 1)], joints)


def ball_targets(chain, rng, count):
    """The benchmark draw: random direction, radius U[0.2, 0.95] x reach."""
    out = []
    for _ in range(count):
        g = [rng.gauss(0, 1) for _ in range(3)]
        norm = math.sqrt(sum(c * c for c in g))
        r = rng.uniform(0.2, 0.95) * chain.reach
        out.append(tuple(p + r * c / norm for p, c in zip(chain.points[0], g)))
    return out


def pose_targets(chain, rng, count, orientation=False):
    """Effector positions (and last-bone rotations) of random allowed poses: reachable by construction."""
    out = []
    for _ in range(count):
        qs = random_pose(chain, rng)
        out.append((chain.forward(qs)[-1], chain.world_rotations(qs)[-1] if orientation else None))
    return out


def rotation_vector(q):
    w, x, y, z = q
    if w < 0:
        w, x, y, z = -w, -x, -y, -z
    s = math.sqrt(x * x + y * y + z * z)
    k = 2.0 * math.atan2(s, w) / s if s > 1e-300 else 2.0
    return (k * x, k * y, k * z)


def turn(chain, qs, j, axis, eps):
    """``qs`` with joint ``j`` turned by ``eps`` about the world ``axis`` (the convention, written out)."""
    parent = chain.world_rotations(qs)[j - 1] if j else rot.IDENTITY
    local = rot.rotate(rot.conjugate(parent), axis)
    out = list(qs)
    out[j] = rot.normalize(rot.multiply(rot.from_axis_angle(local, eps), qs[j]))
    return out


def joint_angles_squared(rotations):
    return sum(rot.angle(q) ** 2 for q in rotations)


MIXED = Chain([(0, 0, 0), (1, 0, 0), (1.5, 0.5, 0), (1.5, 1.5, 0.5), (2.5, 1.5, 1), (3, 1, 1)],
              [None, Hinge((0, 0, 1)), BallSocket(), Hinge((0.3, 1, 0.2)), None])


# ---------------------------------------------------------------------------------------------
# The Jacobian against finite differences


@pytest.mark.parametrize("seed", range(6))
def test_jacobian_matches_finite_differences(seed):
    rng = random.Random(seed)
    chain = MIXED
    qs = random_pose(chain, rng)
    weight = 1.7
    J = columns.jacobian(chain, qs, weight)
    assert len(J) == 6 and all(len(row) == 3 + 1 + 3 + 1 + 3 for row in J)
    world = chain.world_rotations(qs)
    col = 0
    eps = 1e-6
    for j, joint in enumerate(chain.joints):
        parent = world[j - 1] if j else rot.IDENTITY
        axes = [rot.rotate(parent, joint.axis)] if isinstance(joint, Hinge) else [(1, 0, 0), (0, 1, 0), (0, 0, 1)]
        for axis in axes:
            plus, minus = turn(chain, qs, j, axis, eps), turn(chain, qs, j, axis, -eps)
            dp = [(a - b) / (2 * eps) for a, b in zip(chain.forward(plus)[-1], chain.forward(minus)[-1])]
            last_p, last_m = chain.world_rotations(plus)[-1], chain.world_rotations(minus)[-1]
            do = [weight * c / (2 * eps) for c in rotation_vector(rot.multiply(last_p, rot.conjugate(last_m)))]
            for row, expected in zip(J, dp + do):
                assert row[col] == pytest.approx(expected, abs=1e-6)
            col += 1
    assert col == len(J[0])


def test_position_jacobian_has_three_rows_and_hinges_one_column():
    chain = straight(3, [Hinge((0, 0, 1)), None, Hinge((0, 1, 0))])
    J = columns.jacobian(chain, [rot.IDENTITY] * 3)
    assert len(J) == 3 and len(J[0]) == 1 + 3 + 1
    # At rest: the first hinge (about z at the root) moves the tip (3, 0, 0) along +y by 3 per radian.
    assert [row[0] for row in J] == pytest.approx([0, 3, 0])


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("m", [3, 6])
def test_normal_matrix_and_step_agree_with_the_jacobian(seed, m):
    """The fused closed forms in the hot loop equal J J^T and J^T y of the explicit Jacobian."""
    rng = random.Random(seed)
    chain = MIXED
    qs = random_pose(chain, rng)
    c = 0.8 if m == 6 else 0.0
    J = columns.jacobian(chain, qs, c if m == 6 else None)
    P, R = flat.forward(chain, qs)
    rs = []
    for j in range(chain.size):
        rs += [P[-3 + i] - P[3 * j + i] for i in range(3)]
    free = [0, 2, 4]
    cols = []
    for j in (1, 3):
        cols += (j, *columns.joint_axes(chain, R, j)[0])
    A = normal.normal_matrix(rs, free, cols, m, c)
    # Columns of J in joint order: 3 (joint 0), 1, 3, 1, 3.
    for i in range(m):
        for k in range(m):
            assert A[i * m + k] == pytest.approx(sum(a * b for a, b in zip(J[i], J[k])), abs=1e-12)
    y = [rng.gauss(0, 1) for _ in range(m)]
    W = normal.joint_step(rs, free, cols, y, m, c, chain.size, None)
    jty = [sum(J[i][k] * y[i] for i in range(m)) for k in range(len(J[0]))]
    hinge_axes = {j: columns.joint_axes(chain, R, j)[0] for j in (1, 3)}
    col = 0
    for j in range(chain.size):
        if j in hinge_axes:
            expected = [jty[col] * a for a in hinge_axes[j]]
            col += 1
        else:
            expected = jty[col:col + 3]
            col += 3
        assert W[3 * j:3 * j + 3] == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("m", [3, 6])
def test_small_spd_solves(m):
    rng = random.Random(m)
    for _ in range(50):
        M = [[rng.gauss(0, 1) for _ in range(m)] for _ in range(m + 2)]
        A = [sum(M[t][i] * M[t][k] for t in range(m + 2)) for i in range(m) for k in range(m)]
        b = [rng.gauss(0, 1) for _ in range(m)]
        y = normal.solve_spd(A, b, m, 0.01)
        for i in range(m):
            assert sum((A[i * m + k] + (0.01 if i == k else 0.0)) * y[k] for k in range(m)) == pytest.approx(b[i])
    # Singular without damping: refused (the caller damps), never inf or NaN.
    singular = [1.0 if i == k == 0 else 0.0 for i in range(m) for k in range(m)]
    assert normal.solve_spd(singular, [1.0] * m, m, 0.0) is None
    assert normal.solve_spd(singular, [1.0] * m, m, 1e-6) is not None


def test_apply_step_turns_the_subtree_about_the_joint():
    rng = random.Random(3)
    chain = straight(4)
    qs = random_pose(chain, rng)
    P, R = flat.forward(chain, qs)
    W = [0.0] * 12
    W[6:9] = (0.0, 0.3, 0.4)  # joint 2 turns by 0.5 rad about (0, 0.6, 0.8)
    new, newP, _ = flat.apply_step(chain, limit_table(chain), qs, R, W)
    assert newP == pytest.approx([c for p in chain.forward(new) for c in p], abs=1e-12)
    turn_q = rot.from_axis_angle((0, 0.6, 0.8), 0.5)
    pivot = P[6:9]
    for i in range(5):
        p = P[3 * i:3 * i + 3]
        if i > 2:
            p = [a + b for a, b in zip(pivot, rot.rotate(turn_q, [a - b for a, b in zip(p, pivot)]))]
        assert newP[3 * i:3 * i + 3] == pytest.approx(p, abs=1e-12)


@pytest.mark.parametrize("seed", range(4))
def test_apply_step_applies_the_limits_like_the_constraints(seed):
    rng = random.Random(seed)
    chain = Chain([(0, 0, 0), (1, 0, 0), (1, 1, 0), (1, 1, 1), (2, 1, 1)],
                  [Hinge((0, 0, 1), 150, 210), BallSocket(30, -20, 20), Hinge((1, 0, 0), -45, 10), BallSocket(60)])
    qs = random_pose(chain, rng)
    P, R = flat.forward(chain, qs)
    W = []
    for j, joint in enumerate(chain.joints):
        if isinstance(joint, Hinge):  # a hinge turns about its world axis only
            t = rng.uniform(-1, 1)
            W += [t * c for c in columns.joint_axes(chain, R, j)[0]]
        else:
            W += [rng.uniform(-1, 1) for _ in range(3)]
    new, _, _ = flat.apply_step(chain, limit_table(chain), qs, R, W)
    world = chain.world_rotations(qs)
    expected = []
    for j, q in enumerate(qs):
        parent = world[j - 1] if j else rot.IDENTITY
        w = rot.rotate(rot.conjugate(parent), W[3 * j:3 * j + 3])
        expected.append(rot.multiply(rot.from_axis_angle(w, math.sqrt(sum(c * c for c in w))), q))
    expected = chain.clamp(expected)
    assert max(chain.violations(new)) <= 1e-12
    for a, b in zip(new, expected):
        assert rot.angle_between(a, b) < 1e-9


def test_limit_directions_point_outward():
    chain = straight(2, [Hinge((0, 0, 1), -30, 30), BallSocket(40, -10, 10)])
    qs = [rot.from_axis_angle((0, 0, 1), math.radians(30)),
          rot.multiply(rot.from_axis_angle((0, 1, 0), math.radians(40)),
                       rot.from_axis_angle((1, 0, 0), math.radians(-10)))]
    qs = chain.clamp(qs)
    _, R = flat.forward(chain, qs)
    table = limit_table(chain)
    assert columns.limit_directions(table, qs, R, 0) == [pytest.approx((0, 0, 1))]
    out = columns.limit_directions(table, qs, R, 1)
    assert len(out) == 2  # the swing at the cone, the twist at its low end
    for d in out:
        # Turning a little along an outward direction leaves the limits.
        moved = turn(chain, qs, 1, d, 1e-3)
        assert chain.violations(moved)[1] > 1e-4


# ---------------------------------------------------------------------------------------------
# Convergence


def rate(method, chain, targets, **kwargs):
    hits = 0
    for target, orientation in targets:
        sol = ikcore.solve(chain, target, method, orientation=orientation, **kwargs)
        assert max(chain.violations(sol.rotations)) <= 1e-9
        hits += sol.converged
    return hits / len(targets)


@pytest.mark.parametrize("method", ["pseudo_inverse", "dls"])
def test_free_six_bone_chains_converge(method):
    chain = straight(6)
    targets = [(t, None) for t in ball_targets(chain, random.Random(12351), 60)]
    assert rate(method, chain, targets) >= 0.95


def test_dls_with_hinge_limits():
    axes = [(0, 0, 1), (0, 1, 0), (1, 0, 0)]
    chain = straight(6, [Hinge(axes[i % 3], -90, 90) for i in range(6)])
    assert rate("dls", chain, pose_targets(chain, random.Random(7), 60)) >= 0.85


def test_joints_on_a_limit_leave_the_step_to_the_others():
    """A joint pressed against its limit drops that direction from the Jacobian, so the others
    take up the motion instead of wasting each step on a clamp (fast convergence)."""
    chain = straight(6, [Hinge([(0, 0, 1), (0, 1, 0)][i % 2], -30, 30) for i in range(6)])
    targets = pose_targets(chain, random.Random(15), 40)
    assert rate("dls", chain, targets, max_iterations=30) >= 0.95


def test_dls_with_cone_limits():
    chain = straight(6, [BallSocket(45, -60, 60) for _ in range(6)])
    assert rate("dls", chain, pose_targets(chain, random.Random(8), 60)) >= 0.80


@pytest.mark.parametrize("joints", ["free", "hinges"])
def test_dls_meets_orientation_on_seven_joint_arms(joints):
    axes = [(0, 0, 1), (0, 1, 0)]
    limits = None if joints == "free" else [Hinge(axes[i % 2], -170, 170) for i in range(7)]
    chain = Chain([(0, 0, 0), (0, 0, 1), (0, 0, 2), (1, 0, 2), (2, 0, 2), (2.5, 0, 2), (3, 0, 2), (3.2, 0, 2)], limits)
    targets = pose_targets(chain, random.Random(9), 30, orientation=True)
    for target, orientation in targets[:5]:
        sol = ikcore.solve(chain, target, "dls", orientation=orientation)
        assert sol.orientation_error is not None
        if sol.converged:
            assert sol.orientation_error <= 1e-3 and sol.error <= 1e-3 * chain.reach
    assert rate("dls", chain, targets) >= (0.95 if joints == "free" else 0.9)


def test_pseudo_inverse_meets_orientation():
    chain = straight(7)
    assert rate("pseudo_inverse", chain, pose_targets(chain, random.Random(10), 20, orientation=True)) >= 0.95


def test_jacobian_transpose_converges_on_easy_cases():
    chain = straight(3)
    rng = random.Random(11)
    targets = [(t, None) for t in ball_targets(chain, rng, 20)]
    assert rate("jacobian_transpose", chain, targets) >= 0.95


def test_jacobian_transpose_fixed_alpha_never_blows_up():
    chain = straight(4)
    for alpha in (1e-3, 0.1, 10.0, 1e3):
        sol = ikcore.solve(chain, (1.0, 2.0, 0.5), "jacobian_transpose", alpha=alpha, max_iterations=300)
        assert all(math.isfinite(e) for e in sol.errors)
        # Only improving steps are taken: the error never rises.
        assert all(b <= a for a, b in zip(sol.errors, sol.errors[1:]))
        assert sol.error < sol.errors[0]


# ---------------------------------------------------------------------------------------------
# Honest ends: unreachable, singular, limits


@pytest.mark.parametrize("method", JACOBIAN_METHODS)
@pytest.mark.parametrize("target", [(0.0, 10.0, 0.0), (10.0, 0.0, 0.0), (-10.0, 0.0, 0.0), (3.0, 3.0, 3.0)])
def test_unreachable_targets_stretch_and_do_not_jitter(method, target):
    chain = straight(4)
    sol = ikcore.solve(chain, target, method)
    assert sol.status == "unreachable"
    assert sol.error == pytest.approx(math.dist(target, (0, 0, 0)) - 4.0, abs=1e-3 * 4)
    again = ikcore.solve(chain, target, method, start=sol.rotations)
    assert again.status == "unreachable"
    assert again.error <= sol.error + 1e-12
    assert max(math.dist(a, b) for a, b in zip(sol.positions, again.positions)) < 1e-5 * chain.reach
    # Frame after frame: no bouncing.
    third = ikcore.solve(chain, target, method, start=again.rotations)
    assert max(math.dist(a, b) for a, b in zip(again.positions, third.positions)) < 1e-5 * chain.reach


@pytest.mark.parametrize("method", JACOBIAN_METHODS)
@pytest.mark.parametrize("target", [(0.0, 0.0, 0.0), (2.0, 0.0, 0.0), (-2.0, 0.0, 0.0), (10.0, 0.0, 0.0),
                                    (4.0, 1e-9, 0.0), (3.999, 0.0, 0.0)])
def test_singular_starts_give_no_nan(method, target):
    """A straight chain with the target on its line: ahead, behind, at the root, beyond reach."""
    chain = straight(4)
    sol = ikcore.solve(chain, target, method)
    assert all(math.isfinite(c) for p in sol.positions for c in p)
    for p, q, length in zip(sol.positions, sol.positions[1:], chain.lengths):
        assert math.dist(p, q) == pytest.approx(length, rel=1e-9)
    if math.dist(target, (0, 0, 0)) <= 4.0:
        assert sol.converged, sol


def test_steps_are_bounded_near_a_singularity():
    """A target just off the line of a straight chain asks for a huge undamped step; it is bounded."""
    chain = straight(4)
    for method in JACOBIAN_METHODS:
        sol = ikcore.solve(chain, (4.5, 1e-7, 0.0), method, max_iterations=1)
        assert max(rot.angle(q) for q in sol.rotations) <= jac.MAX_STEP + 1e-12


def test_limits_hold_after_every_solve():
    rng = random.Random(12)
    chain = straight(5, [Hinge((0, 0, 1), 150, 210), BallSocket(20, -5, 5), Hinge((1, 0, 0), -90, -10),
                         BallSocket(0), None])
    for method in JACOBIAN_METHODS:
        for _ in range(8):
            target = tuple(rng.uniform(-5, 5) for _ in range(3))
            sol = ikcore.solve(chain, target, method, max_iterations=50)
            assert max(chain.violations(sol.rotations)) <= 1e-9


def test_constraint_wall_is_stalled():
    """Reachable by a free chain, but not within these limits: progress stops at the wall."""
    chain = straight(2, [Hinge((0, 0, 1), -10, 10), Hinge((0, 0, 1), -10, 10)])
    sol = ikcore.solve(chain, (0.0, 1.5, 0.0), "dls")
    assert sol.status == "stalled"
    # The best the limits allow: both hinges at +10 degrees.
    best = chain.forward([rot.from_axis_angle((0, 0, 1), math.radians(10))] * 2)[-1]
    assert sol.error == pytest.approx(math.dist(best, (0.0, 1.5, 0.0)), rel=1e-3)


def test_rest_weight_lowers_joint_angles_and_keeps_the_task():
    chain = straight(6)
    rng = random.Random(13)
    lower = 0
    cases = 10
    for _ in range(cases):
        start = random_pose(chain, rng, 1.2)
        target = ball_targets(chain, rng, 1)[0]
        for method in ("dls", "pseudo_inverse"):
            plain = ikcore.solve(chain, target, method, start=start)
            rested = ikcore.solve(chain, target, method, start=start, rest_weight=0.5)
            assert plain.converged and rested.converged
            lower += joint_angles_squared(rested.rotations) < joint_angles_squared(plain.rotations) - 1e-3
    assert lower == 2 * cases


def test_rest_weight_needs_a_fraction():
    chain = straight(3)
    with pytest.raises(IKError, match="rest_weight"):
        ikcore.solve(chain, (1, 1, 0), "dls", rest_weight=1.5)
    with pytest.raises(IKError, match="adaptive"):
        ikcore.solve(chain, (1, 1, 0), "dls", adaptive=1)
    with pytest.raises(IKError, match="alpha"):
        ikcore.solve(chain, (1, 1, 0), "jacobian_transpose", alpha=0)
    with pytest.raises(IKError, match="damping"):
        ikcore.solve(chain, (1, 1, 0), "pseudo_inverse", damping=0.1)


@pytest.mark.parametrize("adaptive", [True, False])
def test_dls_fixed_and_adaptive_damping(adaptive):
    chain = straight(5)
    targets = [(t, None) for t in ball_targets(chain, random.Random(14), 20)]
    assert rate("dls", chain, targets, adaptive=adaptive, damping=0.05) >= 0.95
