"""The robot scene in the page: the obstacle dragged with the mouse, dropped on the elbow and swung clear of
with avoid_obstacle on (the hand held, the sphere blue, the HUD's clearance positive), passed through with it
off (the sphere drawn red, in pixels too); links, a fresh page from a link, the
pose download, embedding; the failure paths (a Python error and a restart, a far target, bad link values)."""

import json
import math
import time

import pytest

import ikcore



def open_robot(demo, site_server):
    demo.open(site_server)
    demo.wait_ready()
    page = demo.page
    assert page.evaluate("ikDemo.setScene('robot')")["scene"] == "robot"
    page.evaluate("ikDemo.set({animate: false})")
    demo.wait_frames(2)
    return page


def reddish(demo, page, radius=10):
    """How many pixels within ``radius`` of the obstacle's centre on the canvas are red rather than blue
    or white (the sphere is drawn seen-through over the arm)."""
    image = demo.canvas_image()
    x, y = page.evaluate("""() => {
        const [x, y] = ikDemo.screenPosition('obstacle');
        const r = document.querySelector('#viewport canvas').getBoundingClientRect();
        return [x - r.left, y - r.top];
    }""")
    count = 0
    for i in range(int(x) - radius, int(x) + radius):
        for j in range(int(y) - radius, int(y) + radius):
            r, g, b = image.getpixel((i, j))
            count += r > b + 60 and r > g + 40
    return count


def test_the_elbow_swings_clear_of_the_obstacle_and_passes_through_it_when_off(demo, site_server):
    page = open_robot(demo, site_server)
    described = page.evaluate("ikDemo.describe()")
    assert {"avoid_obstacle", "away_from_limits", "toward_rest"} <= set(described["params"])
    assert {t["name"]: (t["draggable"], t["oriented"]) for t in described["targets"]} == \
        {"target": (True, True), "obstacle": (True, False)}
    # The obstacle answers the mouse: a click puts the gizmo on it, a drag moves it, Python follows.
    before = page.evaluate("ikDemo.state()")
    start = page.evaluate("ikDemo.screenPosition('obstacle')")
    page.mouse.click(*start)
    assert demo.wait_frames(1)["selected"] == "obstacle"
    demo.drag(start, (70, -40), steps=12, pause_ms=30)
    dragged = demo.wait_frames(2)
    assert math.dist(before["targets"]["obstacle"], dragged["targets"]["obstacle"]) > 0.05
    page.evaluate("ikDemo.deselect()")

    # Dropped on the elbow (the fourth joint's point), avoid_obstacle on: the elbow swings away, the hand holds.
    hand = dragged["chains"][0]["effector"]
    pose = ikcore.load_pose(json.dumps(page.evaluate("ikDemo.pose()")))
    elbow = list(pose.chains[0].world_positions[3])
    page.evaluate("p => ikDemo.setTarget('obstacle', p)", elbow)
    assert page.evaluate("ikDemo.advance(90, 1 / 60, 0)")["nonfinite"] == 0
    clear = demo.wait_frames(2)
    chain = clear["chains"][0]
    assert chain["status"] == "converged" and chain["clearance"] > 0.03, chain
    assert 0.0 < chain["limit_margin"] <= 0.5
    assert math.dist(chain["effector"], hand) < 2e-3
    assert clear["view"]["obstacleInside"] is False and clear["view"]["obstacleColor"] == "#4c9bf0"
    hud = page.text_content("#hud-measures")
    assert hud.startswith(f"clearance {chain['clearance']:.3f} m") and "inside" not in hud, hud
    assert f"limit margin {100 * chain['limit_margin']:.1f}% of range" in hud
    blue = reddish(demo, page)

    # (Its Python time a frame, holding the hand and the elbow clear, against its arm's forward pass timed
    # in the same page: tests/browser/test_speed.py, a benchmark.)

    # Off: the arm passes through the sphere, which is drawn red.
    page.evaluate("ikDemo.set({avoid_obstacle: false, toward_rest: true})")
    page.evaluate("ikDemo.advance(90, 1 / 60, 0)")
    inside = demo.wait_frames(2)
    chain = inside["chains"][0]
    assert chain["status"] == "converged" and chain["clearance"] < 0.0, chain
    assert math.dist(chain["effector"], hand) < 2e-3
    assert inside["view"]["obstacleInside"] is True and inside["view"]["obstacleColor"] == "#ff4d4d"
    assert "(inside)" in page.text_content("#hud-measures")
    red = reddish(demo, page)
    assert red > 100 and blue < 20, (red, blue)


