"""CCD: convergence, limits after each step, opposite directions, degenerate starts, pole, warm starts."""

import math
import random

import pytest

import ikcore
from ikcore import BallSocket, Chain, Hinge, IKError
from ikcore import rotation as rot
from ikcore.solvers import ccd

X = (1.0, 0.0, 0.0)


def straight(n, length=1.0):
    return Chain([(i * length, 0.0, 0.0) for i in range(n + 1)])


def random_rotation(rng, max_angle=math.pi):
    axis = (rng.gauss(0.0, 1.0), rng.gauss(0.0, 1.0), rng.gauss(0.0, 1.0))
    return rot.from_axis_angle(axis, rng.uniform(0.0, max_angle))


def free_chain(rng, n=6):
    """A random rest shape: bones of random direction and length."""
    p = (0.0, 0.0, 0.0)
    points = [p]
    for _ in range(n):
        d = rot.rotate(random_rotation(rng), X)
        length = rng.uniform(0.5, 1.5)
        p = tuple(a + length * b for a, b in zip(p, d))
        points.append(p)
    return Chain(points)


def hinge_chain(rng, n=6):
    """Planar (all about z) or spatial (z and y alternating) hinges, random ranges."""
    planar = rng.random() < 0.5
    joints = [Hinge((0.0, 0.0, 1.0) if planar or i % 2 == 0 else (0.0, 1.0, 0.0),
                    rng.uniform(-150.0, -30.0), rng.uniform(30.0, 150.0)) for i in range(n)]
    return Chain([(float(i), 0.0, 0.0) for i in range(n + 1)], joints)


def random_hinge_chain(rng, n=6):
    """Hinges about random axes across the bone, random lopsided ranges."""
    joints = []
    for _ in range(n):
        a = rng.uniform(0.0, 2.0 * math.pi)
        joints.append(Hinge((0.0, math.cos(a), math.sin(a)), rng.uniform(-150.0, 0.0), rng.uniform(10.0, 150.0)))
    return Chain([(float(i), 0.0, 0.0) for i in range(n + 1)], joints)


def cone_chain(rng, n=6):
    joints = [BallSocket(rng.uniform(30.0, 90.0), -rng.uniform(0.0, 90.0), rng.uniform(0.0, 90.0))
              for _ in range(n)]
    return Chain([(float(i), 0.0, 0.0) for i in range(n + 1)], joints)


def allowed_target(chain, rng):
    """The effector of a random pose within the limits: truly reachable."""
    return chain.forward(chain.clamp([random_rotation(rng) for _ in range(chain.size)]))[-1]


def check_pose(chain, sol):
    """Root fixed, bone lengths kept, positions = FK(rotations), limits held, best pose returned."""
    reach = chain.reach
    assert sol.positions[0] == chain.points[0]
    for i, length in enumerate(chain.lengths):
        assert math.isclose(math.dist(sol.positions[i], sol.positions[i + 1]), length, rel_tol=1e-9)
    for p, f in zip(sol.positions, chain.forward(sol.rotations)):
        assert math.dist(p, f) <= 1e-12 * max(1.0, reach)
    assert max(chain.violations(sol.rotations)) <= 1e-9
    assert sol.error <= min(sol.errors) + 1e-12 * reach


def offset_from_line(point, a, b):
    """Component of ``point - a`` across the line a-b."""
    d = [q - p for p, q in zip(a, b)]
    n = math.sqrt(sum(c * c for c in d))
    d = [c / n for c in d]
    v = [q - p for p, q in zip(a, point)]
    t = sum(x * y for x, y in zip(v, d))
    return [x - t * y for x, y in zip(v, d)]


@pytest.mark.parametrize("make, rate", [(free_chain, 0.95), (hinge_chain, 0.85), (random_hinge_chain, 0.85),
                                        (cone_chain, 0.80)])
def test_convergence_rate_on_reachable_targets(make, rate):
    rng = random.Random(7)
    converged = 0
    for _ in range(200):
        chain = make(rng)
        sol = ikcore.solve(chain, allowed_target(chain, rng), "ccd")
        check_pose(chain, sol)
        assert sol.status in ("converged", "stalled", "max_iterations")
        converged += sol.converged
    assert converged / 200 >= rate


@pytest.mark.parametrize("make, rate", [(free_chain, 0.95), (hinge_chain, 0.85), (cone_chain, 0.80)])
def test_a_pole_does_not_cost_convergence(make, rate):
    rng = random.Random(8)
    converged = 0
    for _ in range(100):
        chain = make(rng)
        pole = (rng.uniform(-6.0, 6.0), rng.uniform(-6.0, 6.0), rng.uniform(-6.0, 6.0))
        sol = ikcore.solve(chain, allowed_target(chain, rng), "ccd", pole=pole)
        check_pose(chain, sol)
        converged += sol.converged
    assert converged / 100 >= rate


