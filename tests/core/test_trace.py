"""``ikcore.trace``: the same Solution as ``solve``, and steps that end on its pose, in order.

The step order of each family, the bone lengths of FABRIK's passes, the Jacobian's columns and the
captions have their own files (``test_trace_*.py``).
"""

import math
import random
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

import ikcore
from ikcore import IKError
from ikcore.solve import ORIENTATION_METHODS
from ikcore.solvers import SECONDARY_METHODS

from .strategies import (POLE_KINDS, START_KINDS, TARGET_KINDS, build_chain, limit_mixes, make_pole, make_start,
                         make_target, random_rotation, seeds, shapes)

ARM = [(0.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 2.0, 0.0), (0.0, 2.5, 0.0), (0.0, 2.8, 0.0)]
PHASES = {"setup", "limit", "reach", "result", "rotate", "backward", "forward", "step", "solve"}
#: The phases each method's own steps may take (besides setup, limit, reach and result).
OWN = {"ccd": {"rotate", "step"}, "fabrik": {"backward", "forward", "step"}, "two_bone": {"solve"},
       "jacobian_transpose": {"step"}, "pseudo_inverse": {"step"}, "dls": {"step"},
       "fabrik_dls": {"backward", "forward", "step"}}


@st.composite
def requests(draw):
    """(chain, target, method, keyword arguments) of a solve, as wide as the fuzz test's, kept short."""
    method = draw(st.sampled_from(ikcore.METHODS))
    rng = random.Random(draw(seeds))
    n = 2 if method == "two_bone" else draw(st.integers(1, 7))
    chain = build_chain(rng, n, draw(shapes), draw(limit_mixes))
    start = make_start(chain, draw(st.sampled_from(START_KINDS)), rng)
    target = make_target(chain, draw(st.sampled_from(TARGET_KINDS)), rng, 10.0 ** rng.uniform(-3.0, 0.5), start)
    pole = make_pole(chain, draw(st.sampled_from(POLE_KINDS)), rng, target)
    oriented = method in ORIENTATION_METHODS and draw(st.booleans())
    kwargs = {"start": start, "pole": pole, "orientation": random_rotation(rng) if oriented else None,
              "max_iterations": draw(st.sampled_from((None, 1, 4, 25)))}
    if method in SECONDARY_METHODS:
        # Secondary objectives: their steps once the target is met are iterations of the trace too.
        middle = tuple(0.5 * (a + b) for a, b in zip(chain.points[0], chain.points[-1]))
        choice = draw(st.sampled_from((None, "rest", "limits", "sphere")))
        kwargs["secondary"] = {None: None, "rest": [ikcore.TowardRest()], "limits": [ikcore.AwayFromLimits()],
                               "sphere": [ikcore.AvoidSphere(middle, 0.2 * chain.reach)]}[choice]
    return chain, target, method, kwargs


@given(requests())
def test_a_trace_returns_what_solve_returns_and_ends_on_its_pose(request):
    chain, target, method, kwargs = request
    try:
        expected = ikcore.solve(chain, target, method, **kwargs)
    except IKError as refused:
        expected = refused
    if isinstance(expected, IKError):
        with pytest.raises(IKError, match=re.escape(str(expected))):
            ikcore.trace(chain, target, method, **kwargs)
    else:
        check_trace(chain, target, method, kwargs, expected)


def check_trace(chain, target, method, kwargs, expected):
    traced = ikcore.trace(chain, target, method, **kwargs)
    assert traced.solution == expected
    assert traced.solution.errors == expected.errors and traced.solution.error == expected.error
    steps = traced.steps
    first, last = steps[0], steps[-1]
    assert (first.iteration, first.phase, first.detail["what"]) == (0, "setup", "start")
    assert last.phase == "result" and last.positions == tuple(expected.positions)
    assert last.error == expected.error and last.iteration == expected.iterations
    assert last.detail["status"] == expected.status
    iterations = [s.iteration for s in steps]
    assert iterations == sorted(iterations), iterations
    assert {s.phase for s in steps} <= PHASES
    assert {s.phase for s in steps} - {"setup", "limit", "reach", "result"} <= OWN[method]
    for step in steps:
        assert len(step.positions) == chain.size + 1
        assert all(math.isfinite(c) for p in step.positions for c in p), step
        assert step.error == math.dist(step.positions[-1], tuple(map(float, target)))
        assert step.caption and step.caption.endswith(".") and "\n" not in step.caption
    # The pose after each iteration: its error is the one the Solution's history counts.
    poses = traced.poses()
    assert len(poses) == expected.iterations + 1 and poses[-1] == last.positions
    for pose, error in zip(poses, expected.errors):
        assert math.isclose(math.dist(pose[-1], target), error, rel_tol=1e-6, abs_tol=1e-9 * chain.reach)
    best = last.detail["best"]
    if best is not None:
        # An earlier pose is returned: the one of the step named, as the caption says.
        assert all(math.dist(p, q) <= 1e-9 * chain.reach for p, q in zip(steps[best].positions, last.positions))
        assert f"from iteration {steps[best].iteration}" in last.caption


