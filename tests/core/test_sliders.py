"""Sliding (prismatic) joints: the Jacobian's slider columns, solves that keep each displacement in
its range, and the methods and features that refuse a chain with a slider."""

import math
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

import ikcore
from ikcore.kinematics import pose_of
from ikcore.solvers.jacobian.joints import JointJacobian

# A SCARA-like arm: shoulder and elbow about z, a quill sliding down, a wrist about z.
SCARA = [(0.0, 0.0, 0.0), (0.0, 0.0, 0.4), (0.3, 0.0, 0.4), (0.55, 0.0, 0.4), (0.55, 0.0, 0.3)]


def scara():
    return ikcore.Chain(SCARA, [ikcore.Hinge((0, 0, 1), -120, 120), ikcore.Hinge((0, 0, 1), -145, 145),
                                ikcore.Slider((0, 0, -1), 0.0, 0.2), ikcore.Hinge((0, 0, 1))])


def tilted():
    """A spatial arm with two sliders along skew axes between hinges."""
    return ikcore.Chain([(0, 0, 0), (0, 0, 0.5), (0.2, 0.1, 0.7), (0.5, 0.1, 0.6), (0.6, 0.3, 0.5), (0.8, 0.3, 0.5)],
                        [ikcore.Hinge((0, 0, 1), -170, 170), ikcore.Slider((0.2, 0.1, 0.2), -0.1, 0.3),
                         ikcore.Hinge((0, 1, 0), -100, 100), ikcore.Slider((1, 0, 0.3), 0.0, 0.25),
                         ikcore.Hinge((1, 0, 0), -150, 150)])


def values_in_limits(chain, rng):
    out = []
    for joint in chain.joints:
        if isinstance(joint, ikcore.Slider):
            out.append(rng.uniform(joint.lower, joint.upper))
        else:
            out.append(rng.uniform(max(-math.pi, math.radians(joint.min_deg)), min(math.pi, math.radians(joint.max_deg))))
    return out


def within(chain, values):
    for joint, v in zip(chain.joints, values):
        lo, hi = ((joint.lower, joint.upper) if isinstance(joint, ikcore.Slider)
                  else (math.radians(joint.min_deg), math.radians(joint.max_deg)))
        if not lo - 1e-12 <= v <= hi + 1e-12:
            return False
    return True


def random_poses(chain, seed, count):
    """``count`` pairs ``(joint values, pose)`` of ``chain`` within its limits, drawn from ``seed``."""
    rng = random.Random(seed)
    for _ in range(count):
        values = values_in_limits(chain, rng)
        yield values, chain.pose_at(values)


@pytest.mark.parametrize("make", [scara, tilted])
def test_a_sliders_column_is_the_derivative_of_forward_kinematics(make):
    """J's slider column [s; 0] against the difference quotient of the effector in the displacement."""
    chain = make()
    rng = random.Random(7)
    for values, frames in random_poses(chain, 7, 20):
        jac = JointJacobian(chain, frames, 1.0, True)
        for j in chain.plan.sliders:
            h = 1e-7
            moved = list(values)
            moved[j] = values[j] - h if values[j] + h > chain.joints[j].upper else values[j] + h
            step = moved[j] - values[j]
            after = chain.pose_at(moved)
            numeric = [(a - b) / step for a, b in zip(after.points[-1], frames.points[-1])]
            s = jac.bases[j][0]
            turns = [None] * chain.size
            turns[j] = s
            motion = jac.apply(turns)
            assert math.dist(motion[:3], numeric) <= 1e-6
            assert motion[3:] == [0.0, 0.0, 0.0]
            # J^T y's share for the slider is (s . y_p) s, whatever the orientation rows hold.
            y = [rng.uniform(-1, 1) for _ in range(6)]
            t = sum(a * b for a, b in zip(s, y[:3]))
            assert math.dist(jac.transpose(y)[j], [t * c for c in s]) <= 1e-15


@pytest.mark.parametrize("method", ikcore.solvers.SLIDER_METHODS)
@pytest.mark.parametrize("make", [scara, tilted])
def test_the_jacobian_methods_meet_targets_within_the_sliders_ranges(method, make):
    chain = make()
    rng = random.Random(8)
    met = 0
    for _ in range(30):
        target = chain.pose_at(values_in_limits(chain, rng)).points[-1]
        solution = ikcore.solve(chain, target, method, tolerance=1e-5)
        met += solution.converged
        assert within(chain, solution.joint_values)
        assert solution.status in ("converged", "stalled", "max_iterations")
    assert met >= (30 if method != "jacobian_transpose" else 20)


