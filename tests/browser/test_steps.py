"""The steps scene in headless Chromium: a link opens on its step, the bar's controls and the keys step and play
through the trace Python makes, each method's step is drawn in its own colours, a dragged target is traced again,
and an embedded trace answers its parent's messages."""

import io
import json
import re
from pathlib import Path

import pytest

from ikcore.rigs import make_scene

from test_embed import check_fits, demo_frame, messages, result, send, served_parent

ROOT = Path(__file__).resolve().parent.parent.parent
# The drawing's colours, read from the module that draws them.
COLORS = {name: tuple(int(value[i:i + 2], 16) for i in (0, 2, 4)) for name, value in re.findall(
    r"^\s+(\w+): 0x([0-9a-f]{6}),", (ROOT / "web/js/parts/step-drawing.js").read_text(), re.M)}
#: What each method's figure is drawn in (the colours no other part of the scene uses).
FIGURES = {"ccd": ("arc", "target"), "fabrik": ("moved",), "dls": ("column", "error"), "two_bone": ("triangle",)}


def python_steps(**params):
    """The step the scene shows for ``params``, as Python has it headless (what the page must show)."""
    scene = make_scene("steps")
    scene.set_params(**params)
    return rounded({k: scene.state()["steps"][k] for k in ("index", "count", "iteration", "phase", "joint", "caption")})


def rounded(steps):
    """``steps`` with the caption's round-off numbers (below 1e-10: a solve's exact hit, whose last bits
    differ between CPython's and Pyodide's math libraries) written as 0."""
    return dict(steps, caption=re.sub(r"\d(\.\d+)?e-(1[0-9]|[2-9][0-9])\b", "0", steps["caption"]))


def scene_image(page):
    """The canvas above the steps bar and left of the panel, as a PIL image (the bar's chart and the panel
    have colours of their own)."""
    from PIL import Image

    box = page.evaluate("""() => {
        const c = document.querySelector('#viewport canvas').getBoundingClientRect();
        const bar = document.getElementById('steps').getBoundingClientRect();
        const gui = document.getElementById('gui').getBoundingClientRect();
        return {x: c.left, y: c.top, width: Math.min(c.right, gui.width ? gui.left : c.right) - c.left,
                height: bar.top - c.top};
    }""")
    return Image.open(io.BytesIO(page.screenshot(clip=box, animations="allow", caret="initial"))).convert("RGB")


def count_near(image, color, within=40):
    """How many pixels of ``image`` lie within ``within`` (per channel) of ``color``."""
    r, g, b = color
    return sum(n for n, (x, y, z) in image.getcolors(maxcolors=1 << 22)
               if abs(x - r) <= within and abs(y - g) <= within and abs(z - b) <= within)


def shown(demo):
    """The step shown, the bar's text and what is drawn, once the page has drawn a frame of it."""
    state = demo.wait_frames(2)
    return rounded(state["steps"]), state["view"]


def test_a_link_opens_on_its_step_and_the_controls_step_through_the_trace(demo, site_server):
    page = demo.open(f"{site_server}#scene=steps&method=ccd&step=5")
    demo.wait_ready()
    steps, view = shown(demo)
    assert steps == python_steps(method="ccd", step=5)
    assert steps["phase"] == "rotate" and re.match(rf"Joint {steps['joint']} turns -?\d+\.\d°", steps["caption"])
    assert page.text_content("#steps-caption") == steps["caption"]
    assert view["bar"]["slider"] == {"max": steps["count"] - 1, "value": 5} and not view["bar"]["hidden"]
    assert view["drawing"]["kind"] == "ccd" and view["drawing"]["joint"] == steps["joint"]
    # The link the page writes carries the step.
    assert "step=5" in page.evaluate("ikDemo.link()")

    # Forward, back, the keys, the slider: each the next state, and the step event says so.
    page.evaluate("window.seen = []; ikDemo.on('step', (s) => seen.push(s.index)); 0")
    page.click("#steps-forward")
    assert shown(demo)[0] == python_steps(method="ccd", step=6)
    page.click("#steps-back")
    # The keys act when nothing else has the focus (a button keeps its own keys).
    page.evaluate("document.activeElement.blur()")
    page.keyboard.press("ArrowLeft")
    assert shown(demo)[0]["index"] == 4
    page.fill("#steps-slider", "9")
    assert shown(demo)[0] == python_steps(method="ccd", step=9)
    assert page.evaluate("seen") == [6, 5, 4, 9]
    with pytest.raises(Exception, match="step must be in"):
        page.evaluate("ikDemo.stepTo(10000)")
    with pytest.raises(Exception, match="integer"):
        page.evaluate("ikDemo.stepTo(1.5)")

    # Play runs to the last step and stops there, the chain in the solution's pose.
    # The button's labels are recorded as they change: at 30 steps a second the few steps left may all be
    # played before a read of the label after the click (on a busy machine they were).
    page.evaluate("ikDemo.set({rate: 30})")
    page.evaluate("""() => {
        const button = document.querySelector('#steps-play');
        window.playLabels = [];
        new MutationObserver(() => playLabels.push(button.textContent))
            .observe(button, {childList: true, characterData: true, subtree: true});
    }""")
    page.click("#steps-play")
    demo.wait_until("ikDemo.state().params.animate === false", 60_000, "the play to reach the last step")
    steps = demo.wait_frames(1)["steps"]
    assert steps["index"] == steps["count"] - 1 and steps["phase"] == "result"
    assert page.text_content("#steps-play") == "Play"
    assert page.evaluate("playLabels")[:1] == ["Pause"], page.evaluate("playLabels")

    # A dragged target is traced again from the same start; the last step is still shown.
    before = page.evaluate("ikDemo.state().steps")
    page.evaluate("ikDemo.setTarget('target', [-0.8, 1.2, 0.5])")
    steps = shown(demo)[0]
    scene = make_scene("steps")
    scene.set_params(method="ccd")
    scene.set_target("target", (-0.8, 1.2, 0.5))
    assert steps["count"] == len(scene.trace.steps) and steps["index"] == steps["count"] - 1
    assert steps["caption"] == rounded({"caption": scene.trace.steps[-1].caption})["caption"] != before["caption"]


