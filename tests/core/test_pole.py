"""The pole: every method bends the chain toward it (:mod:`ikcore.solvers.pole`), never ignores it."""

import math

import pytest

import ikcore
from ikcore import Chain, Hinge
from ikcore import rotation as rot
from ikcore.solve import ORIENTATION_METHODS


def side(points, target, pole):
    """Which side of the line from the first point to ``target`` the interior ``points`` lean to, as
    seen from the pole: > 0 toward it."""
    root = points[0]
    u = [t - r for t, r in zip(target, root)]
    n = math.sqrt(sum(c * c for c in u))
    u = [c / n for c in u]

    def across(p):
        v = [a - r for a, r in zip(p, root)]
        t = sum(a * b for a, b in zip(v, u))
        return [a - t * b for a, b in zip(v, u)]

    mean = [sum(c) / (len(points) - 2) for c in zip(*(across(p) for p in points[1:-1]))]
    return sum(a * b for a, b in zip(mean, across(pole)))


@pytest.mark.parametrize("method", ikcore.METHODS)
@pytest.mark.parametrize("bones", [2, 3])
def test_opposite_poles_bend_the_chain_opposite_ways(method, bones):
    if method == "two_bone" and bones != 2:
        pytest.skip("two_bone solves two bones")
    chain = Chain([(float(i), 0.0, 0.0) for i in range(bones + 1)])
    target = (0.6 * bones, 0.5, 0.3)
    for pole in ((0.5, 3.0, 0.0), (0.5, -3.0, 0.0), (0.5, 0.0, 3.0), (0.5, 0.0, -3.0)):
        sol = ikcore.solve(chain, target, method, pole=pole)
        assert sol.converged, (method, pole)
        assert side(sol.positions, target, pole) > 0.0, (method, pole)


@pytest.mark.parametrize("method", ikcore.METHODS)
def test_a_hinged_knee_takes_the_pole_s_side_within_its_limits(method):
    # A planar leg whose knee may bend either way: the pole decides.
    z = (0.0, 0.0, 1.0)
    chain = Chain([(0, 0, 0), (1, 0, 0), (2, 0, 0)], [Hinge(z, -170, 170), Hinge(z, -170, 170)])
    target = (1.2, 0.4, 0.0)
    for pole in ((0.5, 3.0, 0.0), (0.5, -3.0, 0.0)):
        sol = ikcore.solve(chain, target, method, pole=pole)
        assert sol.converged and side(sol.positions, target, pole) > 0.0, (method, pole)


@pytest.mark.parametrize("method", ORIENTATION_METHODS)
def test_with_an_orientation_the_chain_up_to_the_wrist_turns_to_the_pole(method):
    chain = Chain([(float(i), 0.0, 0.0) for i in range(5)])
    pose = [rot.from_axis_angle((0.2, 1.0, 0.3), 0.4)] * 4
    target, orientation = chain.forward(pose)[-1], chain.world_rotations(pose)[-1]
    for pole in ((1.0, 4.0, 0.0), (1.0, -4.0, 0.0)):
        sol = ikcore.solve(chain, target, method, orientation=orientation, pole=pole)
        assert sol.converged and sol.orientation_error <= 1e-3
        assert side(sol.positions[:-1], sol.positions[-2], pole) > 0.0
