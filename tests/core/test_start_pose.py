"""A start pose given as rotations: checked and posed, the last one kept on the chain's plan."""

import math

import pytest

import ikcore
from ikcore import kinematics
from ikcore.problem import check_request, check_settings

ARM = ikcore.Chain([(0, 0, 0), (0, 0, 1), (0, 0, 2), (0, 0, 3)],
                   joints=[ikcore.Hinge((1, 0, 0), -90, 90), ikcore.Hinge((1, 0, 0), 0, 150), None])
BENT = [(math.cos(0.3), math.sin(0.3), 0.0, 0.0), (math.cos(0.6), math.sin(0.6), 0.0, 0.0), (1.0, 0.0, 0.0, 0.0)]


def start_of(start):
    return check_request(check_settings(ARM, "dls"), (0.0, 1.0, 1.0), start=start).start


def test_the_same_start_is_posed_once():
    first = start_of(BENT)
    again = start_of([list(q) for q in BENT])  # equal values, other containers
    assert again is first
    posed = kinematics.pose_of(ARM, BENT)
    assert first.rotations == posed.rotations and first.points == posed.points


def test_another_start_is_posed_anew_and_limited():
    first = start_of(BENT)
    # The knee asked at -60 degrees: clamped onto its range's end (0).
    other = start_of([BENT[0], (math.cos(-0.5), math.sin(-0.5), 0.0, 0.0), BENT[2]])
    assert other is not first
    assert other.rotations[1] == pytest.approx((1.0, 0.0, 0.0, 0.0))
    assert start_of(BENT) is not other


def test_a_start_given_once_as_a_generator_is_read_once():
    frames = start_of(q for q in BENT)
    assert frames.rotations == kinematics.pose_of(ARM, BENT).rotations


@pytest.mark.parametrize("bad", [float("nan"), float("inf")])
def test_a_bad_start_is_refused_every_time(bad):
    start = [BENT[0], (bad, 0.0, 0.0, 0.0), BENT[2]]
    for _ in range(2):
        with pytest.raises(ikcore.IKError, match=r"start\[1\]"):
            start_of(start)