def test_each_method_draws_its_step_as_its_figure(demo, site_server):
    page = demo.open(f"{site_server}#scene=steps&planar=1")
    demo.wait_ready()
    counts = {}
    for method, step in (("ccd", 1), ("fabrik", 3), ("dls", 1), ("two_bone", 1)):
        page.evaluate("([m, k]) => { ikDemo.setMethod(m); ikDemo.stepTo(k); }", [method, step])
        steps, view = shown(demo)
        assert steps == python_steps(planar=True, method=method, step=step)
        kind = "jacobian" if method == "dls" else method
        assert view["drawing"]["kind"] == kind, view["drawing"]
        image = scene_image(page)
        (ROOT / "dist" / "test-artifacts").mkdir(parents=True, exist_ok=True)
        image.save(ROOT / "dist" / "test-artifacts" / f"steps-{method}.png")
        counts[method] = {name: count_near(image, COLORS[name]) for name in COLORS}
    for method, colors in FIGURES.items():
        for name in colors:
            assert counts[method][name] > 30, (method, name, counts[method])
        # A figure's own colour is absent from the other methods' steps.
        for other in FIGURES:
            if other != method:
                assert counts[other][colors[0]] < 0.2 * counts[method][colors[0]], (method, other, counts)
    assert view["planar"] is True and page.evaluate("ikDemo.state().params.planar") is True


def test_an_embedded_trace_fits_and_answers_its_parent(demo, site_server, serve, tmp_path):
    demo.page.set_viewport_size({"width": 800, "height": 500})
    parent_url, _ = served_parent(
        serve, tmp_path, lambda origin: f"{site_server}#scene=steps&embed=1&method=fabrik&step=3&origin={origin}",
        480, 320)
    demo.open(parent_url)
    demo.wait_until("got.some(g => ['ready', 'failed'].includes(g.data.event))", 120_000, "the demo's ready message")
    (ready,) = messages(demo, event="ready")
    assert rounded(ready["data"]["state"]["steps"]) == python_steps(method="fabrik", step=3)
    frame = demo_frame(demo)
    check_fits(demo, frame, 480, 320)
    # The bar and its controls are inside the frame.
    for selector in ("#steps-back", "#steps-play", "#steps-forward", "#steps-slider", "#steps-caption"):
        box = frame.locator(selector).bounding_box()
        assert box and box["x"] >= 0 and box["y"] >= 0 and box["x"] + box["width"] <= 480 and \
            box["y"] + box["height"] <= 320, (selector, box)

    # The short form and the command form of stepTo; each step change is announced.
    send(demo, {"type": "stepTo", "index": 4, "id": "a"}, "*")
    assert result(demo, "a")["data"]["state"]["steps"]["index"] == 4
    demo.wait_until("got.some(g => g.data.event === 'step' && g.data.step.index === 4)", 30_000, "the step event")
    (event,) = [m for m in messages(demo, event="step") if m["data"]["step"]["index"] == 4]
    assert rounded(event["data"]["step"]) == python_steps(method="fabrik", step=4)
    send(demo, {"type": "ikcore", "command": "stepTo", "index": 10 ** 5, "id": "b"}, "*")
    answer = result(demo, "b")["data"]
    assert answer["ok"] is False and "step must be in" in answer["error"], answer
    send(demo, {"type": "stepTo", "index": -1, "id": "c"}, "*")
    assert result(demo, "c")["data"]["ok"] is False
    frame.click("#steps-forward")
    demo.wait_until("got.some(g => g.data.event === 'step' && g.data.step.index === 5)", 30_000, "a click's step")
    assert json.loads(json.dumps(frame.evaluate("ikDemo.state().steps")))["index"] == 5


