"""Faults injected into the running page: each gives a clear message or the page carries on correctly, and
it recovers where recovery makes sense.

Covered elsewhere and listed in docs/develop/reliability.md: a wheel that answers 404 or fails its integrity check, and
runtime files that answer 404 (``test_page.py``); a Python exception raised by a frame showing the
failure panel (``test_page.py``, ``test_scenes.py``).
"""

import math
import time

import pytest

from ikcore.rigs import CHAIN_SCENES, SCENES, make_scene

#: The target a user would drag in each scene.
DRAGGED = {"arm": "target", "tentacles": "target0", "spider": "destination", "race": "target", "robot": "target", "steps": "target", "playground": "target",
           "humanoid": "knob"}


def test_restart_after_a_python_error(demo, site_server):
    """A Python exception stops the loop with its traceback; "Restart the scene" makes a new scene and runs."""
    demo.open(site_server)
    demo.wait_ready()
    page = demo.page
    page.evaluate("ikDemo.setScene('tentacles')")
    demo.allow_console_error(r"RuntimeError: fault number [12]")
    assert page.is_hidden("#failure-restart")
    for attempt in (1, 2):
        page.evaluate("m => ikDemo.injectFault(m)", f"fault number {attempt}")
        demo.wait_until("document.documentElement.dataset.state === 'failed'", 30_000, "the failure panel")
        assert f"RuntimeError: fault number {attempt}" in demo.failure_text()
        stopped = page.evaluate("ikDemo.state()")
        assert stopped["error"] == f"RuntimeError: fault number {attempt}"
        with pytest.raises(Exception, match="stopped"):
            page.evaluate("ikDemo.advance(1)")
        # The button on the panel (the second time, the API call behind it).
        if attempt == 1:
            page.click("#failure-restart")
        else:
            page.evaluate("ikDemo.restart()")
        demo.wait_until("document.documentElement.dataset.state === 'ready'", 30_000, "the restarted scene")
        assert page.is_hidden("#failure") and page.is_hidden("#failure-restart")
        state = demo.wait_frames(3)
        assert state["error"] is None and state["scene"] == "tentacles"
        assert all(c["status"] is not None for c in state["chains"]), state["chains"]
        assert page.evaluate("ikDemo.advance(30, 1 / 60, 0)")["nonfinite"] == 0
    # Everything works again: commands, switching scenes.
    assert page.evaluate("ikDemo.setScene('arm')")["scene"] == "arm"
    assert demo.wait_frames(2)["error"] is None


def test_solver_that_never_converges(demo, site_server):
    """One slow iteration a frame and a tiny tolerance: no chain converges; the page carries on and says so."""
    demo.open(site_server)
    demo.wait_ready()
    page = demo.page
    page.evaluate("ikDemo.setScene('tentacles')")
    page.evaluate("ikDemo.set({method: 'jacobian_transpose', max_iterations: 1, tolerance: 1e-9})")
    statuses = page.evaluate("""() => {
        const seen = [];
        for (let i = 0; i < 200; i++) {
            const r = ikDemo.advance(1, 1 / 60, 0);
            seen.push([r.nonfinite, ...ikDemo.state().chains.map((c) => [c.status, c.iterations])]);
        }
        return seen;
    }""")
    for frame, (nonfinite, *chains) in enumerate(statuses):
        assert nonfinite == 0, frame
        assert all(chain == ["max_iterations", 1] for chain in chains), (frame, chains)
    # The HUD says it (it refreshes four times a second in the animation loop).
    page.wait_for_timeout(600)
    demo.wait_frames(2)
    hud = page.text_content("#hud-text")
    state = page.evaluate("ikDemo.state()")
    for chain in state["chains"]:
        line = next(l for l in hud.splitlines() if l.startswith(chain["name"] + " "))
        assert "still reaching" in line and "1 iteration · error " in line, (line, hud)
    assert state["error"] is None and page.is_hidden("#failure")
    assert page.evaluate("document.documentElement.dataset.state") == "ready"
    # Given iterations again, the tentacles catch their targets.
    page.evaluate("ikDemo.set({method: 'fabrik', max_iterations: 50, tolerance: 1e-3})")
    page.evaluate("ikDemo.advance(120, 1 / 60, 0)")
    assert {c["status"] for c in page.evaluate("ikDemo.state().chains")} == {"converged"}


