"""FABRIK's restart option, and FABRIK on chains of cones about a straight rest line
(:mod:`ikcore.solvers.fabrik.points`): exact limits, honest results, smooth tracking."""

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ikcore
from ikcore import BallSocket, Chain, Hinge, IKError
from ikcore import rotation as rot
from ikcore.solvers import fabrik
from ikcore.solvers.fabrik.points import cones_of


def bends(points):
    """Angles (degrees) between consecutive bones."""
    out = []
    for a, b, c in zip(points, points[1:], points[2:]):
        u = [y - x for x, y in zip(a, b)]
        v = [y - x for x, y in zip(b, c)]
        d = sum(x * y for x, y in zip(u, v)) / (math.hypot(*u) * math.hypot(*v))
        out.append(math.degrees(math.acos(max(-1.0, min(1.0, d)))))
    return out


def random_rotation(rng, max_angle=math.pi):
    axis = (rng.gauss(0.0, 1.0), rng.gauss(0.0, 1.0), rng.gauss(0.0, 1.0))
    return rot.from_axis_angle(axis, rng.uniform(0.0, max_angle))


def cone_chain(rng, n=None):
    """A straight chain along a random direction, bones of random length, random twist-free cones
    (a few joints free)."""
    n = n or rng.randint(2, 14)
    d = rot.rotate(random_rotation(rng), (1.0, 0.0, 0.0))
    origin = (rng.uniform(-2.0, 2.0), rng.uniform(-2.0, 2.0), rng.uniform(-2.0, 2.0))
    points, s = [origin], 0.0
    for _ in range(n):
        s += rng.uniform(0.3, 1.5)
        points.append(tuple(o + s * c for o, c in zip(origin, d)))
    joints = [BallSocket(rng.uniform(15.0, 90.0)) if rng.random() < 0.85 else None for _ in range(n)]
    if all(j is None for j in joints):
        joints[0] = BallSocket(45.0)
    return Chain(points, joints)


def allowed_target(chain, rng):
    """The effector of a random pose within the limits: truly reachable."""
    return chain.forward(chain.clamp([random_rotation(rng) for _ in range(chain.size)]))[-1]


def check_pose(chain, sol):
    """Root fixed, bone lengths kept, positions = FK(rotations), limits held, best pose returned."""
    reach = chain.reach
    assert all(math.isfinite(c) for p in sol.positions for c in p)
    assert sol.positions[0] == chain.points[0]
    for i, length in enumerate(chain.lengths):
        assert math.isclose(math.dist(sol.positions[i], sol.positions[i + 1]), length, rel_tol=1e-9)
    for p, f in zip(sol.positions, chain.forward(sol.rotations)):
        assert math.dist(p, f) <= 1e-12 * max(1.0, reach)
    assert max(chain.violations(sol.rotations)) <= 1e-9
    assert sol.error <= min(sol.errors) + 1e-12 * reach


# -- the option --------------------------------------------------------------------------------


@pytest.mark.parametrize("value", [-1, 100001, 1.5, "2", True, math.nan, [0]])
def test_max_restarts_refuses_bad_values(value):
    with pytest.raises(IKError, match="max_restarts"):
        ikcore.solve(Chain([(0, 0, 0), (1, 0, 0), (2, 0, 0)]), (1.0, 1.0, 0.0), "fabrik", max_restarts=value)


@pytest.mark.parametrize("value", [0, 3, 2.0, None])
def test_max_restarts_takes_counts(value):
    sol = ikcore.solve(Chain([(0, 0, 0), (1, 0, 0), (2, 0, 0)]), (1.0, 1.0, 0.0), "fabrik", max_restarts=value)
    assert sol.converged


