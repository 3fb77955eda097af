"""The humanoid in headless Chromium: it opens from a link with its six chains, its link, pose and embed carry
it, its body is drawn as one skinned mesh that follows Python's skin, the hand follows the dragged knob, the
limit overlays show, and bad input gets a message, never a NaN."""

import json
import math

import pytest

import ikcore
from ikcore.rigs import make_scene

CHAINS = ["left_leg", "right_leg", "spine", "neck", "left_arm", "right_arm"]


def open_humanoid(demo, site_server, link="#scene=humanoid"):
    demo.open(f"{site_server}{link}")
    demo.wait_ready()
    demo.wait_until("ikDemo.state().scene === 'humanoid'", 60_000, "the humanoid")
    return demo.page


def body(page):
    """What the view says of its skinned body (views/humanoid.js describe())."""
    return page.evaluate("ikDemo.state().view")["skinned"][0]


def patch(image, x, y, half=3):
    """The mean colour of the (2 half + 1)-pixel square about (x, y)."""
    box = [image.getpixel((i, j)) for i in range(round(x) - half, round(x) + half + 1)
           for j in range(round(y) - half, round(y) + half + 1)]
    return [sum(c[k] for c in box) / len(box) for k in range(3)]


def arrived(demo, page):
    """The character walked up to the door and holds its knob, then still (no scripted motion).

    The scripted motion is switched on first: with it off the character stands where it is until the
    knob is placed, and a test before may have left it off."""
    page.evaluate("ikDemo.set({animate: true})")
    page.evaluate("ikDemo.advance(600, 1 / 60, 0)")
    page.evaluate("ikDemo.set({animate: false})")
    page.evaluate("ikDemo.advance(60, 1 / 60, 0)")
    state = demo.wait_frames(3)
    assert math.dist(body(page)["hand"], state["targets"]["knob"]) < 0.1, (body(page), state["targets"])
    return state


def test_opens_from_a_link_with_six_chains_and_a_skinned_body(demo, site_server):
    page = open_humanoid(demo, site_server, "#scene=humanoid&method=ccd")
    state = demo.wait_frames(5)
    assert (state["scene"], state["method"], state["error"]) == ("humanoid", "ccd", None)
    assert [c["name"] for c in state["chains"]] == CHAINS
    for chain in state["chains"]:
        assert chain["status"] is not None and chain["iterations"] >= 0, chain
        assert all(math.isfinite(v) for v in chain["effector"]), chain
    assert state["python_ms"]["median"] > 0
    # Every chain has its line in the HUD: its status and iterations.
    hud = page.locator("#hud-text").inner_text()
    for name in CHAINS:
        assert any(line.startswith(name) and "iteration" in line for line in hud.splitlines()), hud
    # The body is one skinned mesh with a bone per skin bone, and no rigid limbs.
    layout = make_scene("humanoid").layout()
    view = state["view"]
    assert view["rigid"] == 0
    skin = body(page)
    assert skin["skinned"] is True and skin["bones"] == len(layout["skin"]["bones"]), skin
    # Its bones stand where Python's skin records put them: the pelvis's, read back from the mesh.
    pose = page.evaluate("ikDemo.pose()")
    spine = next(c for c in pose["chains"] if c["name"] == "spine")
    assert math.dist(skin["pelvis"], spine["world_positions"][0]) < 0.2, (skin["pelvis"], spine)
    # The panel offers the scene; the link keeps it.
    assert page.locator("#gui .lil-gui select").first.input_value() == "humanoid"
    assert "scene=humanoid" in page.evaluate("ikDemo.link()")


def test_link_pose_export_and_embed(demo, site_server):
    page = open_humanoid(demo, site_server)
    page.evaluate("ikDemo.setMethod('dls')")
    page.evaluate("ikDemo.set({leg_method: 'fabrik', neck_method: 'ccd'})")
    knob = page.evaluate("ikDemo.state().targets.knob")
    page.evaluate("p => ikDemo.setTarget('knob', p)", [knob[0] + 0.1, knob[1] + 0.15, knob[2]])
    before = demo.wait_frames(2)
    link = page.evaluate("ikDemo.link()")
    for key in ("scene=humanoid", "method=dls", "leg_method=fabrik", "neck_method=ccd", "t.knob="):
        assert key in link, (key, link)
    # The pose as ikcore reads it back: the six chains, each where the page draws it.
    pose_json, state = page.evaluate("[ikDemo.pose(), ikDemo.state()]")
    pose = ikcore.load_pose(json.dumps(pose_json))
    assert pose.scene == "humanoid" and pose.method == "dls"
    assert [c.name for c in pose.chains] == CHAINS
    for chain, drawn in zip(pose.chains, state["chains"]):
        assert math.dist(chain.world_positions[-1], drawn["effector"]) < 1e-9, (chain.name, drawn)
    # A fresh page from the link, embedded: the same scene and settings, the body skinned.
    fragment = link.split("#", 1)[1]
    demo.open("about:blank")  # a new document, not a hash change of this one
    demo.open(f"{site_server}#{fragment}&embed=1")
    demo.wait_ready()
    fresh = demo.wait_frames(2)
    assert (fresh["scene"], fresh["method"], fresh["params"]) == ("humanoid", "dls", before["params"])
    assert fresh["targets"]["knob"] == pytest.approx(before["targets"]["knob"], abs=1e-6)
    assert page.evaluate("'embed' in document.documentElement.dataset") and body(page)["skinned"] is True
    assert page.locator("#hint-text").inner_text() == "Click the door's brass knob, then drag it."