def test_one_sweep_aligns_the_last_joint_exactly():
    # After the tip joint's step the effector lies on the ray from that joint to the target.
    chain = straight(1)
    target = (0.3, 0.5, -0.2)
    sol = ikcore.solve(chain, target, "ccd", max_iterations=1)
    tip = sol.positions[-1]
    assert math.dist(tip, [c / math.dist(target, (0, 0, 0)) for c in target]) <= 1e-12


def test_opposite_directions_still_move():
    # At joint 1 the effector (straight up) and the target (straight down) are exactly opposite.
    chain = Chain([(0, 0, 0), (1, 0, 0), (1, 1, 0)])
    target = (1.0, -0.5, 0.0)
    first = ikcore.solve(chain, target, "ccd", max_iterations=1)
    assert first.errors[1] < first.errors[0]
    sol = ikcore.solve(chain, target, "ccd")
    assert sol.converged
    check_pose(chain, sol)


def test_hinge_step_is_clamped_about_the_parent_frame_axis():
    # Joint 1's hinge axis is z in its parent's frame; the parent is locked at 90 degrees
    # about x, so joint 1 turns about world -y. Reaching (1, 0, 1) needs +90 degrees about
    # -y; its range allows only [0, 30].
    chain = Chain([(0, 0, 0), (1, 0, 0), (2, 0, 0)],
                  [Hinge((1, 0, 0), 90, 90), Hinge((0, 0, 1), 0, 30)])
    sol = ikcore.solve(chain, (1.0, 0.0, 1.0), "ccd")
    check_pose(chain, sol)
    angle = math.degrees(chain.joints[1].angle(sol.rotations[1]))
    assert math.isclose(angle, 30.0, abs_tol=1e-9)
    # The world axis of joint 1 is y: the last bone stays in the plane y = 0.
    assert abs(sol.positions[2][1]) <= 1e-12


@pytest.mark.parametrize("n", [2, 3, 4, 7])
@pytest.mark.parametrize("where", [0.5, 1.0 / 3.0, 0.9, -0.5, -0.9, 0.0])
def test_target_on_the_line_of_a_straight_chain_converges(n, where):
    # On the chain, on a joint, behind the root, on the root: every point starts on one line.
    chain = straight(n)
    sol = ikcore.solve(chain, (where * n, 0.0, 0.0), "ccd", max_iterations=1000)
    assert sol.converged
    check_pose(chain, sol)


@pytest.mark.parametrize("target", [(0.5, 0.0, 0.0), (-0.5, 0.0, 0.0), (1.5, 0.0, 0.0)])
def test_folded_collinear_start_converges(target):
    chain = straight(4)
    folded = [rot.IDENTITY, rot.from_axis_angle((0, 0, 1), math.pi), rot.IDENTITY, rot.IDENTITY]
    sol = ikcore.solve(chain, target, "ccd", start=folded)
    assert sol.converged
    check_pose(chain, sol)


def test_collinear_limited_chains_converge():
    cases = [(Chain([(i, 0, 0) for i in range(5)], [Hinge((0, 0, 1), -120, 120)] * 4),
              [(2.0, 0.0, 0.0), (-1.0, 0.0, 0.0)]),
             (Chain([(i, 0, 0) for i in range(5)], [BallSocket(70)] * 4),
              [(2.0, 0.0, 0.0), (3.0, 0.0, 0.0)])]
    for chain, targets in cases:
        for target in targets:
            sol = ikcore.solve(chain, target, "ccd")
            assert sol.converged
            check_pose(chain, sol)


def test_unreachable_is_stretched_at_the_target_without_jitter():
    chain = free_chain(random.Random(5), n=5)
    target = (20.0, -7.0, 4.0)
    sol = ikcore.solve(chain, target, "ccd")
    assert sol.status == "unreachable" and sol.iterations == 1
    direction = [c / math.sqrt(sum(v * v for v in target)) for c in target]
    for i in range(chain.size):
        bone = [(b - a) / chain.lengths[i] for a, b in zip(sol.positions[i], sol.positions[i + 1])]
        assert math.dist(bone, direction) <= 1e-12
    again = ikcore.solve(chain, target, "ccd", start=sol.rotations)
    assert again.status == "unreachable"
    assert max(math.dist(p, q) for p, q in zip(sol.positions, again.positions)) <= 1e-12 * chain.reach


