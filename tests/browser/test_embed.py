"""Embed mode in an iframe, the embedding page's messages, the embedding example, the pose download.

The embedding pages are served by a second server, so they have another origin than the demo
(another port of 127.0.0.1): the demo must admit them by the `origin` key of its hash, and ignore
pages it does not list.
"""

import io
import json
import math
import time

import pytest

import ikcore

FRAME = "document.getElementById('demo')"

PARENT = """<!doctype html>
<html><head><meta charset="utf-8"><title>parent</title><link rel="icon" href="data:,">
<style>body {{ margin: 0; }} iframe {{ border: 0; display: block; }}</style></head>
<body>
<iframe id="demo" src="{src}" width="{width}" height="{height}" title="demo"></iframe>
<script>
  window.got = [];
  addEventListener("message", (e) => got.push({{origin: e.origin,
    fromDemo: e.source === document.getElementById("demo").contentWindow, data: e.data}}));
</script>
</body></html>
"""


def parent_site(tmp_path, name, src, width, height):
    """A folder holding an index.html that embeds ``src``."""
    folder = tmp_path / name
    folder.mkdir()
    (folder / "index.html").write_text(PARENT.format(src=src, width=width, height=height))
    return folder


def served_parent(serve, tmp_path, src, width, height):
    """A parent page on an origin of its own embedding ``src(origin)`` (the demo's address, told the
    parent's origin): ``(url, origin)``. The parent's URL is known only once its server runs, so the folder
    is served first and the page written then."""
    folder = tmp_path / "parent"
    folder.mkdir()
    (folder / "index.html").write_text("placeholder")
    url = serve(folder)
    origin = url.rstrip("/")
    (folder / "index.html").write_text(PARENT.format(src=src(origin), width=width, height=height))
    return url, origin


def demo_frame(demo):
    return demo.page.wait_for_selector("#demo", state="attached").content_frame()


def wait_frame(demo, frame, expression, timeout=120_000, what=None):
    """Poll ``expression`` in ``frame`` until truthy (like ``demo.wait_until``, in the iframe)."""
    deadline = time.monotonic() + timeout / 1000
    while True:
        value = frame.evaluate(expression)
        if value:
            return value
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {what or expression} in the frame", pytrace=False)
        demo.page.wait_for_timeout(50)


def frame_ready(demo, frame):
    state = wait_frame(demo, frame, "['ready', 'failed'].includes(document.documentElement.dataset.state) && "
                       "document.documentElement.dataset.state", what="the embedded demo to load")
    assert state == "ready", frame.evaluate("document.getElementById('failure-text').textContent")


def layout(frame):
    return frame.evaluate("""() => {
      const d = document.documentElement, c = document.querySelector('#viewport canvas');
      const shown = (id) => getComputedStyle(document.getElementById(id)).display !== 'none';
      const link = document.getElementById('embed-open').getBoundingClientRect();
      return {scroll: [d.scrollWidth, d.scrollHeight, document.body.scrollWidth, document.body.scrollHeight],
              client: [d.clientWidth, d.clientHeight], inner: [innerWidth, innerHeight],
              canvas: [c.width, c.height], css: [c.clientWidth, c.clientHeight], ratio: devicePixelRatio,
              hud: shown('hud'), gui: shown('gui'),
              link: [link.left, link.top, link.right, link.bottom]};
    }""")


def check_fits(demo, frame, width, height):
    """The demo fills a width x height frame: no scrollbars, canvas at its size, drawn, controls inside."""
    from PIL import Image, ImageStat

    wait_frame(demo, frame, f"innerWidth === {width} && innerHeight === {height}", 10_000, "the frame's size")
    start = frame.evaluate("ikDemo.state().frame")
    # Drawing: three frames more, or a still scene drawn and resting (the pixels below say what it drew).
    wait_frame(demo, frame, f"ikDemo.state().frame >= {start + 3} || ikDemo.state().resting", 60_000, "frames")
    box = layout(frame)
    assert box["client"] == [width, height] and box["inner"] == [width, height], box
    assert box["scroll"][0] <= width and box["scroll"][2] <= width, f"horizontal scroll: {box}"
    assert box["scroll"][1] <= height and box["scroll"][3] <= height, f"vertical scroll: {box}"
    assert box["css"] == [width, height], box
    assert box["canvas"] == [round(width * min(box["ratio"], 2)), round(height * min(box["ratio"], 2))], box
    assert not box["hud"] and not box["gui"], f"embed mode shows the HUD or the panel: {box}"
    left, top, right, bottom = box["link"]
    assert 0 <= left < right <= width and 0 <= top < bottom <= height, f"link outside the frame: {box}"
    # The parent's pixels where the frame is (at its top left): no wait for the page to settle.
    shot = Image.open(io.BytesIO(demo.page.screenshot(clip={"x": 0, "y": 0, "width": width, "height": height},
                                                      animations="allow", caret="initial"))).convert("RGB")
    assert shot.size == (width, height)
    stat = ImageStat.Stat(shot)
    assert max(stat.stddev) > 8, f"the canvas looks blank at {width}x{height}: stddev {stat.stddev}"
    assert len(shot.getcolors(maxcolors=1 << 20)) > 50


