"""Invariants every method keeps, for random chains, limits, starts and targets.

Root fixed, bone lengths kept, positions equal to forward kinematics of the
rotations, limits never exceeded, no NaN, and an honest status.
"""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

import ikcore
from ikcore.solve import ORIENTATION_METHODS, reachable

from .strategies import chains, quaternions, targets

PLAIN_METHODS = [m for m in ikcore.METHODS if m != "two_bone"]


def check_invariants(chain, target, sol, start=None, orientation=None, tolerance=None,
                     max_iterations=None):
    reach = chain.reach
    tol = 1e-3 * reach if tolerance is None else tolerance
    pts = sol.positions
    assert len(pts) == chain.size + 1 and len(sol.rotations) == chain.size
    assert all(math.isfinite(c) for p in pts for c in p)
    assert all(math.isfinite(c) for q in sol.rotations for c in q)
    assert all(math.isfinite(e) for e in sol.errors)
    assert pts[0] == chain.points[0], "the root moved"
    for i, length in enumerate(chain.lengths):
        assert math.isclose(math.dist(pts[i], pts[i + 1]), length, rel_tol=1e-9, abs_tol=1e-12 * reach), i
    for q in sol.rotations:
        assert math.isclose(sum(c * c for c in q), 1.0, rel_tol=1e-12)
    for p, f in zip(pts, chain.forward(sol.rotations)):
        assert math.dist(p, f) <= 1e-12 * max(1.0, reach)
    assert max(chain.violations(sol.rotations), default=0.0) <= 1e-9
    # Honest status.
    assert sol.status in ikcore.STATUSES
    assert math.isclose(sol.error, math.dist(pts[-1], target), rel_tol=1e-12, abs_tol=1e-12 * reach)
    assert sol.errors[-1] == sol.error
    ok_orientation = sol.orientation_error is None or sol.orientation_error <= 1e-3
    assert (orientation is None) == (sol.orientation_error is None)
    assert sol.converged == (sol.error <= tol and ok_orientation)
    if not sol.converged:
        assert (sol.status == "unreachable") == (not reachable(chain, target))
    assert 0 <= sol.iterations <= (max_iterations or 100000)
    # The history starts at the error of the (clamped) start pose.
    first = chain.forward(chain.clamp(start or [(1.0, 0.0, 0.0, 0.0)] * chain.size))[-1]
    assert math.isclose(sol.errors[0], math.dist(first, target), rel_tol=1e-9, abs_tol=1e-9 * reach)


@pytest.mark.parametrize("method", PLAIN_METHODS)
@given(data=st.data())
def test_invariants(method, data):
    chain = data.draw(chains())
    target = data.draw(targets(chain))
    start = data.draw(st.none() | st.lists(quaternions, min_size=chain.size, max_size=chain.size))
    pole = data.draw(st.none() | targets(chain, far=2.0)) if method in ("ccd", "fabrik") else None
    orientation = data.draw(st.none() | quaternions) if method in ORIENTATION_METHODS else None
    max_iterations = data.draw(st.none() | st.integers(1, 60))
    sol = ikcore.solve(chain, target, method, start=start, pole=pole, orientation=orientation,
                       max_iterations=max_iterations)
    check_invariants(chain, target, sol, start, orientation, max_iterations=max_iterations)


@given(data=st.data())
def test_invariants_two_bone(data):
    chain = data.draw(chains(min_bones=2, max_bones=2))
    target = data.draw(targets(chain))
    start = data.draw(st.none() | st.lists(quaternions, min_size=2, max_size=2))
    pole = data.draw(st.none() | targets(chain, far=2.0))
    sol = ikcore.solve(chain, target, "two_bone", start=start, pole=pole)
    check_invariants(chain, target, sol, start)
    if chain.limited:
        return
    if reachable(chain, target):
        assert sol.converged and sol.iterations <= 1
    else:
        # Outside the reachable shell; within tolerance of its edge it may still converge.
        assert sol.status in ("unreachable", "converged")


@pytest.mark.parametrize("method", ikcore.METHODS)
@given(data=st.data())
def test_unlimited_unreachable_is_stretched_at_the_target(method, data):
    n = 2 if method == "two_bone" else data.draw(st.integers(1, 6))
    chain = data.draw(chains(min_bones=n, max_bones=n, limits=False))
    root = chain.points[0]
    d = data.draw(targets(chain, far=1.0))
    direction = [a - b for a, b in zip(d, root)]
    norm = math.sqrt(sum(c * c for c in direction))
    if norm < 1e-6 * chain.reach:
        return
    target = tuple(r + c / norm * chain.reach * data.draw(st.floats(1.05, 10.0)) for r, c in zip(root, direction))
    sol = ikcore.solve(chain, target, method)
    assert sol.status == "unreachable"
    # Straight and pointing at the target: the tip is at full reach on the root-target line.
    # The transpose method only creeps towards that singular pose from a folded start: 1% there.
    rel = 1e-2 if method == "jacobian_transpose" else 1e-3
    tip = sol.positions[-1]
    assert math.isclose(math.dist(tip, root), chain.reach, rel_tol=rel)
    to_target = math.dist(root, target)
    assert math.isclose(sol.error, to_target - chain.reach, rel_tol=rel, abs_tol=rel * chain.reach)
