"""What a new reader meets: nothing selected at first, a hint, controls that fit the method and the window,
skinned tentacles, a phone's touch, reduced motion, an embed that rests out of sight; and a screenshot of
every scene at both qualities in dist/test-artifacts (scene-<name>-<quality>.png), made to be looked at."""

import math
from pathlib import Path

import pytest

ARTIFACTS = Path(__file__).resolve().parents[2] / "dist" / "test-artifacts"

# The scenes with a ground and contact shadows to look at (the crowd and the steps scene have tests of their own).
SCENES = ("arm", "tentacles", "spider", "race", "robot")
# The page's background (stage.js SKY): what the canvas shows where nothing is drawn.
SKY = (0x1F, 0x23, 0x2B)

# Every visible lil-gui row, by its label: {label: [left, top, right, bottom]}.
ROWS = """() => Object.fromEntries([...document.querySelectorAll('#gui .lil-controller')]
  .filter((row) => row.offsetParent !== null)
  .map((row) => { const r = row.getBoundingClientRect();
                  return [row.querySelector('.lil-name').textContent, [r.left, r.top, r.right, r.bottom]]; }))"""


def open_demo(demo, url):
    demo.open(url)
    return demo.wait_ready()


def rows(page):
    return page.evaluate(ROWS)


def test_nothing_is_selected_at_first_and_esc_or_an_empty_click_lets_go(demo, site_server):
    state = open_demo(demo, site_server)
    page = demo.page
    assert state["selected"] is None
    # The loading's watchers (boot.js) are gone: the page runs on the browser's own console and fetch.
    assert page.evaluate("[console.error, console.warn, fetch].map((f) => "
                         "/\\[native code\\]/.test(Function.prototype.toString.call(f)))") == [True] * 3
    hint = page.locator("#hint")
    assert hint.is_visible() and "drag" in hint.text_content()
    for scene in ("race", "spider", "tentacles", "arm"):
        assert page.evaluate("s => ikDemo.setScene(s).selected", scene) is None, scene
    page.evaluate("ikDemo.set({animate: false})")
    demo.wait_frames(2)
    # A click on the target puts the gizmo on it, and the hint has done its job.
    page.mouse.click(*page.evaluate("ikDemo.screenPosition('target')"))
    assert demo.wait_frames(1)["selected"] == "target"
    assert hint.is_hidden()
    page.keyboard.press("Escape")
    assert page.evaluate("ikDemo.state().selected") is None
    page.evaluate("ikDemo.select('target')")
    # A click on empty space (the sky, top middle) takes it away too.
    page.mouse.click(400, 40)
    assert page.evaluate("ikDemo.state().selected") is None
    assert page.evaluate("ikDemo.select('pole').selected") == "pole"
    assert page.evaluate("ikDemo.select(null).selected") is None


def test_the_panel_shows_what_the_method_and_scene_use(demo, site_server):
    open_demo(demo, site_server)
    page = demo.page
    shown = rows(page)
    assert {"method", "tolerance (share of reach)", "max iterations", "damping"} <= set(shown)
    page.evaluate("ikDemo.set({damping: 0.07})")
    page.evaluate("ikDemo.setMethod('fabrik')")
    shown = rows(page)
    assert "damping" not in shown and "tolerance (share of reach)" in shown
    # Hidden, kept: the value is in force and in the link, and comes back with the method that uses it.
    assert page.evaluate("ikDemo.state().params.damping") == 0.07
    assert "damping=0.07" in page.evaluate("ikDemo.link()")
    page.evaluate("ikDemo.setMethod('fabrik_dls')")
    assert "damping" in rows(page)
    assert page.locator("#gui .lil-controller:has-text('damping') input").first.input_value() == "0.07"
    # The analytic two-bone solve has no tolerance, iterations or damping to set; CCD has the first two.
    page.evaluate("ikDemo.setScene('spider')")
    shown = rows(page)
    assert page.evaluate("ikDemo.state().method") == "two_bone"
    assert not {"tolerance (share of reach)", "max iterations", "damping"} & set(shown), shown
    assert {"walk speed", "wander", "joint limits"} <= set(shown)
    page.evaluate("ikDemo.setMethod('ccd')")
    shown = rows(page)
    assert {"tolerance (share of reach)", "max iterations"} <= set(shown) and "damping" not in shown
    # The race: no method (each lane has its own), its own settings open and in sight, damping for its DLS lanes.
    page.evaluate("ikDemo.setScene('race')")
    shown = rows(page)
    assert "method" not in shown and "damping" in shown
    height = page.evaluate("innerHeight")
    chart = page.evaluate("document.getElementById('race').getBoundingClientRect().top")
    for label in ("replay speed (iterations/s)", "pause between races (s)", "replay iteration by iteration"):
        left, top, right, bottom = shown[label]
        assert 0 <= top and bottom <= min(height, chart), (label, shown[label], chart)