def test_unreachable_limited_chain_keeps_still_on_re_solve():
    chain = Chain([(i, 0, 0) for i in range(5)], [Hinge((0, 0, 1), 10, 60)] * 4)
    target = (0.0, 9.0, 0.0)
    sol = ikcore.solve(chain, target, "ccd")
    assert sol.status == "unreachable"
    check_pose(chain, sol)
    again = ikcore.solve(chain, target, "ccd", start=sol.rotations)
    assert again.error <= sol.error + 1e-12
    assert max(math.dist(p, q) for p, q in zip(sol.positions, again.positions)) <= 1e-3 * chain.reach


@pytest.mark.parametrize("n", [2, 3, 5, 8])
def test_pole_chooses_the_bend_side(n):
    chain = straight(n)
    target = (0.6 * n, 0.3 * n, 0.0)
    root = chain.points[0]
    sides = []
    for pole_z in (5.0, -5.0):
        sol = ikcore.solve(chain, target, "ccd", pole=(0.3 * n, 0.0, pole_z))
        assert sol.converged
        check_pose(chain, sol)
        mean_z = sum(offset_from_line(p, root, target)[2] for p in sol.positions[1:-1]) / (n - 1)
        sides.append(mean_z)
    assert sides[0] > 0.05 and sides[1] < -0.05


def test_warm_start_takes_few_iterations():
    rng = random.Random(11)
    chain = free_chain(rng, n=8)
    first = ikcore.solve(chain, allowed_target(chain, rng), "ccd", tolerance=1e-6 * chain.reach)
    assert first.converged
    moved = tuple(c + 0.01 * chain.reach * d for c, d in zip(first.positions[-1], (0.6, -0.48, 0.64)))
    warm = ikcore.solve(chain, moved, "ccd", start=first.rotations)
    cold = ikcore.solve(chain, moved, "ccd")
    assert warm.converged and warm.iterations <= 3 and warm.iterations <= cold.iterations
    again = ikcore.solve(chain, moved, "ccd", start=warm.rotations)
    assert again.iterations == 0
    assert max(rot.angle_between(p, q) for p, q in zip(again.rotations, warm.rotations)) <= 1e-12


def test_max_step_caps_each_turn():
    chain = straight(4)
    sol = ikcore.solve(chain, (-1.0, 2.0, 0.5), "ccd", max_step_deg=10.0, max_iterations=1)
    # One sweep: each joint turned once, by at most 10 degrees.
    assert all(rot.angle(q) <= math.radians(10.0) + 1e-12 for q in sol.rotations)
    assert max(rot.angle(q) for q in sol.rotations) > math.radians(9.0)
    assert ikcore.solve(chain, (-1.0, 2.0, 0.5), "ccd", max_step_deg=10.0).converged


@pytest.mark.parametrize("bad", [0, -5, 181, float("nan"), "10"])
def test_max_step_must_be_an_angle_in_range(bad):
    with pytest.raises(IKError, match="max_step_deg"):
        ikcore.solve(straight(3), (1.0, 1.0, 0.0), "ccd", max_step_deg=bad)


def test_stalls_honestly_when_the_limits_forbid_the_target():
    chain = Chain([(i, 0, 0) for i in range(4)], [Hinge((0, 0, 1), 0, 0)] * 3)
    sol = ikcore.solve(chain, (1.0, 1.0, 0.0), "ccd")
    assert sol.status == "stalled"
    assert sol.iterations < ccd.MAX_ITERATIONS


def test_returns_max_iterations_when_cut_short():
    chain = straight(30)
    sol = ikcore.solve(chain, (3.0, 25.0, -10.0), "ccd", max_iterations=1, tolerance=1e-9)
    assert sol.status == "max_iterations" and sol.iterations == 1


def test_limits_with_wrapping_and_negative_ranges_hold():
    rng = random.Random(4)
    joints = [Hinge((0, 0, 1), 150, 210), Hinge((0, 0, 1), -90, -10), Hinge((0, 1, 0), -45, 45),
              BallSocket(40, -30, 30), Hinge((0, 0, 1), -200, -160)]
    chain = Chain([(i, 0, 0) for i in range(6)], joints)
    for _ in range(30):
        sol = ikcore.solve(chain, allowed_target(chain, rng), "ccd", start=[random_rotation(rng)] * 5)
        check_pose(chain, sol)


def test_solves_are_repeatable():
    rng = random.Random(9)
    chain = random_hinge_chain(rng)
    target = allowed_target(chain, rng)
    a = ikcore.solve(chain, target, "ccd")
    b = ikcore.solve(chain, target, "ccd")
    assert a.rotations == b.rotations and a.errors == b.errors


