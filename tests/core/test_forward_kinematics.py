"""Forward kinematics (:mod:`ikcore.kinematics`, written once) agrees with the convention of
:mod:`ikcore.rotation`, written out here with its helpers: ``R_i = q_0 ... q_i`` and
``p_{i+1} = p_i + R_i (rest_{i+1} - rest_i)``; and so do the poses the solvers build from points.
"""

import math

from hypothesis import given, settings
from hypothesis import strategies as st

import ikcore
from ikcore import rotation as rot
from ikcore import kinematics

from .strategies import chains, quaternions

TOL = 1e-9


def reference(chain, qs):
    """World rotations and points by :mod:`ikcore.rotation`, one call per step."""
    R = rot.IDENTITY
    points = [chain.points[0]]
    rotations = []
    for q, a, b in zip(qs, chain.points, chain.points[1:]):
        R = rot.multiply(R, q)
        v = rot.rotate(R, tuple(bb - aa for aa, bb in zip(a, b)))
        points.append(tuple(p + c for p, c in zip(points[-1], v)))
        rotations.append(R)
    return rotations, points


def close(a, b, scale):
    return all(math.isclose(x, y, rel_tol=0.0, abs_tol=TOL * scale) for x, y in zip(a, b))


def same_points(got, want, scale):
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert close(g, w, scale), (g, w)


def same_rotations(got, want):
    assert len(got) == len(want)
    for g, w in zip(got, want):
        # q and -q are the same rotation.
        assert close(g, w, 1.0) or close(g, tuple(-c for c in w), 1.0), (g, w)


@st.composite
def chain_and_pose(draw):
    chain = draw(chains(max_bones=10, limits=True, scales=(1.0, 1e-3, 1e3)))
    qs = draw(st.lists(quaternions, min_size=chain.size, max_size=chain.size))
    return chain, qs


@settings(max_examples=100, deadline=None)
@given(chain_and_pose())
def test_frames_forward_and_settle(case):
    chain, qs = case
    want_R, want_P = reference(chain, qs)
    scale = max(1.0, chain.reach + max(abs(c) for c in chain.points[0]))
    worlds, points = kinematics.frames(chain, qs)
    same_points(points, want_P, scale)
    same_rotations(worlds, want_R)
    same_points(chain.forward(qs), want_P, scale)
    # pose_of makes each rotation unit and limited first: scaled quaternions give the clamped pose.
    posed = kinematics.pose_of(chain, [tuple(3.0 * c for c in q) for q in qs])
    clamped = chain.clamp(qs)
    same_rotations(posed.rotations, clamped)
    want_R, want_P = reference(chain, clamped)
    same_points(posed.points, want_P, scale)
    same_rotations(posed.worlds, want_R)


@settings(max_examples=100, deadline=None)
@given(chain_and_pose())
def test_a_pose_placed_from_its_own_points_is_itself(case):
    # pose_from_points() turns points back into rotations (the shortest arcs from a reference pose): from a
    # pose's own points, with that pose as the reference, it gives the same pose.
    chain, qs = case
    frames = kinematics.pose_of(chain, qs)
    again = kinematics.pose_from_points(chain, frames, frames.points)
    scale = max(1.0, chain.reach + max(abs(c) for c in chain.points[0]))
    same_rotations(again.rotations, frames.rotations)
    same_points(again.points, frames.points, scale)


@settings(max_examples=100, deadline=None)
@given(chain_and_pose(), quaternions, st.tuples(*[st.floats(-5, 5)] * 3))
def test_skeleton_chains_hanging_from_a_moved_node(case, body_q, body_p):
    chain, qs = case
    skeleton = ikcore.Skeleton()
    body = skeleton.add_node("body", translation=body_p, rotation=body_q)
    leg = skeleton.add_chain("leg", body, chain.points, chain.joints)
    leg.set_rotations(qs)
    qs = leg.rotations
    local_R, local_P = reference(chain, qs)
    world = [tuple(b + c for b, c in zip(body_p, rot.rotate(body_q, p))) for p in local_P]
    scale = max(1.0, chain.reach + max(abs(c) for c in chain.points[0]) + 5.0)
    same_points(leg.world_points(), world, scale)
    same_points(leg.local_points(), local_P, scale)
    skeleton.update()
    same_points([node.world_position for node in leg.nodes], world, scale)
    same_rotations([node.world_rotation for node in leg.nodes[:-1]],
                   [rot.multiply(body_q, R) for R in local_R])
    # The chain's own frames are those of its rotations.
    same_points(leg.frames().points, local_P, scale)
