"""Axis masks: a task that ignores or weighs some axes is met on the others, and its status measures
only what was asked."""

import math
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

import ikcore
from ikcore.rigs import urdf_arm

PANDA = urdf_arm("panda", "panda_hand_tcp")


def random_pose(chain, rng):
    values = [rng.uniform(math.radians(j.min_deg), math.radians(j.max_deg)) for j in chain.joints]
    return chain.tip_pose(chain.pose_at(values))


def spun(T, angle, axis):
    """``T`` turned by ``angle`` about its own ``axis`` (0, 1 or 2)."""
    c, s = math.cos(angle), math.sin(angle)
    i, j = [k for k in range(3) if k != axis]
    R = [[float(a == b) for b in range(3)] for a in range(3)]
    R[i][i], R[i][j], R[j][i], R[j][j] = c, -s, s, c
    return [[sum(T[r][k] * R[k][col] for k in range(3)) for col in range(3)] + [T[r][3]] for r in range(3)] + \
        [[0.0, 0.0, 0.0, 1.0]]


def masked_errors(reached, asked, mask):
    """Position distance over the asked axes, and the angle of the rotation from the reached to the
    asked tip frame, over the asked axes of the asked frame: written here with matrices."""
    position = math.sqrt(sum((reached[i][3] - asked[i][3]) ** 2 for i in range(3) if mask[i]))
    # The turn from reached to asked is asked reached^T in the base frame; in asked's own axes it is
    # asked^T (asked reached^T) asked = reached^T asked.
    D = [[sum(reached[k][i] * asked[k][j] for k in range(3)) for j in range(3)] for i in range(3)]
    angle = math.acos(max(-1.0, min(1.0, (D[0][0] + D[1][1] + D[2][2] - 1.0) / 2.0)))
    vector = [D[2][1] - D[1][2], D[0][2] - D[2][0], D[1][0] - D[0][1]]
    norm = math.hypot(*vector)
    vector = [angle * v / norm for v in vector] if norm > 1e-12 else [0.0, 0.0, 0.0]
    return position, math.sqrt(sum(v * v for v, m in zip(vector, mask[3:]) if m))


@pytest.mark.parametrize("method", ["dls", "fabrik_dls"])
def test_a_tool_whose_roll_does_not_matter_meets_targets_spun_about_its_axis(method):
    rng = random.Random(11)
    for _ in range(40):
        target = spun(random_pose(PANDA, rng), rng.uniform(-math.pi, math.pi), 2)
        solution = ikcore.solve(PANDA, target, method, mask=(1, 1, 1, 1, 1, 0), tolerance=1e-4)
        assert solution.converged, solution
        reached = solution.pose
        assert math.dist([reached[i][3] for i in range(3)], [target[i][3] for i in range(3)]) <= 1e-4
        # The tool's own z axis points where asked; its roll about it is free.
        z = sum(reached[i][2] * target[i][2] for i in range(3))
        assert math.acos(min(1.0, z)) <= 2e-3


def test_the_status_measures_only_the_asked_axes():
    chain = ikcore.Chain([(0, 0, 0), (0, 1, 0), (0, 2, 0)])
    solution = ikcore.solve(chain, (9.0, 1.0, 0.5), "dls", mask=(0, 1, 1), tolerance=1e-6)
    assert solution.status == "converged"  # not "unreachable": x was not asked
    assert solution.error == pytest.approx(math.hypot(solution.effector[1] - 1.0, solution.effector[2] - 0.5))
    # Unmasked, the same target is out of reach.
    assert ikcore.solve(chain, (9.0, 1.0, 0.5), "dls").status == "unreachable"


@given(st.lists(st.sampled_from([0, 1]), min_size=6, max_size=6).filter(lambda m: any(m[:3])),
       st.randoms(use_true_random=False), st.sampled_from(["dls", "fabrik_dls"]))
def test_a_converged_masked_solve_meets_every_asked_axis(mask, rng, method):
    """The status is honest: measured here with matrices, a converged solve is within the tolerances on
    the asked axes."""
    target = spun(random_pose(PANDA, rng), rng.uniform(-1.0, 1.0), rng.randrange(3))
    solution = ikcore.solve(PANDA, target, method, mask=mask, tolerance=1e-4)
    position, angle = masked_errors(solution.pose, target, mask)
    assert position == pytest.approx(solution.error, abs=1e-12)
    assert solution.converged == (position <= 1e-4 and angle <= 1e-3)