def messages(demo, **match):
    """The messages the parent got whose data has all of ``match``."""
    return demo.page.evaluate(
        "(m) => got.filter(g => Object.entries(m).every(([k, v]) => g.data[k] === v))", match)


def send(demo, message, origin):
    demo.page.evaluate(f"([m, o]) => {FRAME}.contentWindow.postMessage(m, o)", [message, origin])


def result(demo, id):
    demo.wait_until(f"got.some(g => g.data.event === 'result' && g.data.id === {json.dumps(id)})", 30_000,
                    f"the answer to message {id}")
    (answer,) = messages(demo, event="result", id=id)
    return answer


def test_embedded_demo_fits_its_frame_and_obeys_its_parent(demo, site_server, serve, tmp_path):
    """An allowed parent on another origin: ready, commands, answers, sizes, the pose download."""
    demo.page.set_viewport_size({"width": 1300, "height": 760})
    demo_origin = site_server.rstrip("/")
    parent_url, parent_origin = served_parent(serve, tmp_path, lambda origin: f"{site_server}#embed=1&origin={origin}",
                                              320, 240)
    demo.open(parent_url)
    demo.wait_until("got.some(g => ['ready', 'failed'].includes(g.data.event))", 120_000,
                    "the demo's ready message")
    assert not messages(demo, event="failed"), messages(demo, event="failed")
    (ready,) = messages(demo, event="ready")
    assert ready["origin"] == demo_origin and ready["fromDemo"]
    assert ready["data"]["type"] == "ikcore" and ready["data"]["state"]["scene"] == "arm"
    frame = demo_frame(demo)
    check_fits(demo, frame, 320, 240)

    assert frame.evaluate("document.getElementById('embed-open').target") == "_blank"
    assert frame.evaluate("document.getElementById('embed-open').rel") == "noopener"

    # Commands from the parent.
    send(demo, {"type": "ikcore", "command": "setTarget", "name": "target", "position": [0.3, 1.5, 0.6], "id": 1},
         demo_origin)
    assert result(demo, 1)["data"]["ok"], messages(demo, id=1)
    assert frame.evaluate("ikDemo.state().targets.target") == [0.3, 1.5, 0.6]
    send(demo, {"type": "ikcore", "command": "setScene", "name": "tentacles", "id": 2}, demo_origin)
    answer = result(demo, 2)["data"]
    assert answer["ok"] and answer["state"]["scene"] == "tentacles", answer
    assert frame.evaluate("ikDemo.state().scene") == "tentacles"
    # "Open full demo": this frame's current link (the page writes its state into the hash) without the
    # embed keys.
    wait_frame(demo, frame, "location.hash.includes('scene=tentacles')", 10_000, "the hash to follow the scene")
    assert "embed=1" in frame.evaluate("location.hash") and "origin=" in frame.evaluate("location.hash")
    href = frame.evaluate("(() => { const a = document.getElementById('embed-open'); a.focus(); return a.href; })()")
    assert href.startswith(site_server + "#") and "scene=tentacles" in href, href
    assert "embed" not in href and "origin" not in href, href
    send(demo, {"type": "ikcore", "command": "setMethod", "name": "ccd", "id": "m"}, demo_origin)
    assert result(demo, "m")["data"]["state"]["method"] == "ccd"
    send(demo, {"type": "ikcore", "command": "set", "params": {"max_iterations": 7, "animate": False}, "id": 3},
         demo_origin)
    assert result(demo, 3)["data"]["state"]["params"]["max_iterations"] == 7
    assert frame.evaluate("ikDemo.state().params.animate") is False
    # Changes are posted back (throttled), whoever made them.
    demo.wait_until("got.some(g => g.data.event === 'change' && g.data.state.method === 'ccd')", 10_000,
                    "a change event")

    # Refused values are answered with the reason, and change nothing.
    bad = [
        ({"command": "setMethod", "name": "nonsense"}, "unknown method"),
        ({"command": "setMethod", "name": "<img src=x onerror=alert(1)>"}, "takes a method name"),
        ({"command": "setTarget", "name": "target0", "position": [0, float("nan"), 1]}, "three finite numbers"),
        ({"command": "setTarget", "name": "target0", "position": "0,1,2"}, "three finite numbers"),
        ({"command": "set", "params": {"tolerance": "x" * 200}}, "finite number"),
        ({"command": "set", "params": {"tolerance": 5.0}}, "tolerance"),
        ({"command": "set", "params": [1, 2]}, "an object"),
        ({"command": "eval", "code": "alert(1)"}, "unknown command"),
    ]
    for k, (message, reason) in enumerate(bad, start=10):
        send(demo, {"type": "ikcore", "id": k, **message}, demo_origin)
    for k, (message, reason) in enumerate(bad, start=10):
        answer = result(demo, k)["data"]
        assert answer["ok"] is False and reason in answer["error"], (message, answer)
    state = frame.evaluate("ikDemo.state()")
    assert state["scene"] == "tentacles" and state["method"] == "ccd" and state["params"]["tolerance"] < 0.5
    # Not ikcore messages, and ikcore messages from another window of the allowed origin (a sibling frame
    # of the parent): ignored, not answered.
    send(demo, "hello", demo_origin)
    send(demo, {"type": "other", "command": "setScene", "name": "spider", "id": 50}, demo_origin)
    demo.page.evaluate(f"""() => {{
      const sibling = document.createElement('iframe');
      document.body.append(sibling);
      sibling.contentWindow.eval("parent.{FRAME}.contentWindow.postMessage("
        + "{{type: 'ikcore', command: 'setScene', name: 'spider', id: 51}}, '*')");
    }}""")
    send(demo, {"type": "ikcore", "command": "state", "id": 52}, demo_origin)
    assert result(demo, 52)["data"]["state"]["scene"] == "tentacles"
    assert not messages(demo, id=50) and not messages(demo, id=51)
    assert all(g["origin"] == demo_origin and g["fromDemo"] for g in demo.page.evaluate("got"))

    # The parent gives the frame a new link (a fragment navigation): it applies, and is posted as a change.
    demo.page.evaluate("got.length = 0")
    demo.page.evaluate(f"{FRAME}.src = '{site_server}#method=fabrik&embed=1&origin={parent_origin}'")
    demo.wait_until("got.some(g => g.data.event === 'change' && g.data.state.method === 'fabrik')", 30_000,
                    "a change event after a new hash")
    assert frame.evaluate("ikDemo.state().scene") == "tentacles", "the frame reloaded instead"

    # The panel opens with the Controls button; its "download pose" saves what ikcore reads back.
    frame.evaluate("document.getElementById('embed-controls').click()")
    assert frame.is_visible("#gui .lil-gui")
    with demo.page.expect_download() as download:
        frame.evaluate("[...document.querySelectorAll('#gui button')]"
                       ".find(b => b.textContent.includes('download pose')).click()")
    path = download.value.path()
    assert download.value.suggested_filename.startswith("ikcore-pose-tentacles-")
    pose = ikcore.load_pose(path.read_text())
    assert pose.scene == "tentacles" and pose.method == "fabrik"
    assert len(pose.chains) == len(state["chains"]) and all(c.chain.size > 1 for c in pose.chains)
    for chain in pose.chains:
        assert all(math.isfinite(v) for p in chain.world_positions for v in p)
    # The same through the API: the world points are the joints the page draws.
    frame.evaluate("ikDemo.set({animate: false})")
    pose_json = frame.evaluate("[ikDemo.pose(), ikDemo.state()]")
    drawn = {c["name"]: c["effector"] for c in pose_json[1]["chains"]}
    for chain in ikcore.load_pose(json.dumps(pose_json[0])).chains:
        assert math.dist(chain.world_positions[-1], drawn[chain.name]) < 1e-9

    # Any size: the same frame at 1280x720, the panel closed again.
    frame.evaluate("document.getElementById('embed-controls').click()")
    demo.page.evaluate(f"{FRAME}.width = 1280; {FRAME}.height = 720")
    check_fits(demo, frame, 1280, 720)


