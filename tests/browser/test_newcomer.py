"""What a newcomer meets in the first minute, measured where the page draws it: the steps chain drawn large and
its figure thick (a desktop window and a documentation page's 480x320 embed), a wheel zoom that stays on the
chain, a HUD and a panel in the reader's words, a link's bad step explained away from the controls, the robot
drawn large, the arm's pole apart from its target, a phone's open panel beside its HUD, an embed's panel inside
its frame, land to the horizon, and the page's link-preview card.

Positions are projected through the page's own camera (test_race_size.Projection, checked there against the
page's own projection)."""

import io
import math
import re
from pathlib import Path

import pytest

from ikcore.rigs import make_scene

from test_race_size import Projection
from test_steps import COLORS, count_near

ROOT = Path(__file__).resolve().parent.parent.parent
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
EMBED = {"viewport": {"width": 480, "height": 320}}
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True, "device_scale_factor": 2}
#: The documentation's walkthrough embeds (tests/browser/embeds.py): planar, one target, CCD on step 1.
WALKTHROUGH = "scene=steps&planar=1&method=ccd&t.target=1.3,0.6,0&step=1"
#: Status names, as Python gives them: the HUD says them in words.
RAW = re.compile(r"\b(converged|max_iterations|unreachable|stalled|running)\b|\d it\b|\be-\d")
UNIT = re.compile(r"\d (m|cm|mm|µm)\b")

BOXES = """() => Object.fromEntries(['hud', 'gui', 'steps', 'hint', 'notice', 'embed-bar', 'viewport'].map((id) => {
  const e = document.getElementById(id);
  if (!e || !e.getClientRects().length || getComputedStyle(e).visibility === 'hidden') return [id, null];
  const r = e.getBoundingClientRect();
  return [id, [r.left, r.top, r.right, r.bottom]];
}))"""


def opened(demo, url):
    demo.open(url)
    demo.wait_ready()
    return demo.page


def overlap(a, b):
    return a is not None and b is not None and a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def projection(page):
    state = page.evaluate("ikDemo.state()")
    canvas = page.evaluate(BOXES)["viewport"]
    return Projection(state["camera"], canvas), state


def steps_chain(page):
    """The steps chain on the page: its height at full reach straight up from its root, and the box of its
    joints and target, in CSS pixels."""
    project, state = projection(page)
    points = page.evaluate("ikDemo.pose()")["chains"][0]["world_positions"]
    reach = sum(math.dist(a, b) for a, b in zip(points, points[1:]))
    root = points[0]
    tall = project(root)[1] - project((root[0], root[1] + reach, root[2]))[1]
    xy = [project(p) for p in points + [state["targets"]["target"]]]
    return tall, [min(x for x, _ in xy), min(y for _, y in xy), max(x for x, _ in xy), max(y for _, y in xy)]


# The planar chain, as the documentation's algorithm pages embed it, and the same on a desktop window; the
# spatial chain (the scene's default) at both sizes, its target in front of the chain's plane.
@pytest.mark.parametrize("link", [pytest.param("#scene=steps&planar=1", marks=pytest.mark.context(**DESKTOP),
                                               id="1280x800-planar"),
                                  pytest.param(f"#embed=1&{WALKTHROUGH}", marks=pytest.mark.context(**EMBED),
                                               id="embed-480x320-walkthrough"),
                                  pytest.param("#scene=steps", marks=pytest.mark.context(**DESKTOP),
                                               id="1280x800-spatial"),
                                  pytest.param("#embed=1&scene=steps", marks=pytest.mark.context(**EMBED),
                                               id="embed-480x320-spatial")])
def test_the_steps_chain_fills_most_of_the_view_clear_of_the_overlays(demo, site_server, link):
    page = opened(demo, site_server + link)
    demo.wait_frames(2)
    height = page.evaluate("innerHeight")
    tall, box = steps_chain(page)
    print(f"steps chain at full reach: {tall:.0f} px of {height} ({tall / height:.0%}); drawn box {box}")
    assert tall >= 0.6 * height, f"the chain is drawn {tall:.0f} px tall at full reach, of {height}"
    # Drawn where nothing covers it: above the bar, beside the HUD and the embed's buttons, inside the canvas.
    boxes = page.evaluate(BOXES)
    assert box[0] >= 0 and box[1] >= 0 and box[2] <= page.evaluate("innerWidth"), box
    assert box[3] <= boxes["steps"][1], (box, boxes)
    for name in ("hud", "embed-bar"):
        assert not overlap(box, boxes[name]), (name, box, boxes)


