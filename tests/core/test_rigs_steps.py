"""The steps scene, headless: a traced solve, the step shown, what the page reads of it."""

import json
import math

import pytest

import ikcore
from ikcore import IKError
from ikcore.rigs import SCENES, make_scene, to_world
from ikcore.rigs.steps import REACH, StepsScene, chain_of, shape_of
from ikcore.solvers import METHODS


def bones_of(scene):
    """The chain's points as the page reads them from the buffer (bone records, in the world)."""
    layout = scene.layout()
    buf = scene.allocate()
    scene.step(1 / 60)
    scene.write(buf)
    to_world(buf, layout)
    section = layout["sections"]["bones"]
    first, count = layout["chains"][0]["bones"]
    records = [buf[section["offset"] + 8 * (first + i):][:8] for i in range(count)]
    return [tuple(records[0][:3])] + [tuple(r[3:6]) for r in records]


def expected_trace(scene, method=None, target=None):
    """The trace the scene should show, made here from its chain, start pose and settings."""
    params = dict(scene.params, **({"method": method} if method else {}))
    points, joints = chain_of(shape_of(params))
    chain = ikcore.Chain(points, joints if params["constraints"] else None)
    return ikcore.trace(chain, target or scene.targets["target"].position, params["method"],
                        start=StepsScene.start_rotations(shape_of(params)), tolerance=params["tolerance"] * REACH,
                        max_iterations=params["max_iterations"])


def test_it_is_a_scene_of_the_page():
    assert "steps" in SCENES
    scene = make_scene("steps")
    layout = scene.layout()
    assert layout["methods"] == list(ikcore.METHODS)
    assert layout["param_specs"]["step"]["panel"] is False
    assert layout["param_methods"]["bones"] == [m for m in ikcore.METHODS if m != "two_bone"]
    assert [t["name"] for t in layout["targets"]] == ["target"] and layout["targets"][0]["draggable"]
    json.dumps(scene.state(), allow_nan=False)


def test_it_opens_on_the_start_and_shows_the_step_asked_for():
    scene = make_scene("steps")
    traced = expected_trace(scene)
    steps = scene.state()["steps"]
    assert steps["index"] == 0 and steps["count"] == len(traced.steps)
    assert (steps["phase"], steps["iteration"]) == ("setup", 0) and steps["caption"] == traced.steps[0].caption
    assert scene.trace.solution == traced.solution
    for k in (3, len(traced.steps) - 1, 1):
        scene.set_params(step=k)
        shown = scene.state()["steps"]
        assert (shown["index"], shown["phase"], shown["joint"], shown["caption"]) == \
            (k, traced.steps[k].phase, traced.steps[k].joint, traced.steps[k].caption)
        # The chain is drawn in the step's pose, bones stretched mid-pass as they are.
        drawn = bones_of(scene)
        assert max(math.dist(p, q) for p, q in zip(drawn, traced.steps[k].positions)) < 1e-12
        status = scene.state()["chains"][0]["status"]
        assert status == (traced.solution.status if k == len(traced.steps) - 1 else "running")


@pytest.mark.parametrize("method", ikcore.METHODS)
def test_every_method_traces_and_a_link_opens_on_its_step(method):
    scene = make_scene("steps")
    traced = expected_trace(scene, method)
    k = min(5, len(traced.steps) - 1)
    scene.set_params(method=method, step=k)  # as a link's "method=...&step=5" applies
    assert scene.trace.solution == traced.solution
    assert scene.state()["steps"]["index"] == k and scene.params["step"] == k
    assert len(scene.limb.bound.chain.points) == (3 if method == "two_bone" else 5)


def test_a_step_the_trace_has_not_is_refused_and_changes_nothing():
    scene = make_scene("steps")
    scene.set_params(step=2)
    count = scene.state()["steps"]["count"]
    before = (dict(scene.params), scene.revision, scene.trace)
    with pytest.raises(IKError, match=r"step must be in \[0, \d+\] \(the trace has \d+ steps\), got 10000"):
        scene.set_params(method="two_bone", step=10000)
    with pytest.raises(IKError, match="step must be in"):
        scene.set_params(step=count)
    with pytest.raises(IKError):
        scene.set_params(step=-1)
    assert (dict(scene.params), scene.revision, scene.trace) == before


