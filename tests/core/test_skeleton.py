"""The skeleton: world transforms, dirty subtrees, chains hanging from moving nodes."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ikcore
from ikcore import rotation as rot
from ikcore.skeleton import Skeleton

LEG = [(0.3, 0.0, 0.0), (0.8, 0.3, 0.0), (1.2, -0.6, 0.0)]
ARM = [(0.0, 0.0, 0.0), (0.5, 0.0, 0.0), (0.9, 0.0, 0.0), (1.1, 0.0, 0.0)]


def close(a, b, tol=1e-9):
    return len(a) == len(b) and all(abs(x - y) <= tol for x, y in zip(a, b))


def close_points(a, b, tol=1e-9):
    return len(a) == len(b) and all(close(p, q, tol) for p, q in zip(a, b))


def same_rotation(a, b, tol=1e-9):
    return rot.angle_between(a, b) <= tol


unit = st.tuples(*[st.floats(-1, 1)] * 3).filter(lambda v: 0.1 < math.sqrt(sum(x * x for x in v)))
angles = st.floats(-math.pi, math.pi)
points = st.tuples(*[st.floats(-5, 5)] * 3)


def spider(legs=4):
    sk = Skeleton()
    sk.add_node("body", translation=(0.0, 1.0, 0.0))
    chains = []
    for i in range(legs):
        yaw = rot.from_axis_angle((0, 1, 0), 2 * math.pi * i / legs)
        sk.add_node(f"hip{i}", "body", rot.rotate(yaw, (0.2, 0.0, 0.0)), yaw)
        chains.append(sk.add_chain(f"leg{i}", f"hip{i}", LEG))
    return sk, chains


# -- world transforms --------------------------------------------------------------------------


def test_world_transform_composes_parent_then_local():
    sk = Skeleton()
    qa = rot.from_axis_angle((0, 0, 1), 0.7)
    qb = rot.from_axis_angle((1, 0, 0), -0.4)
    sk.add_node("a", translation=(1, 2, 3), rotation=qa)
    sk.add_node("b", "a", translation=(0.5, 0, 0), rotation=qb)
    sk.add_node("c", "b", translation=(0, 1, 0))
    pb = tuple(p + r for p, r in zip((1, 2, 3), rot.rotate(qa, (0.5, 0, 0))))
    assert close(sk.world_position("b"), pb)
    assert same_rotation(sk.world_rotation("b"), rot.multiply(qa, qb))
    wb = rot.multiply(qa, qb)
    assert close(sk.world_position("c"), tuple(p + r for p, r in zip(pb, rot.rotate(wb, (0, 1, 0)))))


def test_to_local_inverts_to_world():
    sk = Skeleton()
    sk.add_node("a", translation=(1, -2, 0.5), rotation=rot.from_axis_angle((1, 2, 3), 1.1))
    p = (0.3, 0.7, -4.0)
    assert close(sk.to_world("a", sk.to_local("a", p)), p)


# -- dirty subtrees ----------------------------------------------------------------------------


def test_moving_one_leg_recomputes_only_that_leg():
    sk, chains = spider()
    sk.update()
    before = sk.recomputed
    sk.update()
    assert sk.recomputed == before  # nothing dirty, nothing recomputed
    sk.node("hip2").set_local(rotation=rot.from_axis_angle((0, 1, 0), 0.3))
    sk.update()
    assert sk.recomputed - before == 1 + len(LEG)  # hip2 and its chain's nodes, no other leg


def test_moving_the_body_recomputes_everything_below_it():
    sk, chains = spider()
    sk.update()
    before = sk.recomputed
    sk.node("body").set_local(translation=(0.1, 1.0, 0.0))
    sk.update()
    assert sk.recomputed - before == len(sk)


def test_a_query_recomputes_only_the_path_to_the_node():
    sk, chains = spider()
    sk.update()
    before = sk.recomputed
    sk.node("body").set_local(translation=(0.0, 2.0, 0.0))
    sk.world_position("leg1.1")
    # body, hip1, leg1.0, leg1.1: the rest stays dirty until asked for.
    assert sk.recomputed - before == 4
    assert sk.node("leg3.2")._dirty and not sk.node("leg1.1")._dirty
    assert close(sk.world_position("leg3.0"), sk.to_world("hip3", LEG[0]))


def test_a_stale_transform_is_never_returned():
    sk, chains = spider()
    p0 = sk.world_position("leg0.2")
    sk.node("body").set_local(translation=(0.0, 3.0, 0.0))
    assert close(sk.world_position("leg0.2"), (p0[0], p0[1] + 2.0, p0[2]))


# -- chains ------------------------------------------------------------------------------------


def test_chain_root_follows_its_parent():
    sk, chains = spider()
    leg = chains[1]
    for k in range(5):
        q = rot.from_axis_angle((0.3, 1, 0.2), 0.4 * k)
        sk.node("body").set_local(translation=(k, 1 + 0.1 * k, -k), rotation=q)
        assert close(leg.world_points()[0], sk.to_world("hip1", LEG[0]))
        assert close(sk.world_position("leg1.0"), leg.world_points()[0])


@settings(max_examples=100)
@given(translation=points, axis=unit, angle=angles, method=st.sampled_from(["fabrik", "ccd", "dls"]),
       direction=unit, fraction=st.floats(0.2, 0.9))
def test_solving_in_the_parent_frame_reaches_the_world_target(translation, axis, angle, method, direction,
                                                              fraction):
    sk = Skeleton()
    q = rot.from_axis_angle(axis, angle)
    sk.add_node("body", translation=translation, rotation=q)
    arm = sk.add_chain("arm", "body", ARM)
    root = arm.world_points()[0]
    n = math.sqrt(sum(d * d for d in direction))
    target = tuple(r + fraction * arm.chain.reach * d / n for r, d in zip(root, direction))
    sol = arm.solve(target, method=method, max_iterations=500)
    # The world solution is the local one moved by the parent's transform, and it is honest.
    assert close_points(sol.positions, arm.world_points())
    assert close(sol.positions[0], root, 1e-9)
    assert abs(math.dist(sol.positions[-1], target) - sol.error) <= 1e-9
    if sol.converged:
        assert sol.error <= 1e-3 * arm.chain.reach
    assert close(arm.effector(), sol.positions[-1], 1e-9)


def test_solved_rotations_are_written_back_into_the_nodes():
    sk, chains = spider()
    leg = chains[0]
    sol = leg.solve((1.0, 0.2, 0.3), method="fabrik")
    assert [n.rotation for n in leg.nodes[:-1]] == sol.rotations
    assert leg.nodes[-1].rotation == rot.IDENTITY
    parent_q = sk.world_rotation("hip0")
    for node, r in zip(leg.nodes, ikcore.kinematics.frames(leg.chain, sol.rotations)[0]):
        assert same_rotation(node.world_rotation, rot.multiply(parent_q, r))
    for node, p in zip(leg.nodes, sol.positions):
        assert close(node.world_position, p)


@settings(max_examples=100)
@given(axis=unit, angle=angles, method=st.sampled_from(["fabrik", "ccd", "dls", "two_bone"]),
       moves=st.lists(st.tuples(*[st.floats(-0.3, 0.3)] * 3), min_size=2, max_size=4), tip=angles)
def test_warm_solves_place_every_node_as_forward_kinematics_would(axis, angle, method, moves, tip):
    # A warm solve writes the rotations and leaves the world transforms to be recomputed when read;
    # its Solution's world positions come from the solve's own points and the parent's pose, and
    # local_frames() hands out the solve's frames. All must be the skeleton's own forward
    # kinematics, and hanging nodes must follow.
    sk = Skeleton()
    sk.add_node("body", translation=(0.2, 1.0, -0.3), rotation=rot.from_axis_angle(axis, angle))
    points = LEG if method == "two_bone" else ARM
    arm = sk.add_chain("arm", "body", points)
    # The effector's node turned, and a node hanging from the middle of the chain.
    arm.nodes[-1].set_local(rotation=rot.from_axis_angle((0, 0, 1), tip))
    sk.add_node("sensor", arm.nodes[1], translation=(0.0, 0.1, 0.0))
    target = list(arm.world_points()[-1])
    for move in moves:
        target = [t + m for t, m in zip(target, move)]
        sol = arm.solve(target, method=method)
        placed = [(n.world_position, n.world_rotation) for n in arm.nodes]
        sensor = sk.world_position("sensor")
        worlds, local = arm.local_frames()
        for node in sk._nodes:
            node._dirty = True
        sk.update()
        for node, (p, q), s in zip(arm.nodes, placed, sol.positions):
            assert close(p, node._p, 1e-12) and same_rotation(q, node._q, 1e-12)
            assert abs(math.fsum(c * c for c in q) - 1.0) <= 1e-12
            assert close(s, node._p, 1e-12)
        assert close(sensor, sk.world_position("sensor"), 1e-12)
        assert close_points(local, arm.chain.forward(arm.rotations), 1e-12)
        body = sk.world_rotation("body")
        for w, node in zip(worlds, arm.nodes):
            assert same_rotation(rot.multiply(body, w), node._q, 1e-12)


def test_local_frames_follow_every_way_of_setting_a_pose():
    # From a warm solve, after set_rotations, after reset, after a cold solve (start=) and after
    # a node's rotation is set directly: always the forward kinematics of the nodes' rotations.
    sk = Skeleton()
    sk.add_node("body", translation=(0.2, 1.0, -0.3), rotation=rot.from_axis_angle((1, 0, 0), 0.4))
    arm = sk.add_chain("arm", "body", ARM)

    def check():
        worlds, points = arm.local_frames()
        assert close_points(points, arm.chain.forward(arm.rotations), 1e-12)
        for w, r in zip(worlds, ikcore.kinematics.frames(arm.chain, arm.rotations)[0]):
            assert same_rotation(w, r, 1e-12)

    target = (0.5, 1.6, 0.2)
    arm.solve(target)
    arm.solve(target)  # warm
    check()
    arm.set_rotations([rot.from_axis_angle((0, 0, 1), 0.3)] * arm.chain.size)
    check()
    arm.reset()
    check()
    arm.solve(target, start=[rot.from_axis_angle((1, 0, 0), 0.2)] * arm.chain.size)
    check()
    arm.solve(target)
    arm.nodes[1].set_local(rotation=rot.from_axis_angle((0, 1, 0), 0.5))
    check()


def test_several_chains_share_a_moving_parent():
    sk, chains = spider()
    targets = [sk.to_world(f"hip{i}", (1.0, -0.5, 0.1)) for i in range(len(chains))]
    for leg, t in zip(chains, targets):
        assert leg.solve(t, method="fabrik").converged
    feet = [leg.effector() for leg in chains]
    # Lift the body: the feet go with it until solved again, then return to their targets.
    sk.node("body").set_local(translation=(0.0, 1.2, 0.0))
    for leg, t, f in zip(chains, targets, feet):
        assert close(leg.effector(), (f[0], f[1] + 0.2, f[2]), 1e-9)
        assert leg.solve(t, method="fabrik").converged


def test_warm_start_continues_from_the_previous_rotations():
    sk = Skeleton()
    sk.add_node("base")
    arm = sk.add_chain("arm", "base", [(0, 0, 0), (0.3, 0, 0), (0.6, 0, 0), (0.9, 0, 0), (1.2, 0, 0)])
    target = (0.2, 0.7, 0.4)
    first = arm.solve(target, method="ccd", max_iterations=500)
    assert first.converged and first.iterations > 0
    again = arm.solve(target, method="ccd")
    assert again.iterations == 0 and again.rotations == first.rotations
    # Tracking a small move costs less than solving it from rest.
    moved = (0.22, 0.69, 0.41)
    warm = arm.solve(moved, method="ccd", max_iterations=500)
    cold = ikcore.solve(arm.chain, moved, method="ccd", max_iterations=500)
    assert warm.converged and warm.iterations < cold.iterations
    # An explicit start overrides the warm start.
    rest = arm.solve(moved, method="ccd", max_iterations=500, start=[rot.IDENTITY] * 4)
    assert rest.iterations == cold.iterations


def test_warm_solves_check_their_settings_again_whenever_they_change():
    # A warm solve reuses the settings it checked last time only while method and options stay the same.
    sk = Skeleton()
    sk.add_node("base")
    arm = sk.add_chain("arm", "base", [(0, 0, 0), (0.3, 0, 0), (0.6, 0, 0), (0.9, 0, 0), (1.2, 0, 0)])
    arm.solve((0.2, 0.7, 0.4), method="ccd", max_iterations=500)
    far = (0.5, -0.6, 0.5)
    capped = arm.solve(far, method="ccd", max_iterations=1)
    assert capped.iterations == 1 and capped.status == "max_iterations"
    loose = arm.solve((0.45, -0.62, 0.5), method="ccd", max_iterations=500, tolerance=0.5)
    assert loose.converged and loose.iterations == 0 and loose.error > 0.01
    tight = arm.solve((0.45, -0.62, 0.5), method="ccd", max_iterations=500)
    assert tight.converged and tight.iterations > 0 and tight.error <= 1e-3 * arm.chain.reach
    fabrik = arm.solve(far, method="fabrik", max_iterations=500)
    assert fabrik.method == "fabrik" and fabrik.converged
    with pytest.raises(ikcore.IKError, match="takes no option 'damping'"):
        arm.solve(far, method="fabrik", damping=0.1)
    with pytest.raises(ikcore.IKError, match="max_iterations"):
        arm.solve(far, method="fabrik", max_iterations=0)
    arm.solve(far, method="fabrik")
    with pytest.raises(ikcore.IKError, match="no orientation target"):
        arm.solve(far, method="fabrik", orientation=rot.IDENTITY)
    assert arm.solve(far, method="dls", orientation=rot.IDENTITY, max_iterations=1).orientation_error is not None
    assert arm.solve((0.3, 0.5, -0.6), method="dls", damping=0.5, max_iterations=1).iterations == 1


def test_limits_apply_in_the_parent_frame_and_can_be_switched_off():
    sk = Skeleton()
    sk.add_node("base", rotation=rot.from_axis_angle((0, 1, 0), 1.0))
    hinge = ikcore.Hinge(axis=(0, 0, 1), min_deg=0, max_deg=90)
    arm = sk.add_chain("arm", "base", [(0, 0, 0), (1, 0, 0), (2, 0, 0)], [hinge, hinge])
    below = sk.to_world("base", (1.0, -1.0, 0.0))  # needs negative hinge angles
    sol = arm.solve(below, method="ccd", max_iterations=200)
    assert not sol.converged
    assert max(arm.limited_chain.violations(sol.rotations)) <= 1e-9
    arm.constrained = False
    assert arm.solve(below, method="ccd", max_iterations=200).converged
    arm.constrained = True  # back on: the pose is clamped into the limits at once
    assert max(arm.limited_chain.violations(arm.rotations)) <= 1e-9


def test_set_rotations_and_reset():
    sk, chains = spider(1)
    leg = chains[0]
    q = rot.from_axis_angle((0, 0, 1), 0.5)
    leg.set_rotations([q, rot.IDENTITY])
    assert same_rotation(leg.rotations[0], q) and leg.rotations[1] == rot.IDENTITY
    assert close(leg.local_points()[2], leg.chain.forward([q, rot.IDENTITY])[2])
    leg.reset()
    assert leg.rotations == [rot.IDENTITY] * 2


# -- bad input ---------------------------------------------------------------------------------


@pytest.mark.parametrize("call, words", [
    (lambda sk: sk.add_node("body"), "already has a node 'body'"),
    (lambda sk: sk.add_node(""), "non-empty"),
    (lambda sk: sk.add_node(7), "non-empty"),
    (lambda sk: sk.add_node("x", "nowhere"), "no node 'nowhere'"),
    (lambda sk: sk.add_node("x", translation=(0, math.nan, 0)), "translation"),
    (lambda sk: sk.add_node("x", translation=(0, 0)), "translation"),
    (lambda sk: sk.add_node("x", rotation=(0, 0, 0, 0)), "rotation"),
    (lambda sk: sk.node("body").set_local(translation=(math.inf, 0, 0)), "translation"),
    (lambda sk: sk.node("body").set_local(rotation=(1, 0, 0)), "rotation"),
    (lambda sk: sk.node("leg0.1").set_local(translation=(1, 0, 0)), "belongs to chain 'leg0'"),
    (lambda sk: sk.add_chain("leg0", "body", LEG), "already has a chain 'leg0'"),
    (lambda sk: sk.add_chain("x", "body", [(0, 0, 0)]), "at least 2"),
    (lambda sk: sk.add_chain("x", "body", LEG, [None]), "2 constraints"),
    (lambda sk: sk.add_chain("x", "body", LEG, node_names=["a", "b"]), "3 node names"),
    (lambda sk: sk.add_chain("x", "body", LEG, node_names=["a", "a", "b"]), "distinct"),
    (lambda sk: sk.add_chain("x", "body", LEG, node_names=["a", "body", "b"]), "already has a node 'body'"),
    (lambda sk: sk.chain("nope"), "no chain 'nope'"),
    (lambda sk: sk.chain("leg0").solve((0, math.nan, 0)), "target"),
    (lambda sk: sk.chain("leg0").solve((1, 0)), "target"),
    (lambda sk: sk.chain("leg0").solve((1, 0, 0), method="magic"), "method"),
    (lambda sk: sk.chain("leg0").solve((1, 0, 0), orientation=(0, 0, 0, 0), method="dls"), "orientation"),
    (lambda sk: sk.chain("leg0").solve((1, 0, 0), pole=(0, 0, math.inf)), "pole"),
    (lambda sk: sk.chain("leg0").solve((1, 0, 0), tolerance=-1), "tolerance"),
    (lambda sk: sk.chain("leg0").solve((1, 0, 0), start=[(1, 0, 0, 0)]), "start"),
    (lambda sk: sk.chain("leg0").set_rotations([(1, 0, 0, 0)] * 3), "2 quaternions"),
    (lambda sk: setattr(sk.chain("leg0"), "constrained", 1), "True or False"),
])
def test_bad_input_raises_ikerror_and_changes_nothing(call, words):
    sk, chains = spider(1)
    chains[0].solve((1.0, 0.5, 0.2), method="fabrik")
    rotations = chains[0].rotations
    count = len(sk)
    with pytest.raises(ikcore.IKError, match=None) as info:
        call(sk)
    assert words in str(info.value)
    assert chains[0].rotations == rotations
    assert len(sk) == count


def test_setting_a_node_s_attributes_marks_its_subtree_dirty():
    # node.rotation and node.translation are documented attributes: setting them moves what hangs below,
    # whether read at once or after Skeleton.update().
    sk = Skeleton()
    body = sk.add_node("body", translation=(0.0, 1.0, 0.0))
    arm = sk.add_chain("arm", body, [(0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (2.0, 0.0, 0.0)])
    assert arm.effector() == pytest.approx((2.0, 1.0, 0.0))
    body.rotation = rot.from_axis_angle((0.0, 0.0, 1.0), math.pi / 2)
    assert arm.effector() == pytest.approx((0.0, 3.0, 0.0))
    body.translation = (5.0, 0.0, 0.0)
    sk.update()
    assert arm.nodes[-1].world_position == pytest.approx((5.0, 2.0, 0.0))
    arm.nodes[0].rotation = rot.from_axis_angle((0.0, 0.0, 1.0), math.pi / 2)
    assert arm.effector() == pytest.approx((3.0, 0.0, 0.0))
    # Checked as they are set: a bad value changes nothing.
    with pytest.raises(ikcore.IKError, match="rotation"):
        body.rotation = (0.0, 0.0, 0.0, 0.0)
    with pytest.raises(ikcore.IKError, match="translation"):
        body.translation = (math.nan, 0.0, 0.0)
    with pytest.raises(ikcore.IKError, match="rest offset"):
        arm.nodes[1].translation = (1.0, 1.0, 1.0)
    assert arm.effector() == pytest.approx((3.0, 0.0, 0.0))