@pytest.mark.parametrize("size", [pytest.param(1, marks=pytest.mark.context(**DESKTOP), id="1280x800"),
                                  pytest.param(0, marks=pytest.mark.context(**EMBED), id="embed-480x320")])
def test_the_steps_figure_is_drawn_thick_enough_to_read(demo, site_server, size):
    # CCD's first step: the vector to the target (its own colour), as thick on screen as a readable stroke.
    page = opened(demo, f"{site_server}#{'embed=1&' if not size else ''}{WALKTHROUGH}")
    demo.wait_frames(2)
    scene = make_scene("steps")
    scene.set_params(planar=True, method="ccd")
    scene.place(scene.targets["target"], (1.3, 0.6, 0.0), None)
    scene.set_params(step=1)
    step = scene.query("step")
    project, _ = projection(page)
    pivot, target = project(step["before"][step["joint"]]), project(step["target"])
    drawn = math.dist(pivot, target)
    from PIL import Image

    page.evaluate("document.querySelectorAll('#hud, #gui, #hint, #steps, #embed-bar').forEach("
                  "(e) => e.style.setProperty('visibility', 'hidden', 'important'))")
    shot = Image.open(io.BytesIO(page.screenshot(animations="allow", caret="initial"))).convert("RGB")
    thickness = count_near(shot, COLORS["target"], within=30) / drawn
    print(f"the vector to the target: {drawn:.0f} px long, {thickness:.1f} px thick")
    # (Before the framing and the marks grew: 5.1 px at 1280x800, 2.2 px in the embed.)
    assert thickness >= (8.0 if size else 3.5), thickness


@pytest.mark.context(**DESKTOP)
def test_the_wheel_zooms_on_the_chain(demo, site_server):
    page = opened(demo, f"{site_server}#scene=steps")
    demo.wait_frames(2)
    _, before = steps_chain(page)
    centre = ((before[0] + before[2]) / 2, (before[1] + before[3]) / 2)
    page.mouse.move(*centre)
    for _ in range(3):
        page.mouse.wheel(0, -120)
        page.wait_for_timeout(150)
    page.wait_for_timeout(1500)  # the orbit's damping settles (then the paused scene's loop rests)
    tall_after, after = steps_chain(page)
    assert (after[3] - after[1]) > 1.1 * (before[3] - before[1]), (before, after)
    # The point the zoom holds still, F = (a - z b) / (1 - z) per axis for the box's edges b -> a grown by
    # z, lies on the chain: its box, widened by a tenth each side.
    for axis in (0, 1):
        lo, hi = before[axis], before[axis + 2]
        z = (after[axis + 2] - after[axis]) / (hi - lo)
        still = (after[axis] - z * lo) / (1.0 - z)
        margin = 0.1 * (hi - lo)
        assert lo - margin <= still <= hi + margin, f"the zoom holds {still:.0f} px still, off the chain {before}"


HUD_SCENES = ["arm", "tentacles", "spider", "race", "robot", "crowd", "steps", "humanoid"]


@pytest.mark.context(**DESKTOP)
def test_every_hud_speaks_in_words_with_units_and_no_alarm(demo, site_server):
    page = opened(demo, site_server)
    seen = {}
    for scene in HUD_SCENES:
        page.evaluate("s => ikDemo.setScene(s)", scene)
        demo.wait_frames(3)
        if page.locator("#hud-more").is_visible():
            page.click("#hud-more")
        page.wait_for_timeout(400)
        if scene != "steps":  # a paused steps scene draws nothing until something changes: its loop rests
            demo.wait_frames(2)
        text = page.text_content("#hud-text") + "\n" + (page.text_content("#hud-measures") or "")
        seen[scene] = text
        assert not RAW.search(text), (scene, text)
        assert "OVER" not in text and "budget" not in text, (scene, text)
        assert "Python" in text and " ms a frame" in text, (scene, text)
    for scene in ("arm", "tentacles", "spider", "robot", "steps", "humanoid"):
        assert UNIT.search(seen[scene]) and "iteration" in seen[scene], (scene, seen[scene])
    assert re.search(r"\b(reached|still reaching|out of reach)\b", seen["arm"]), seen["arm"]
    assert re.search(r"limit margin \d+(\.\d)?% of range", seen["robot"]), seen["robot"]
    # A paused steps scene says so, and what the step shows: no "running".
    assert "paused" in seen["steps"] and "step 0 of " in seen["steps"], seen["steps"]


