"""The four scenes in headless Chromium: each renders and moves, scenes and methods switch, targets drag with
the mouse, the spider walks where it is clicked, and a Python error in a frame shows the failure panel."""

import math

import pytest

from ikcore.rigs import CHAIN_SCENES, SCENES, make_scene

CHAINS = {"arm": 1, "tentacles": 4, "spider": 8, "race": 6, "robot": 1, "steps": 1, "playground": 4, "humanoid": 6}


def open_scene(demo, site_server, name):
    demo.open(site_server)
    demo.wait_ready()
    state = demo.page.evaluate("n => ikDemo.setScene(n)", name)
    assert state["scene"] == name
    return demo.page


@pytest.mark.parametrize("name", CHAIN_SCENES)  # the crowd: tests/browser/test_crowd.py
def test_scene_renders_and_animates(demo, site_server, name):
    from PIL import ImageChops, ImageStat

    page = open_scene(demo, site_server, name)
    if name == "race":
        # Races decided and redrawn without pauses, so the lanes move between the two shots.
        page.evaluate("ikDemo.set({pause: 0, rate: 6000})")
    if name == "playground":
        # The lanes' runs replayed slowly (the Jacobian transpose's some ten iterations over seconds).
        page.evaluate("ikDemo.set({rate: 2})")
    if name == "steps":
        # The solve played step by step, fast, so the chain moves between the two shots.
        page.evaluate("ikDemo.set({method: 'ccd', rate: 6, animate: true})")
    demo.wait_frames(3)
    first = demo.canvas_image()
    stat = ImageStat.Stat(first)
    assert max(stat.stddev) > 8, f"{name}: canvas looks uniform: stddev {stat.stddev}"
    colours = len(first.getcolors(maxcolors=1 << 20))
    assert colours > 200, f"{name}: only {colours} colours on the canvas"
    page.wait_for_timeout(1000)
    state = demo.wait_frames(3)
    second = demo.canvas_image()
    assert ImageChops.difference(first, second).getbbox() is not None, f"{name}: the scene did not move"
    assert state["scene"] == name and state["error"] is None
    assert len(state["chains"]) == CHAINS[name]
    for chain in state["chains"]:
        assert all(math.isfinite(v) for v in chain["effector"]), chain
    assert state["python_ms"]["median"] > 0


@pytest.mark.parametrize("name", ["tentacles", "spider"])
def test_the_page_draws_each_chain_where_python_has_it(demo, site_server, name):
    # Python writes each chain in its own frame (a coxa, the crown, both moving); the page puts the
    # records into the world. Its effectors must be Python's world points, on the scene's first
    # frame (straight after the switch) and while it animates.
    page = open_scene(demo, site_server, name)
    for later in (False, True):
        state, pose = page.evaluate("[ikDemo.state(), ikDemo.pose()]")
        assert len(state["chains"]) == len(pose["chains"]) == CHAINS[name]
        for chain, entry in zip(state["chains"], pose["chains"]):
            assert math.dist(chain["effector"], entry["world_positions"][-1]) < 1e-9, (chain, entry)
            # A frame of its own: the spider's coxae from the first frame on; the tentacles' crown once it
            # has swayed (at time 0 it is the world's frame, and no frame may have run since the switch).
            if later or name == "spider":
                assert math.dist(chain["effector"], entry["positions"][-1]) > 1e-3
        demo.wait_frames(20)


def test_switch_scene_and_method(demo, site_server):
    demo.open(site_server)
    demo.wait_ready()
    page = demo.page
    assert page.evaluate("ikDemo.scenes") == list(SCENES)
    for name in CHAIN_SCENES:  # the crowd has one method
        state = page.evaluate("n => ikDemo.setScene(n)", name)
        assert state["scene"] == name
        scene = make_scene(name)
        assert page.evaluate("ikDemo.methods") == list(scene.methods)
        assert state["method"] in scene.methods
        other = next(m for m in scene.methods if m != state["method"])
        page.evaluate("m => ikDemo.setMethod(m)", other)
        state = demo.wait_frames(2)
        assert (state["scene"], state["method"]) == (name, other)
        assert len(state["chains"]) == CHAINS[name]
        assert all(c["status"] is not None for c in state["chains"]), state["chains"]
        assert page.evaluate("ikDemo.showLimits(true)")["overlays"] is True
        # The GUI shows the scene it is in.
        assert page.locator("#gui .lil-gui select").first.input_value() == name
    # Back to the arm: a fresh scene, with its own default method again (after another method of the last scene).
    default = make_scene("arm").default_method
    other = next(m for m in make_scene(list(SCENES)[-1]).methods if m != default)
    page.evaluate("m => ikDemo.setMethod(m)", other)
    assert page.evaluate("ikDemo.setScene('arm')")["method"] == default
    with pytest.raises(Exception, match="unknown scene"):
        page.evaluate("ikDemo.setScene('octopus')")
    with pytest.raises(Exception, match="tolerance"):
        page.evaluate("ikDemo.set({tolerance: -1})")
    assert page.evaluate("ikDemo.state().error") is None