@pytest.mark.parametrize("kind", ["free", "hinge", "cones"])
def test_no_restart_stops_at_the_first_stall_with_the_best_pose(kind):
    if kind == "free":
        # A target next to the root of a chain whose long middle bone must fold back: a dead end.
        chain = Chain([(0, 0, 0), (1, 0, 0), (4, 0, 0), (6, 0, 0)])
        target = (0.3, 0.0, 0.0)
    elif kind == "hinge":
        # Hinges locked at 0: the chain cannot leave its line.
        chain = Chain([(i, 0, 0) for i in range(4)], [Hinge((0, 0, 1), 0, 0)] * 3)
        target = (1.0, 1.0, 0.0)
    else:
        # Cones too tight to bring the tip back near the root.
        chain = Chain([(i, 0, 0) for i in range(6)], [BallSocket(10.0)] * 5)
        target = (0.5, 0.5, 0.0)
    assert cones_of(chain) is not None or kind != "cones"
    capped = ikcore.solve(chain, target, "fabrik", max_restarts=0)
    free = ikcore.solve(chain, target, "fabrik")
    assert capped.status == "stalled" and not capped.converged
    assert capped.iterations < free.iterations
    check_pose(chain, capped)
    # Repeatable, and no restart: the same solve gives the same pose.
    again = ikcore.solve(chain, target, "fabrik", max_restarts=0)
    assert again.rotations == capped.rotations and again.errors == capped.errors


def test_restarts_count_up_to_the_cap():
    # A dead end where restarts never help: each allowed restart costs another stagnation window.
    chain = Chain([(i, 0, 0) for i in range(4)], [Hinge((0, 0, 1), 0, 0)] * 3)
    runs = [ikcore.solve(chain, (1.0, 1.0, 0.0), "fabrik", max_restarts=k).iterations for k in range(4)]
    assert runs == sorted(runs) and len(set(runs)) == 4


# -- which chains take the cone passes ---------------------------------------------------------


def test_cone_passes_take_twist_free_cones_on_a_straight_rest_line():
    straight = [(0, 0, 0), (0, 1, 0), (0, 2, 0), (0, 3.5, 0)]
    assert cones_of(Chain(straight, [BallSocket(30), None, BallSocket(20)])) is not None
    # A twist limit, a hinge, or a limited bone off its parent's line: the general passes.
    assert cones_of(Chain(straight, [BallSocket(30, -10, 10)] * 3)) is None
    assert cones_of(Chain(straight, [BallSocket(30), Hinge(), BallSocket(30)])) is None
    bent = [(0, 0, 0), (0, 1, 0), (1, 1, 0), (1, 2, 0)]
    assert cones_of(Chain(bent, [None, BallSocket(30), None])) is None
    # Joint 0's cone is about the fixed frame, and free joints take any direction.
    assert cones_of(Chain(bent, [BallSocket(30), None, None])) is not None


# -- properties --------------------------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), warm=st.booleans(), far=st.floats(0.0, 2.0),
       restarts=st.sampled_from([None, 0]))
def test_cone_chain_solves_keep_every_invariant(seed, warm, far, restarts):
    rng = random.Random(seed)
    chain = cone_chain(rng)
    start = chain.clamp([random_rotation(rng) for _ in range(chain.size)]) if warm else None
    root = chain.points[0]
    # Reachable, out of reach, or anywhere near the root.
    target = allowed_target(chain, rng)
    target = tuple(r + (t - r) * (1.0 + far) for r, t in zip(root, target)) if far > 1.0 else target
    sol = ikcore.solve(chain, target, "fabrik", start=start, max_restarts=restarts)
    check_pose(chain, sol)
    distance = math.dist(root, target)
    if sol.converged:
        assert sol.error <= 1e-3 * chain.reach
    elif distance > chain.reach:
        assert sol.status == "unreachable"
    else:
        assert sol.status in ("stalled", "max_iterations")


def test_cone_chains_converge_cold_on_reachable_targets():
    rng = random.Random(5)
    converged, iterations = 0, []
    for _ in range(200):
        chain = cone_chain(rng)
        sol = ikcore.solve(chain, allowed_target(chain, rng), "fabrik")
        check_pose(chain, sol)
        converged += sol.converged
        iterations.append(sol.iterations)
    assert converged >= 0.97 * 200
    iterations.sort()
    assert iterations[100] <= 5 and iterations[180] <= 8


def test_a_pole_turns_a_cone_chain_without_breaking_it():
    rng = random.Random(6)
    converged = 0
    for _ in range(60):
        chain = cone_chain(rng)
        pole = (rng.uniform(-6.0, 6.0), rng.uniform(-6.0, 6.0), rng.uniform(-6.0, 6.0))
        sol = ikcore.solve(chain, allowed_target(chain, rng), "fabrik", pole=pole)
        check_pose(chain, sol)
        converged += sol.converged
    assert converged >= 0.95 * 60