def test_the_race_frames_its_lanes_clear_of_the_overlays(demo, site_server):
    """The lanes' names (in front of the front row, the lowest thing drawn) sit above the hint and the chart, and
    every name inside the canvas beside the panel."""
    open_demo(demo, f"{site_server}#scene=race")
    page = demo.page
    demo.wait_frames(2)
    rect = """(id) => { const b = document.getElementById(id).getBoundingClientRect();
                        return [b.left, b.top, b.right, b.bottom]; }"""
    hint, chart, gui = (page.evaluate(rect, name) for name in ("hint", "race", "gui"))
    labels = page.evaluate("ikDemo.state().view.labels")
    assert len(labels) == 6
    for left, top, right, bottom in labels:
        assert bottom <= min(hint[1], chart[1]) and 0 <= left and right <= gui[0], (labels, hint, chart, gui)


def test_the_embed_panel_fits_inside_a_small_frame(demo, site_server):
    demo.page.set_viewport_size({"width": 480, "height": 320})
    open_demo(demo, f"{site_server}#embed=1")
    page = demo.page
    page.click("#embed-controls")
    for scene in ("arm", "race"):
        page.evaluate("s => ikDemo.setScene(s)", scene)
        box = page.evaluate("""() => {
          const r = (e) => { const b = e.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; };
          const gui = document.getElementById('gui');
          return {gui: r(gui), bar: r(document.getElementById('embed-bar')),
                  race: r(document.getElementById('race')), scrolls: gui.scrollHeight > gui.clientHeight};
        }""")
        left, top, right, bottom = box["gui"]
        assert 0 <= left and 0 <= top and right <= 480 and bottom <= 320, (scene, box)
        # The Controls / Open buttons never cover the panel; nor does the race's chart.
        bar = box["bar"]
        assert bottom <= bar[1] or right <= bar[0], (scene, box)
        if scene == "race":
            assert bottom <= box["race"][1], box
        # What does not fit scrolls into view inside the panel: its last button can be reached.
        last = page.locator("#gui .lil-controller:has-text('download pose')")
        last.scroll_into_view_if_needed()
        l2, t2, r2, b2 = page.evaluate("""() => { const b = [...document.querySelectorAll('#gui .lil-controller')]
          .find((e) => e.textContent.includes('download pose')).getBoundingClientRect();
          return [b.left, b.top, b.right, b.bottom]; }""")
        assert top <= t2 and b2 <= bottom + 1, (scene, box, [l2, t2, r2, b2])
        assert box["scrolls"], "the panel fits whole in a 480x320 frame? then this test checks nothing"


