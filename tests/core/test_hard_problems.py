"""Where solvers used to fail or crawl (``tests/bench/hard.py``): limbs, targets near full reach,
hinges about differing axes, a limited hip and knee. Each method converges on its share."""

import statistics

import pytest

import ikcore
from tests.bench import hard, problems

ALL_BUT_TRANSPOSE = ("ccd", "fabrik", "pseudo_inverse", "dls", "fabrik_dls")


def rate(solutions):
    return sum(s.converged for s in solutions) / len(solutions)


@pytest.fixture(scope="module")
def legs():
    # Knee and ankle angles drawn evenly within their ranges, and random rotations clamped into the
    # limits (the knee often straight on its limit, the foot near full reach).
    return {(root, poses): (hard.legs if poses == "even" else hard.clamped_legs)(root)
            for root in ("ball", "free") for poses in ("even", "clamped")}


@pytest.mark.parametrize("poses", ["even", "clamped"])
@pytest.mark.parametrize("root", ["ball", "free"])
@pytest.mark.parametrize("method, share", [(m, 0.97) for m in ALL_BUT_TRANSPOSE] + [("jacobian_transpose", 0.90)])
def test_legs_and_fingers_converge(legs, root, poses, method, share):
    solutions = hard.run(legs[root, poses], method)
    assert rate(solutions) >= share
    if method == "fabrik":
        # Two to four iterations on limbs, from the rest pose.
        assert statistics.median(s.iterations for s in solutions) <= 4


@pytest.mark.parametrize("n", [4, 10])
@pytest.mark.parametrize("method", ALL_BUT_TRANSPOSE + ("jacobian_transpose",))
def test_targets_near_full_reach_converge_without_crawling(n, method):
    solutions = hard.run(hard.near_reach(n), method)
    assert rate(solutions) >= (0.90 if method == "jacobian_transpose" else 0.99)
    assert statistics.median(s.iterations for s in solutions) <= 50


def test_fabrik_on_hinges_about_differing_axes():
    assert rate(hard.run(hard.differing_axes(), "fabrik")) >= 0.90


def test_two_bone_weighs_both_elbow_sides_within_the_limits():
    cases = hard.hip_and_knee()
    solutions = hard.run(cases, "two_bone")
    assert rate(solutions) >= 0.99
    for (chain, target), sol in zip(cases, solutions):
        # Never worse than its start, the rest pose.
        assert sol.converged or sol.error <= sol.errors[0] + 1e-12 * chain.reach


@pytest.mark.parametrize("n", [30, 100])
@pytest.mark.parametrize("method", ALL_BUT_TRANSPOSE + ("jacobian_transpose",))
def test_free_chains_never_crawl(n, method):
    # The standard targets (within 0.95 of the reach): below the near-full-reach band too a crawl
    # restarts onto the arc, well within FABRIK's budget (watched over the methods' whole budgets,
    # FABRIK would run out of iterations on one target at N = 100, the Jacobian transpose take 507).
    chain = problems.free_chain(n)
    solutions = [ikcore.solve(chain, target, method) for target in problems.targets_3d(n)]
    assert rate(solutions) == 1.0
    assert max(s.iterations for s in solutions) <= 100
