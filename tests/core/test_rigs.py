"""The page's scenes, headless: the frame contract, long runs, validation.

Each scene runs 2,000 frames at 60 frames per second once (cached per module);
the tests read what the run recorded.
"""

import json
import math
from array import array

import pytest

import ikcore
from ikcore import rotation as rot
from ikcore.rigs import CHAIN_SCENES, STATUS_CODES, make_scene, to_world
from ikcore.rigs.arm import natural_hand

FRAMES = 2000
DT = 1.0 / 60.0


def bends(points):
    """Angles (degrees) between consecutive bones."""
    out = []
    for a, b, c in zip(points, points[1:], points[2:]):
        u = [y - x for x, y in zip(a, b)]
        v = [y - x for x, y in zip(b, c)]
        d = sum(x * y for x, y in zip(u, v)) / (math.hypot(*u) * math.hypot(*v))
        out.append(math.degrees(math.acos(max(-1.0, min(1.0, d)))))
    return out


class Run:
    """What one long run of a scene recorded."""

    def __init__(self, name):
        self.scene = scene = make_scene(name)
        buf = scene.allocate()
        self.address = buf.buffer_info()
        view = memoryview(buf)  # the page holds a view on the buffer: it must stay valid
        self.nonfinite = 0
        self.statuses = set()
        self.unconverged = 0
        self.max_bend = 0.0
        self.max_move = 0.0
        self.max_target_move = 0.0
        first_targets = {k: t.position for k, t in scene.targets.items()}
        prev = None
        prev_targets = None
        for _ in range(FRAMES):
            scene.step(DT)
            written = scene.write(buf)
            assert written == len(buf)
            if not all(map(math.isfinite, view)):
                self.nonfinite += 1
            for limb in scene.limbs:
                status = scene.report(limb)[0]
                self.statuses.add(status)
                self.unconverged += status != "converged"
            if name == "tentacles":
                pts = [limb.bound.world_points() for limb in scene.limbs]
                targets = [scene.targets[limb.target].position for limb in scene.limbs]
                self.max_bend = max(self.max_bend, max(max(bends(p)) for p in pts))
                if prev is not None:
                    self.max_move = max(self.max_move, max(math.dist(a, b) for p, q in zip(pts, prev)
                                                           for a, b in zip(p, q)))
                    self.max_target_move = max(self.max_target_move,
                                               max(math.dist(a, b) for a, b in zip(targets, prev_targets)))
                prev, prev_targets = pts, targets
        self.moved = [k for k, t in scene.targets.items() if t.position != first_targets[k]]
        self.buf = buf
        view.release()


_runs = {}


def run(name):
    if name not in _runs:
        _runs[name] = Run(name)
    return _runs[name]


# -- long runs ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", CHAIN_SCENES)
def test_2000_frames_with_moving_targets_never_give_nan(name):
    r = run(name)
    assert r.nonfinite == 0
    scripted = {k for k, t in r.scene.targets.items() if r.scene.scripted(t)}
    assert scripted <= set(r.moved), "the scripted targets must move"
    assert r.moved or name in ("steps", "playground")  # their targets move only when dragged
    assert r.statuses <= set(STATUS_CODES)
    state = r.scene.state()
    json.dumps(state, allow_nan=False)  # JSON-ready, finite
    assert state["scene"] == name and state["frame"] == FRAMES
    assert abs(state["time"] - FRAMES * DT) < 1e-6
    for chain in state["chains"]:
        assert all(math.isfinite(v) for v in chain["effector"] + chain["target"])


def test_tentacles_converge_every_frame_smoothly():
    r = run("tentacles")
    scene = r.scene
    assert len(scene.limbs) >= 4 and all(limb.bound.chain.size >= 20 for limb in scene.limbs)
    assert r.unconverged == 0
    # Smooth: no kinks, and no joint jumps further in a frame than the targets move.
    assert r.max_bend <= 30.0
    assert 0.0 < r.max_move <= 2.0 * r.max_target_move + 1e-3
    radii = scene.limbs[0].radii
    assert all(a > b for a, b in zip(radii, radii[1:]))  # tapered


