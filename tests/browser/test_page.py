"""The page in headless Chromium: it loads, renders, answers its API, and says what failed when it fails."""

import base64
import hashlib
import math
import re
import time

import pytest

import ikcore
from ikcore.rigs import SCENES, make_scene
from ikcore.rigs.arm import REACH, natural_hand


def import_map_hash(html):
    """The CSP source ``'sha256-...'`` of the page's inline import map."""
    text = re.search(r'<script type="importmap">(.*?)</script>', html, re.S).group(1)
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def test_page_reaches_ready_state(demo, site_server):
    demo.open(site_server)
    state = demo.wait_ready()
    assert state["scene"] == "arm"
    assert state["error"] is None
    assert state["frame"] >= 1
    (chain,) = state["chains"]
    assert chain["name"] == "arm"
    assert chain["status"] in ikcore.STATUSES
    assert all(math.isfinite(v) for v in chain["effector"] + chain["target"])
    page = demo.page
    assert page.is_hidden("#loader") and page.is_hidden("#failure")
    methods = page.evaluate("ikDemo.methods")
    assert "fabrik" in methods and set(methods) <= set(ikcore.METHODS)
    assert page.evaluate("ikDemo.scenes") == list(SCENES)
    later = demo.wait_frames(5)
    assert later["python_ms"]["last"] > 0 and later["python_ms"]["median"] > 0
    assert later["chains"][0]["target"] != chain["target"], "the target should follow its path"
    # The wheel came from the site's own Pyodide folder, by name through pyodide-lock.json.
    assert any(re.search(r"/vendor/pyodide/ikcore-[^/]+\.whl$", url) for url in demo.requests)


def test_canvas_shows_a_rendered_scene(demo, site_server):
    # Imported here so that collecting this file (to deselect it) needs neither.
    import numpy
    from PIL import ImageChops, ImageStat

    demo.open(site_server)
    demo.wait_ready()
    page = demo.page
    demo.wait_frames(3)
    first = demo.canvas_image()
    stat = ImageStat.Stat(first)
    assert max(stat.stddev) > 8, f"canvas looks uniform: stddev {stat.stddev}"
    colours = len(first.getcolors(maxcolors=1 << 20))
    assert colours > 200, f"only {colours} colours on the canvas"
    # The target sphere: strongly red pixels exist.
    rgb = numpy.asarray(first).astype(int)
    red = int(((rgb[..., 0] > 150) & (rgb[..., 1] < 110) & (rgb[..., 2] < 110)).sum())
    assert red > 30, f"no target sphere visible ({red} red pixels)"
    page.wait_for_timeout(1500)  # the target travels its figure eight at up to 0.6 units a second
    demo.wait_frames(2)
    second = demo.canvas_image()
    assert ImageChops.difference(first, second).getbbox() is not None, "the scene did not move"


def test_set_target_and_method(demo, site_server):
    demo.open(site_server)
    demo.wait_ready()
    page = demo.page
    # The state tells a placed target at once, before any frame (the call and the read in one task).
    placed = page.evaluate("() => { ikDemo.setTarget('target', [0.2, 1.4, 0.5]); return ikDemo.state(); }")
    assert placed["targets"]["target"] == [0.2, 1.4, 0.5], placed["targets"]
    # Reachable points, each with the hand orientation of the arm's natural pose there (which the methods
    # that take orientation, DLS and FABRIK->DLS, also reach).
    pole = make_scene("arm").targets["pole"].position
    goal = [0.3, 1.5, 0.6]
    away = [0.5, 1.2, -0.4]
    poses = {tuple(p): list(natural_hand(p, pole)) for p in (goal, away)}
    for method in page.evaluate("ikDemo.methods"):
        page.evaluate("m => ikDemo.setMethod(m)", method)
        assert page.evaluate("ikDemo.state().method") == method
        for point in (away, goal):
            page.evaluate("([p, q]) => ikDemo.setTarget('target', p, q)", [point, poses[tuple(point)]])
            # A frame solved with this method and target, then as many as converging takes (each frame
            # starts from the last pose and runs at most max_iterations iterations).
            demo.wait_frames(1)
            demo.wait_until("ikDemo.state().chains[0].status === 'converged'", 60_000, f"{method} to converge")
        (chain,) = page.evaluate("ikDemo.state()")["chains"]
        assert chain["target"] == goal
        assert math.dist(chain["effector"], goal) <= 1e-3 * REACH * 1.0001, (method, chain)
    with pytest.raises(Exception, match="unknown method"):
        page.evaluate("ikDemo.setMethod('nonsense')")
    with pytest.raises(Exception, match="three finite numbers"):
        page.evaluate("ikDemo.setTarget('target', [0, NaN, 1])")
    with pytest.raises(Exception, match="no draggable target 'leg'"):
        page.evaluate("ikDemo.setTarget('leg', [0, 1, 1])")
    assert page.evaluate("ikDemo.state().error") is None