def test_links_fresh_pages_pose_download_and_embedding(demo, site_server, serve, tmp_path):
    page = open_robot(demo, site_server)
    page.evaluate("ikDemo.setMethod('pseudo_inverse')")
    page.evaluate("ikDemo.set({avoid_obstacle: false, away_from_limits: true, away_from_limits_weight: 2.5})")
    page.evaluate("ikDemo.setTarget('obstacle', [0.35, 0.45, 0.25])")
    page.evaluate("ikDemo.setTarget('target', [0.45, 0.5, 0.1])")
    before = demo.wait_frames(2)
    link = page.evaluate("ikDemo.link()")
    fragment = link.split("#", 1)[1]
    for key in ("scene=robot", "avoid_obstacle=", "away_from_limits_weight=2.5", "t.obstacle=", "t.target="):
        assert key in fragment, (key, fragment)
    page.evaluate("ikDemo.setScene('arm')")
    demo.wait_until("location.hash.includes('scene=arm')", 30_000, "the hash to follow the switch")
    assert demo.apply_hash(fragment) == ""
    after = demo.wait_frames(2)
    assert (after["scene"], after["method"], after["params"]) == ("robot", "pseudo_inverse", before["params"])
    for name in ("obstacle", "target"):
        assert after["targets"][name] == pytest.approx(before["targets"][name], abs=1e-6)

    # The pose download: what ikcore reads back, its flange where the page draws it.
    with page.expect_download() as download:
        name = page.evaluate("ikDemo.downloadPose()")
    assert name.startswith("ikcore-pose-robot-") and download.value.suggested_filename == name
    pose = ikcore.load_pose(download.value.path().read_text())
    (chain,) = pose.chains
    assert pose.scene == "robot" and pose.method == "pseudo_inverse" and chain.chain.size == 7
    assert math.dist(chain.world_positions[-1], before["targets"]["target"]) < 2e-3
    # The same through the API, taken with the page's state at the same moment: the flange it draws.
    pose_json, state = page.evaluate("[ikDemo.pose(), ikDemo.state()]")
    (chain,) = ikcore.load_pose(json.dumps(pose_json)).chains
    assert math.dist(chain.world_positions[-1], state["chains"][0]["effector"]) < 1e-9

    # A fresh page opened with the link shows the same.
    demo.open(link)
    demo.wait_ready()
    fresh = demo.wait_frames(2)
    assert (fresh["scene"], fresh["method"], fresh["params"]) == ("robot", "pseudo_inverse", before["params"])
    assert fresh["targets"]["obstacle"] == pytest.approx(before["targets"]["obstacle"], abs=1e-6)

    # Embedded: the link's scene in an iframe of another origin, running and measured.
    folder = tmp_path / "parent"
    folder.mkdir()
    (folder / "index.html").write_text("placeholder")
    parent_url = serve(folder)
    (folder / "index.html").write_text(
        '<!doctype html><html><head><meta charset="utf-8"><title>parent</title><link rel="icon" href="data:,">'
        f'</head><body><iframe id="demo" src="{site_server}#{fragment}&embed=1&origin={parent_url.rstrip("/")}"'
        ' width="400" height="300" title="demo"></iframe></body></html>')
    demo.open(parent_url)
    frame = demo.page.wait_for_selector("#demo", state="attached").content_frame()
    deadline = time.monotonic() + 120
    while frame.evaluate("document.documentElement.dataset.state") != "ready":
        assert time.monotonic() < deadline, "the embedded demo did not load"
        demo.page.wait_for_timeout(100)
    start = frame.evaluate("ikDemo.state().frame")
    while frame.evaluate("ikDemo.state().frame") < start + 3:
        assert time.monotonic() < deadline, "the embedded demo does not animate"
        demo.page.wait_for_timeout(50)
    embedded = frame.evaluate("ikDemo.state()")
    assert embedded["scene"] == "robot" and embedded["params"] == before["params"]
    assert math.isfinite(embedded["chains"][0]["clearance"])


def test_failure_paths(demo, site_server):
    page = open_robot(demo, site_server)
    # A Python error stops the loop with its message; a restart makes a new robot scene that runs.
    demo.allow_console_error(r"RuntimeError: robot fault")
    page.evaluate("ikDemo.injectFault('robot fault')")
    demo.wait_until("document.documentElement.dataset.state === 'failed'", 30_000, "the failure panel")
    assert "RuntimeError: robot fault" in demo.failure_text()
    page.click("#failure-restart")
    demo.wait_until("document.documentElement.dataset.state === 'ready'", 30_000, "the restarted scene")
    state = demo.wait_frames(3)
    assert state["scene"] == "robot" and state["error"] is None
    assert math.isfinite(state["chains"][0]["clearance"])

    # The hand's target a billion metres away: unreachable, every float finite, the arm at a sane size.
    page.evaluate("ikDemo.setTarget('target', [1e9, 5e8, 1e9])")
    assert page.evaluate("ikDemo.advance(60, 1 / 60, 0)")["nonfinite"] == 0
    far = demo.wait_frames(2)["chains"][0]
    assert far["status"] == "unreachable" and all(abs(v) < 10 for v in far["effector"])
    # A non-finite obstacle is refused at the page's door; the page stays live.
    with pytest.raises(Exception, match="three finite numbers"):
        page.evaluate("ikDemo.setTarget('obstacle', [NaN, 0, 0])")
    # Bad values in a link: named in the notice, the rest applied.
    notice = demo.apply_hash("v=1&scene=robot&avoid_obstacle=maybe&toward_rest_weight=-3&away_from_limits=1")
    assert "avoid_obstacle" in notice and "toward_rest_weight" in notice, notice
    state = demo.wait_frames(2)
    assert state["params"]["away_from_limits"] is True and state["error"] is None