@pytest.mark.context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True, device_scale_factor=2)
def test_a_phone_view_fits_and_answers_touch(demo, site_server):
    open_demo(demo, site_server)
    page = demo.page
    page.evaluate("ikDemo.set({animate: false})")
    demo.wait_frames(2)
    # Software WebGL draws at low quality: one pixel per CSS pixel, whatever the screen's ratio (2 here).
    assert page.evaluate("[ikDemo.state().renderer.quality, document.querySelector('#viewport canvas').width]") \
        == ["low", 390]
    overflow = """() => { const w = innerWidth;
      const wide = [...document.querySelectorAll('body *')].filter((e) => e.getClientRects().length)
        .map((e) => [e.id || e.className || e.tagName, e.getBoundingClientRect()])
        .filter(([, r]) => r.width && (r.left < -0.5 || r.right > w + 0.5)).map(([n]) => String(n));
      return {scroll: document.documentElement.scrollWidth, body: document.body.scrollWidth, w, wide}; }"""
    for opened in (False, True):
        got = page.evaluate(overflow)
        assert got["scroll"] <= got["w"] and got["body"] <= got["w"] and not got["wide"], (opened, got)
        page.click("#gui .lil-title")  # the panel, opened, then closed again
    # It folds up over a transition, covering the scene until it ends.
    page.wait_for_function("() => !document.querySelector('#gui .lil-root.lil-transition')")
    cdp = demo.context.new_cdp_session(page)

    def touch(kind, points):
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": [
            {"x": x, "y": y, "id": i, "radiusX": 2, "radiusY": 2, "force": 1} for i, (x, y) in enumerate(points)]})

    def gesture(start, end, steps=8):
        touch("touchStart", start)
        for k in range(1, steps + 1):
            touch("touchMove", [(a[0] + (b[0] - a[0]) * k / steps, a[1] + (b[1] - a[1]) * k / steps)
                                for a, b in zip(start, end)])
            page.wait_for_timeout(30)
        touch("touchEnd", [])
        demo.wait_frames(2)

    def camera():
        return page.evaluate("ikDemo.state().camera")

    def settled():
        # The orbit eases out over a few frames after a gesture: wait until the camera holds (nearly) still.
        last = camera()
        for _ in range(100):
            demo.wait_frames(1)
            now = camera()
            if math.dist(now["position"], last["position"]) < 1e-3:
                return now
            last = now
        pytest.fail("the camera never settled", pytrace=False)

    # A tap on the target puts the handle on it; a finger on the handle's centre drags the target.
    x, y = page.evaluate("ikDemo.screenPosition('target')")
    assert page.evaluate("([x, y]) => document.elementFromPoint(x, y).tagName", [x, y]) == "CANVAS"
    page.touchscreen.tap(x, y)
    assert demo.wait_frames(1)["selected"] == "target"
    start = page.evaluate("ikDemo.state().targets.target")
    gesture([(x, y)], [(x - 60, y + 50)], steps=12)
    moved = page.evaluate("ikDemo.state().targets.target")
    assert math.dist(start, moved) > 0.05, (start, moved)
    # One finger on empty ground orbits.
    before = settled()
    gesture([(120, 700)], [(260, 690)])
    after = settled()
    assert math.dist(before["position"], after["position"]) > 0.05, (before, after)
    assert page.evaluate("ikDemo.state().targets.target") == moved
    # Two fingers apart zoom in.
    dist = lambda c: math.dist(c["position"], c["target"])  # noqa: E731
    gesture([(170, 650), (220, 650)], [(90, 650), (300, 650)])
    assert dist(settled()) < 0.95 * dist(after)


@pytest.mark.context(reduced_motion="reduce")
def test_reduced_motion_holds_scripted_motion_until_play(demo, site_server):
    state = open_demo(demo, site_server)
    page = demo.page
    assert state["reducedMotion"] and state["params"]["animate"] is False
    first = page.evaluate("ikDemo.state().targets.target")
    demo.wait_frames(5)
    assert page.evaluate("ikDemo.state().targets.target") == first, "the target moved by itself"
    # Each scene opens still too, until play.
    assert page.evaluate("ikDemo.setScene('spider').params.animate") is False
    play = page.locator("#play")
    assert play.is_visible()
    play.click()
    assert page.evaluate("ikDemo.state().params.animate") is True and play.is_hidden()
    # Asked for once: the next scene moves.
    assert page.evaluate("ikDemo.setScene('tentacles').params.animate") is True


PARENT = """<!doctype html><html><head><meta charset="utf-8"><title>tall page</title><link rel="icon" href="data:,">
<style>body {{ margin: 0; }} iframe {{ border: 0; display: block; }}</style></head>
<body><iframe id="demo" src="{src}" width="480" height="320" title="demo"></iframe>
<div style="height: 4000px"></div></body></html>"""


