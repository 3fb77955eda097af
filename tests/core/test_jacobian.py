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
from ikcore import kinematics
from ikcore.plan import hinge_angle
from ikcore.solvers import jacobian as jac_module
from ikcore.solvers.jacobian import limits as jlimits
from ikcore.solvers.jacobian import linalg
from ikcore.solvers.jacobian.joints import JointJacobian
from ikcore.solvers.jacobian.turning import turned_pose

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


def jacobian_of(chain, qs, c=None):
    """The :class:`JointJacobian` of the pose ``qs`` (with orientation rows when ``c`` is given)."""
    frames = kinematics.pose_of(chain, qs)
    return JointJacobian(chain, frames, 0.0 if c is None else c, c is not None)


def columns(chain, jac):
    """The classic Jacobian's columns, one per axis a joint turns about: ``[(j, a, column)]``."""
    out = []
    for j, basis in enumerate(jac.bases):
        for a in ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)) if basis is None else basis:
            turns = [None] * chain.size
            turns[j] = a
            out.append((j, a, jac.apply(turns)))
    return out


@pytest.mark.parametrize("seed", range(6))
def test_jacobian_matches_finite_differences(seed):
    # J w = sum_j [w_j x (p_end - p_j); c w_j]: turning joint j about the world axis a by eps moves
    # the effector by eps times the position rows and turns the last bone by eps times a.
    rng = random.Random(seed)
    chain = MIXED
    qs = random_pose(chain, rng)
    weight = 0.7
    jac = jacobian_of(chain, qs, weight)
    eps = 1e-6
    for j, a, col in columns(chain, jac):
        plus, minus = turn(chain, qs, j, a, eps), turn(chain, qs, j, a, -eps)
        dp = [(x - y) / (2 * eps) for x, y in zip(chain.forward(plus)[-1], chain.forward(minus)[-1])]
        assert dp == pytest.approx(col[:3], abs=1e-6)
        last_p, last_m = chain.world_rotations(plus)[-1], chain.world_rotations(minus)[-1]
        w = rotation_vector(rot.multiply(last_p, rot.conjugate(last_m)))
        assert [weight * c / (2 * eps) for c in w] == pytest.approx(col[3:], abs=1e-6)


def test_position_jacobian_has_three_rows_and_hinges_one_axis():
    chain = Chain([(0, 0, 0), (1, 0, 0), (2, 0, 0), (3, 0, 0)], [None, Hinge((0, 0, 1)), BallSocket()])
    jac = jacobian_of(chain, [rot.IDENTITY] * 3)
    assert jac.m == 3 and jac.bases == [None, ((0.0, 0.0, 1.0),), None]
    assert [j for j, _, _ in columns(chain, jac)] == [0, 0, 0, 1, 2, 2, 2]
    assert all(len(col) == 3 for _, _, col in columns(chain, jac))


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("m", [3, 6])
def test_gram_and_products_agree_with_the_columns(seed, m):
    # The joint-by-joint sums (a ball joint's three axes in closed form) against the classic
    # Jacobian of one column per axis; with a blocked direction too.
    np = pytest.importorskip("numpy")
    rng = random.Random(seed)
    qs = random_pose(MIXED, rng)
    jac = jacobian_of(MIXED, qs, 0.5 if m == 6 else None)
    if seed % 2:
        # Summed before the blocks: the blocked hinge's column leaves it, the ball joint's sums again.
        assert len(jac.gram()) == m
        jac.block(1, jac.bases[1][0])
        jac.block(2, rot.normalize((rng.gauss(0, 1), rng.gauss(0, 1), rng.gauss(0, 1), 0.0))[:3])
    elif seed % 4 == 2:
        # A hinge blocked after the sums: its column's share is taken out.
        assert len(jac.gram()) == m
        jac.block(3, jac.bases[3][0])
    cols = columns(MIXED, jac)
    J = np.array([col for _, _, col in cols]).T
    assert np.allclose(jac.gram(), J @ J.T)
    y = [rng.uniform(-1, 1) for _ in range(m)]
    turns = jac.transpose(y)
    # Each joint turns by the sum of its columns' steps times their axes.
    dtheta = J.T @ y
    for j in range(MIXED.size):
        expected = sum((d * np.array(a) for (k, a, _), d in zip(cols, dtheta) if k == j), np.zeros(3))
        assert np.allclose(turns[j] if turns[j] is not None else np.zeros(3), expected)
    x = [rng.uniform(-1, 1) for _ in cols]
    per_joint = [None] * MIXED.size
    for (j, a, _), v in zip(cols, x):
        w = per_joint[j] or (0.0, 0.0, 0.0)
        per_joint[j] = tuple(p + v * c for p, c in zip(w, a))
    assert np.allclose(jac.apply(per_joint), J @ x)


def test_a_blocked_hinge_turns_no_more_and_a_blocked_ball_keeps_two_axes():
    jac = jacobian_of(MIXED, [rot.IDENTITY] * MIXED.size)
    jac.block(1, (0.0, 0.0, 1.0))
    assert jac.bases[1] == ()
    jac.block(0, (0.0, 0.6, 0.8))
    assert len(jac.bases[0]) == 2
    for a in jac.bases[0]:
        assert abs(a[1] * 0.6 + a[2] * 0.8) < 1e-12 and math.hypot(*a) == pytest.approx(1.0)
    assert jac.transpose([1.0, 2.0, 3.0])[1] is None