def test_arm_follows_its_scripted_target_with_orientation():
    r = run("arm")
    assert r.scene.params["method"] in ("dls", "fabrik_dls")
    assert r.unconverged <= 0.02 * FRAMES
    sol = r.scene.arm.solution
    assert sol.orientation_error is not None


def test_race_lanes_finish_with_their_histories():
    scene = run("race").scene
    state = scene.state()["race"]
    assert state["hop"] >= 5  # the target hopped, races were run
    seen_ccd_bias = []
    # Decided, and replayed to the end: every lane drawn in its final pose.
    while not scene.replayed:
        scene.step(DT)
    for lane, chain in zip(scene.lanes, scene.state()["chains"]):
        assert lane.status in ikcore.STATUSES
        sol = lane.limb.solution
        assert lane.errors == sol.errors and len(lane.errors) == lane.iterations + 1
        assert chain["error"] == lane.errors[-1] == sol.error
        assert math.dist(chain["effector"], chain["target"]) == pytest.approx(sol.error, abs=1e-9)
        shares = lane.shares()
        assert sum(shares) == pytest.approx(1.0)
        if lane.method == "ccd":
            seen_ccd_bias.append(shares[-1] + shares[-2] > shares[0] + shares[1])
    assert all(seen_ccd_bias)


def test_race_is_decided_one_lane_per_frame_from_rest():
    from ikcore.rigs.race import lane_root

    scene = make_scene("race")
    x0, _, z0 = lane_root(0)
    scene.set_target("target", (x0 - 0.25, 1.0, z0 + 0.4))
    counts = []
    for _ in range(6):
        scene.step(DT)
        counts.append(sum(lane.done for lane in scene.lanes))
    assert counts == [1, 2, 3, 4, 5, 6]
    for lane in scene.lanes:
        cold = ikcore.solve(lane.limb.bound.chain, lane.limb.bound.to_local(scene.lane_target(lane)),
                            lane.method, max_iterations=scene.params["max_iterations"])
        assert lane.errors == cold.errors  # solved from rest: the method's own history
        assert lane.status == "converged"


# -- the arm, out of reach ---------------------------------------------------------------------


@pytest.mark.parametrize("method", make_scene("arm").methods)
def test_arm_points_calmly_at_an_unreachable_target(method):
    scene = make_scene("arm")
    scene.set_params(method=method)
    far = (3.0, 2.5, 1.5)
    scene.set_target("target", far)
    for _ in range(30):
        scene.step(DT)
    prev = scene.arm.bound.world_points()
    for _ in range(60):
        scene.step(DT)
        pts = scene.arm.bound.world_points()
        # No jitter: nothing moves by more than 1e-5 of the reach (0.01 mm here) in a frame.
        assert max(math.dist(a, b) for a, b in zip(pts, prev)) <= 1e-5 * scene.arm.reach
        prev = pts
    assert scene.arm.solution.status == "unreachable"
    shoulder, tip = pts[0], pts[-1]
    u = [b - a for a, b in zip(shoulder, tip)]
    v = [b - a for a, b in zip(shoulder, far)]
    angle = math.degrees(math.acos(sum(a * b for a, b in zip(u, v)) / (math.hypot(*u) * math.hypot(*v))))
    # It points at the target (methods with an orientation target trade a little of that for the hand's turn).
    assert angle <= (6.0 if method in ("dls", "fabrik_dls") else 0.5)


def test_natural_hand_is_the_straight_wrist_pose():
    # With the hand straight on the forearm the arm is a two-bone chain; the natural hand turns +x
    # onto the forearm and +z onto the elbow's hinge axis.
    target, pole = (0.7, 1.3, 0.3), (0.4, 0.2, 0.3)
    q = natural_hand(target, pole)
    f = rot.rotate(q, (1.0, 0.0, 0.0))
    n = rot.rotate(q, (0.0, 0.0, 1.0))
    assert abs(sum(a * b for a, b in zip(f, n))) < 1e-12
    elbow = [t - 0.6 * c for t, c in zip(target, f)]
    assert math.dist(elbow, (0.0, 1.0, 0.0)) == pytest.approx(0.55)
    # The elbow bends towards the pole's side of the shoulder-target line.
    assert sum(a * b for a, b in zip(n, [(e - s) for e, s in zip(elbow, (0.0, 1.0, 0.0))])) == pytest.approx(0.0,
                                                                                                            abs=1e-12)


