"""FABRIK reach, then DLS finish: positions like FABRIK, orientation like DLS."""

import math
import random

import pytest

import ikcore
from ikcore import BallSocket, Chain, Hinge, IKError
from ikcore import rotation as rot
from ikcore.solvers import fabrik_dls

from .test_jacobian import ball_targets, pose_targets, rate, straight

ARM7 = [(0, 0, 0), (0, 0, 1), (0, 0, 2), (1, 0, 2), (2, 0, 2), (2.5, 0, 2), (3, 0, 2), (3.2, 0, 2)]


def test_free_six_bone_chains_converge():
    chain = straight(6)
    targets = [(t, None) for t in ball_targets(chain, random.Random(12351), 60)]
    assert rate("fabrik_dls", chain, targets) >= 0.95


@pytest.mark.parametrize("joints", ["free", "cones", "hinges"])
def test_orientation_is_met_on_seven_joint_arms(joints):
    axes = [(0, 0, 1), (0, 1, 0)]
    limits = {"free": None, "cones": [BallSocket(90) for _ in range(7)],
              "hinges": [Hinge(axes[i % 2], -170, 170) for i in range(7)]}[joints]
    chain = Chain(ARM7, limits)
    targets = pose_targets(chain, random.Random(21), 30, orientation=True)
    for target, orientation in targets[:5]:
        sol = ikcore.solve(chain, target, "fabrik_dls", orientation=orientation)
        if sol.converged:
            assert sol.orientation_error <= 1e-3 and sol.error <= 1e-3 * chain.reach
    assert rate("fabrik_dls", chain, targets) >= (0.95 if joints != "hinges" else 0.9)


def test_free_arm_is_solved_by_the_wrist_reach_alone():
    """A free arm whose wrist point is reachable: FABRIK on the first bones already meets both targets."""
    chain = Chain(ARM7)
    for target, orientation in pose_targets(chain, random.Random(22), 10, orientation=True):
        sol = ikcore.solve(chain, target, "fabrik_dls", orientation=orientation)
        dls = ikcore.solve(chain, target, "dls", orientation=orientation)
        assert sol.converged
        assert sol.iterations <= dls.iterations


def test_without_orientation_it_polishes_fabrik():
    chain = straight(5, [Hinge((0, 0, 1), -60, 60)] * 5)
    rng = random.Random(23)
    for target, _ in pose_targets(chain, rng, 20):
        fabrik = ikcore.solve(chain, target, "fabrik", max_iterations=fabrik_dls.FABRIK_ITERATIONS)
        both = ikcore.solve(chain, target, "fabrik_dls")
        assert both.error <= fabrik.error + 1e-12
        assert max(chain.violations(both.rotations)) <= 1e-9


def test_iterations_share_the_budget():
    chain = straight(6, [BallSocket(30)] * 6)
    rng = random.Random(24)
    for budget in (1, 2, 5, 17):
        for target, orientation in pose_targets(chain, rng, 3, orientation=True):
            sol = ikcore.solve(chain, target, "fabrik_dls", orientation=orientation, max_iterations=budget)
            assert sol.iterations <= budget
            assert len(sol.errors) >= 1 and all(math.isfinite(e) for e in sol.errors)
            start_tip = chain.forward([rot.IDENTITY] * 6)[-1]
            assert sol.errors[0] == pytest.approx(math.dist(start_tip, target))


def test_single_bone_orientation():
    chain = Chain([(0, 0, 0), (0, 2, 0)])
    q = rot.from_axis_angle((1, 1, 0), 0.7)
    target = rot.rotate(q, (0, 2, 0))
    sol = ikcore.solve(chain, target, "fabrik_dls", orientation=q)
    assert sol.converged and sol.orientation_error <= 1e-3


@pytest.mark.parametrize("target", [(10.0, 0.0, 0.0), (-10.0, 0.0, 0.0), (0.0, 7.0, 0.0), (0.0, 0.0, 0.0)])
def test_singular_and_unreachable(target):
    chain = straight(4)
    sol = ikcore.solve(chain, target, "fabrik_dls")
    assert all(math.isfinite(c) for p in sol.positions for c in p)
    if math.dist(target, (0, 0, 0)) > chain.reach:
        assert sol.status == "unreachable"
        assert sol.error == pytest.approx(math.dist(target, (0, 0, 0)) - chain.reach, abs=1e-3 * chain.reach)
        again = ikcore.solve(chain, target, "fabrik_dls", start=sol.rotations)
        assert max(math.dist(a, b) for a, b in zip(sol.positions, again.positions)) < 1e-5 * chain.reach
    else:
        assert sol.converged


def test_rest_weight_and_options():
    chain = straight(6)
    rng = random.Random(25)
    target = (2.0, 2.5, 1.0)
    start = [rot.from_axis_angle((rng.gauss(0, 1), rng.gauss(0, 1), rng.gauss(0, 1)), 1.0) for _ in range(6)]
    plain = ikcore.solve(chain, target, "fabrik_dls", start=start)
    rested = ikcore.solve(chain, target, "fabrik_dls", start=start, rest_weight=0.5)
    assert plain.converged and rested.converged
    assert sum(rot.angle(q) ** 2 for q in rested.rotations) < sum(rot.angle(q) ** 2 for q in plain.rotations)
    with pytest.raises(IKError, match="damping"):
        ikcore.solve(chain, target, "fabrik_dls", damping=0)