def test_planar_chain_reaches_as_near_as_its_plane_allows():
    chain = Chain([(i, 0, 0) for i in range(5)], [Hinge((0, 0, 1))] * 4)
    sol = ikcore.solve(chain, (2.0, 1.0, 0.5), "ccd", tolerance=1e-6)
    assert sol.status == "stalled" and sol.iterations < ccd.MAX_ITERATIONS
    assert math.isclose(sol.error, 0.5, rel_tol=1e-6)
    assert max(abs(p[2]) for p in sol.positions) <= 1e-12


def test_planar_pole_flips_within_the_plane():
    chain = Chain([(i, 0, 0) for i in range(4)], [Hinge((0, 0, 1), -150, 150)] * 3)
    target = (1.5, 1.5, 0.0)
    for pole, sign in [((0.0, 3.0, 0.0), 1.0), ((3.0, 0.0, 0.0), -1.0)]:
        sol = ikcore.solve(chain, target, "ccd", pole=pole)
        assert sol.converged
        check_pose(chain, sol)
        assert max(abs(p[2]) for p in sol.positions) <= 1e-12
        # Left (+) or right (-) of the root-target line, in the plane.
        mean = sum(p[1] - p[0] for p in sol.positions[1:-1]) / 2
        assert sign * mean > 0.05


def test_target_nearer_than_the_chain_folds_gives_the_nearest_fold_without_jitter():
    # The middle bone (3) is longer than the others together (2): the tip cannot come nearer than 1.
    chain = Chain([(0, 0, 0), (1, 0, 0), (4, 0, 0), (5, 0, 0)])
    target = (0.2, 0.1, -0.3)
    sol = ikcore.solve(chain, target, "ccd")
    assert sol.status == "unreachable" and sol.iterations == 1
    assert math.isclose(sol.error, chain.min_reach - math.dist(target, chain.points[0]), rel_tol=1e-12)
    check_pose(chain, sol)
    again = ikcore.solve(chain, target, "ccd", start=sol.rotations)
    assert max(math.dist(p, q) for p, q in zip(sol.positions, again.positions)) <= 1e-12 * chain.reach


@pytest.mark.parametrize("scale", [1e-60, 1e60])
@pytest.mark.parametrize("limited", [False, True])
def test_works_at_any_scale(scale, limited):
    rng = random.Random(2)
    joints = [Hinge((0, 0, 1), -120, 120), BallSocket(60), None, Hinge((0, 1, 0), -90, 90)] if limited else None
    chain = Chain([(i * scale, 0.0, 0.0) for i in range(5)], joints)
    for _ in range(5):
        target = allowed_target(chain, rng)
        sol = ikcore.solve(chain, target, "ccd", pole=(0.0, 0.0, scale))
        assert sol.converged
        check_pose(chain, sol)


@pytest.mark.parametrize("hip_deg, ankle_deg", [(40.0, 10.0), (30.0, 8.0), (60.0, 12.0)])
def test_a_limited_chain_hands_its_crawl_over_to_damped_least_squares(hip_deg, ankle_deg):
    # A leg reaching almost straight, its knee on its 0-degree limit: the sweeps slow down as the error
    # falls (they took 81 to 132 of them). At the first stall damped least squares takes over from the
    # best pose; every iteration after is one of its steps.
    from tests.bench.hard import leg

    chain = leg("free")
    pose = [rot.from_axis_angle((0.0, 0.0, 1.0), math.radians(hip_deg)), rot.IDENTITY,
            rot.from_axis_angle(X, math.radians(ankle_deg))]
    target = chain.forward(pose)[-1]
    traced = ikcore.trace(chain, target, method="ccd")
    assert traced.solution.converged
    assert traced.solution.iterations <= 30
    handovers = [i for i, s in enumerate(traced.steps) if s.phase == "setup" and s.detail["what"] == "handover"]
    assert len(handovers) == 1
    after = traced.steps[handovers[0] + 1:]
    assert {s.phase for s in after} <= {"step", "limit", "result"} and any(s.phase == "step" for s in after)
    assert traced.solution == ikcore.solve(chain, target, "ccd")


def test_out_of_reach_a_limited_chain_keeps_to_its_sweeps():
    # Beyond the reach the sweeps straighten the chain at the target, where damped least squares' steps
    # shrink with the bend: a stall there restarts the sweeps, never hands over.
    chain = Chain([(0.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 2.0, 0.0), (0.0, 3.0, 0.0)], [BallSocket(80.0)] * 3)
    traced = ikcore.trace(chain, (20.0, 5.0, -10.0), method="ccd", max_iterations=500)
    assert traced.solution.status == "unreachable"
    assert all(s.phase != "step" for s in traced.steps)
    assert not any(s.phase == "setup" and s.detail["what"] == "handover" for s in traced.steps)