def test_the_skinned_body_is_drawn(demo, site_server):
    from PIL import ImageChops

    page = open_humanoid(demo, site_server)
    arrived(demo, page)
    skin = body(page)
    # Seen from the reaching hand's side and from low down, the body stands against the sky: where its bones
    # put a thigh (below the hips' ring), the torso and the forearm (behind the hand, before the
    # door), the canvas shows the body's colours. (Not at the pelvis and the hand: targets are drawn there.)
    px, py, pz = skin["pelvis"]
    ground = min(y for _, y, _ in page.evaluate("[ikDemo.state().targets.foot_l, ikDemo.state().targets.foot_r]"))
    side = 1 if skin["hand"][0] > px else -1
    eye = [px + 1.6 * side, ground + 0.1, pz]
    notice = demo.apply_hash("cam=" + ",".join(f"{v:.3f}" for v in [*eye, px, py + 0.1, pz]))
    assert notice == "", notice
    page.evaluate("ikDemo.advance(1, 1 / 60, 1)")
    image = demo.canvas_image()
    sky = image.getpixel((image.width // 2, 4))
    for part in ("thigh", "chest", "forearm"):
        x, y = page.evaluate("p => ikDemo.screenPosition(p)", skin[part])
        colour = patch(image, x, y - 1, half=2)
        assert sum(abs(a - b) for a, b in zip(colour, sky)) > 60, (part, colour, sky)
    # Lower hips move the body's pixels: the mesh follows its bones.
    page.evaluate("p => ikDemo.setTarget('pelvis', p)", [px, py - 0.25, pz])
    page.evaluate("ikDemo.advance(60, 1 / 60, 1)")
    assert body(page)["pelvis"][1] < py - 0.1
    assert ImageChops.difference(image, demo.canvas_image()).getbbox() is not None


def test_dragging_the_knob_moves_the_hand(demo, site_server):
    page = open_humanoid(demo, site_server)
    before = arrived(demo, page)
    hand = body(page)["hand"]
    start = page.evaluate("ikDemo.screenPosition('knob')")
    page.mouse.click(*start)
    assert demo.wait_frames(1)["selected"] == "knob"
    demo.drag(start, (-60, -40), steps=12, pause_ms=30)
    page.evaluate("ikDemo.advance(300, 1 / 60, 0)")
    after = demo.wait_frames(2)
    moved = math.dist(before["targets"]["knob"], after["targets"]["knob"])
    assert moved > 0.05, f"the knob moved {moved}"
    followed = math.dist(hand, body(page)["hand"])
    assert followed > 0.5 * moved, f"the knob moved {moved:.3f} m, the hand {followed:.3f} m"


def test_limit_overlays_draw_on_every_joint(demo, site_server):
    from PIL import ImageChops

    page = open_humanoid(demo, site_server)
    arrived(demo, page)
    page.evaluate("ikDemo.advance(1, 1 / 60, 1)")
    off = demo.canvas_image()
    assert page.evaluate("ikDemo.showLimits(true)")["overlays"] is True
    page.evaluate("ikDemo.advance(1, 1 / 60, 1)")
    on = demo.canvas_image()
    box = ImageChops.difference(off, on).convert("L").point(lambda v: 255 if v > 40 else 0)
    changed = sum(box.histogram()[255:])
    assert changed > 400, f"the overlays changed {changed} pixels"
    # Over the whole body: from the feet to the head.
    skin = body(page)
    _, head = page.evaluate("p => ikDemo.screenPosition(p)", skin["head"])
    _, foot = page.evaluate("p => ikDemo.screenPosition(p)", skin["foot"])
    top, bottom = box.getbbox()[1], box.getbbox()[3]
    assert top < head + 30 and bottom > foot - 30, (top, bottom, head, foot)


def test_bad_input_shows_a_message_and_never_a_nan(demo, site_server):
    page = open_humanoid(demo, site_server, "#scene=humanoid&t.knob=1,nan,2&t.pelvis=0,abc,0")
    notice = demo.wait_until("!document.getElementById('notice').hidden && "
                             "document.getElementById('notice').textContent", 30_000, "a notice")
    assert "knob" in notice and "pelvis" in notice, notice
    for bad in ("ikDemo.setTarget('knob', [NaN, 1, 0])", "ikDemo.setTarget('pelvis', [0, Infinity, 0])",
                "ikDemo.set({max_iterations: -3})", "ikDemo.setTarget('left_foot_nowhere', [0, 1, 0])"):
        with pytest.raises(Exception):
            page.evaluate(bad)
    # Off the ground the scene has: refused, naming what.
    with pytest.raises(Exception, match="knob"):
        page.evaluate("ikDemo.setTarget('knob', [40, 30, -50])")
    # Out of reach, and the hips asked to go under the ground: finite frames, a calm character.
    page.evaluate("ikDemo.setTarget('knob', [9, 3, -9])")
    pelvis = page.evaluate("ikDemo.state().targets.pelvis")
    try:
        page.evaluate("p => ikDemo.setTarget('pelvis', p)", [pelvis[0], -3.0, pelvis[2]])
    except Exception as refused:
        assert "pelvis" in str(refused)
    result = page.evaluate("ikDemo.advance(240, 1 / 60, 0)")
    assert result["nonfinite"] == 0, result
    state = demo.wait_frames(2)
    assert state["error"] is None and page.is_hidden("#failure")
    for chain in state["chains"]:
        assert all(math.isfinite(v) and abs(v) < 100 for v in chain["effector"]), chain
    assert all(math.isfinite(v) for point in body(page).values() if isinstance(point, list) for v in point)
