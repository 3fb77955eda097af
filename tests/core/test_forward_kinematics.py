"""Every forward kinematics in ikcore agrees with the convention of :mod:`ikcore.rotation`.

Hot loops inline the quaternion maths instead of calling :mod:`ikcore.rotation`
(a call per joint costs more than the maths). Each inlined copy is checked here
against the convention written once: ``R_i = q_0 ... q_i`` and
``p_{i+1} = p_i + R_i (rest_{i+1} - rest_i)``.
"""

import math

from hypothesis import given, settings
from hypothesis import strategies as st

import ikcore
from ikcore import rotation as rot
from ikcore.solvers import _jacobian_flat, _limits, _pose

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


@settings(max_examples=80, deadline=None)
@given(chain_and_pose())
def test_chain_forward_and_settle(case):
    chain, qs = case
    want_R, want_P = reference(chain, qs)
    scale = max(1.0, chain.reach + max(abs(c) for c in chain.points[0]))
    same_points(chain.forward(qs), want_P, scale)
    same_points(chain._forward(qs), want_P, scale)
    same_rotations(chain.world_rotations(qs), want_R)
    # _settle normalises first: scaled quaternions give the same pose.
    units, points, last = chain._settle([tuple(3.0 * c for c in q) for q in qs])
    same_rotations(units, qs)
    same_points(points, want_P, scale)
    same_rotations([last], want_R[-1:])


@settings(max_examples=80, deadline=None)
@given(chain_and_pose())
def test_flat_kinematics_of_the_jacobian_methods(case):
    chain, qs = case
    want_R, want_P = reference(chain, qs)
    scale = max(1.0, chain.reach + max(abs(c) for c in chain.points[0]))
    P, R = _jacobian_flat.forward(chain, qs)
    same_points([tuple(P[k:k + 3]) for k in range(0, len(P), 3)], want_P, scale)
    same_rotations([tuple(R[k:k + 4]) for k in range(0, len(R), 4)], want_R)
    # A zero step is forward kinematics too (the same pass applies steps).
    out, P2, R2 = _jacobian_flat.apply_step(chain, None, qs, R, [0.0] * (3 * chain.size))
    same_rotations(out, qs)
    same_points([tuple(P2[k:k + 3]) for k in range(0, len(P2), 3)], want_P, scale)
    same_rotations([tuple(R2[k:k + 4]) for k in range(0, len(R2), 4)], want_R)
    for j in range(chain.size):
        v = (0.3, -0.2, 0.9)
        assert close(_jacobian_flat.rotate(R, j, v), rot.rotate(want_R[j], v), 1.0)


@settings(max_examples=80, deadline=None)
@given(chain_and_pose())
def test_pose_of_the_geometric_solvers(case):
    chain, qs = case
    want_R, want_P = reference(chain, qs)
    scale = max(1.0, chain.reach + max(abs(c) for c in chain.points[0]))
    pose = _pose.Pose(chain, qs)
    same_points(list(zip(pose.xs, pose.ys, pose.zs)), want_P, scale)
    same_rotations(list(zip(pose.rw, pose.rx, pose.ry, pose.rz)), want_R)
    # follow() re-poses toward the points it is given: at the pose's own points, the same pose.
    pose2 = _pose.Pose(chain, [rot.IDENTITY] * chain.size)
    pose2.xs[:], pose2.ys[:], pose2.zs[:] = pose.xs[:], pose.ys[:], pose.zs[:]
    _pose.follow(chain, [(_limits.FREE, 0.0, 0.0, 0.0, 0.0, 0.0, True, 0.0)] * chain.size, pose2)
    same_points(list(zip(pose2.xs, pose2.ys, pose2.zs)), want_P, scale * 1e3)


@settings(max_examples=40, deadline=None)
@given(chain_and_pose(), quaternions, st.tuples(*[st.floats(-5, 5)] * 3))
def test_skeleton_chains_hanging_from_a_moved_node(case, body_q, body_p):
    chain, qs = case
    skeleton = ikcore.Skeleton()
    body = skeleton.add_node("body", translation=body_p, rotation=body_q)
    leg = skeleton.add_chain("leg", body, chain.points, chain.joints)
    leg._write(qs)
    local_R, local_P = reference(chain, qs)
    world = [tuple(b + c for b, c in zip(body_p, rot.rotate(body_q, p))) for p in local_P]
    scale = max(1.0, chain.reach + max(abs(c) for c in chain.points[0]) + 5.0)
    same_points(leg.world_points(), world, scale)
    same_points(leg.local_points(), local_P, scale)
    skeleton.update()
    same_points([node.world_position for node in leg.nodes], world, scale)
    same_rotations([node.world_rotation for node in leg.nodes[:-1]],
                   [rot.multiply(body_q, R) for R in local_R])
    # The solver's write-back pass computes the same world points.
    same_points(leg._pose(qs), world, scale)