@pytest.mark.parametrize("method", ["dls", "fabrik_dls"])
@pytest.mark.parametrize("make", [scara, tilted])
def test_dls_and_the_hybrid_meet_4x4_poses_made_by_forward_kinematics(make, method):
    chain = make()
    rng = random.Random(9)
    for _ in range(30):
        target = chain.tip_pose(chain.pose_at(values_in_limits(chain, rng)))
        solution = ikcore.solve(chain, target, method, tolerance=1e-5)
        assert solution.converged, solution
        assert within(chain, solution.joint_values)


@given(st.floats(0.2, 0.6), st.floats(-1.0, 1.0), st.floats(-0.2, 1.0))
def test_a_target_past_the_sliders_range_leaves_it_at_its_end(x, y, z):
    """The quill never slides past its range, whatever the target asks."""
    chain = scara()
    solution = ikcore.solve(chain, (x, y, z), "dls")
    slide = solution.joint_values[2]
    assert 0.0 <= slide <= 0.2
    assert solution.converged == (solution.error <= 1e-3 * chain.reach)


def test_the_reach_counts_each_slider_at_its_longest():
    chain = scara()
    # The quill's bone (0.25 across, sliding up to 0.2 down) is longest at its lowest.
    assert chain.reach == pytest.approx(0.4 + 0.3 + math.hypot(0.25, 0.2) + 0.1, abs=1e-15)
    solution = ikcore.solve(chain, (0.0, 0.0, 5.0), "dls")
    assert solution.status == "unreachable"


@pytest.mark.parametrize("make", [scara, tilted])
def test_the_hybrids_reach_holds_each_slider_where_the_start_has_it(make):
    """FABRIK's chain, each slider held: its poses are the chain's at the held displacements."""
    from ikcore.solvers.fabrik_dls import held_chain
    chain = make()
    for _, frames in random_poses(chain, 14, 10):
        held = held_chain(chain, frames.slides)
        assert not held.plan.sliders
        posed = pose_of(held, frames.rotations)
        assert max(math.dist(a, b) for a, b in zip(posed.points, frames.points)) <= 1e-12
        # Its held joints cannot turn.
        turned = [ikcore.rotation.from_axis_angle((0.6, 0.0, 0.8), 0.5)] * chain.size
        for j in chain.plan.sliders:
            assert pose_of(held, turned).rotations[j] == ikcore.rotation.IDENTITY


def test_the_hybrid_moves_a_slider_its_reach_could_not():
    """The target lies where only the quill's slide reaches it: the finish slides it there."""
    chain = scara()
    target = chain.pose_at([0.3, -0.7, 0.17, 0.0]).points[-1]
    solution = ikcore.solve(chain, target, "fabrik_dls", tolerance=1e-6)
    assert solution.converged
    assert solution.joint_values[2] == pytest.approx(0.17, abs=1e-5)


@pytest.mark.parametrize("method", ["ccd", "fabrik", "two_bone"])
def test_methods_that_cannot_slide_refuse(method):
    chain = ikcore.Chain([(0, 0, 0), (0, 0, 1), (1, 0, 1)], [ikcore.Slider((0, 0, 1), 0.0, 0.5), ikcore.Hinge()])
    with pytest.raises(ikcore.IKError, match="cannot move a sliding joint"):
        ikcore.solve(chain, (0.4, 0.2, 0.3), method)


@pytest.mark.parametrize("call, says", [
    (lambda c: ikcore.solve(c, (0.4, 0.2, 0.3), "dls", pole=(0, 1, 0)), "pole"),
    (lambda c: ikcore.solve(c, (0.4, 0.2, 0.3), "dls", secondary=[ikcore.TowardRest()]), "secondary"),
    (lambda c: ikcore.solve_batch(c, [(0.4, 0.2, 0.3)], "dls"), "solve_batch"),
    (lambda c: ikcore.Skeleton().add_chain("arm", None, c.points, c.joints).take_points(c.points), "take_points"),
    (lambda c: c.forward([ikcore.rotation.IDENTITY] * 4), "pose_at"),
    (lambda c: c.rotations_of([0.0] * 4), "Hinge"),
    (lambda c: ikcore.dump_pose("robot", "dls", [("arm", c, [ikcore.rotation.IDENTITY] * 4)]), "must be Frames"),
])
def test_what_does_not_take_sliders_yet_says_so(call, says):
    with pytest.raises(ikcore.IKError, match=says):
        call(scara())