def test_the_walkthrough_loads_its_traces_as_they_are_scrolled_to(demo, site_server):
    demo.page.set_viewport_size({"width": 1100, "height": 700})
    page = demo.open(site_server + "embed-example.html")
    ids = ("anatomy-fabrik", "anatomy-ccd", "anatomy-dls")
    # Far below the window: no address yet, so no runtime loads for them.
    assert page.evaluate("(ids) => ids.map((id) => document.getElementById(id).getAttribute('src'))", ids) == \
        [None, None, None]
    assert page.evaluate("(ids) => ids.every((id) => document.getElementById(id).loading === 'lazy')", ids)
    # The page's two frames at the top load first (on the page's thread: it answers slowly meanwhile).
    demo.wait_until("['arm-demo', 'tentacles-demo'].every((id) => ['ready', 'failed'].includes("
                    "document.getElementById(id).contentDocument?.documentElement.dataset.state))", 300_000,
                    "the frames at the top")
    page.evaluate("document.getElementById('anatomy-ccd').scrollIntoView()")
    # One frame loads at a time, in the page's order: the FABRIK frame first, the CCD frame once it is ready.
    demo.wait_until("document.getElementById('anatomy-fabrik').getAttribute('src') !== null", 10_000,
                    "the FABRIK frame")
    assert page.evaluate("document.getElementById('anatomy-dls').getAttribute('src')") is None
    # Each demo's runtime loads on the page's own thread (the frames share its origin): the page answers again
    # once they are up.
    demo.wait_until("(() => { const f = document.getElementById('anatomy-ccd').contentWindow;"
                    " return f?.ikDemo && f.document.documentElement.dataset.state === 'ready'; })()", 300_000,
                    "the CCD frame to load")
    frame = page.query_selector("#anatomy-ccd").content_frame()
    steps = frame.evaluate("ikDemo.state().steps")
    scene = make_scene("steps")
    scene.set_params(planar=True, method="ccd")
    scene.set_target("target", (1.3, 0.6, 0.0))
    scene.set_params(step=1)
    # The text's claim: the first sweep turns the tip joint most and the root least (CCD's tip bias).
    first = [s for s in scene.trace.steps if s.iteration == 1 and s.phase == "rotate"]
    angles = [s.detail["angle_deg"] for s in first]
    assert [s.joint for s in first] == [3, 2, 1, 0] and angles == sorted(angles, reverse=True)
    assert angles[0] > 80 and angles[-1] < 7
    assert rounded(steps) == rounded({k: scene.state()["steps"][k] for k in steps})
    assert frame.evaluate("document.documentElement.dataset.embed") == "1"


def test_a_paused_trace_rests_until_something_changes(demo, site_server):
    """Paused on a step, the page draws nothing (documentation pages hold several embeds): a step asked for,
    the pointer or a key wakes it for a moment; a playing trace and the other scenes never rest."""
    page = demo.open(f"{site_server}#scene=steps&method=fabrik&step=3")
    demo.wait_ready()
    demo.wait_until("ikDemo.state().resting === true", 30_000, "the paused trace to rest")
    frame = page.evaluate("ikDemo.state().frame")
    page.wait_for_timeout(1500)
    assert page.evaluate("ikDemo.state().frame") == frame
    # What was drawn stays on screen: the step's moved point.
    assert count_near(scene_image(page), COLORS["moved"]) > 20
    # A step asked for is drawn, then the page rests again.
    page.evaluate("ikDemo.stepTo(4)")
    assert shown(demo)[0] == python_steps(method="fabrik", step=4)
    demo.wait_until("ikDemo.state().resting === true", 30_000, "the trace to rest again")
    # The pointer over the canvas (the camera may turn) wakes it, and so does a key.
    page.mouse.move(300, 200)
    assert page.evaluate("ikDemo.state().resting") is False
    demo.wait_until("ikDemo.state().resting === true", 30_000, "the trace to rest after the pointer")
    page.keyboard.press("Shift")
    assert page.evaluate("ikDemo.state().resting") is False
    # Playing, it never rests; nor does a scene that moves by itself.
    page.evaluate("ikDemo.set({animate: true, rate: 0.5})")
    page.wait_for_timeout(1500)
    assert page.evaluate("ikDemo.state().resting") is False
    page.evaluate("ikDemo.setScene('arm')")
    frame = page.evaluate("ikDemo.state().frame")
    page.wait_for_timeout(1500)
    state = page.evaluate("ikDemo.state()")
    assert not state["resting"] and state["frame"] > frame
