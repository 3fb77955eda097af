"""The crowd in headless Chromium: reached by a link, drawn with one instanced mesh per part, counted in the
HUD, its count changed through ikDemo.set and refused out of range."""

import math
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
SHOTS = ROOT / "dist" / "crowd"
PARTS = {"thorax": 1, "abdomen": 1, "coxa": 8, "femur": 8, "tibia": 8}


def parts_drawn(state, spiders):
    view = state["view"]
    assert view["spiders"] == spiders and view["drawCalls"] == len(PARTS)
    for name, per in PARTS.items():
        assert view["parts"][name] == {"instanced": True, "count": per * spiders}, (name, view["parts"])


def test_a_link_opens_the_crowd_with_its_count(demo, site_server):
    from PIL import ImageChops, ImageStat

    demo.open(f"{site_server}#scene=crowd&count=150")
    demo.wait_ready()
    page = demo.page
    state = demo.wait_frames(3)
    assert state["scene"] == "crowd" and state["params"]["count"] == 150 and state["error"] is None
    parts_drawn(state, 150)
    assert state["view"]["converged"] >= 0.99 * 1200
    first = demo.canvas_image()
    SHOTS.mkdir(parents=True, exist_ok=True)
    first.save(SHOTS / "crowd-150.png")
    assert max(ImageStat.Stat(first).stddev) > 8
    page.wait_for_timeout(1000)
    demo.wait_frames(3)
    second = demo.canvas_image()
    second.save(SHOTS / "crowd-150-later.png")
    assert ImageChops.difference(first, second).getbbox() is not None, "the crowd did not move"
    # The HUD names the crowd's size and how many legs reached their footholds; Python's time is its own line.
    page.wait_for_timeout(300)
    hud = page.locator("#hud-text").text_content()
    assert re.search(r"150 spiders: \d+/1200 legs reached", hud) and " ms a frame" in hud, hud
    assert "budget" not in hud.lower() and "over" not in hud.lower(), hud
    assert not demo.problems()


def test_the_count_is_set_and_checked(demo, site_server):
    demo.open(site_server)
    demo.wait_ready()
    page = demo.page
    page.evaluate("ikDemo.setScene('crowd')")
    parts_drawn(demo.wait_frames(2), 100)
    page.evaluate("ikDemo.set({count: 25})")
    state = demo.wait_frames(2)
    assert state["params"]["count"] == 25
    parts_drawn(state, 25)
    for bad in ("0", "401", "2.5", "'many'"):
        message = page.evaluate(f"() => {{ try {{ ikDemo.set({{count: {bad}}}); return null; }} "
                                f"catch (e) {{ return e.message; }} }}")
        assert message and "count" in message, (bad, message)
    assert demo.wait_frames(2)["params"]["count"] == 25
    # Out of range in a link: a notice naming it, the rest applied (the link's scene afresh: its default count).
    notice = demo.apply_hash("scene=crowd&count=999&speed=0.5")
    state = demo.wait_frames(2)
    assert state["params"]["count"] == 100 and state["params"]["speed"] == 0.5
    assert notice.startswith("Link: ignored ") and "count" in notice, notice


def test_python_time_a_frame_is_measured_and_the_legs_converge(demo, site_server):
    count = 100
    demo.open(f"{site_server}#scene=crowd&count={count}")
    demo.wait_ready()
    result = demo.page.evaluate("ikDemo.advance(120, 1 / 60, 0)")
    assert result["nonfinite"] == 0
    assert math.isfinite(result["python_ms"]["median"]) and result["python_ms"]["median"] > 0
    state = demo.wait_frames(2)
    assert state["error"] is None and state["view"]["converged"] >= 0.99 * 8 * count, state["view"]