def test_straight_start_with_the_target_on_its_line_still_bends():
    chain = Chain([(0, 0, float(i)) for i in range(9)], [BallSocket(40.0)] * 8)
    for target in ((0.0, 0.0, 5.0), (0.0, 0.0, -2.0)):
        sol = ikcore.solve(chain, target, "fabrik")
        check_pose(chain, sol)
        assert sol.error < math.dist(chain.points[-1], target)


def test_out_of_reach_aims_in_one_step_and_keeps_still():
    chain = Chain([(0, 0, float(i)) for i in range(11)], [BallSocket(60.0)] + [BallSocket(20.0)] * 9)
    far = (15.0, 0.0, 3.0)
    sol = ikcore.solve(chain, far, "fabrik")
    assert sol.status == "unreachable" and sol.iterations == 1
    check_pose(chain, sol)
    # Every bone turns toward the target as far as its cone lets it: the tip points at it.
    tip = [b - a for a, b in zip(sol.positions[-2], sol.positions[-1])]
    aim = [b - a for a, b in zip(chain.points[0], far)]
    cos = sum(u * v for u, v in zip(tip, aim)) / (math.hypot(*tip) * math.hypot(*aim))
    assert cos >= 1.0 - 1e-12
    # A slowly moving unreachable target: the pose follows it calmly, frame to frame.
    rotations, prev = sol.rotations, sol.positions
    for k in range(1, 60):
        target = (15.0, 0.3 * math.sin(0.05 * k), 3.0)
        sol = ikcore.solve(chain, target, "fabrik", start=rotations, max_restarts=0)
        assert sol.status == "unreachable"
        moved = max(math.dist(a, b) for a, b in zip(sol.positions, prev))
        assert moved <= 2.0 * 0.3 * 0.05 * chain.reach / 15.0 + 1e-9
        rotations, prev = sol.rotations, sol.positions


# -- tracking ----------------------------------------------------------------------------------


def track(chain, path, frames, start):
    """Track ``path(t)`` at 60 frames per second from ``start``, FABRIK without restarts.

    Returns the solutions and the targets, one per frame.
    """
    sols, targets, rotations = [], [], start
    for f in range(frames):
        target = path(f / 60.0)
        sol = ikcore.solve(chain, target, "fabrik", start=rotations, max_restarts=0, max_iterations=10)
        sols.append(sol)
        targets.append(target)
        rotations = sol.rotations
    return sols, targets


def test_a_long_cone_chain_tracks_a_moving_target_smoothly():
    # 16 bones standing up, 30 degree cones, a target wandering above and around the root
    # (passing nearly over it). The target starts at the tip and eases onto its path.
    n = 16
    chain = Chain([(0.0, 0.0, float(i)) for i in range(n + 1)], [BallSocket(120.0)] + [BallSocket(30.0)] * (n - 1))
    reach = chain.reach
    start = [rot.from_axis_angle((1.0, 0.0, 0.0), math.radians(3.0))] * n
    tip = chain.forward(start)[-1]

    def path(t):
        p = (0.3 * reach * math.sin(0.7 * t) + 0.1 * reach, 0.25 * reach * math.sin(1.1 * t + 0.5),
             0.6 * reach + 0.1 * reach * math.sin(0.5 * t))
        u = min(1.0, t / 2.0)
        e = u * u * (3.0 - 2.0 * u)
        return tuple(a + e * (b - a) for a, b in zip(tip, p))

    sols, targets = track(chain, path, 1200, start)
    assert sum(s.converged for s in sols) >= 0.99 * len(sols)
    assert sum(s.iterations for s in sols) <= 1.5 * len(sols)
    for s in sols:
        check_pose(chain, s)
        b = bends(s.positions)
        # Smooth: well inside the cones, and neighbouring joints bend alike (no kink).
        assert max(b) <= 26.0
        assert max(abs(x - y) for x, y in zip(b, b[1:])) <= 6.0
    for a, b, ta, tb in zip(sols, sols[1:], targets, targets[1:]):
        # No jump: no point moves much further in a frame than the target.
        moved = max(math.dist(p, q) for p, q in zip(a.positions, b.positions))
        assert moved <= 2.0 * math.dist(ta, tb) + 1e-3 * reach

