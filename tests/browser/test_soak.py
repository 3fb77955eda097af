"""Soak: every scene runs thousands of frames in headless Chromium, and nothing grows or slows down.

The frames are driven faster than real time with ``ikDemo.advance(frames, dt, renderEvery)``: the same
frame body as the animation loop (Python's ``step``, the skeleton, overlay and race views reading the
shared array, the HUD), on a fixed step of 1/60 s, rendered by three.js every :data:`RENDER_EVERY`-th frame
(software WebGL costs far more per frame than the rest, and its work queues up behind the page). Targets
move along their scripts, and between chunks of frames the first draggable target of the scene is pinned
somewhere new or released again, as a user dragging now and then would.

After a warm-up (shader programs compiled, caches filled) and again at the end, after a garbage
collection on both sides, the test reads:

- Pyodide's WebAssembly memory (it never shrinks: a high-water mark of Python's heap),
- the objects Python's collector tracks, the JavaScript values Python holds (Pyodide's hiwire table),
- PyProxies handed to JavaScript and never destroyed (Pyodide's allocation tracing),
- three.js's geometries, textures and shader programs,
- the JavaScript heap (``Runtime.getHeapUsage`` after ``HeapProfiler.collectGarbage``, through CDP),

and compares the median Python time of a frame in the fastest chunk of the first quarter with that of the
last quarter (drift; load from other processes only ever adds time). The bounds are
the constants below. The default run soaks :data:`FRAMES` frames per scene; the full soak (marker
``soak``, not in the default run) 20,000, a scene at a time (the crowd at its default 100 spiders)::

    ./build/test tests/browser/test_soak.py -m soak -s
    ./build/test tests/browser/test_soak.py -m soak -s -k crowd

Each run writes its figures to ``dist/soak-<frames>.json`` and prints them (with ``-s``).
"""

import json
import math
import statistics
from pathlib import Path

import pytest

from ikcore.rigs import SCENES

ROOT = Path(__file__).resolve().parent.parent.parent


#: Frames per scene in the default run, and in the full soak (``-m soak``).
FRAMES = 2_000
FULL_FRAMES = 20_000
#: Frames before the first measurement.
WARMUP = 300
#: Seconds per frame.
DT = 1 / 60
#: three.js renders every this many frames (the rest still update every instanced mesh and overlay).
RENDER_EVERY = 100
#: Small enough for software rendering to keep up.
VIEWPORT = {"width": 480, "height": 300}

# Bounds on growth from after the warm-up to the end.
#: WebAssembly memory grows in 64 KiB pages; Python's allocator takes arenas of 256 KiB.
WASM_BYTES = 1 << 20
#: A leak of one object a frame would be thousands.
PYTHON_OBJECTS = 200
JS_REFS = 10
PYPROXIES = 0
JS_HEAP_BYTES = 2 << 20
#: Median Python ms of a frame, the fastest chunk of the last quarter against that of the first: ratio, plus the clock's granularity (0.1 ms
#: in a page that is not cross-origin isolated) to spare the lightest scenes.
DRIFT_RATIO = 2.0
DRIFT_MS = 0.2


def measure(page, cdp):
    cdp.send("HeapProfiler.collectGarbage")
    heap = cdp.send("Runtime.getHeapUsage")["usedSize"]
    health = page.evaluate("ikDemo.health()")
    return {**health["python"], **{f"three_{k}": v for k, v in health["three"].items()}, "js_heap": heap}


#: The target a user would drag in each scene.
DRAGGED = {"arm": "target", "tentacles": "target0", "spider": "destination", "race": "target", "robot": "target",
           "humanoid": "knob"}


def moves(page, name, chunk):
    """Between chunks: pin the scene's draggable target somewhere new, or hand it back to its script."""
    target = DRAGGED.get(name)
    if target is None:  # the crowd: nothing to drag, its spiders walk by themselves
        return
    if chunk % 2:
        page.evaluate("n => ikDemo.release(n)", target)
        return
    x, y, z = page.evaluate("n => ikDemo.state().targets[n]", target)
    angle = 0.7 * chunk
    point = [x + 0.3 * math.cos(angle), y + 0.1 * math.sin(2 * angle), z + 0.3 * math.sin(angle)]
    page.evaluate("([n, p]) => ikDemo.setTarget(n, p)", [target, point])


