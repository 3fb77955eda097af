"""Captions: one plain sentence a step, naming the joint (or point) it moved and its angle, with the
numbers of its detail."""

import math
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

import ikcore
from ikcore.captions import deg, num

from .test_trace_order import problems

DEGREES = re.compile(r"-?\d+(\.\d+)?(e-?\d+)?°")


def test_numbers_read_short():
    assert [num(x) for x in (0.0, 1.0, 0.5, 1.23456, 0.0123456, 2.5e-5, 123456.0)] == \
        ["0", "1", "0.5", "1.23", "0.0123", "2.5e-05", "1.2e+05"]
    assert [deg(x) for x in (14.2345, -3.0, 0.0, 0.04567, 180.0)] == ["14.2°", "-3.0°", "0.0°", "0.046°", "180.0°"]


def test_the_issues_example_a_clamped_hinge():
    # Joint 1 is a hinge bending 0 to 150 degrees about z: the target behind the chain asks for more.
    chain = ikcore.Chain([(0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (2.0, 0.0, 0.0), (2.5, 0.0, 0.0)],
                         [None, ikcore.Hinge((0.0, 0.0, 1.0), 0.0, 150.0), None])
    traced = ikcore.trace(chain, (0.2, -0.4, 0.0), "ccd")
    clamped = [s for s in traced.steps if s.phase == "rotate" and s.joint == 1 and s.detail["clamped"]]
    assert clamped
    step = clamped[0]
    assert re.fullmatch(r"Joint 1 turns \d+\.\d° about its hinge axis so that the direction to the effector meets "
                        r"the direction to the target \(clamped to its 0\.\.150° hinge\); the effector is now "
                        r"[\d.e+-]+ from the target\.", step.caption), step.caption
    assert abs(step.detail["angle_deg"] - step.detail["wished_deg"]) > 1.0
    assert deg(step.detail["angle_deg"]) in step.caption


@given(problems(("free", "hinge", "ball", "mixed")), st.sampled_from(("ccd", "fabrik", "dls", "jacobian_transpose")))
def test_captions_name_the_joint_and_the_angle(problem, method):
    chain, target, start = problem
    for step in ikcore.trace(chain, target, method, start=start, max_iterations=20).steps:
        caption, detail = step.caption, step.detail
        assert caption[0].isupper() and caption.endswith(".") and caption.count(". ") == 0, caption
        if step.phase == "rotate":
            assert caption.startswith(f"Joint {step.joint} turns {deg(detail['angle_deg'])}")
            assert ("clamped to" in caption) == detail["clamped"]
        elif step.phase == "backward":
            assert f"point {step.joint} snaps" in caption
            assert f"bone {step.joint} turns {deg(detail['turned_deg'])}" in caption
            assert f"{num(detail['length'])} from point {step.joint + 1}" in caption
        elif step.phase == "forward":
            assert f"point {step.joint} snaps" in caption
            assert f"bone {step.joint - 1} turns {deg(detail['turned_deg'])}" in caption
        elif step.phase == "step":
            deltas = detail["delta_deg"]
            most = max(range(len(deltas)), key=lambda j: abs(deltas[j]))
            assert f"joint {most} turns most, {deg(deltas[most])}" in caption
        if step.phase in ("rotate", "backward", "forward", "step"):
            assert DEGREES.search(caption)
        if step.phase != "result" and "from the target" in caption:
            assert num(step.error) in caption or step.phase in ("backward",)


def test_two_bone_says_the_triangle():
    chain = ikcore.Chain([(0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (1.8, 0.0, 0.0)])
    traced = ikcore.trace(chain, (0.9, 0.8, 0.2), "two_bone")
    step = traced.steps[1]
    d = math.dist((0.0, 0.0, 0.0), (0.9, 0.8, 0.2))
    # The law of cosines, computed here: the triangle's angle at the knee.
    knee = math.degrees(math.acos((1.0 + 0.64 - d * d) / (2 * 1.0 * 0.8)))
    root = math.degrees(math.acos((1.0 + d * d - 0.64) / (2 * 1.0 * d)))
    assert step.phase == "solve" and step.detail["sides"] == pytest.approx((1.0, 0.8, d))
    assert step.detail["elbow_deg"] == pytest.approx(knee) and step.detail["knee_deg"] == pytest.approx(knee)
    assert step.detail["root_deg"] == pytest.approx(root)
    assert f"sides 1, 0.8 and {num(d)}" in step.caption and f"triangle's {deg(knee)} at the knee" in step.caption
    assert f"joint 0 turns the upper bone {deg(root)}" in step.caption
    assert math.dist(step.positions[1], (0.0, 0.0, 0.0)) == pytest.approx(1.0)
    far = ikcore.trace(chain, (5.0, 0.0, 0.0), "two_bone").steps[1]
    assert "beyond the two bones' 1.8: the chain stretches straight at it" in far.caption


def test_two_bone_says_when_a_joint_rests_at_an_end_of_its_range():
    # Past the hip's 90 degrees, the nearest pose holds the hip there and bends the knee on toward
    # the target; the trace says so rather than speak of the triangle's angles.
    chain = ikcore.Chain([(0, 0, 0), (0.55, 0, 0), (1.3, 0, 0)],
                         [ikcore.Hinge((0, 0, 1), -90, 90), ikcore.Hinge((0, 0, 1), -90, 90)])
    traced = ikcore.trace(chain, (1.3 * math.cos(2.5), 1.3 * math.sin(2.5), 0.0), "two_bone")
    step = traced.steps[1]
    assert step.detail["end"] == 0
    assert "joint 0 rests at an end of its range and joint 1 turns the lower bone toward the target" in step.caption
    assert f"{num(step.error)} from the target" in step.caption
    within = ikcore.trace(chain, (0.9, 0.8, 0.0), "two_bone").steps[1]
    assert within.detail["end"] is None and "end of its range" not in within.caption


def test_two_bone_says_when_the_knee_is_searched_under_the_hips_cone():
    # A cone hip and a hinge knee that neither side nor end meets: the knee's angle is searched for
    # the nearest pose the cone allows, and the trace says so.
    l1, l2 = 0.3683091100266382, 0.8717204624874688
    chain = ikcore.Chain([(0, 0, 0), (l1, 0, 0), (l1 + l2, 0, 0)],
                         [ikcore.BallSocket(107.75051030191811),
                          ikcore.Hinge((0, 0, 1), -61.52933560204677, 125.91804744196953)])
    step = ikcore.trace(chain, (-0.9982463818061805, -0.5028673914711426, -0.04707947912905158), "two_bone").steps[1]
    assert step.detail["searched"] is True and step.detail["end"] is None
    assert "joint 1 takes the angle at which joint 0's cone lets the tip come nearest the target" in step.caption
    assert f"{num(step.error)} from the target" in step.caption
    within = ikcore.trace(chain, (1.0, 0.5, 0.0), "two_bone").steps[1]
    assert within.detail["searched"] is False and "cone" not in within.caption


def test_two_bone_lays_a_planar_legs_triangle_on_the_targets_foot():
    # A leg of two hinges about z moves in the z = 0 plane: a target 0.6 above it is met best where
    # its foot is, 1.2 from the root (not 1.34), and the caption says so.
    chain = ikcore.Chain([(0, 0, 0), (1, 0, 0), (2, 0, 0)],
                         [ikcore.Hinge((0, 0, 1), -180, 180), ikcore.Hinge((0, 0, 1), -170, 170)])
    step = ikcore.trace(chain, (1.2 * math.cos(0.7), 1.2 * math.sin(0.7), 0.6), "two_bone").steps[1]
    assert step.detail["sides"] == pytest.approx((1.0, 1.0, 1.2)) and step.detail["height"] == pytest.approx(0.6)
    assert step.error == pytest.approx(0.6)
    assert "sides 1, 1 and 1.2 (root to the target's foot on the leg's plane, 0.6 from the target)" in step.caption
    flat = ikcore.trace(chain, (1.2, 0.3, 0.0), "two_bone").steps[1]
    assert flat.detail["height"] == 0.0 and "(root to target)" in flat.caption
    far = ikcore.trace(chain, (1.9, 0.0, 0.9), "two_bone").steps[1]
    assert "stretches" not in far.caption and far.error == pytest.approx(0.9)


def test_the_verdict_is_the_last_caption():
    chain = ikcore.Chain([(0.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 2.0, 0.0)])
    assert ikcore.trace(chain, (1.0, 1.0, 0.0), "fabrik").steps[-1].caption.startswith("Converged after ")
    assert ikcore.trace(chain, (0.0, 9.0, 0.0), "ccd").steps[-1].caption.startswith(
        "Unreachable: no pose of the chain reaches a target 9 from the root (reach 2)")
    short = ikcore.trace(chain, (1.0, 1.0, 0.3), "jacobian_transpose", max_iterations=2, tolerance=1e-9)
    assert short.steps[-1].caption.startswith("Out of iterations after 2: ")
