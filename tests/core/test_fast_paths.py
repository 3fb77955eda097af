"""The hot paths' shortcuts give bitwise the same results as the plain compositions they replace."""

import importlib
import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ikcore
from ikcore import rotation as rot
from ikcore.checks import check_rotations

from .strategies import chains, random_rotation, scaled

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
    # Frame to frame a bound chain starts from its last verdict as it stands; the result is that
    # of solve_from_judged exactly.
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
        exact = solve_judged(bound.chain, target, method, prev.rotations, max_iterations=15)
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


# -- FABRIK hands the verdict its forward kinematics ----------------------------------------------

@settings(max_examples=60)
@given(chains(max_bones=10, limits=False), st.integers(0, 2**32 - 1), st.booleans())
def test_fabrik_settled_pose_is_the_verdicts_own(chain, seed, warm):
    from ikcore.solvers import fabrik

    rng = random.Random(seed)
    start = [random_rotation(rng, 0.5) for _ in range(chain.size)] if warm else None
    target = tuple(c + rng.uniform(-1.2, 1.2) * chain.reach for c in chain.points[0])
    problem = _solve.make_problem(chain, target, "fabrik", start, None, 30, None, None,
                                                      None, {})
    outcome = fabrik.run(problem)
    if outcome.settled is not None:
        assert outcome.settled == chain._settle(outcome.rotations)
    # And the public result is what the plain verdict gives.
    plain = _solve.judge(problem, "fabrik", outcome.rotations, outcome.iterations,
                                               outcome.errors, outcome.stalled)
    fast = ikcore.solve(chain, target, "fabrik", start=start, max_iterations=30)
    assert (fast.positions, fast.rotations, fast.status, fast.errors) == (
        plain.positions, plain.rotations, plain.status, plain.errors)
