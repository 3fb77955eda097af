"""Invariants every method keeps, for random chains, limits, starts and targets.

Root fixed, bone lengths kept, positions equal to forward kinematics of the
rotations, limits never exceeded, no NaN, and an honest status.
"""

import math

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import ikcore
from ikcore.solve import ORIENTATION_METHODS

from .invariants import check_invariants
from .strategies import chains, quaternions, targets

PLAIN_METHODS = [m for m in ikcore.METHODS if m != "two_bone"]


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
    if not chain.limited and chain.reachable(target):
        assert sol.converged and sol.iterations <= 1
    elif not chain.limited:
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
    assume(norm >= 1e-6 * chain.reach)
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