# -- the buffer --------------------------------------------------------------------------------


@pytest.mark.parametrize("name", CHAIN_SCENES)
def test_buffer_follows_the_layout(name):
    scene = make_scene(name)
    layout = scene.layout()
    json.dumps(layout, allow_nan=False)
    buf = scene.allocate()
    assert isinstance(buf, array) and buf.typecode == "d" and len(buf) == layout["size"]
    for _ in range(5):
        scene.step(DT)
    assert scene.write(buf) == layout["size"]
    sec = layout["sections"]
    offset = 0
    for key in ("bones", "joints", "targets", "chains", "frames", *(("skin",) if "skin" in sec else ())):
        assert sec[key]["offset"] == offset
        offset += sec[key]["count"] * sec[key]["stride"]
    assert offset == layout["size"]
    b, j, t, c, f = (sec[k]["offset"] for k in ("bones", "joints", "targets", "chains", "frames"))
    # The chains' records are in their own frames: each chain's frame record is its parent's world pose.
    for k, limb in enumerate(scene.limbs):
        position, rotation = limb.bound.parent_transform()
        assert buf[f + 7 * k: f + 7 * k + 7].tolist() == [*position, *rotation]
    local = array("d", buf)
    to_world(buf, layout)
    for k, (info, limb) in enumerate(zip(layout["chains"], scene.limbs)):
        first, count = info["bones"]
        pts = limb.bound.world_points()
        if limb.lead is not None:
            # A lead bone first, from the frame's origin (as written) to the root, then the chain's own.
            assert local[b + 8 * first: b + 8 * first + 6].tolist() == [0.0, 0.0, 0.0, *limb.bound.chain.points[0]]
            rec = buf[b + 8 * first: b + 8 * first + 8]
            origin = limb.bound.parent.world_position
            assert rec[:3].tolist() == pytest.approx(list(origin), abs=1e-12)
            assert rec[3:6].tolist() == pytest.approx(list(pts[0]), abs=1e-12)
            assert rec[6] == limb.lead[0] and rec[7] == layout["kinds"]["link"]
            first, count = first + 1, count - 1
        # As written, before to_world: the chain's root in its own frame.
        assert local[b + 8 * first: b + 8 * first + 3].tolist() == list(limb.bound.chain.points[0])
        assert count == len(pts) - 1
        for i in range(count):
            rec = buf[b + 8 * (first + i): b + 8 * (first + i + 1)]
            assert rec[:3].tolist() == pytest.approx(list(pts[i]), abs=1e-12)
            assert rec[3:6].tolist() == pytest.approx(list(pts[i + 1]), abs=1e-12)
            assert rec[6] > 0 and rec[7] == layout["kinds"]["tip" if i == count - 1 else "bone"]
        jfirst, jcount = info["joints"]
        assert jcount == len(pts)
        frames = [limb.bound.parent.world_rotation if limb.bound.parent else rot.IDENTITY]
        frames += [node.world_rotation for node in limb.bound.nodes[:-1]]
        for i in range(jcount):
            rec = buf[j + 8 * (jfirst + i): j + 8 * (jfirst + i + 1)]
            assert rec[:3].tolist() == pytest.approx(list(pts[i]), abs=1e-12)
            assert rec[4:8].tolist() == pytest.approx(list(frames[i]), abs=1e-12)
        status, error, iterations = scene.report(limb)
        rec = buf[c + 4 * k: c + 4 * k + 4]
        assert rec[0] == STATUS_CODES.index(status) and rec[2] == iterations
        assert rec[1] == pytest.approx(error or 0.0)  # 0 where no error yet (a race lane still to run)
    for k, info in enumerate(layout["targets"]):
        target = scene.targets[info["name"]]
        rec = buf[t + 8 * k: t + 8 * k + 8]
        assert rec[:3].tolist() == list(target.position)
        assert rec[3:7].tolist() == list(target.orientation or rot.IDENTITY)
        assert info["oriented"] == (target.orientation is not None)
    # Extra bones (pedestal, body, coxae) come after the chains' bones.
    assert sec["bones"]["count"] == sum(i["bones"][1] for i in layout["chains"]) + len(scene.extra_bones())