def test_trace_takes_and_checks_what_solve_takes():
    chain = ikcore.Chain(ARM)
    with pytest.raises(IKError, match="method"):
        ikcore.trace(chain, (1.0, 1.0, 0.0), method="nope")
    with pytest.raises(IKError, match="target"):
        ikcore.trace(chain, (1.0, float("nan"), 0.0))
    with pytest.raises(IKError, match="max_iterations"):
        ikcore.trace(chain, (1.0, 1.0, 0.0), max_iterations=0)
    with pytest.raises(IKError, match="orientation"):
        ikcore.trace(chain, (1.0, 1.0, 0.0), method="ccd", orientation=(1.0, 0.0, 0.0, 0.0))
    with pytest.raises(IKError, match="max_step_deg"):
        ikcore.trace(chain, (1.0, 1.0, 0.0), method="ccd", max_step_deg=0.0)
    traced = ikcore.trace(chain, (1.0, 1.5, 0.5), method="ccd", max_step_deg=20.0, tolerance=1e-6)
    assert traced.solution == ikcore.solve(chain, (1.0, 1.5, 0.5), method="ccd", max_step_deg=20.0, tolerance=1e-6)
    assert max(s.detail["angle_deg"] for s in traced.steps if s.phase == "rotate") <= 20.0 + 1e-9
    assert any(s.detail["capped"] for s in traced.steps if s.phase == "rotate")


def test_a_start_that_meets_the_target_is_a_trace_of_its_start_and_its_result():
    chain = ikcore.Chain(ARM)
    traced = ikcore.trace(chain, ARM[-1], method="fabrik")
    assert [s.phase for s in traced.steps] == ["setup", "result"]
    assert traced.steps[-1].caption.startswith("Converged after 0 iterations")


def test_out_of_reach_is_one_reach_step():
    chain = ikcore.Chain(ARM)
    for method in ("ccd", "fabrik", "dls"):
        traced = ikcore.trace(chain, (9.0, 0.0, 0.0), method=method)
        assert [(s.phase, s.iteration) for s in traced.steps] == [("setup", 0), ("reach", 1), ("result", 1)]
        assert "beyond the chain's reach of 2.8" in traced.steps[1].caption
        # Stretched straight at the target: every point on the line from the root.
        assert all(abs(p[1]) < 1e-12 and abs(p[2]) < 1e-12 for p in traced.steps[1].positions)


def test_a_pole_swivel_and_a_bend_are_setup_steps():
    straight = ikcore.Chain(ARM)
    traced = ikcore.trace(straight, (0.0, 2.0, 0.0), method="ccd")
    assert traced.steps[1].phase == "setup" and traced.steps[1].detail["what"] == "bend"
    assert traced.steps[1].iteration == 0 and "straight" in traced.steps[1].caption
    poled = ikcore.trace(straight, (1.0, 1.5, 0.0), method="fabrik", pole=(0.0, 1.0, 2.0))
    swivel = [s for s in poled.steps if s.phase == "setup" and s.detail["what"] == "pole"]
    assert len(swivel) == 1 and swivel[0].iteration == poled.solution.iterations
    # The pole's side: the interior points turned toward +z.
    assert all(p[2] > 0.0 for p in swivel[0].positions[1:-1])


def test_a_stalled_solve_returns_its_best_pose_and_says_from_which_iteration():
    # A hinge chain that cannot reach the target within its limits: damped least squares stalls and
    # restarts, and ends on its best pose, which an earlier step holds.
    chain = ikcore.Chain(ARM, [ikcore.Hinge((0, 0, 1), -30, 30)] * 4)
    traced = ikcore.trace(chain, (2.0, 1.0, 0.0), method="dls", max_iterations=120)
    result = traced.steps[-1]
    assert traced.solution.status == "stalled"
    assert any(s.phase == "setup" and s.detail["what"] == "restart" for s in traced.steps)
    best = result.detail["best"]
    assert best is not None and best < len(traced.steps) - 2
    assert all(math.dist(p, q) <= 1e-12 for p, q in zip(traced.steps[best].positions, result.positions))
    assert f"best pose, from iteration {traced.steps[best].iteration}" in result.caption


def test_trace_is_in_the_public_api():
    assert {"trace", "Trace", "Step"} <= set(ikcore.__all__)
    traced = ikcore.trace(ikcore.Chain(ARM), (1.0, 1.5, 0.5), method="dls")
    assert isinstance(traced, ikcore.Trace) and all(isinstance(s, ikcore.Step) for s in traced.steps)
    plain = traced.steps[1].as_dict()
    assert plain["phase"] == "step" and isinstance(plain["positions"][0], list)
    assert isinstance(plain["detail"]["columns"][0], list)
