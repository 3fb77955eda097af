"""The hot paths' shortcuts give bitwise the same results as the plain compositions they replace."""

import importlib
import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ikcore
from ikcore import chain as chain_module
from ikcore import rotation as rot
from ikcore.checks import check_rotations

from .strategies import bone_counts, build_chain, chains, random_direction, random_rotation, scaled, seeds, shapes

_solve = importlib.import_module("ikcore.solve")


def _slow_judge(chain, qs):
    # What the verdict did before the kernel (for limited chains; free ones are only settled).
    return chain._settle(chain.clamp([rot.normalize(q) for q in qs]))


def _raw_rotations(chain, rng):
    # Anything a solver might hand the verdict: scaled, near-zero, near the limits.
    out = []
    for c, d in zip(chain.joints, chain.directions):
        q = random_rotation(rng, rng.choice([0.05, 1.0, math.pi]))
        if c is not None and rng.random() < 0.3:
            q = c.clamp(q, d)
        out.append(scaled(q, rng) if rng.random() < 0.5 else q)
    return out


@settings(max_examples=60)
@given(chains(max_bones=10), st.integers(0, 2**32 - 1))
def test_judge_kernel_is_the_composition(chain, seed):
    qs = _raw_rotations(chain, random.Random(seed))
    assert chain._judge(qs) == _slow_judge(chain, qs)


@settings(max_examples=60)
@given(chains(max_bones=10), st.integers(0, 2**32 - 1))
def test_start_kernel_is_the_composition(chain, seed):
    qs = _raw_rotations(chain, random.Random(seed))
    slow = check_rotations(qs, chain.size, "start")
    if chain.limited:
        slow = chain.clamp(slow)
    assert chain._start(qs) == slow
    # Other sequence types and numbers go the checked way, to the same result.
    assert chain._start(tuple(list(q) for q in qs)) == slow


@pytest.mark.parametrize("bad, message", [
    ([(0.0, 0.0, 0.0, 0.0)], r"start\[0\]"),
    ([(float("nan"), 0.0, 0.0, 1.0)], r"start\[0\]"),
    ([(1e200, 1e200, 0.0, 0.0)], r"start\[0\]"),
    ([(1.0, 0.0, 0.0)], r"start\[0\]"),
    ([(1.0, 0.0, 0.0, 0.0)] * 2, "start must hold 1"),
])
def test_start_kernel_refuses_what_the_checks_refuse(bad, message):
    chain = ikcore.Chain([(0.0, 0.0, 0.0), (1.0, 0.0, 0.0)], [ikcore.BallSocket(cone_deg=30.0)])
    with pytest.raises(ikcore.IKError, match=message):
        chain._start(bad)