@pytest.mark.parametrize("args, says", [
    (((0, 0, 0), 0.0, 1.0), "non-zero"),
    (((0, 0, 1), 1.0, 0.0), "must not exceed"),
    (((0, 0, 1), math.nan, 1.0), "finite"),
    (((0, 0, 1), 0.0, math.inf), "finite"),
])
def test_bad_sliders_are_refused(args, says):
    with pytest.raises(ikcore.IKError, match=says):
        ikcore.Slider(*args)


def test_a_slider_that_would_slide_through_its_joint_is_refused():
    with pytest.raises(ikcore.IKError, match="slides through"):
        ikcore.Chain([(0, 0, 0), (0, 0, 1), (0, 0, 1.5)], [None, ikcore.Slider((0, 0, 1), -1.0, 0.0)])


@pytest.mark.parametrize("method", ["dls", "fabrik_dls"])
def test_a_start_keeps_its_displacements_and_the_tracker_carries_them(method):
    chain = scara()
    start = chain.pose_at([0.2, 0.3, 0.15, 0.0])
    assert ikcore.solve(chain, start.points[-1], method, start=start).iterations == 0
    track = ikcore.Tracker(chain, method, tolerance=1e-5)
    for k in range(5):
        solution = track(chain.pose_at([0.2 + 0.01 * k, 0.3, 0.1 + 0.01 * k, 0.0]).points[-1])
        assert solution.converged
        assert track.frames.slides[2] == solution.joint_values[2]
    # Rotations alone as a start: every slider at rest (within its range).
    assert pose_of(chain, [ikcore.rotation.IDENTITY] * 4).slides == [None, None, 0.0, None]


def test_a_slider_on_an_end_of_its_range_blocks_the_motion_past_it():
    from ikcore.solvers.jacobian.limits import limit_directions
    chain = scara()
    for slide, expected in ((0.2, 1.0), (0.0, -1.0), (0.1, None)):
        frames = chain.pose_at([0.3, 0.5, slide, 0.0])
        jac = JointJacobian(chain, frames, 1.0, False)
        s = jac.bases[2][0]
        found = limit_directions(chain, frames, 2, jac)
        assert found == ([] if expected is None else [tuple(expected * c for c in s)])


def test_a_restart_draws_the_sliders_anew_within_their_ranges():
    from ikcore.problem import check_request, check_settings
    from ikcore.solvers.restarts import restart_frames
    chain = scara()
    problem = check_request(check_settings(chain, "dls"), (0.4, 0.2, 0.3))
    frames = chain.pose_at([0.3, 0.5, 0.1, 0.0])
    rng = random.Random(10)
    slides = [restart_frames(problem, frames, rng, 4.0, within=True).slides[2] for _ in range(200)]
    assert all(0.0 <= s <= 0.2 for s in slides)
    # A wide restart spreads over the range, both sides of where the slider was.
    assert min(slides) < 0.05 and max(slides) > 0.15


@pytest.mark.parametrize("method", ikcore.solvers.SLIDER_METHODS)
def test_a_trace_of_a_chain_with_a_slider_returns_what_the_solve_returns(method):
    chain = scara()
    rng = random.Random(15)
    for k in range(20):
        pose = chain.pose_at(values_in_limits(chain, rng))
        # Half the targets a point, half a 4x4 pose (fabrik_dls's reach then puts the wrist).
        target = pose.points[-1] if k % 2 else chain.tip_pose(pose)
        traced = ikcore.trace(chain, target, method, tolerance=1e-5)
        solved = ikcore.solve(chain, target, method, tolerance=1e-5)
        assert (traced.solution.status, traced.solution.iterations) == (solved.status, solved.iterations)
        assert traced.solution.joint_values == solved.joint_values
        assert traced.steps[-1].positions == tuple(solved.positions)
        assert len(traced.poses()) == solved.iterations + 1


def test_a_traced_step_says_how_far_each_slider_slid():
    """From the quill at rest, the steps' slides add up to where the solve leaves it, and each step's
    pose is the chain's at the displacements so far."""
    chain = scara()
    target = chain.pose_at([0.3, -0.7, 0.12, 0.0]).points[-1]
    traced = ikcore.trace(chain, target, "dls", tolerance=1e-6)
    assert traced.solution.converged
    phases = {step.phase for step in traced.steps}
    assert phases == {"setup", "step", "result"}  # no restart, no joint held at a limit
    slide = 0.0
    for step in traced.steps:
        if step.phase != "step":
            continue
        assert step.detail["slides"][:2] == [None, None] and step.detail["delta_deg"][2] == 0.0
        slide += step.detail["slides"][2]
        assert "joint 2 slides" in step.caption
        # The slider's column is its world axis: the quill's, straight down.
        assert step.detail["columns"][2] == pytest.approx((0.0, 0.0, -1.0), abs=1e-12)
    assert slide == pytest.approx(traced.solution.joint_values[2], abs=1e-12)