def test_tentacle_reaches_a_placed_target(demo, site_server):
    page = open_scene(demo, site_server, "tentacles")
    page.evaluate("ikDemo.setMethod('fabrik')")
    scene = make_scene("tentacles")
    goal = [round(v, 6) for v in scene.targets["target0"].path(3.0)]
    page.evaluate("g => ikDemo.setTarget('target0', g)", goal)
    demo.wait_frames(1)
    demo.wait_until("ikDemo.state().chains[0].status === 'converged'", 60_000, "tentacle0 to converge")
    chain = page.evaluate("ikDemo.state()")["chains"][0]
    assert chain["target"] == goal
    assert math.dist(chain["effector"], goal) <= 1e-3 * scene.limbs[0].reach * 1.0001, chain


def test_drag_target_with_the_mouse(demo, site_server):
    demo.open(site_server)
    demo.wait_ready()
    page = demo.page
    assert page.evaluate("getComputedStyle(document.querySelector('#viewport canvas')).touchAction") == "none"
    page.evaluate("ikDemo.set({animate: false})")
    demo.wait_frames(2)
    before = page.evaluate("ikDemo.state()")
    # Nothing is selected at first: a click on the target puts the gizmo on it.
    assert before["selected"] is None
    start = page.evaluate("ikDemo.screenPosition('target')")
    page.mouse.click(*start)
    assert demo.wait_frames(1)["selected"] == "target"
    demo.drag(start, (-90, 50), steps=12, pause_ms=30)
    after = demo.wait_frames(2)
    moved = math.dist(before["targets"]["target"], after["targets"]["target"])
    assert moved > 0.1, f"the target moved {moved}"
    # The arm followed: its target in the chain state is the dragged one.
    assert after["chains"][0]["target"] == after["targets"]["target"]
    # A drag on empty space orbits the camera and leaves the target where it is.
    demo.drag((150, 450), (120, 0), steps=12, pause_ms=30)
    later = demo.wait_frames(2)
    assert later["targets"]["target"] == after["targets"]["target"]


def test_spider_walks_to_a_clicked_spot(demo, site_server):
    page = open_scene(demo, site_server, "spider")
    demo.wait_frames(2)
    before = page.evaluate("ikDemo.state().targets.destination")
    # The foreground of the view is terrain: click it (press and release in place).
    page.mouse.click(300, 520)
    state = demo.wait_frames(2)
    after = state["targets"]["destination"]
    assert math.dist(before, after) > 0.2, (before, after)
    # Steering keys: a destination turned left of the heading.
    page.keyboard.press("ArrowLeft")
    steered = demo.wait_frames(2)["targets"]["destination"]
    assert math.dist(after, steered) > 0.2, (after, steered)
    assert page.evaluate("ikDemo.state().error") is None


def test_python_error_in_a_frame_shows_the_panel(demo, site_server):
    demo.open(site_server)
    demo.wait_ready()
    page = demo.page
    demo.allow_console_error(r"fault injected in the test")
    page.evaluate("ikDemo.injectFault('fault injected in the test')")
    demo.wait_until("document.documentElement.dataset.state === 'failed'", 30_000, "the failure panel")
    text = demo.failure_text()
    assert "Python raised an error" in text and "RuntimeError: fault injected in the test" in text, text
    state = page.evaluate("ikDemo.state()")
    assert state["error"] == "RuntimeError: fault injected in the test"
    page.wait_for_timeout(500)
    assert page.evaluate("ikDemo.state().frame") == state["frame"], "the loop kept calling Python"
    with pytest.raises(Exception, match="stopped"):
        page.evaluate("ikDemo.setScene('race')")
