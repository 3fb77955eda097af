"""Quaternion helpers: each against an independent construction."""

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from ikcore import rotation as rot

finite = st.floats(-10.0, 10.0, allow_nan=False)
vectors = st.tuples(finite, finite, finite).filter(lambda v: math.sqrt(sum(c * c for c in v)) > 1e-3)
quats = st.tuples(finite, finite, finite, finite).filter(lambda q: math.sqrt(sum(c * c for c in q)) > 1e-3).map(
    rot.normalize)


def close(a, b, tol=1e-9):
    return all(abs(x - y) <= tol for x, y in zip(a, b))


def matvec(m, v):
    return (m[0] * v[0] + m[1] * v[1] + m[2] * v[2],
            m[3] * v[0] + m[4] * v[1] + m[5] * v[2],
            m[6] * v[0] + m[7] * v[1] + m[8] * v[2])


def test_quarter_turn_about_z_takes_x_to_y():
    q = rot.from_axis_angle((0, 0, 1), math.pi / 2)
    assert close(rot.rotate(q, (1, 0, 0)), (0, 1, 0))


def test_product_applies_right_factor_first():
    a = rot.from_axis_angle((0, 0, 1), math.pi / 2)
    b = rot.from_axis_angle((1, 0, 0), math.pi / 2)
    # b takes y to z, then a leaves z alone; a takes x to y, then ... : check against sequential application
    v = (0.3, -0.2, 0.9)
    assert close(rot.rotate(rot.multiply(a, b), v), rot.rotate(a, rot.rotate(b, v)))


@settings(max_examples=200, deadline=None)
@given(quats, vectors)
def test_rotate_matches_matrix_and_keeps_length(q, v):
    r = rot.rotate(q, v)
    assert close(r, matvec(rot.to_matrix(q), v), 1e-9 * (1 + max(map(abs, v))))
    assert math.isclose(math.dist(r, (0, 0, 0)), math.dist(v, (0, 0, 0)), rel_tol=1e-9)


@settings(max_examples=200, deadline=None)
@given(vectors, vectors)
def test_shortest_arc_takes_u_to_v(u, v):
    nu, nv = math.dist(u, (0, 0, 0)), math.dist(v, (0, 0, 0))
    u, v = [c / nu for c in u], [c / nv for c in v]
    q = rot.shortest_arc(u, v)
    assert close(rot.rotate(q, u), v, 1e-7)
    assert math.isclose(math.hypot(*q), 1.0, rel_tol=1e-12)


def test_shortest_arc_between_opposite_vectors_is_a_half_turn():
    q = rot.shortest_arc((1, 0, 0), (-1, 0, 0))
    assert close(rot.rotate(q, (1, 0, 0)), (-1, 0, 0))
    assert math.isclose(rot.angle(q), math.pi)


@settings(max_examples=200, deadline=None)
@given(quats, vectors)
def test_swing_twist_recomposes_and_twist_is_about_axis(q, axis):
    n = math.dist(axis, (0, 0, 0))
    axis = tuple(c / n for c in axis)
    swing, twist = rot.swing_twist(q, axis)
    back = rot.multiply(swing, twist)
    assert close(back, q, 1e-9) or close(back, [-c for c in q], 1e-9)
    # The twist leaves the axis fixed; the swing has no component about it.
    assert close(rot.rotate(twist, axis), axis, 1e-9)
    assert abs(swing[1] * axis[0] + swing[2] * axis[1] + swing[3] * axis[2]) < 1e-9


def test_twist_angle_keeps_its_sign():
    for deg in (-170, -90, -10, 10, 90, 170):
        q = rot.from_axis_angle((0, 1, 0), math.radians(deg))
        assert math.isclose(rot.twist_angle(q, (0, 1, 0)), math.radians(deg), abs_tol=1e-12)
        # The same rotation written with a negative w is the same signed angle.
        assert math.isclose(rot.twist_angle([-c for c in q], (0, 1, 0)), math.radians(deg), abs_tol=1e-12)


def test_wrap_angle_range():
    for a in (-7.0, -math.pi, 0.0, math.pi, 4.0, 100.0):
        w = rot.wrap_angle(a)
        assert -math.pi < w <= math.pi
        assert math.isclose(math.cos(w), math.cos(a), abs_tol=1e-9)
        assert math.isclose(math.sin(w), math.sin(a), abs_tol=1e-9)


def test_perpendicular_is_unit_and_orthogonal():
    for v in ((1, 0, 0), (0, 1e-9, 1), (3, 4, 5), (-1, -1, 0)):
        p = rot.perpendicular(v)
        assert math.isclose(math.dist(p, (0, 0, 0)), 1.0)
        assert abs(sum(a * b for a, b in zip(p, v))) < 1e-12


@settings(max_examples=200, deadline=None)
@given(vectors, st.floats(-math.pi, math.pi, allow_nan=False))
def test_halve_is_the_same_axis_by_half_the_angle(axis, angle):
    q = rot.from_axis_angle(axis, angle)
    half = rot.halve(q)
    assert close(half, rot.from_axis_angle(axis, 0.5 * angle), 1e-12)
    # Either sign of q is the same rotation, halved the short way round.
    assert close(rot.halve(tuple(-c for c in q)), half, 1e-12)
    assert rot.angle_between(rot.multiply(half, half), q) <= 1e-9
