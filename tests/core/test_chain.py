"""The chain convention, one test per rule (see ikcore.rotation)."""

import math

import pytest

import ikcore
from ikcore import rotation as rot

L_CHAIN = [(0, 0, 0), (1, 0, 0), (1, 2, 0), (1, 2, 3)]


def close(a, b, tol=1e-12):
    return all(abs(x - y) <= tol for x, y in zip(a, b))


def test_lengths_reach_and_directions():
    c = ikcore.Chain(L_CHAIN)
    assert c.lengths == (1.0, 2.0, 3.0)
    assert c.reach == 6.0
    assert c.directions == ((1, 0, 0), (0, 1, 0), (0, 0, 1))
    assert len(c) == 3


def test_rest_rotations_give_rest_points():
    c = ikcore.Chain(L_CHAIN)
    assert c.forward([rot.IDENTITY] * 3) == [tuple(map(float, p)) for p in L_CHAIN]


def test_root_never_moves():
    c = ikcore.Chain([(5, -1, 2), (6, -1, 2), (7, -1, 2)])
    q = rot.from_axis_angle((0.3, 1, 0.2), 1.1)
    assert c.forward([q, q])[0] == (5.0, -1.0, 2.0)


def test_root_rotation_turns_the_whole_chain():
    # q_0 = quarter turn about z: every later point turns about the root.
    c = ikcore.Chain(L_CHAIN)
    q0 = rot.from_axis_angle((0, 0, 1), math.pi / 2)
    pts = c.forward([q0, rot.IDENTITY, rot.IDENTITY])
    for p, rest in zip(pts, L_CHAIN):
        assert close(p, rot.rotate(q0, rest), 1e-12)


def test_world_rotation_is_the_product_from_the_root():
    # R_1 = q_0 q_1: bone 1 (rest along +y) is turned by q_1 first, then by q_0.
    c = ikcore.Chain(L_CHAIN)
    q0 = rot.from_axis_angle((0, 0, 1), math.pi / 2)
    q1 = rot.from_axis_angle((1, 0, 0), math.pi / 2)
    pts = c.forward([q0, q1, rot.IDENTITY])
    bone1 = tuple(b - a for a, b in zip(pts[1], pts[2]))
    assert close(bone1, rot.rotate(rot.multiply(q0, q1), (0, 2, 0)), 1e-12)
    # q_1 takes +y to +z; q_0 (about z) leaves +z alone.
    assert close(bone1, (0, 0, 2), 1e-12)
    assert close(ikcore.kinematics.frames(c, [q0, q1, rot.IDENTITY])[0][1], rot.multiply(q0, q1))


def test_local_rotation_is_in_the_parent_frame():
    # The same local q_1 gives a different world bone when the parent is turned.
    c = ikcore.Chain([(0, 0, 0), (1, 0, 0), (2, 0, 0)])
    q1 = rot.from_axis_angle((0, 0, 1), math.pi / 2)
    straight = c.forward([rot.IDENTITY, q1])
    turned = c.forward([rot.from_axis_angle((0, 1, 0), math.pi / 2), q1])
    assert close(straight[2], (1, 1, 0), 1e-12)
    # Parent turned about y takes x to -z; the child's local +y is unchanged by it.
    assert close(turned[1], (0, 0, -1), 1e-12)
    assert close(turned[2], (0, 1, -1), 1e-12)


def test_hinge_limits_the_local_rotation_in_the_parent_frame():
    # A hinge about z on joint 1 of a chain whose root is turned about x: the
    # limit is on q_1 alone, whatever the parent does.
    c = ikcore.Chain([(0, 0, 0), (1, 0, 0), (2, 0, 0)],
                     joints=[None, ikcore.Hinge((0, 0, 1), 0, 45)])
    q0 = rot.from_axis_angle((1, 0, 0), 1.0)
    q1 = rot.from_axis_angle((0, 0, 1), math.radians(90))
    clamped = c.clamp([q0, q1])
    assert clamped[0] == q0
    assert math.isclose(math.degrees(c.joints[1].angle(clamped[1])), 45, abs_tol=1e-9)


def test_orientation_target_is_the_last_bones_world_rotation():
    c = ikcore.Chain(L_CHAIN)
    q0 = rot.from_axis_angle((0, 0, 1), 0.3)
    q1 = rot.from_axis_angle((1, 0, 0), 0.2)
    q2 = rot.from_axis_angle((0, 1, 0), -0.4)
    r_last = rot.multiply(rot.multiply(q0, q1), q2)
    points = c.forward([q0, q1, q2])
    sol = ikcore.solve(c, points[-1], "dls", start=[q0, q1, q2], orientation=r_last)
    assert sol.converged
    assert sol.orientation_error < 1e-9
    assert sol.iterations == 0


def test_forward_checks_its_input():
    c = ikcore.Chain(L_CHAIN)
    with pytest.raises(ikcore.IKError, match="3 quaternions"):
        c.forward([rot.IDENTITY] * 2)
    with pytest.raises(ikcore.IKError, match=r"rotations\[1\]"):
        c.forward([rot.IDENTITY, (0, 0, 0, 0), rot.IDENTITY])