def soak_scene(page, cdp, name, frames, chunk, options=None):
    page.evaluate("([n, o]) => ikDemo.setScene(n, o ?? undefined)", [name, options])
    advance = f"ikDemo.advance({{n}}, {DT}, {RENDER_EVERY})"
    warm = page.evaluate(advance.format(n=WARMUP))
    assert warm["nonfinite"] == 0, (name, warm)
    before = measure(page, cdp)
    start = page.evaluate("ikDemo.state().frame")
    medians = []
    for k in range(frames // chunk):
        moves(page, name, k)
        result = page.evaluate(advance.format(n=chunk))
        assert result["nonfinite"] == 0, f"{name}: a NaN or infinity in the shared array in chunk {k}: {result}"
        medians.append(result["python_ms"]["median"])
    after = measure(page, cdp)
    state = page.evaluate("ikDemo.state()")
    # The animation loop also ran between the chunks.
    assert state["frame"] >= start + frames and state["error"] is None, state
    # Chunks alternate a pinned and a released target, and other processes share the machine: the fastest
    # chunk of the first quarter against the fastest of the last (a released target in both; load only
    # ever adds time, a leak would add it to every chunk).
    window = max(2, len(medians) // 4)
    return {"scene": name, "frames": frames, "before": before, "after": after,
            "python_ms_first": min(medians[:window]), "python_ms_last": min(medians[-window:]),
            "python_ms_median": statistics.median(medians), "python_ms_chunks": medians}


def check(figures):
    name, before, after = figures["scene"], figures["before"], figures["after"]
    problems = []
    for key, bound in (("wasm_bytes", WASM_BYTES), ("python_objects", PYTHON_OBJECTS), ("js_refs", JS_REFS),
                       ("pyproxies", PYPROXIES), ("js_heap", JS_HEAP_BYTES), ("three_geometries", 0),
                       ("three_textures", 0), ("three_programs", 0)):
        if after[key] - before[key] > bound:
            problems.append(f"{name}: {key} grew from {before[key]} to {after[key]} (bound +{bound})")
    first, last = figures["python_ms_first"], figures["python_ms_last"]
    if last > DRIFT_RATIO * first + DRIFT_MS:
        problems.append(f"{name}: frame time drifted: median {first:.2f} ms in the fastest chunk of the first "
                        f"quarter, {last:.2f} ms in that of the last (bound {DRIFT_RATIO} x + {DRIFT_MS} ms)")
    return problems


def report(all_figures, frames, names=SCENES):
    suffix = "" if tuple(names) == tuple(SCENES) else "-" + "-".join(names)
    out = ROOT / "dist" / f"soak-{frames}{suffix}.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(all_figures, indent=1) + "\n")
    print(f"\nsoak: {frames} frames per scene after {WARMUP} of warm-up, dt {DT:.4f} s, "
          f"rendered every {RENDER_EVERY}th ({out.relative_to(ROOT)})")
    print(f"{'scene':10} {'wasm MiB':>17} {'py objects':>13} {'js refs':>9} {'proxies':>8} {'JS heap MiB':>13} "
          f"{'py ms first/last':>17}")
    for f in all_figures:
        b, a = f["before"], f["after"]
        print(f"{f['scene']:10} {b['wasm_bytes'] / 2**20:8.2f}>{a['wasm_bytes'] / 2**20:8.2f} "
              f"{b['python_objects']:6}>{a['python_objects']:6} {b['js_refs']:4}>{a['js_refs']:4} "
              f"{a['pyproxies'] - b['pyproxies']:8} {b['js_heap'] / 2**20:6.2f}>{a['js_heap'] / 2**20:6.2f} "
              f"{f['python_ms_first']:8.2f}/{f['python_ms_last']:.2f}")


def run_soak(demo, site_server, frames, chunk, names=SCENES, options=None):
    page = demo.page
    page.set_viewport_size(VIEWPORT)
    demo.open(site_server)
    demo.wait_ready()
    cdp = demo.context.new_cdp_session(page)
    all_figures = [soak_scene(page, cdp, name, frames, chunk, (options or {}).get(name)) for name in names]
    report(all_figures, frames, names)
    problems = [p for figures in all_figures for p in check(figures)]
    assert not problems, "\n".join(problems)
    # The animation loop carries on after the soak (the steps scene, paused on a step, draws and rests).
    start = page.evaluate("ikDemo.state().frame")
    demo.wait_until(f"ikDemo.state().frame >= {start + 2} || ikDemo.state().resting", 60_000, "frames or a rest")
    assert page.evaluate("ikDemo.state().error") is None


def test_soak(demo, site_server):
    # The crowd with a quarter of its spiders: the same code a frame, a quarter of the suite's time (the full
    # soak runs the hundred).
    run_soak(demo, site_server, FRAMES, 500, options={"crowd": {"count": 25}})


@pytest.mark.soak
@pytest.mark.parametrize("name", SCENES)
def test_soak_full(demo, site_server, name):
    # A scene at a time (the crowd of 100 spiders alone takes minutes): -k picks one.
    run_soak(demo, site_server, FULL_FRAMES, 1000, [name])