@pytest.mark.context(**DESKTOP)
def test_the_panel_labels_read_plainly_and_the_quality_setting_says_what_high_costs(demo, site_server):
    page = opened(demo, site_server)
    for scene in ("arm", "spider", "tentacles", "robot", "steps", "humanoid"):
        page.evaluate("s => ikDemo.setScene(s)", scene)
        demo.wait_frames(1)
        labels = page.evaluate("[...document.querySelectorAll('#gui .lil-name, #gui .lil-title')]"
                               ".map((e) => e.textContent)")
        assert not [label for label in labels if "×" in label or "(reloads)" in label], (scene, labels)
        titles = page.evaluate("[...document.querySelectorAll('#gui .lil-title')].map((e) => e.textContent)")
        assert "scene" not in titles, (scene, titles)
    note = page.locator("#quality-note")
    assert note.is_visible()
    text = note.text_content()
    # Headless Chromium draws with SwiftShader, a software renderer: the note says what "high" costs there.
    assert page.evaluate("ikDemo.state().renderer.software")
    assert "high" in text and "software" in text and "frames a second" in text and "reloads" in text, text
    row = page.evaluate("(() => { const r = document.getElementById('quality-note').previousElementSibling"
                        ".getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; })()")
    gap = page.evaluate("document.getElementById('quality-note').getBoundingClientRect().top") - row[3]
    assert 0 <= gap <= 4 and page.evaluate("document.getElementById('quality-note').previousElementSibling"
                                           ".textContent").startswith("rendering quality")


@pytest.mark.context(**DESKTOP)
def test_a_link_with_a_step_past_its_trace_opens_on_the_last_and_says_so_plainly(demo, site_server):
    page = opened(demo, f"{site_server}#scene=steps&method=two_bone&step=5")
    state = demo.wait_frames(1)
    assert state["steps"]["count"] == 3 and state["steps"]["index"] == 2, state["steps"]
    notice = page.locator("#notice")
    assert notice.is_visible()
    text = notice.text_content()
    assert "step 5" in text and "step 2" in text, text
    assert not re.search(r"Error|ikcore\.|\[0, 2\]", text), text
    boxes = page.evaluate(BOXES)
    assert not overlap(boxes["notice"], boxes["steps"]), boxes
    assert "step=2" in page.evaluate("ikDemo.link()")


@pytest.mark.context(**DESKTOP)
def test_the_readmes_step_links_work_for_every_method_they_name(demo, site_server):
    # The README's step links, and the page reference's (docs/page/), where the README's moved.
    texts = [(ROOT / "README.md").read_text(encoding="utf-8")]
    texts += [p.read_text(encoding="utf-8") for p in sorted((ROOT / "docs" / "page").glob("*.md"))]
    links = sorted({link for text in texts for link in re.findall(r"#(scene=steps&method=\w+&step=\d+)", text)})
    assert links
    page = opened(demo, site_server)
    for link in links:
        notice = demo.apply_hash(link)
        step = int(link.rsplit("=", 1)[1])
        state = demo.wait_frames(1)
        assert notice == "" and state["steps"]["index"] == step, (link, notice, state["steps"])
        assert f"step={step}" in page.evaluate("ikDemo.link()")


@pytest.mark.context(**DESKTOP)
def test_the_robot_is_drawn_large(demo, site_server):
    page = opened(demo, f"{site_server}#scene=robot")
    page.evaluate("ikDemo.set({animate: false})")
    demo.wait_frames(2)
    project, _ = projection(page)
    points = page.evaluate("ikDemo.pose()")["chains"][0]["world_positions"]
    ys = [project(p)[1] for p in points]
    tall = max(ys) - min(ys)
    print(f"robot drawn {tall:.0f} px tall (base to highest joint) of 800")
    assert tall >= 0.3 * 800, tall