def test_an_embed_scrolled_out_of_sight_rests(demo, site_server, serve, tmp_path):
    folder = tmp_path / "parent"
    folder.mkdir()
    (folder / "index.html").write_text(PARENT.format(src=f"{site_server}#embed=1"))
    demo.open(serve(folder))
    frame = demo.page.wait_for_selector("#demo", state="attached").content_frame()

    def until(expression, what):
        for _ in range(2400):
            if frame.evaluate(expression):
                return
            demo.page.wait_for_timeout(50)
        pytest.fail(f"timed out waiting for {what}", pytrace=False)

    until("document.documentElement.dataset.state === 'ready'", "the embedded demo")
    start = frame.evaluate("ikDemo.state().frame")
    until(f"ikDemo.state().frame > {start + 2}", "frames while in sight")
    demo.page.evaluate("window.scrollTo(0, 3000)")
    until("ikDemo.state().offscreen", "the demo to see it is out of sight")
    rest = frame.evaluate("ikDemo.state().frame")
    demo.page.wait_for_timeout(1500)
    state = frame.evaluate("ikDemo.state()")
    assert state["paused"] and state["frame"] == rest, "the loop kept running out of sight"
    demo.page.evaluate("window.scrollTo(0, 0)")
    until(f"!ikDemo.state().paused && ikDemo.state().frame > {rest + 2}", "frames once back in sight")


def test_tentacles_are_skinned_tubes_on_the_bones_python_writes(demo, site_server):
    open_demo(demo, site_server)
    page = demo.page
    for _ in range(2):
        state = page.evaluate("ikDemo.setScene('tentacles')") if _ == 0 else demo.wait_frames(10)
        view = state["view"]
        assert view["rigid"] == 0, "the tentacles are still drawn as rigid segments"
        assert len(view["skinned"]) == len(state["chains"]) == 4
        for skin, chain in zip(view["skinned"], state["chains"]):
            assert skin["skinned"] and skin["bones"] == 20, skin
            # The skin's last bone ends where Python has the tentacle's tip: it follows the shared array.
            assert math.dist(skin["tip"], chain["effector"]) < 1e-6, (skin, chain)


def test_the_spider_hud_sums_its_legs_up_in_a_line(demo, site_server):
    open_demo(demo, site_server)
    page = demo.page
    page.evaluate("ikDemo.setScene('spider')")
    demo.wait_frames(3)
    page.wait_for_timeout(300)
    lines = page.locator("#hud-text").text_content().split("\n")
    assert len(lines) == 3 and lines[2].startswith("8 legs: "), lines
    page.click("#hud-more")
    page.wait_for_timeout(300)
    demo.wait_frames(2)
    lines = page.locator("#hud-text").text_content().split("\n")
    assert len(lines) == 11 and all(line.startswith("leg") for line in lines[3:]), lines


@pytest.mark.parametrize("quality", ["low", "high"])
def test_every_scene_at_both_qualities(demo, site_server, quality):
    """Screenshots to look at (dist/test-artifacts/scene-<name>-<quality>.png); the ground shows near the camera
    and contact shadows are drawn on it."""
    from PIL import ImageStat

    open_demo(demo, f"{site_server}#quality={quality}")
    page = demo.page
    page.set_viewport_size({"width": 1280, "height": 800})
    assert page.evaluate("ikDemo.state().renderer.quality") == quality
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    assert set(SCENES) <= set(page.evaluate("ikDemo.scenes"))
    for scene in SCENES:
        state = page.evaluate("s => ikDemo.setScene(s)", scene)
        demo.wait_frames(3)
        page.screenshot(path=str(ARTIFACTS / f"scene-{scene}-{quality}.png"))
        assert page.evaluate("ikDemo.state().view.shadows") > 0, scene
        if state["scene"] != "spider":
            # The bottom of the canvas is ground, not the sky's colour: the ground reaches the camera.
            image = demo.canvas_image()
            strip = image.crop((image.width // 2, image.height - 40, image.width, image.height))
            mean = ImageStat.Stat(strip).mean
            assert max(abs(m - s) for m, s in zip(mean, SKY)) > 15, (scene, mean)
            page.evaluate("document.querySelectorAll('#hud, #gui, #race, #hint, .lil-gui').forEach("
                          "(e) => e.style.removeProperty('visibility'))")
