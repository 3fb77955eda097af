"""A Solution's status: "converged" exactly when the returned pose meets the target, the same test for every
method (the one the methods stop on), at the edges of the reach too."""

import math

import pytest

import ikcore
from ikcore import Chain
from ikcore import rotation as rot


def chains():
    return {
        "straight": Chain([(float(i), 0.0, 0.0) for i in range(4)]),
        "bent": Chain([(0.0, 0.0, 0.0), (0.8, 0.3, 0.0), (1.1, 1.2, 0.4), (2.0, 1.4, 0.1)]),
        "offset": Chain([(1e6 + i, -3e6, 2e6) for i in range(4)]),
    }


def methods(chain):
    return [m for m in ikcore.METHODS if m != "two_bone" or chain.size == 2]


@pytest.mark.parametrize("shape", ["straight", "bent", "offset"])
def test_a_target_exactly_at_full_reach_converges(shape):
    chain = chains()[shape]
    for direction in ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.6, -0.48, 0.64)):
        target = tuple(r + chain.reach * d for r, d in zip(chain.points[0], direction))
        for method in methods(chain):
            sol = ikcore.solve(chain, target, method)
            assert sol.converged, (method, direction, sol)


@pytest.mark.parametrize("shape", ["straight", "bent"])
def test_a_target_an_ulp_beyond_reach_met_within_tolerance_is_converged(shape):
    chain = chains()[shape]
    for direction in ((1.0, 0.0, 0.0), (0.0, 0.0, 1.0), (0.6, -0.48, 0.64)):
        d = math.nextafter(chain.reach, math.inf)
        target = tuple(r + d * c for r, c in zip(chain.points[0], direction))
        if not math.dist(target, chain.points[0]) > chain.reach:
            target = tuple(math.nextafter(c, math.copysign(math.inf, c)) for c in target)
        assert not chain.reachable(target)
        for method in methods(chain):
            sol = ikcore.solve(chain, target, method)
            assert sol.status == "converged", (method, direction, sol)


@pytest.mark.parametrize("method", ikcore.METHODS)
def test_converged_exactly_when_the_error_is_within_the_tolerance(method):
    # Tolerances from loose to tighter than the coordinates' rounding: whatever a method's own
    # measure of its error, the status is the Solution's, on the pose returned.
    chain = Chain([(0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (1.5, 0.5, 0.0)])
    target = (0.7, 1.1, 0.2)
    for tolerance in (0.3, 1e-3, 1e-8, 1e-14, 1e-17):
        sol = ikcore.solve(chain, target, method, tolerance=tolerance, max_iterations=50)
        assert sol.converged == (sol.error <= tolerance), (tolerance, sol)
        if sol.converged:
            assert sol.iterations < 50 or sol.error <= tolerance
        else:
            # Not met: ran out of iterations or stalled; a method that stopped early says why.
            assert sol.status in ("max_iterations", "stalled")
            assert sol.status == "stalled" or sol.iterations == 50


def test_ccd_s_own_measure_never_outvotes_the_status():
    # CCD tracks its effector through a sweep and stopped when that said "met", while forward
    # kinematics of its rotations missed by 6e-17: "max_iterations" after 34 of 200 iterations.
    # It stops on the very test the status comes from now: met, or it goes on.
    chain = Chain([(0.0, 0.0, 0.0), (0.3, 0.4, 0.0), (0.9, 0.2, 0.1), (1.2, 0.9, -0.3), (1.3, 1.5, 0.0)])
    for k in range(40):
        a = 0.37 * k
        target = (1.1 * math.cos(a), 0.9 * math.sin(a), 0.3 * math.sin(2 * a))
        for tolerance in (1e-12, 3e-16):
            sol = ikcore.solve(chain, target, "ccd", tolerance=tolerance)
            assert sol.converged == (sol.error <= tolerance)
            assert sol.converged or sol.status == "stalled" or sol.iterations == 200


def test_solutions_compare_by_their_results():
    chain = chains()["bent"]
    a = ikcore.solve(chain, (1.0, 1.0, 0.5), "fabrik")
    b = ikcore.solve(chain, (1.0, 1.0, 0.5), "fabrik")
    assert a == b and a is not b
    assert a != ikcore.solve(chain, (1.0, 1.0, 0.6), "fabrik")
    assert repr(a).startswith("Solution(method='fabrik', status='converged'")
    assert a.effector == a.positions[-1] and a.rotations == a.frames.rotations
    assert rot.angle(a.rotations[0]) >= 0.0