def test_set_target_moves_the_effector_there():
    for name, target in (("arm", (0.6, 1.4, 0.4)), ("tentacles", None)):
        scene = make_scene(name)
        limb = scene.limbs[0]
        if target is None:
            root = limb.bound.world_points()[0]
            target = (root[0] + 0.5, root[1] + 1.2, root[2] + 0.3)
        scene.set_target(limb.target, target)
        for _ in range(20):
            scene.step(DT)
        state = scene.state()["chains"][0]
        assert state["target"] == list(target)
        assert math.dist(state["effector"], target) <= scene.params["tolerance"] * limb.reach
        assert scene.targets[limb.target].pinned
        scene.release(limb.target)
        scene.step(DT)
        assert not scene.targets[limb.target].pinned and scene.targets[limb.target].position != target


def test_switching_method_and_constraints_keeps_going():
    scene = make_scene("arm")
    for method in scene.methods:
        scene.set_params(method=method)
        for _ in range(3):
            scene.step(DT)
        assert scene.state()["method"] == method
        assert scene.arm.solution.method == method
    scene.set_params(constraints=False)
    scene.step(DT)
    assert not scene.arm.bound.constrained
    scene.set_params(constraints=True, tolerance=0.01, max_iterations=3, damping=0.05, animate=False)
    scene.step(DT)
    assert scene.arm.bound.constrained and scene.arm.solution.iterations <= 3
    assert max(scene.arm.bound.limited_chain.violations(scene.arm.bound.rotations)) <= 1e-9
    # damping reaches the methods that take it
    scene.set_params(method="dls")
    assert scene.method_options("dls") == {"damping": 0.05}
    assert scene.method_options("ccd") == {}


def test_pose_exports_the_scene():
    scene = make_scene("spider")
    scene.step(DT)
    pose = ikcore.pose.load_pose(json.dumps(scene.pose()))
    assert pose.scene == "spider" and len(pose.chains) == 8


# -- validation --------------------------------------------------------------------------------


@pytest.mark.parametrize("name, call, words", [
    ("arm", lambda s: s.set_params(method="two_bone"), "method must be one of"),
    ("arm", lambda s: s.set_params(method="magic"), "method"),
    ("arm", lambda s: s.set_params(tolerance=0), "tolerance"),
    ("arm", lambda s: s.set_params(tolerance=math.nan), "tolerance"),
    ("arm", lambda s: s.set_params(tolerance=0.9), "tolerance"),
    ("arm", lambda s: s.set_params(max_iterations=0), "max_iterations"),
    ("arm", lambda s: s.set_params(max_iterations=2.5), "max_iterations"),
    ("arm", lambda s: s.set_params(max_iterations=True), "max_iterations"),
    ("arm", lambda s: s.set_params(damping=-1), "damping"),
    ("arm", lambda s: s.set_params(constraints="yes"), "constraints"),
    ("arm", lambda s: s.set_params(animate=1), "animate"),
    ("arm", lambda s: s.set_params(speed=1.0), "no parameter 'speed'"),
    ("arm", lambda s: s.set_params(method="ccd", tolerance=-1), "tolerance"),  # all or nothing
    ("arm", lambda s: s.set_target("nowhere", (0, 0, 0)), "no draggable target 'nowhere'"),
    ("arm", lambda s: s.set_target("target", (0, math.inf, 0)), "position"),
    ("arm", lambda s: s.set_target("target", (0, 0)), "position"),
    ("arm", lambda s: s.set_target("target", (0, 0, 0), orientation=(0, 0, 0, 0)), "orientation"),
    ("arm", lambda s: s.set_target("pole", (0, 0, 0), orientation=(1, 0, 0, 0)), "takes no orientation"),
    ("arm", lambda s: s.release("nowhere"), "nowhere"),
    ("arm", lambda s: s.step(-0.1), "dt"),
    ("arm", lambda s: s.step(math.nan), "dt"),
    ("arm", lambda s: s.step("1"), "dt"),
    ("tentacles", lambda s: s.set_target("target9", (0, 1, 0)), "target9"),
    ("race", lambda s: s.set_target("target@ccd", (0, 1, 0)), "no draggable target"),
    ("race", lambda s: s.set_params(rate=0), "rate"),
    ("race", lambda s: s.set_params(pause=-1), "pause"),
    ("spider", lambda s: s.set_params(speed=9), "speed"),
    ("spider", lambda s: s.set_params(wander="no"), "wander"),
    ("spider", lambda s: s.set_destination(100.0, 0.0), "destination"),
    ("spider", lambda s: s.set_destination(0.0, math.nan), "destination z"),
    ("spider", lambda s: s.set_target("destination", (50.0, 0.0, 0.0)), "destination"),
    ("spider", lambda s: s.set_target("foot0", (0.0, 0.0, 0.0)), "no draggable target 'foot0'"),
    ("spider", lambda s: s.steer(forward=math.inf), "forward"),
])
def test_bad_input_raises_ikerror_and_changes_nothing(name, call, words):
    scene = make_scene(name)
    scene.step(DT)
    params = dict(scene.params)
    targets = {k: (t.position, t.orientation, t.pinned) for k, t in scene.targets.items()}
    frame = scene.frame
    with pytest.raises(ikcore.IKError) as info:
        call(scene)
    assert words in str(info.value)
    assert scene.params == params and scene.frame == frame
    assert {k: (t.position, t.orientation, t.pinned) for k, t in scene.targets.items()} == targets