def test_embedded_demo_ignores_pages_it_does_not_list(demo, site_server, serve, tmp_path):
    """A parent whose origin is not allowed (not the demo's, not in `origin=`): no answer, no effect."""
    listed = "http://127.0.0.1:9"  # some other origin, allowed instead of the parent's
    folder = parent_site(tmp_path, "stranger", f"{site_server}#embed=1&origin={listed}&quality=high", 400, 300)
    # A phone's pixel ratio: the canvas is drawn at twice its CSS size, not three times (at high quality;
    # low draws one pixel per CSS pixel, test_first_impression checks).
    demo.context.new_cdp_session(demo.page).send("Emulation.setDeviceMetricsOverride", {
        "width": 960, "height": 600, "deviceScaleFactor": 3, "mobile": False})
    demo.open(serve(folder))
    frame = demo_frame(demo)
    frame_ready(demo, frame)
    box = layout(frame)
    assert box["ratio"] == 3 and box["css"] == [400, 300] and box["canvas"] == [800, 600], box
    demo_origin = site_server.rstrip("/")
    for k, message in enumerate([{"command": "setScene", "name": "tentacles"}, {"command": "state"},
                                 {"command": "set", "params": {"animate": False}}]):
        send(demo, {"type": "ikcore", "id": k, **message}, demo_origin)
    start = frame.evaluate("ikDemo.state().frame")
    wait_frame(demo, frame, f"ikDemo.state().frame >= {start + 5}", 60_000, "frames")
    demo.page.wait_for_timeout(500)
    state = frame.evaluate("ikDemo.state()")
    assert state["scene"] == "arm" and state["params"]["animate"] is True
    assert demo.page.evaluate("got") == [], "the demo answered or posted to a page it does not list"

    # The wheel scrolls the embedding page until the demo is clicked, then zooms.
    frame.evaluate("addEventListener('wheel', (e) => { window.wheelTaken = e.defaultPrevented; })")
    demo.page.mouse.move(200, 150)
    demo.page.mouse.wheel(0, 120)
    wait_frame(demo, frame, "window.wheelTaken !== undefined", 10_000, "the wheel event")
    assert frame.evaluate("window.wheelTaken") is False, "the demo took the wheel before a click"
    demo.page.mouse.down()
    demo.page.mouse.up()
    frame.evaluate("window.wheelTaken = undefined")
    demo.page.mouse.wheel(0, 120)
    wait_frame(demo, frame, "window.wheelTaken !== undefined", 10_000, "the wheel event")
    assert frame.evaluate("window.wheelTaken") is True, "the demo does not zoom after a click"