def test_target_dragged_far_away(demo, site_server):
    """A target a billion units away: each scene keeps a calm, finite pose, or refuses it with a message
    (the spider and the humanoid walk on their terrain only); farther than the solvers take is refused at once (a drag
    shows the same refusal under the HUD). The page carries on throughout."""
    demo.open(site_server)
    demo.wait_ready()
    page = demo.page
    for k, name in enumerate(CHAIN_SCENES):  # the crowd has no targets to drag
        page.evaluate("n => ikDemo.setScene(n)", name)
        if name in ("race", "playground"):
            # The race's lanes shown decided, not replayed an iteration at a time (the replay of the
            # Jacobian lanes' 60 to 150 iterations toward a far target takes half a minute).
            page.evaluate("ikDemo.set({replay: false})")
        target = DRAGGED[name]
        far = 1e9 if k % 2 else -1e9
        point = [far, 0.5 * far, far]
        if name in ("spider", "humanoid"):
            with pytest.raises(Exception, match=rf"{target}\W.* must lie within"):
                page.evaluate("([n, p]) => ikDemo.setTarget(n, p)", [target, point])
        else:
            page.evaluate("([n, p]) => ikDemo.setTarget(n, p)", [target, point])
        if name == "steps":
            # Its chain shows one step of the solve at a time: the verdict is the last step's.
            page.evaluate("ikDemo.stepTo(ikDemo.state().steps.count - 1)")
        result = page.evaluate("ikDemo.advance(240, 1 / 60, 0)")
        assert result["nonfinite"] == 0, (name, result)
        first = page.evaluate("ikDemo.state()")
        page.evaluate("ikDemo.advance(1, 1 / 60, 0)")
        second = page.evaluate("ikDemo.state()")
        assert second["error"] is None and page.is_hidden("#failure"), name
        for chain in second["chains"]:
            assert all(math.isfinite(v) and abs(v) < 1e3 for v in chain["effector"]), (name, chain)
        if name not in ("spider", "humanoid"):
            assert first["targets"][target] == point, name
            chain = second["chains"][0]
            assert chain["status"] == "unreachable", (name, chain)
            # Calm: a pinned target out of reach leaves the chain (nearly) still, reaching out to it. (The
            # tentacles' cone-limited chains still creep by a millimetre a frame after four seconds.)
            scene = make_scene(name)
            scene.step(0.0)  # the roots placed
            limb = scene.limbs[0]
            moved = math.dist(first["chains"][0]["effector"], chain["effector"])
            assert moved < 0.01 * limb.reach, (name, moved)
            root = limb.bound.nodes[0].world_position
            direction = [t - r for t, r in zip(point, root)]
            reach = [e - r for e, r in zip(chain["effector"], root)]
            cosine = sum(a * b for a, b in zip(direction, reach)) / math.hypot(*direction) / math.hypot(*reach)
            # Towards it, as far as its joint limits let it (the arm's shoulder cone, for one).
            assert cosine > 0.5, (name, cosine)
        # Farther than the solvers take: refused with a message naming the value, the frame loop unharmed.
        with pytest.raises(Exception, match=r"lies farther than 1e\+12 from the origin"):
            page.evaluate("([n, p]) => ikDemo.setTarget(n, p)", [target, [1e200, 0, 0]])
        assert page.evaluate("ikDemo.advance(2, 1 / 60, 0)")["nonfinite"] == 0
        assert page.evaluate("ikDemo.state().error") is None
        # And it comes back.
        page.evaluate("n => ikDemo.release(n)", target)
        assert page.evaluate("ikDemo.advance(60, 1 / 60, 0)")["nonfinite"] == 0


@pytest.mark.parametrize("name", ["pyodide.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"])
def test_runtime_download_aborted(demo, site_server, name):
    """The network drops a runtime file: the failure panel names it within seconds, not at a deadline."""
    page = demo.page
    page.route(f"**/vendor/pyodide/{name}", lambda route: route.abort("connectionreset"))
    demo.allow_console_error(r"ERR_CONNECTION_RESET|Failed to fetch|ikcore demo|Failed to load|dynamically "
                             r"imported|NetworkError|" + name.replace(".", r"\."))
    if name == "python_stdlib.zip":
        # Python itself says, on the console, that it cannot start without its standard library.
        demo.allow_console_error(r"^$|standard library|encodings|Fatal Python error|Python runtime state|"
                                 r"Current thread|no Python frame")
    started = time.monotonic()
    demo.open(site_server)
    assert demo.wait_loaded() == "failed"
    elapsed = time.monotonic() - started
    text = demo.failure_text()
    assert page.is_visible("#failure") and page.is_hidden("#loader")
    assert "Loading failed: Python runtime" in text, text
    assert name in text, text
    assert elapsed < 25, (elapsed, text)
    assert page.is_hidden("#failure-restart")