def test_strict_content_security_policy(demo, built, serve):
    html = (built / "site" / "index.html").read_text()
    # Scripts: only the site's own files, WebAssembly compilation, and the inline import map by its hash
    # (an import map cannot be an external file). Everything else: the site itself; lil-gui's stylesheet
    # embeds its icon font as a data: URL.
    policy = (f"default-src 'self'; script-src 'self' 'wasm-unsafe-eval' {import_map_hash(html)}; "
              "font-src 'self' data:; object-src 'none'; base-uri 'none'")
    assert "unsafe-eval'" not in policy.replace("wasm-unsafe-eval", "")
    url = serve(built / "site", {"Content-Security-Policy": policy})
    demo.open(url)
    state = demo.wait_ready()
    assert state["chains"][0]["status"] in ikcore.STATUSES
    demo.wait_frames(5)
    assert demo.page.evaluate("window.__cspViolations") == []


def failed_with(demo, url):
    demo.open(url)
    assert demo.wait_loaded() == "failed"
    assert demo.page.is_visible("#failure") and demo.page.is_hidden("#loader")
    return demo.failure_text()


def test_tampered_wheel_is_refused_with_a_message(demo, site_copy, serve):
    wheel = site_copy.find("vendor/pyodide/ikcore-*.whl")
    data = bytearray(wheel.read_bytes())
    data[len(data) // 2] ^= 0x01
    site_copy.replace(wheel.relative_to(site_copy.path), bytes(data))
    demo.allow_console_error(r"Failed to fetch|integrity|digest|ikcore")
    text = failed_with(demo, serve(site_copy.path))
    assert "ikcore package could not be imported" in text
    assert f"{wheel.name} failed its integrity check: its sha256 is" in text, text


def test_missing_wheel_is_reported(demo, site_copy, serve):
    wheel = site_copy.find("vendor/pyodide/ikcore-*.whl")
    site_copy.remove(wheel.relative_to(site_copy.path))
    demo.allow_console_error(r"404|Failed to fetch|ikcore")
    text = failed_with(demo, serve(site_copy.path))
    assert "ikcore package could not be imported" in text
    assert f"{wheel.name} answered HTTP 404" in text, text


@pytest.mark.parametrize("missing, expected", [
    ("vendor/pyodide/pyodide.asm.wasm", "The Python runtime's WebAssembly module could not be loaded"),
    ("vendor/pyodide/pyodide.mjs", "/vendor/pyodide/pyodide.mjs answered HTTP 404"),
    ("vendor/pyscript/dist/core.js", "/vendor/pyscript/dist/core.js answered HTTP 404"),
    ("vendor/three/build/three.core.js", "/vendor/three/build/three.core.js answered HTTP 404"),
], ids=["wasm", "pyodide", "pyscript", "three"])
def test_missing_file_is_reported_at_once(demo, site_copy, serve, missing, expected):
    site_copy.remove(missing)
    demo.allow_console_error(r"404|Failed to fetch|ikcore demo|module script|Failed to load|dynamically imported")
    started = time.monotonic()
    text = failed_with(demo, serve(site_copy.path))
    assert expected in text, text
    # Found out, not timed out: the stage deadlines are 30 s and more.
    assert time.monotonic() - started < 25, text


def test_python_error_in_a_frame_stops_with_a_message(demo, site_copy, serve):
    source = (site_copy.path / "main.py").read_text()
    hook = "        self.scene.step(dt)\n"
    assert hook in source
    broken = source.replace(hook, hook + "        if self.scene.frame == 8:\n"
                                        "            raise RuntimeError('solver exploded at frame 8')\n")
    site_copy.replace("main.py", broken)
    demo.allow_console_error(r"solver exploded at frame 8")
    url = serve(site_copy.path)
    demo.open(url)
    assert demo.wait_loaded() == "ready"
    demo.wait_until("document.documentElement.dataset.state === 'failed'", what="the failure panel")
    text = demo.failure_text()
    assert "Python raised an error" in text and "RuntimeError: solver exploded at frame 8" in text
    state = demo.page.evaluate("ikDemo.state()")
    assert state["error"] == "RuntimeError: solver exploded at frame 8"
    demo.page.wait_for_timeout(500)
    assert demo.page.evaluate("ikDemo.state().frame") == state["frame"], "the loop kept calling Python"


def test_a_software_renderer_draws_low_quality_unless_a_link_asks(demo, site_server):
    # Headless Chromium here draws with SwiftShader: "auto" takes the low quality.
    page = demo.page
    page.set_viewport_size({"width": 240, "height": 180})
    demo.open(site_server)
    renderer = demo.wait_ready()["renderer"]
    assert renderer["software"] and "SwiftShader" in renderer["name"], renderer
    assert (renderer["quality"], renderer["antialias"], renderer["shadows"]) == ("low", False, False)
    # Once open, the renderer stays as made: another quality says so, a wrong one is named; the rest applies.
    assert "quality (takes effect when the page is opened with it: reload)" in demo.apply_hash(
        "v=1&quality=high&method=ccd")
    assert "quality (auto, high, low)" in demo.apply_hash("v=1&quality=ultra&method=dls")
    # The quality in use, by name or as "auto", is no change.
    for same in ("low", "auto"):
        assert demo.apply_hash(f"v=1&quality={same}&method=fabrik") == ""
    state = page.evaluate("ikDemo.state()")
    assert (state["renderer"]["quality"], state["method"]) == ("low", "fabrik")
    # Opened with a link's quality, the page draws it, and the links it writes keep it.
    demo.open("about:blank")
    demo.open(f"{site_server}#quality=high&scene=spider")
    state = demo.wait_ready()
    assert state["scene"] == "spider"
    assert (state["renderer"]["quality"], state["renderer"]["antialias"], state["renderer"]["shadows"]) == \
        ("high", True, True)
    demo.wait_until("location.hash.includes('quality=high')", 30_000, "the quality to stay in the hash")
    assert "quality=high" in page.evaluate("ikDemo.link()")
    # The panel's quality reopens the page on its link: the same view, drawn with the new quality.
    page.evaluate("ikDemo.setMethod('ccd')")
    # In so small a window the panel starts closed: open it.
    page.click("#gui .lil-title")
    select = page.locator("#gui .lil-gui .lil-controller", has_text="quality").locator("select")
    assert select.input_value() == "high"
    # The page's own "load" (the address's new hash alone is a navigation within the document).
    with page.expect_event("load"):
        select.select_option("low")
    state = demo.wait_ready()
    assert (state["scene"], state["method"], state["renderer"]["quality"]) == ("spider", "ccd", "low")
    assert "quality=low" in page.evaluate("location.hash")
    with pytest.raises(Exception, match="quality must be one of auto, high, low"):
        page.evaluate("ikDemo.setQuality('best')")