def test_a_traced_slide_past_its_range_shows_the_limit_taking_it_back():
    """A target below the quill's reach: a step asks more slide than the range has, and a limit
    step follows with the pose held at the end of the range."""
    chain = scara()
    traced = ikcore.trace(chain, (0.3, 0.3, -0.5), "pseudo_inverse", tolerance=1e-6)
    limits = [s for s in traced.steps if s.phase == "limit"]
    assert limits and any(2 in s.detail.get("joints", ()) for s in limits)
    assert traced.solution.joint_values[2] == pytest.approx(0.2, abs=1e-12)
    held = next(s for s in limits if 2 in s.detail.get("joints", ()))
    before = traced.steps[traced.steps.index(held) - 1]
    # The step's own pose slid past the range: its effector lies lower than the held one.
    assert before.positions[-1][2] < held.positions[-1][2] - 1e-9


def test_a_chain_without_limits_keeps_its_sliders_ranges():
    free = scara().free()
    assert [type(j).__name__ if j is not None else None for j in free.joints] == [None, None, "Slider", None]
    assert free.joints[2].lower == 0.0 and free.joints[2].upper == 0.2
    assert free.reach == scara().reach


def test_a_skeletons_chain_slides_its_nodes():
    """A bound chain with a slider: the node after the slider moves with the slide, the world points
    are the chain's pose placed by the parent, a reset slides back to rest."""
    chain = scara()
    skeleton = ikcore.Skeleton()
    skeleton.add_node("base", translation=(1.0, 0.0, 0.5), rotation=ikcore.rotation.from_axis_angle((0, 0, 1), 0.4))
    bound = skeleton.add_chain("arm", "base", chain.points, chain.joints)
    assert bound.slides == [None, None, 0.0, None]
    rng = random.Random(16)
    for _ in range(10):
        values = values_in_limits(chain, rng)
        local = chain.pose_at(values).points[-1]
        world = skeleton.to_world("base", local)
        solution = bound.solve(world, "dls", tolerance=1e-7)
        assert solution.converged
        assert bound.slides[2] == solution.joint_values[2]
        # The nodes' world positions, from their translations, follow the slide.
        expected = [skeleton.to_world("base", p) for p in solution.frames.points]
        for node, p in zip(bound.nodes, expected):
            assert math.dist(node.world_position, p) <= 1e-12
        assert math.dist(bound.effector(), world) <= 1e-6
    bound.constrained = False
    assert bound.solve(skeleton.to_world("base", (0.2, 0.3, 0.45)), "dls").joint_values[2] <= 0.2
    bound.reset()
    assert bound.slides == [None, None, 0.0, None]
    assert math.dist(bound.effector(), skeleton.to_world("base", chain.points[-1])) <= 1e-12


def test_a_pose_with_slides_round_trips_through_json():
    import json
    chain = scara()
    solution = ikcore.solve(chain, chain.pose_at([0.3, -0.7, 0.17, 0.2]).points[-1], "dls", tolerance=1e-7)
    data = json.loads(json.dumps(ikcore.dump_pose("robot", "dls", [("arm", chain, solution.frames)])))
    assert data["chains"][0]["joints"][2] == {"type": "slider", "axis": [0.0, 0.0, -1.0], "lower": 0.0, "upper": 0.2}
    assert data["chains"][0]["slides"] == [None, None, solution.joint_values[2], None]
    read = ikcore.load_pose(data)["arm"]
    assert read.slides == data["chains"][0]["slides"]
    assert max(math.dist(a, b) for a, b in zip(read.positions, solution.positions)) <= 1e-12
    for slides, says in (([None, None, 0.3, None], "outside the slider's range"), ([None, 0.1, 0.1, None], "no slider"),
                         (None, "must be a list"), ([None, None, "x", None], "slides\\[2\\]")):
        bad = json.loads(json.dumps(data))
        bad["chains"][0]["slides"] = slides
        with pytest.raises(ikcore.IKError, match=says):
            ikcore.load_pose(bad)


def test_the_limit_margin_reads_a_sliders_displacement():
    from ikcore.objectives.away_from_limits import limit_margin
    free = ikcore.Hinge((0, 0, 1), -180, 180)
    chain = ikcore.Chain(SCARA, [free, free, ikcore.Slider((0, 0, -1), 0.0, 0.2), free])
    assert limit_margin(chain, chain.pose_at([0.0, 0.0, 0.05, 0.0])) == pytest.approx(0.25)
    assert limit_margin(chain, chain.pose_at([0.0, 0.0, 0.2, 0.0])) == 0.0
