"""Out of reach: a solve ends once the effector lies within the tolerance of the nearest point any
pose of the chain could reach (on the line from the root to the target), and says unreachable."""

import math

import pytest

import ikcore
from ikcore import BallSocket, Chain, Hinge

LINE = [(0.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 2.0, 0.0), (0.0, 3.0, 0.0)]
# The methods that straighten a chain onto the target's line (the Jacobian methods' steps shrink
# with the bend there, so they end on the stall watch a few hundredths of the reach away).
METHODS = ["ccd", "fabrik", "fabrik_dls"]


def nearest(chain, target):
    d = math.dist(target, chain.points[0])
    return tuple(t * chain.reach / d for t in target)


@pytest.mark.parametrize("method", METHODS)
def test_a_limited_chain_stops_at_the_nearest_point(method):
    # Cones wide enough to straighten toward the target: the nearest point is there to take.
    chain = Chain(LINE, [BallSocket(80.0)] * 3)
    target = (20.0, 5.0, -10.0)
    sol = ikcore.solve(chain, target, method, max_iterations=500)
    assert sol.status == "unreachable"
    assert math.dist(sol.positions[-1], nearest(chain, target)) <= 1e-3 * chain.reach
    # It stopped there, not at the end of a stall watch's patience (ten stalls of six iterations).
    assert sol.iterations < 40, sol.iterations


@pytest.mark.parametrize("method", METHODS)
def test_a_chain_already_there_stays_still(method):
    chain = Chain(LINE, [BallSocket(80.0)] * 3)
    target = (20.0, 5.0, -10.0)
    first = ikcore.solve(chain, target, method, max_iterations=500)
    again = ikcore.solve(chain, target, method, start=first.rotations, max_iterations=500)
    assert again.status == "unreachable"
    assert max(math.dist(a, b) for a, b in zip(again.positions, first.positions)) <= 1e-9


def test_limits_that_keep_the_chain_from_the_nearest_point_leave_it_to_the_stall_watch():
    # Hinges about z cannot turn the chain out of the x-y plane: the nearest point is out of their reach,
    # and the solve ends as before (stalled by the watch, still unreachable).
    chain = Chain(LINE, [Hinge((0, 0, 1), -90, 90)] * 3)
    target = (5.0, 5.0, 20.0)
    sol = ikcore.solve(chain, target, "dls", max_iterations=500)
    assert sol.status == "unreachable"
    assert math.dist(sol.positions[-1], nearest(chain, target)) > 1.0


def test_an_oriented_target_out_of_reach_is_left_to_the_search():
    chain = Chain(LINE, [BallSocket(80.0)] * 3)
    sol = ikcore.solve(chain, (20.0, 5.0, -10.0), "dls", orientation=(1.0, 0.0, 0.0, 0.0), max_iterations=200)
    assert sol.status == "unreachable"


@pytest.mark.parametrize("method", ["ccd", "fabrik", "jacobian_transpose", "pseudo_inverse", "dls", "fabrik_dls"])
def test_a_tolerance_wider_than_half_the_reach_takes_the_edge_pose_that_meets_the_target(method):
    # The longest bone is shorter than the others together (min_reach 0): the folded pose puts the
    # tip behind the root. A target 2 from the root is within the tolerance 2.6 of full reach 4.5,
    # and the stretched pose meets it; the folded one (3.5 away) would end farther than the start.
    chain = Chain([(0, 0, 0), (1, 0, 0), (2, 0, 0), (3, 0, 0), (4.5, 0, 0)])
    sol = ikcore.solve(chain, (1.694, 1.06, 0.0), method, tolerance=2.6)
    assert sol.status == "converged" and sol.error < sol.errors[0]
    assert math.isclose(math.dist(sol.positions[-1], chain.points[0]), chain.reach)


def test_the_one_step_pose_of_a_target_at_full_reach_that_the_limits_keep_from_is_stalled():
    # Exactly at full reach the target is reachable (without limits), so not "unreachable"; the
    # limits keep the chain from it, and the solve ends on its one step toward it: "stalled", as
    # CCD's sweeps end there too, never "max_iterations" after one of a hundred iterations.
    chain = Chain([(0, 0, 0), (1, 0, 0), (2, 0, 0)], [Hinge((0, 0, 1), -30, 30), Hinge((0, 0, 1), -30, 30)])
    target = (0.0, 2.0, 0.0)
    assert chain.reachable(target)
    for method in ("fabrik", "ccd"):
        sol = ikcore.solve(chain, target, method)
        assert sol.status == "stalled" and sol.error < sol.errors[0], (method, sol)