def test_judge_kernel_uses_each_constraint():
    # A rotation outside a cone, a hinge and a twist limit is clamped exactly as clamp() does.
    chain = ikcore.Chain([(0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (2.0, 0.0, 0.0), (3.0, 0.0, 0.0)],
                         [ikcore.BallSocket(cone_deg=10.0), ikcore.Hinge(min_deg=0.0, max_deg=20.0),
                          ikcore.BallSocket(cone_deg=60.0, twist_min_deg=-5.0, twist_max_deg=5.0)])
    q = rot.from_axis_angle((0.3, 0.4, 0.5), 1.2)
    units, points, last = chain._judge([q, q, q])
    assert chain.violations(units) == pytest.approx([0.0] * 3, abs=1e-9)
    assert (units, points, last) == _slow_judge(chain, [q, q, q])


_TURNS = [k * math.pi for k in (-4, -3, -2, -1, 1, 2, 3, 4)]


@settings(max_examples=200)
@given(st.floats(-720.0, 720.0), st.floats(0.0, 800.0),
       st.one_of(st.floats(-30.0, 30.0), st.sampled_from(_TURNS + [math.nextafter(a, 0.0) for a in _TURNS])),
       st.integers(0, 2**32 - 1))
def test_hinge_kernel_is_the_composition(lo, span, angle, seed):
    # Any angle (a solver's, past a turn or on one), and any rotation, clamped as Hinge does it.
    rng = random.Random(seed)
    hinge = ikcore.Hinge(random_direction(rng), lo, lo + span)
    row = chain_module._hinge_row(hinge)
    assert chain_module._hinge_rotation(row, angle) == rot.from_axis_angle(
        hinge.axis, hinge.range.clamp(rot.wrap_angle(angle)))
    q = random_rotation(rng)
    assert chain_module._clamp_hinge(row, *q) == hinge.clamp(q)



# -- warm starts from the last verdict -----------------------------------------------------------

def _close(a, b, tol):
    return all(abs(x - y) <= tol for qa, qb in zip(a, b) for x, y in zip(qa, qb))


@settings(max_examples=40)
@given(chains(min_bones=2, max_bones=8), st.integers(0, 2**32 - 1),
       st.sampled_from(["fabrik", "ccd", "dls", "fabrik_dls"]))
def test_judged_rotations_need_no_second_check(chain, seed, method):
    # What the judged warm start skips, checking and clamping the last verdict's rotations again,
    # moves them by rounding only, and they are within the limits.
    rng = random.Random(seed)
    sol = ikcore.solve(chain, tuple(c + rng.uniform(-1.0, 1.0) * chain.reach for c in chain.points[0]),
                       method, max_iterations=20)
    again = chain._start(sol.rotations)
    assert _close(again, sol.rotations, 1e-12)
    assert max(chain.violations(sol.rotations)) <= 1e-9


def _skeleton(chain):
    sk = ikcore.Skeleton()
    sk.add_node("base", translation=(0.1, 0.2, 0.3), rotation=rot.from_axis_angle((0.0, 1.0, 0.0), 0.4))
    return sk.add_chain("limb", "base", chain.points, chain.joints)


@settings(max_examples=40)
@given(chains(min_bones=2, max_bones=8), st.integers(0, 2**32 - 1),
       st.sampled_from(["fabrik", "ccd", "dls", "fabrik_dls"]))
def test_bound_chain_warm_start_is_the_judged_solve(chain, seed, method):
    # Frame to frame a bound chain starts from its last verdict as it stands, its frames included;
    # the result is that of solve_from_judged exactly. (Without the frames, forward kinematics
    # gives the start's points again to rounding only, which a restarting solve may amplify.)
    rng = random.Random(seed)
    bound = _skeleton(chain)
    solve_judged = _solve.solve_from_judged
    for frame in range(4):
        target = tuple(c + rng.uniform(-0.8, 0.8) * chain.reach for c in chain.points[0])
        prev = bound.solution
        start = bound.rotations
        sol = bound.solve(target, method, local=True, max_iterations=15)
        if prev is None:
            continue
        exact = solve_judged(bound.chain, target, method, prev.rotations, frames=prev.frames, max_iterations=15)
        assert (sol.rotations, sol.status, sol.iterations, sol.errors) == (
            exact.rotations, exact.status, exact.iterations, exact.errors)
        # The public solve checks and clamps the start again, which moves it by rounding only (see
        # test_judged_rotations_need_no_second_check); a solve that restarts amplifies that, so
        # only the starting error is compared.
        public = ikcore.solve(bound.chain, target, method, start=start, max_iterations=15)
        assert abs(public.errors[0] - sol.errors[0]) <= 1e-9 * chain.reach


def test_bound_chain_checks_a_start_it_did_not_judge():
    chain = ikcore.Chain([(0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (2.0, 0.0, 0.0)],
                         [ikcore.Hinge(min_deg=0.0, max_deg=90.0), ikcore.Hinge(min_deg=0.0, max_deg=90.0)])
    bound = _skeleton(chain)
    bound.solve((1.0, 1.0, 0.0), "fabrik", local=True)
    # A node turned by hand past its limit since the last solve: the next start is clamped.
    outside = rot.from_axis_angle((0.0, 0.0, 1.0), 2.0)
    bound.nodes[0].set_local(rotation=outside)
    start = bound.rotations
    sol = bound.solve((1.0, 1.0, 0.0), "fabrik", local=True, max_iterations=1)
    expect = ikcore.solve(chain, (1.0, 1.0, 0.0), "fabrik", start=start, max_iterations=1)
    assert (sol.rotations, sol.errors) == (expect.rotations, expect.errors)
    assert sol.errors[0] > 0.5  # the clamped start (90 degrees), not the last verdict
    assert max(chain.violations(sol.rotations)) <= 1e-12


@pytest.mark.parametrize("method", ["fabrik", "two_bone"])
def test_warm_solves_check_their_targets_and_poles_as_cold_ones(method):
    # A warm solve takes a plain target and pole (three floats near the root) as they are; anything
    # else goes through the full checks: refused with the name of what was wrong, or made floats.
    chain = ikcore.Chain([(0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (2.0, 0.0, 0.0)])
    bound = _skeleton(chain)
    bound.solve((1.0, 1.0, 0.0), method, local=True, pole=(1.0, 2.0, 0.0))
    nan, inf = float("nan"), float("inf")
    for bad, name in (((nan, 1.0, 0.0), "target"), ((1.0, inf, 0.0), "target"), ((1e200, 0.0, 0.0), "target"),
                      ((True, 1.0, 0.0), "target"), ([1.0, 1.0], "target"), ("abc", "target")):
        with pytest.raises(ikcore.IKError, match=name):
            bound.solve(bad, method, local=True, pole=(1.0, 2.0, 0.0))
        with pytest.raises(ikcore.IKError, match="pole"):
            bound.solve((1.0, 1.0, 0.0), method, local=True, pole=bad)
    assert bound.solve([1, 1, 0], method, local=True, pole=(1, 2, 0)).error == pytest.approx(0.0, abs=1e-9)
    assert bound.solution.status == "converged"


# -- FABRIK hands the verdict its own points ------------------------------------------------------

def _near(a, b, tol):
    return all(math.dist(p, q) <= tol for p, q in zip(a, b))


def _check_settled(chain, settled):
    # A free chain's settled pose stands for forward kinematics: unit rotations, their points to
    # rounding (within 1e-12 of the reach), their last world rotation.
    rotations, points, last = settled
    assert len(rotations) == chain.size and len(points) == chain.size + 1
    assert all(abs(math.sqrt(sum(c * c for c in q)) - 1.0) <= 1e-12 for q in rotations)
    assert points[0] == chain.points[0]
    assert _near(points, chain.forward(rotations), 1e-12 * chain.reach)
    assert max(abs(a - b) for a, b in zip(last, chain.world_rotations(rotations)[-1])) <= 1e-12


_WHERE = st.sampled_from(["anywhere", "behind", "near the root", "beyond"])


@settings(max_examples=80, deadline=None)
@given(bone_counts(1, 30), shapes, seeds, _WHERE, st.sampled_from(["cold", "warm", "tracking"]), st.booleans())
def test_fabrik_settled_pose_is_forward_kinematics(n, shape, seed, where, start_kind, with_pole):
    from ikcore.solvers import fabrik

    rng = random.Random(seed)
    chain = build_chain(rng, n, shape, "free")
    reach, root = chain.reach, chain.points[0]
    u = random_direction(rng)
    if where == "behind":
        # Straight back past the root along the first rest bone: bones turn near half a turn.
        u = tuple(-c for c in chain.directions[0])
        u = tuple(c + 1e-3 * rng.uniform(-1.0, 1.0) for c in u) if rng.random() < 0.5 else u
    r = {"anywhere": rng.uniform(0.0, 1.0), "behind": rng.uniform(0.1, 0.9), "near the root": 1e-3,
         "beyond": rng.uniform(1.0, 3.0)}[where] * reach
    target = tuple(c + r * d for c, d in zip(root, u))
    start = None
    if start_kind == "warm":
        start = [random_rotation(rng, rng.choice([0.3, math.pi])) for _ in range(n)]
    elif start_kind == "tracking":
        start = ikcore.solve(chain, tuple(c + 0.05 * reach * d for c, d in zip(target, random_direction(rng))),
                             "fabrik").rotations
    pole = tuple(c + reach * d for c, d in zip(root, random_direction(rng))) if with_pole else None
    problem = _solve.make_problem(chain, target, "fabrik", start, None, None, None, None, pole, {})
    outcome = fabrik.run(problem)
    if outcome.settled is None:
        # Only a start that meets the target already, returned as it is.
        assert outcome.iterations == 0 and outcome.rotations == problem.start
    else:
        _check_settled(chain, outcome.settled)
        assert _near(outcome.settled[0], outcome.rotations, 1e-12)
    # The public result is that pose, with the verdict the plain forward kinematics would give.
    fast = ikcore.solve(chain, target, "fabrik", start=start, pole=pole)
    plain = _solve.judge(problem, "fabrik", outcome.rotations, outcome.iterations, outcome.errors,
                         outcome.stalled)
    assert fast.rotations == plain.rotations or _near(fast.rotations, plain.rotations, 1e-12)
    assert _near(fast.positions, plain.positions, 1e-12 * reach)
    assert (fast.status, fast.iterations) == (plain.status, plain.iterations)
    assert abs(fast.error - plain.error) <= 1e-12 * reach


@settings(max_examples=60, deadline=None)
@given(chains(max_bones=6, limits=False), seeds, st.floats(-10.0, -1.0), st.booleans())
def test_fabrik_settled_pose_where_bones_turn_nearly_half_a_turn(chain, seed, log_turn, warm):
    # Every bone turned a half turn less 10 ** log_turn radians from its reference pose: the arc's
    # axis is a small difference there, and the settled pose must still be forward kinematics.
    from ikcore.solvers import _fabrik_arcs
    from ikcore.solvers._pose import Pose

    rng = random.Random(seed)
    ref = Pose(chain, [random_rotation(rng) for _ in range(chain.size)]) if warm else None
    xs, ys, zs = list(chain.points[0][:1]), [chain.points[0][1]], [chain.points[0][2]]
    delta = 10.0 ** log_turn
    for i, length in enumerate(chain.lengths):
        if ref is None:
            s = chain.directions[i]
        else:
            s = tuple((ref_c[i + 1] - ref_c[i]) / length for ref_c in (ref.xs, ref.ys, ref.zs))
        # b: -s turned by delta toward a direction across s.
        across = rot.rotate(rot.from_axis_angle(s, rng.uniform(0.0, 2.0 * math.pi)), rot.perpendicular(s))
        b = tuple(-c * math.cos(delta) + p * math.sin(delta) for c, p in zip(s, across))
        xs.append(xs[-1] + length * b[0])
        ys.append(ys[-1] + length * b[1])
        zs.append(zs[-1] + length * b[2])
    rotations, settled = _fabrik_arcs.settled_along(chain, ref, xs, ys, zs)
    _check_settled(chain, settled)
    assert _near(settled[0], rotations, 1e-12)