@pytest.mark.parametrize("m", [3, 6])
def test_small_spd_solves(m):
    np = pytest.importorskip("numpy")
    rng = random.Random(m)
    for _ in range(20):
        B = [[rng.uniform(-1, 1) for _ in range(m + 1)] for _ in range(m)]
        A = (np.array(B) @ np.array(B).T).tolist()
        b = [rng.uniform(-1, 1) for _ in range(m)]
        for shift in (0.0, 0.01):
            y = linalg.solve_spd_unrolled(A, b, shift)
            assert np.allclose((np.array(A) + shift * np.eye(m)) @ y, b)
    singular = [[1.0] * m for _ in range(m)]
    assert linalg.solve_spd_unrolled(singular, [1.0] * m, 0.0) is None
    assert linalg.solve_spd_unrolled(singular, [1.0] * m, 1e-6) is not None
    # Singular in its second block only (the orientation rows of a 6 x 6 system).
    if m == 6:
        A = np.eye(6)
        A[3:, 3:] = 1.0
        assert linalg.solve_spd_unrolled(A.tolist(), [1.0] * 6, 0.0) is None
    assert linalg.solve_spd_unrolled([[float("nan")] * m] * m, [1.0] * m, 1.0) is None


def test_a_step_turns_the_subtree_about_the_joint():
    chain = straight(3)
    frames = kinematics.rest(chain)
    jac = JointJacobian(chain, frames, 0.0, False)
    # Joint 1 turns a quarter about +z: points 2 and 3 swing about point 1.
    new, angles = turned_pose(chain, frames, jac, [None, (0.0, 0.0, 0.5 * math.pi), None], 1.0, jac_module.MAX_STEP)
    # The step is capped at MAX_STEP radians.
    angle = min(jac_module.MAX_STEP, 0.5 * math.pi)
    assert new.points[2] == pytest.approx((1 + math.cos(angle), math.sin(angle), 0.0))
    assert new.points[1] == pytest.approx((1.0, 0.0, 0.0))
    assert turned_pose(chain, frames, jac, [None, (0.0, 0.0, 0.0), None], 1.0, jac_module.MAX_STEP) is None


@pytest.mark.parametrize("seed", range(4))
def test_a_step_applies_the_limits_like_the_constraints(seed):
    rng = random.Random(seed)
    chain = Chain(MIXED.points, [BallSocket(20, -10, 10), Hinge((0, 0, 1), -20, 20), BallSocket(30),
                                 Hinge((0.3, 1, 0.2), 150, 210), BallSocket(25, -5, 5)])
    frames = kinematics.pose_of(chain, random_pose(chain, rng))
    jac = JointJacobian(chain, frames, 0.0, False)
    turns = jac.transpose([rng.uniform(-1, 1) for _ in range(3)])
    new, angles = turned_pose(chain, frames, jac, turns, 1.0, jac_module.MAX_STEP)
    assert max(chain.violations(new.rotations)) <= 1e-9
    assert all(math.dist(p, q) <= 1e-12 for p, q in zip(new.points, chain.forward(new.rotations)))
    # Hinges took the turn along their axes (all turns shrunk alike to the largest step): their angles
    # moved by it, clamped into range.
    k = min(1.0, jac_module.MAX_STEP / max(math.hypot(*w) for w in turns))
    for j in (1, 3):
        joint = chain.plan.joints[j]
        expected = joint.range.clamp(jac.angles[j] + k * sum(a * b for a, b in zip(turns[j], jac.bases[j][0])))
        assert hinge_angle(joint, new.rotations[j]) == pytest.approx(expected, abs=1e-12)
        # The angles that come with the pose are its own, for the next Jacobian.
        assert angles[j] == pytest.approx(expected, abs=1e-12)
    assert JointJacobian(chain, new, 0.0, False).angles == pytest.approx(angles, abs=1e-12)


def test_limit_directions_point_outward():
    chain = Chain([(0, 0, 0), (1, 0, 0), (2, 0, 0)], [Hinge((0, 0, 1), -30, 30), BallSocket(40, -10, 10)])
    frames = kinematics.pose_of(chain, [rot.from_axis_angle((0, 0, 1), math.radians(30)),
                                       rot.from_axis_angle((0, 1, 0), math.radians(60))])
    jac = JointJacobian(chain, frames, 0.0, False)
    assert jlimits.limit_directions(chain, frames, 0, jac) == [pytest.approx((0, 0, 1))]
    out = jlimits.limit_directions(chain, frames, 1, jac)
    # Swinging further about the swing's own (world) axis leaves the cone.
    swing_axis = rot.rotate(frames.worlds[0], (0.0, 1.0, 0.0))
    assert out == [pytest.approx(swing_axis)]
    # At the bottom of a range that crosses -180 (a hair below it unwraps a whole turn up).
    low = Chain([(0, 0, 0), (1, 0, 0)], [Hinge((0, 0, 1), -200, -100)])
    for degrees in (-200, -200 - 1e-9):
        frames = kinematics.pose_of(low, [rot.from_axis_angle((0, 0, 1), math.radians(degrees))])
        assert jlimits.limit_directions(low, frames, 0, JointJacobian(low, frames, 0.0, False)) == \
            [pytest.approx((0, 0, -1))]


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
        assert max(rot.angle(q) for q in sol.rotations) <= jac_module.MAX_STEP + 1e-12


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