def test_embed_example_page(demo, site_server):
    """The example page: two frames on the demo's own origin; the second driven to the tentacles."""
    demo.open(site_server + "embed-example.html")
    page = demo.page
    frames = [page.wait_for_selector(f"#{name}-demo", state="attached").content_frame() for name in ("arm", "tentacles")]
    for frame in frames:
        frame_ready(demo, frame)
    demo.wait_until("document.getElementById('tentacles-status').textContent.startsWith('tentacles')", 60_000,
                    "the second frame to switch to the tentacles")
    assert frames[0].evaluate("ikDemo.state().scene") == "arm"
    assert frames[0].evaluate("ikDemo.state().overlays") is True, "the first frame's link state was not applied"
    assert frames[1].evaluate("ikDemo.state().scene") == "tentacles"
    page.click("button[data-method=ccd]")
    demo.wait_until("document.getElementById('tentacles-status').textContent === 'tentacles, ccd'", 30_000,
                    "the method change")
    assert frames[1].evaluate("ikDemo.state().method") == "ccd"
    assert frames[0].evaluate("ikDemo.state().method") != "ccd"
    for frame in frames:
        assert frame.evaluate("document.documentElement.dataset.embed") == "1"
        assert frame.evaluate("document.documentElement.scrollHeight <= innerHeight")
