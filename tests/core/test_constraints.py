"""Joint limits: hinge ranges taken as written (negative, wrapping), cones, twist."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ikcore import BallSocket, Chain, Hinge, IKError
from ikcore import rotation as rot

finite = st.floats(-10.0, 10.0, allow_nan=False)
quats = st.tuples(finite, finite, finite, finite).filter(lambda q: math.sqrt(sum(c * c for c in q)) > 1e-3).map(
    rot.normalize)
degrees = st.floats(-400.0, 400.0, allow_nan=False)


def hinge_angle_deg(h, q):
    return math.degrees(h.angle(q))


def in_arc(deg, lo, hi, tol=1e-7):
    """Whether angle ``deg`` lies on the arc from lo to hi (degrees, as written)."""
    t = lo + (deg - lo) % 360.0
    return t <= hi + tol or abs(t - 360.0 - lo) <= tol


@pytest.mark.parametrize("lo, hi, inside, outside", [
    (-90, 90, [0, 45, -89], [120, -120, 180]),
    (150, 210, [150, 180, -170, -150], [0, 140, -140, 90]),
    (-90, -10, [-45, -11], [0, 10, 90, -100]),
    (0, 150, [0, 149], [-5, 170, -170]),
])
def test_hinge_ranges_as_written(lo, hi, inside, outside):
    h = Hinge(axis=(0, 0, 1), min_deg=lo, max_deg=hi)
    for deg in inside:
        q = rot.from_axis_angle((0, 0, 1), math.radians(deg))
        assert h.contains(q, None), deg
        c = h.clamp(q)
        assert math.isclose(rot.angle_between(c, q), 0.0, abs_tol=1e-9)
    for deg in outside:
        q = rot.from_axis_angle((0, 0, 1), math.radians(deg))
        assert not h.contains(q, None), deg
        assert h.contains(h.clamp(q), None)


def test_hinge_clamps_to_the_nearer_end_around_the_circle():
    h = Hinge(axis=(0, 0, 1), min_deg=150, max_deg=210)
    # 100 deg is 50 from 150 and 110 from 210 (= -150): goes to 150.
    c = h.clamp(rot.from_axis_angle((0, 0, 1), math.radians(100)))
    assert math.isclose(hinge_angle_deg(h, c), 150, abs_tol=1e-9)
    # -100 deg is 50 from -150 (= 210): goes to 210.
    c = h.clamp(rot.from_axis_angle((0, 0, 1), math.radians(-100)))
    assert math.isclose(hinge_angle_deg(h, c) % 360, 210, abs_tol=1e-9)


def test_hinge_removes_off_axis_rotation_and_keeps_sign():
    h = Hinge(axis=(0, 1, 0), min_deg=-60, max_deg=-20)
    q = rot.multiply(rot.from_axis_angle((1, 0, 0), 0.4), rot.from_axis_angle((0, 1, 0), math.radians(-40)))
    c = h.clamp(q)
    assert h.violation(c) < 1e-12
    assert rot.angle(rot.swing_twist(c, (0, 1, 0))[0]) < 1e-12
    assert hinge_angle_deg(h, c) < 0


@settings(max_examples=300, deadline=None)
@given(quats, degrees, degrees, st.sampled_from([(0, 0, 1), (1, 0, 0), (0.3, -0.5, 0.8)]))
def test_hinge_clamp_is_allowed_and_idempotent(q, a, b, axis):
    lo, hi = min(a, b), max(a, b)
    h = Hinge(axis=axis, min_deg=lo, max_deg=hi)
    c = h.clamp(q)
    assert h.violation(c) < 1e-9
    assert in_arc(hinge_angle_deg(h, c), lo, hi) or hi - lo >= 360
    assert rot.angle_between(h.clamp(c), c) < 1e-9


@settings(max_examples=300, deadline=None)
@given(quats, st.floats(0, 180), degrees, degrees)
def test_ball_clamp_is_allowed_and_idempotent(q, cone, a, b):
    bone = (0.6, 0.0, 0.8)
    lo, hi = min(a, b), max(a, b)
    s = BallSocket(cone_deg=cone, twist_min_deg=lo, twist_max_deg=hi)
    c = s.clamp(q, bone)
    assert s.violation(c, bone) < 1e-9
    # The bone stays within the cone around its rest direction.
    moved = rot.rotate(c, bone)
    cos = sum(x * y for x, y in zip(moved, bone))
    assert math.degrees(math.acos(max(-1.0, min(1.0, cos)))) <= cone + 1e-6
    assert rot.angle_between(s.clamp(c, bone), c) < 1e-9


def test_ball_inside_is_untouched():
    s = BallSocket(cone_deg=45, twist_min_deg=-30, twist_max_deg=30)
    q = rot.multiply(rot.from_axis_angle((0, 0, 1), math.radians(30)), rot.from_axis_angle((1, 0, 0), 0.2))
    assert s.contains(q, (1, 0, 0))
    assert rot.angle_between(s.clamp(q, (1, 0, 0)), q) < 1e-12


def test_ball_swing_is_limited_to_the_cone():
    s = BallSocket(cone_deg=30)
    q = rot.from_axis_angle((0, 0, 1), math.radians(80))
    c = s.clamp(q, (1, 0, 0))
    assert math.isclose(math.degrees(rot.angle(c)), 30, abs_tol=1e-9)
    # Clamped along the same swing direction (towards +y).
    assert rot.rotate(c, (1, 0, 0))[1] > 0


@pytest.mark.parametrize("make, match", [
    (lambda: Hinge(axis=(0, 0, 0)), "axis"),
    (lambda: Hinge(axis=(0, 0, 1), min_deg=10, max_deg=-10), "min"),
    (lambda: Hinge(axis=(0, float("nan"), 1)), "axis"),
    (lambda: Hinge(axis=(0, 1)), "axis"),
    (lambda: Hinge(min_deg=float("inf")), "min"),
    (lambda: BallSocket(cone_deg=-1), "cone_deg"),
    (lambda: BallSocket(cone_deg=181), "cone_deg"),
    (lambda: BallSocket(cone_deg="wide"), "cone_deg"),
    (lambda: BallSocket(twist_min_deg=20, twist_max_deg=10), "twist"),
])
def test_bad_constraints_raise(make, match):
    with pytest.raises(IKError, match=match):
        make()


unit_vectors = st.tuples(finite, finite, finite).filter(lambda v: math.sqrt(sum(c * c for c in v)) > 1e-3).map(
    lambda v: tuple(c / math.sqrt(sum(x * x for x in v)) for c in v))


@settings(max_examples=300, deadline=None)
@given(quats, unit_vectors, st.floats(-7.0, 7.0), st.floats(1.0, 179.0))
def test_a_twist_free_cone_swivels_in_closed_form_as_near_as_the_search(base, axis, preferred, cone):
    # The turn about an axis nearest the preferred one that a twist-free cone allows, in closed form,
    # against the search every other joint takes: allowed wherever the search finds one allowed, and
    # no farther from the preferred turn; the least swing where none is allowed.
    joint = Chain([(0, 0, 0), (1, 0, 0)], [BallSocket(cone)]).plan.joints[0]

    def violation(s):
        return joint.constraint.violation(rot.multiply(rot.from_axis_angle(axis, s), base), joint.bone)

    closed, searched = joint.swivel_within(base, axis, preferred), joint.search_swivel(base, axis, preferred)
    if violation(searched) <= 1e-12:
        assert violation(closed) <= 1e-12
        assert abs(rot.wrap_angle(closed - preferred)) <= abs(rot.wrap_angle(searched - preferred)) + 1e-9
    else:
        # The closed form weighs turns by the cosine of the swing, which near a half turn tells
        # angles apart to about the root of an ulp (1.5e-8 rad) only; the search measures the swing
        # itself (falsified at 1e-12 with the bone a hair off the axis and turned half a turn away).
        assert violation(closed) <= violation(searched) + 1e-7