def test_weights_scale_the_axes_and_ones_ask_them_all():
    rng = random.Random(12)
    target = random_pose(PANDA, rng)
    for mask in ((1, 1, 1, 1, 1, 1), (2, 0.5, 1, 0.3, 1, 4)):
        solution = ikcore.solve(PANDA, target, "dls", mask=mask, tolerance=1e-5)
        assert solution.converged
        assert max(masked_errors(solution.pose, target, (1,) * 6)) <= 1e-3


def test_the_tracker_and_the_other_jacobian_methods_take_a_mask():
    rng = random.Random(13)
    track = ikcore.Tracker(PANDA, "dls", mask=(1, 1, 1, 1, 1, 0), tolerance=1e-4)
    base = random_pose(PANDA, rng)
    for k in range(5):
        assert track(spun(base, 0.3 * k, 2)).converged
    chain = ikcore.Chain([(0, 0, 0), (0, 1, 0), (0, 2, 0)])
    for method in ("pseudo_inverse", "jacobian_transpose", "fabrik_dls"):
        assert ikcore.solve(chain, (9.0, 1.0, 0.5), method, mask=(0, 1, 1)).converged


@pytest.mark.parametrize("kwargs, says", [
    ({"mask": (1, 1)}, "3 or 6"),
    ({"mask": (1, -1, 1)}, "at least 0"),
    ({"mask": (0, 0, 0, 0, 0, 0)}, "some above 0"),
    ({"mask": (1, math.nan, 1)}, "finite"),
    ({"mask": 3}, "3 or 6"),
    ({"mask": (1, 1, 1), "method": "fabrik"}, "takes no mask"),
    ({"mask": (1, 1, 1), "method": "ccd"}, "takes no mask"),
    ({"mask": (1, 1, 1), "method": "two_bone"}, "takes no mask"),
    ({"mask": (1, 1, 1, 1, 1, 0)}, "asks no orientation"),
])
def test_bad_masks_are_refused(kwargs, says):
    chain = ikcore.Chain([(0, 0, 0), (0, 1, 0), (0, 2, 0)])
    method = kwargs.pop("method", "dls")
    with pytest.raises(ikcore.IKError, match=says):
        ikcore.solve(chain, (1.0, 1.0, 0.0), method, **kwargs)


def test_a_target_beyond_the_reach_on_an_ignored_axis_is_not_called_unreachable():
    """Hinges about z cannot lift the tip to z = 0.5: the solve fails on an asked axis, but the
    target's distance, which the ignored x makes large, says nothing of it."""
    chain = ikcore.Chain([(0, 0, 0), (0, 1, 0), (0, 2, 0)], [ikcore.Hinge((0, 0, 1))] * 2)
    solution = ikcore.solve(chain, (9.0, 1.0, 0.5), "dls", mask=(0, 1, 1))
    assert solution.status in ("stalled", "max_iterations")
    assert solution.error == pytest.approx(0.5, abs=1e-6)


def test_an_ignored_axis_leaves_the_masked_system_well_posed():
    """An ignored axis's row and column of T J J^T T^T are the identity's (nothing to meet there), so
    that even the undamped pseudo-inverse's system has a solution."""
    from ikcore.mask import MaskedJacobian, check_mask, task_rows
    from ikcore.solvers.jacobian.joints import JointJacobian
    frames = PANDA.pose_at([0.1, -0.5, 0.2, -2.0, 0.3, 1.8, 0.4])
    mask = check_mask((1, 0, 1, 1, 1, 0))
    jac = MaskedJacobian(JointJacobian(PANDA, frames, 1.0, True), task_rows(mask, 6, (1.0, 0.0, 0.0, 0.0)))
    G = jac.gram()
    for i in (1, 5):
        assert G[i][i] == 1.0
        assert all(G[i][j] == G[j][i] == 0.0 for j in range(6) if j != i)