@pytest.mark.context(**DESKTOP)
def test_the_arm_pole_has_its_own_colour_and_label(demo, site_server):
    page = opened(demo, f"{site_server}#scene=arm")
    view = demo.wait_frames(1)["view"]
    assert view["poleColor"] != view["targetColor"], view
    assert view["poleLabel"] == "elbow pole"
    assert "elbow pole" in page.text_content("#hint-text")
    # Drawn in it: the pole's colour shows on the canvas.
    color = tuple(int(view["poleColor"][i:i + 2], 16) for i in (1, 3, 5))
    assert count_near(demo.canvas_image(), color, within=45) > 30


@pytest.mark.context(**PHONE)
def test_on_a_phone_the_open_panel_leaves_the_hud_readable_and_the_crowds_hud_is_short(demo, site_server):
    page = opened(demo, f"{site_server}#scene=arm")
    page.click("#gui .lil-title")
    page.wait_for_timeout(300)
    boxes = page.evaluate(BOXES)
    assert boxes["gui"][3] - boxes["gui"][1] > 200, boxes  # it opened
    assert not overlap(boxes["gui"], boxes["hud"]), boxes
    assert boxes["gui"][3] <= 844 and boxes["gui"][2] <= 390, boxes
    page.click("#gui .lil-title")
    page.evaluate("ikDemo.setScene('crowd')")
    demo.wait_frames(3)
    page.wait_for_timeout(400)
    rows = page.evaluate("(() => { const e = document.getElementById('hud-text');"
                         "return e.getBoundingClientRect().height / parseFloat(getComputedStyle(e).lineHeight); })()")
    assert round(rows) <= 4, (rows, page.text_content("#hud-text"))


@pytest.mark.context(**PHONE)
def test_on_a_phone_held_upright_the_arm_fills_the_height_its_overlays_leave(demo, site_server):
    page = opened(demo, f"{site_server}#scene=arm")
    demo.wait_frames(2)
    project, state = projection(page)
    arm = page.evaluate("ikDemo.pose()")["chains"][0]["world_positions"]
    plate = [(0.3 * math.cos(k * math.pi / 4), 0.0, 0.3 * math.sin(k * math.pi / 4)) for k in range(8)]
    xy = [project(p) for p in [*plate, *arm, state["targets"]["target"], state["targets"]["pole"]]]
    boxes = page.evaluate(BOXES)
    free = boxes["hint"][1] - boxes["hud"][3]
    ys = [y for _, y in xy]
    print(f"the arm (foot plate, joints, target, pole) drawn {max(ys) - min(ys):.0f} px tall of {free:.0f} free")
    # (Fitted to the box of everything its target's path visits: 32% of the free height.)
    assert max(ys) - min(ys) >= 0.55 * free, (xy, boxes)
    assert all(0 <= x <= 390 and boxes["hud"][3] <= y <= boxes["hint"][1] for x, y in xy), (xy, boxes)


EMBED_SCENES = ["arm", "tentacles", "spider", "race", "robot", "crowd", "steps", "humanoid"]


@pytest.mark.context(**EMBED)
def test_an_embeds_open_panel_and_hint_fit_its_frame_with_nothing_over_them(demo, site_server):
    page = opened(demo, f"{site_server}#embed=1")
    for scene in EMBED_SCENES:
        page.evaluate("s => ikDemo.setScene(s)", scene)
        demo.wait_frames(1)
        boxes = page.evaluate(BOXES)
        if boxes["hint"]:
            hint = boxes["hint"]
            lines = page.evaluate("(() => { const e = document.getElementById('hint');"
                                  "return e.getBoundingClientRect().height / parseFloat(getComputedStyle(e).lineHeight); })()")
            assert lines < 2.9 and hint[2] - hint[0] <= 0.6 * 480, (scene, hint, lines)
            assert not overlap(hint, boxes["embed-bar"]), (scene, boxes)
        page.click("#embed-controls")
        page.wait_for_timeout(200)
        boxes = page.evaluate(BOXES)
        gui = boxes["gui"]
        assert 0 <= gui[0] and 0 <= gui[1] and gui[2] <= 480 and gui[3] <= 320, (scene, boxes)
        assert not overlap(gui, boxes["embed-bar"]), (scene, boxes)
        page.click("#embed-controls")