def test_tab_hidden_and_shown(demo, site_server):
    """Hidden: no frames, no Python. Shown again: the loop resumes, and its first step is 0 s, not the absence."""
    demo.open(site_server)
    demo.wait_ready()
    page = demo.page
    page.evaluate("ikDemo.setScene('spider')")
    demo.wait_frames(2)
    # Headless Chromium never hides a page: the test overrides document.hidden and tells the page. Each
    # animation frame's dt is recorded from here on.
    page.evaluate("""() => {
        let hidden = false;
        Object.defineProperty(document, "hidden", { configurable: true, get: () => hidden });
        Object.defineProperty(document, "visibilityState", { configurable: true,
            get: () => (hidden ? "hidden" : "visible") });
        window.__setHidden = (value) => { hidden = value; document.dispatchEvent(new Event("visibilitychange")); };
        window.__dts = [];
        const raf = window.requestAnimationFrame.bind(window);
        window.requestAnimationFrame = (callback) => raf((now) => {
            const before = ikDemo.state().frame;
            callback(now);
            if (ikDemo.state().frame > before) window.__dts.push([now, ikDemo.state().dt]);
        });
    }""")
    demo.wait_frames(2)
    page.evaluate("__setHidden(true)")
    page.wait_for_timeout(100)  # a frame already requested may still come
    hidden = page.evaluate("ikDemo.state()")
    assert hidden["paused"] is True
    page.wait_for_timeout(2000)
    assert page.evaluate("ikDemo.state().frame") == hidden["frame"], "frames ran while the tab was hidden"
    seen = page.evaluate("__dts.length")
    page.evaluate("__setHidden(false)")
    state = demo.wait_frames(3)
    assert state["paused"] is False and state["error"] is None
    dts = [dt for _, dt in page.evaluate("__dts")[seen:]]
    assert dts[0] == 0, f"the first frame after the return stepped {dts[0]} s"
    assert all(0 <= dt <= 0.1 for dt in dts), dts
    # Hidden and shown with no frame in between: one loop runs on, not two (two would step twice at
    # the same animation-frame time).
    page.evaluate("__setHidden(true); __setHidden(false); __setHidden(false)")
    start = page.evaluate("__dts.length")
    demo.wait_frames(6)
    times = [now for now, _ in page.evaluate("__dts")[start:]]
    assert len(times) == len(set(times)), times


def test_runtime_memory_grows_under_the_frame_view(demo, site_server):
    """The page reads each frame where Python writes it, through a view of Pyodide's memory; Python
    growing that memory empties the view, and the page takes it again: the same frame, then frames
    that carry on."""
    demo.open(site_server)
    demo.wait_ready()
    page = demo.page
    page.evaluate("ikDemo.setScene('spider')")
    demo.wait_frames(3)
    # One task: no frame runs between the reads around the growth.
    before, grown, after = page.evaluate("""() => {
        const before = ikDemo.state();
        const grown = ikDemo.growMemory(256);
        return [before, grown, ikDemo.state()];
    }""")
    assert grown["after"] > grown["before"], grown
    assert after["frame"] == before["frame"]
    assert after["chains"] == before["chains"] and after["targets"] == before["targets"]
    effectors = [c["effector"] for c in after["chains"]]
    assert len(effectors) == 8 and all(math.isfinite(x) for e in effectors for x in e), effectors
    # Frames carry on from the view taken again (and from the animation loop's, drawn).
    assert page.evaluate("ikDemo.advance(60, 1 / 60, 1)")["nonfinite"] == 0
    state = demo.wait_frames(2)
    assert state["error"] is None and state["frame"] > before["frame"] + 60
    moved = [c["effector"] for c in state["chains"]]
    assert all(math.isfinite(x) for e in moved for x in e) and moved != effectors
    with pytest.raises(Exception, match="megabytes"):
        page.evaluate("ikDemo.growMemory(0)")
