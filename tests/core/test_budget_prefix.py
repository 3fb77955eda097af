"""A solve's first k iterations do not depend on its budget: one stopped after k iterations took the
same steps as a longer one (the race replays a lane this way, and a trace can be cut anywhere).

The stall watch decides restarts from the errors and a fixed horizon, never from the iterations
left; these cases restart (limited legs, a crawl near full reach), so a watch that looked at the
budget would take other steps in the shorter solve."""

import pytest

import ikcore
from tests.bench import hard

#: Every iterative method but fabrik_dls, which splits its budget between its two phases.
METHODS = ["ccd", "fabrik", "jacobian_transpose", "pseudo_inverse", "dls"]


def cases():
    legs = hard.legs("ball", count=40)
    near = hard.near_reach(10, per_fraction=2)
    return legs[:20] + near[-6:]


@pytest.mark.parametrize("method", METHODS)
def test_a_shorter_budget_takes_the_same_first_steps(method):
    restarted = 0
    for chain, target in cases():
        full = ikcore.solve(chain, target, method, max_iterations=60)
        restarted += full.iterations > 12
        for k in sorted({1, 2, 5, 12, full.iterations - 1} - {0}):
            if k >= full.iterations:
                continue
            cut = ikcore.solve(chain, target, method, max_iterations=k)
            assert cut.iterations == k
            # The history up to the last step (the verdict measures the returned pose last).
            assert cut.errors[:-1] == full.errors[:k], (method, k)
    assert restarted > 0  # some case ran long enough for the stall watch to matter