@pytest.mark.context(**DESKTOP)
def test_the_crowd_spreads_over_land_that_reaches_the_horizon_as_the_spiders_does(demo, site_server):
    page = opened(demo, f"{site_server}#scene=crowd")
    demo.wait_frames(2)
    land = page.evaluate("ikDemo.state().renderer.land")
    assert land["kind"] == "terrain" and land["reach"] >= 5 * land["half"], land
    # No void: the canvas's lower half is ground everywhere (on a slab in the void its corners were sky).
    from PIL import ImageStat

    image = demo.canvas_image()
    w, h = image.size
    for box in ((0, h // 2, w // 8, h), (7 * w // 8, h // 2, w, h), (0, 3 * h // 4, w, h)):
        mean = ImageStat.Stat(image.crop(box)).mean
        assert math.dist(mean, (0x1F, 0x23, 0x2B)) > 25, (box, mean)
    # The spiders spread over the terrain: every quarter of it holds some.
    pose = page.evaluate("ikDemo.pose()")
    bodies = [c["world_positions"][0] for c in pose["chains"]][::8]
    assert len(bodies) == 100
    quarters = [sum(1 for x, _, z in bodies if (x > 0) == sx and (z > 0) == sz) for sx in (0, 1) for sz in (0, 1)]
    assert min(quarters) >= 0.12 * len(bodies), quarters
    page.evaluate("ikDemo.setScene('spider')")
    demo.wait_frames(1)
    land = page.evaluate("ikDemo.state().renderer.land")
    assert land["kind"] == "terrain" and land["reach"] >= 5 * land["half"], land


def test_a_shared_link_shows_a_card(demo, site_server):
    page = opened(demo, site_server)
    meta = page.evaluate("Object.fromEntries([...document.querySelectorAll('meta[property], meta[name]')]"
                         ".map((m) => [m.getAttribute('property') || m.getAttribute('name'), m.content]))")
    for key in ("og:title", "og:description", "og:image", "twitter:card", "description"):
        assert meta.get(key), (key, meta)
    assert "ikcore" in meta["og:title"] and len(meta["og:description"]) > 40
    # The preview image is served with the page (no other host), a PNG of a card's size.
    response = page.request.get(site_server + meta["og:image"].removeprefix("./"))
    assert response.ok and response.headers["content-type"] == "image/png"
    from PIL import Image

    image = Image.open(io.BytesIO(response.body()))
    assert image.size == (int(meta["og:image:width"]), int(meta["og:image:height"])) == (1200, 630)



# The open panel scrolled to its end (every scrolling box in it), then its last row: where it is, and
# whether a click at its middle lands on it (nothing covers it).
LAST_ROW = """() => {
  const gui = document.getElementById('gui');
  for (const e of [gui, ...gui.querySelectorAll('*')]) if (e.scrollHeight > e.clientHeight + 1) e.scrollTop = e.scrollHeight;
  const rows = [...gui.querySelectorAll('.lil-controller, #quality-note')].filter((e) => e.getClientRects().length);
  const row = rows[rows.length - 1];
  const r = row.getBoundingClientRect();
  const hit = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
  return {box: [r.left, r.top, r.right, r.bottom], text: row.textContent, hit: Boolean(hit && row.contains(hit)),
          over: hit ? hit.id || hit.className : null};
}"""


@pytest.mark.context(**EMBED)
@pytest.mark.parametrize("scene", ["arm", "steps", "race", "crowd", "robot", "tentacles", "playground"])
def test_an_embeds_open_panel_scrolled_to_its_end_shows_its_last_row_whole_and_uncovered(demo, site_server,
                                                                                           scene):
    """In a 480x320 embed the panel's every row can be reached: scrolled to its end, the last row lies
    inside the frame, and a click on it reaches it."""
    page = opened(demo, f"{site_server}#embed=1&scene={scene}")
    demo.wait_frames(1)
    page.click("#embed-controls")
    page.wait_for_timeout(300)
    page.evaluate(LAST_ROW)
    page.wait_for_timeout(100)  # a scroll's layout settles
    last = page.evaluate(LAST_ROW)
    left, top, right, bottom = last["box"]
    assert 0 <= left and 0 <= top and right <= 480 and bottom <= 320, (scene, last)
    assert last["hit"], (scene, last)