def test_the_chain_changes_its_layout_with_bones_planar_and_two_bone():
    scene = make_scene("steps")
    revision, size = scene.revision, scene.layout()["size"]
    scene.set_params(bones=6)
    assert scene.revision == revision + 1 and scene.layout()["size"] > size
    assert scene.layout()["revision"] == scene.state()["revision"] == scene.revision
    scene.set_params(method="two_bone")
    assert scene.layout()["chains"][0]["joints"][1] == 3
    scene.set_params(method="ccd")
    assert scene.layout()["chains"][0]["joints"][1] == 7
    revision = scene.revision
    scene.set_params(method="dls", tolerance=0.01)  # the same chain: the same layout
    assert scene.revision == revision
    scene.set_params(planar=True, constraints=True)
    assert scene.revision == revision + 1
    assert scene.targets["target"].position[2] == 0.0
    assert {c["type"] for c in scene.layout()["chains"][0]["constraints"]} == {"hinge"}
    assert all(abs(p[2]) < 1e-12 for s in scene.trace.steps for p in s.positions)
    assert scene.layout()["camera"]["position"][:2] == scene.layout()["camera"]["target"][:2]  # straight on


def test_dragging_the_target_traces_again_from_the_start_keeping_the_step_shown():
    scene = make_scene("steps")
    scene.set_params(method="ccd", step=2)
    scene.set_target("target", (-0.8, 1.2, 0.4))
    traced = expected_trace(scene, target=(-0.8, 1.2, 0.4))
    assert scene.trace.solution == traced.solution
    assert scene.trace.steps[0].positions == traced.steps[0].positions  # the same start
    assert scene.state()["steps"]["index"] == 2
    # Shown at the last step, the new trace's last step is shown.
    scene.set_params(step=scene.state()["steps"]["count"] - 1)
    scene.set_target("target", (0.5, 1.5, -0.5))
    steps = scene.state()["steps"]
    assert steps["index"] == steps["count"] - 1 and steps["phase"] == "result"
    assert steps["trace"] == scene.traces


def test_queries_give_the_trace_and_the_step():
    scene = make_scene("steps")
    scene.set_params(method="fabrik", step=3)
    trace = scene.query("trace")
    assert trace["count"] == len(scene.trace.steps) == len(trace["errors"]) == len(trace["phases"])
    assert trace["errors"] == [s.error for s in scene.trace.steps]
    assert trace["phases"][1:5] == ["backward"] * 4
    step = scene.query("step")
    assert step["index"] == 3 and step["phase"] == "backward" and step["detail"]["moved"] == 1
    assert step["before"] == [list(p) for p in scene.trace.steps[2].positions]
    assert step["positions"] == [list(p) for p in scene.trace.steps[3].positions]
    json.dumps(step, allow_nan=False)
    with pytest.raises(IKError, match="answers no query 'nope'"):
        scene.query("nope")
    with pytest.raises(IKError, match="answers no query"):
        make_scene("arm").query("trace")


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize(("planar", "target"), [(False, None), (True, None), (True, (1.3, 0.6, 0.0))])
def test_the_framed_box_holds_every_step_of_the_traces_a_reader_first_sees(method, planar, target):
    # The camera frames the box, not the chain's whole reach: every pose of the opening traces (and of the
    # walkthrough's planar target) must stay inside it, and the box must stay close to the chain's height.
    scene = StepsScene()
    scene.set_params(planar=planar, method=method)
    if target is not None:
        scene.place(scene.targets["target"], target, None)
    box = scene.layout()["bounds"]
    points = [p for step in scene.trace.steps for p in step.positions] + [scene.targets["target"].position]
    for p in points:
        assert all(lo <= v <= hi for lo, v, hi in zip(box["min"], p, box["max"])), (p, box)
    assert box["max"][1] - box["min"][1] <= 1.1 * REACH