def test_make_scene_refuses_unknown_names():
    with pytest.raises(ikcore.IKError, match="scene must be one of"):
        make_scene("aquarium")


def test_large_steps_are_cut():
    scene = make_scene("arm")
    scene.step(5.0)
    assert scene.time == pytest.approx(0.1)


@pytest.mark.parametrize("name", ["tentacles", "spider", "race"])
def test_each_chain_times_its_own_share_of_the_frame(name):
    # On a timed frame (the first, then one in timed_every) each chain's time runs from the end of
    # the one before: the times of the chains solved add up to no more than the step, each is its
    # own (not the frame so far). The frames between keep them as they are. A chain solved outside
    # a step times itself.
    import time

    scene = make_scene(name)
    every = scene.timed_every
    assert every == (1 if name == "race" else 8)
    for frame in range(1, 3 * every + 2):
        before = [(limb.result, limb.ms) for limb in scene.limbs]
        t0 = time.perf_counter()
        scene.step(1 / 60)
        wall = (time.perf_counter() - t0) * 1000.0
        # The chains this frame solved (the race solves one lane a frame).
        solved = [limb for limb, (result, _) in zip(scene.limbs, before) if limb.result is not result]
        assert solved
        if (frame - 1) % every == 0:
            assert all(limb.ms > 0.0 for limb in solved)
            assert sum(limb.ms for limb in solved) <= wall
        else:
            assert [limb.ms for limb in scene.limbs] == [ms for _, ms in before]
    limb = scene.limbs[0]
    t0 = time.perf_counter()
    scene.solve_limb(limb, scene.limb_target(limb) or (0.0, 1.0, 0.0))
    assert 0.0 < limb.ms <= (time.perf_counter() - t0) * 1000.0


def test_the_arm_stands_on_its_drawn_pedestal():
    # The pedestal is the arm's lead bone: from the world's origin (the pedestal node) up to the shoulder,
    # wherever the arm reaches. The node is the world's frame itself: the scene solves the arm for its
    # world targets as local ones.
    from ikcore.rigs.scene import LINK

    scene = make_scene("arm")
    pedestal = scene.arm.bound.parent
    assert pedestal.name == "pedestal" and pedestal.parent is None
    assert pedestal.world_position == (0.0, 0.0, 0.0) and pedestal.world_rotation == rot.IDENTITY
    layout = scene.layout()
    bones = layout["sections"]["bones"]
    buf = scene.allocate()
    (chain,) = layout["chains"]
    first, count = chain["bones"]
    assert count == 4 and bones["count"] == 4
    for _ in range(30):
        scene.step(1 / 60)
        scene.write(buf)
        to_world(buf, layout)
        o = bones["offset"] + first * bones["stride"]
        assert tuple(buf[o:o + 3]) == (0.0, 0.0, 0.0)
        assert math.dist(buf[o + 3:o + 6], scene.arm.bound.nodes[0].world_position) <= 1e-12
        assert tuple(buf[o + 6:o + 8]) == (0.09, LINK)
