"""Section ``browser``: Python time per frame of each scene on the real site, in headless Chromium.

``dist/site`` (built by ``./build/site``) is served by ``build/serve`` on a free port and opened
in Debian's Chromium through Playwright (``executable_path``, the flags of the browser tests).
Per scene, after a warm-up, the page's own timer (``performance.now()`` around the one
``step(dt)`` call into Python a frame, which solves the scene and fills the shared array)
records ``frames`` consecutive frames through ``ikDemo.collectTimes``; the table gives their
median and 95th percentile. Then the crowd: the tentacle scene with ``count`` tentacles
(``ikDemo.setScene("tentacles", {count})``), and the largest count whose median Python time
per frame stays within the budget (4 ms), found by doubling then bisecting.

Section ``spiders`` (:func:`spiders_section`): the crowd scene (``ikcore.rigs.crowd``: spiders
walking over the terrain, every leg solved in one call a frame) at ``count`` 25, 50, 100, 200
and 400, and the largest count within the same budget, bisected between the measured counts.

Chromium rounds ``performance.now()`` to 0.1 ms on a page that is not cross-origin isolated,
with random jitter; over hundreds of frames the median is still good to about 0.05 ms.
"""

import contextlib
import os
import statistics
import sys
import time

from ikcore.rigs import timing
from tests.browser.conftest import CHROMIUM, FLAGS, Server

from . import in_node, legs_block
from .report import table

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCENES = ("arm", "tentacles", "spider", "race", "robot")
#: The speed targets: median Python ms per frame.
TARGETS = {"arm": 1.0, "tentacles": 2.0, "spider": 1.0, "race": 4.0, "robot": 1.0}
BUDGET_MS = 4.0
WARMUP = 60


def _percentile(values, p):
    s = sorted(values)
    return s[min(len(s) - 1, int(round(p * (len(s) - 1))))]


def _wait_ready(page, timeout=180.0):
    deadline = time.monotonic() + timeout
    while True:
        state = page.evaluate("document.documentElement.dataset.state")
        if state == "ready":
            return
        if state == "failed" or time.monotonic() > deadline:
            text = page.evaluate("document.getElementById('failure-text').textContent")
            raise RuntimeError(f"the page did not load ({state}): {text}")
        page.wait_for_timeout(100)


def _measure(page, frames, quiet=False):
    """Median and p95 of the next ``frames`` frames' Python ms, after a warm-up; with ``quiet``
    also the median of ``frames`` frames run back to back without rendering (``ikDemo.advance``)."""
    page.evaluate(f"ikDemo.collectTimes({WARMUP})")
    times = page.evaluate(f"ikDemo.collectTimes({frames})")
    if page.evaluate("ikDemo.state().error"):
        raise RuntimeError(f"the page stopped: {page.evaluate('ikDemo.state().error')}")
    out = {"median": statistics.median(times), "p95": _percentile(times, 0.95), "frames": len(times)}
    if quiet:
        out["unrendered"] = page.evaluate(f"ikDemo.advance({frames}, 1 / 60, 0)")["python_ms"]["median"]
    return out


def _largest_within(cost, good, bad):
    """The largest count whose ``cost`` is within :data:`BUDGET_MS`, by bisection between ``good``
    (within) and ``bad`` (over; ``None``: none found over, ``good`` stands)."""
    while bad is not None and bad - good > 1:
        mid = (good + bad) // 2
        if cost(mid) <= BUDGET_MS:
            good = mid
        else:
            bad = mid
    return good


def _crowd(page, frames, notes):
    """The largest tentacle count whose median Python ms per frame is within :data:`BUDGET_MS`."""
    cache = {}

    def cost(count):
        if count not in cache:
            page.evaluate(f"ikDemo.setScene('tentacles', {{count: {count}}})")
            cache[count] = _measure(page, frames)["median"]
            print(f"[bench] crowd: {count} tentacles, {cache[count]:.2f} ms", file=sys.stderr, flush=True)
        return cache[count]

    good, bad = 0, None
    count = 4
    while bad is None:
        if cost(count) <= BUDGET_MS:
            good, count = count, count * 2
        else:
            bad = count
        if count > 512:
            notes.append("- crowd search stopped at 512 tentacles")
            break
    good = _largest_within(cost, good, bad)
    page.evaluate("ikDemo.setScene('tentacles')")
    return good, cache


@contextlib.contextmanager
def _site_page():
    """The real site open in headless Chromium at a small canvas: ``(page, Chromium's version)``, or
    ``(None, reason)`` when the site or Chromium is missing."""
    site = os.path.join(ROOT, "dist", "site")
    if not os.path.isfile(os.path.join(site, "index.html")):
        yield None, "Skipped: dist/site is missing (run ./build/site)."
        return
    if not os.path.isfile(CHROMIUM):
        yield None, f"Skipped: {CHROMIUM} is missing."
        return
    from playwright.sync_api import sync_playwright

    server = Server(site)
    try:
        with sync_playwright() as driver:
            browser = driver.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
            page = browser.new_page(viewport={"width": 480, "height": 300})
            page.goto(server.url)
            _wait_ready(page)
            try:
                yield page, browser.version
            finally:
                browser.close()
    finally:
        server.stop()


#: The spider crowd's counts measured, and the frames each.
SPIDER_COUNTS = (25, 50, 100, 200, 400)


def spiders_section(cfg):
    """The crowd scene's Python ms a frame at :data:`SPIDER_COUNTS` spiders and the largest count within
    :data:`BUDGET_MS`; return ``(markdown, data)``."""
    frames = 60 if cfg.quick else 240
    with _site_page() as (page, version):
        if page is None:
            return f"## Headless Chromium: the spider crowd\n\n{version}", {}
        cache = {}

        def cost(count):
            if count not in cache:
                page.evaluate(f"ikDemo.setScene('crowd', {{count: {count}}})")
                cache[count] = _measure(page, frames, quiet=True)
                print(f"[bench] spiders: {count}, {cache[count]['median']:.2f} ms", file=sys.stderr, flush=True)
            return cache[count]["median"]

        for count in SPIDER_COUNTS:
            cost(count)
        within = [c for c in SPIDER_COUNTS if cache[c]["median"] <= BUDGET_MS]
        good = max(within, default=0)
        above = [c for c in SPIDER_COUNTS if c > good]
        bad = min(above) if above else None
        good = _largest_within(cost, good, bad)
        floors = _against_the_floor(page, frames, 3 if cfg.quick else 5)
    # After the browser is gone: the crowd of 100 in CPython (thread CPU time) against the bare two-bone
    # kernel per leg in the same process (tests/bench/legs_block.py): a ratio that the machine's load
    # leaves nearly alone, where the milliseconds above follow it.
    reps = 3 if cfg.quick else 7
    bare = min(legs_block.time_legs({"kind": "bare", "count": 800, "reps": 9})["us_per_leg"] for _ in range(reps))
    kernel = min(legs_block.time_legs({"kind": "kernel", "count": 800, "reps": 9})["us_per_leg"]
                 for _ in range(reps))
    scene = min(timing.measure("crowd", 60 if cfg.quick else 200, count=100)["median_ms"] for _ in range(reps))
    cpython = {"bare_us_per_leg": bare, "kernel_us_per_leg": kernel, "crowd_100_ms": scene,
               "crowd_us_per_leg": 1e3 * scene / 800}
    rows = [[str(c), str(8 * c), f"{r['median']:.2f}", f"{r['p95']:.2f}", f"{r['unrendered']:.2f}",
             f"{r['median'] / (8 * c) * 1000:.1f}"] for c, r in sorted(cache.items())]
    largest = (f"**{good} spiders** ({8 * good} legs)" if good else
               f"**none**: even {min(cache)} spiders take more than {BUDGET_MS:g} ms")
    md = [f"## Headless Chromium: the spider crowd (Chromium {version})", "",
          "The crowd scene (`#scene=crowd&count=N`): every spider's walk, gait and body, and all its legs "
          "solved in one call of the planar two_bone kernel, the shared array filled; the page's timer "
          f"around its one `step(dt)` call a frame, {frames} frames after a {WARMUP}-frame warm-up; "
          "unrendered: `ikDemo.advance(frames, 1/60, 0)`. Counts between the measured ones are bisected. "
          f"The largest count within {BUDGET_MS:g} ms of Python a frame (median): {largest}.", "",
          table(["spiders", "legs", "median ms", "p95 ms", "unrendered median ms", "µs per leg"], rows), "",
          f"In CPython, the same run (thread CPU time, best of {reps}): the crowd of 100 spiders "
          f"{scene:.2f} ms a frame, {cpython['crowd_us_per_leg']:.2f} µs per leg with its walk, gait, body and "
          f"write; the planar kernel alone {kernel:.2f} µs per leg; the bare two-bone kernel {bare:.2f} µs "
          f"per leg. The crowd's frame costs **{cpython['crowd_us_per_leg'] / bare:.1f}x the bare kernel per "
          f"leg**, the kernel {kernel / bare:.1f}x of it."]
    if floors:
        ratio = statistics.median(crowd / (0.8 * bare_us) for bare_us, crowd in floors)
        md += ["", "Against the floor in the same runtime, which the hour's speed of the machine leaves nearly alone: "
               f"{len(floors)} rounds, each the bare two-bone kernel in Pyodide under Node (µs per leg, best of 3 "
               f"batches of 800; 800 bare legs cost 0.8 x that in ms) and then the crowd of 100 in Chromium: "
               + ", ".join(f"{b:.2f} µs / {c:.2f} ms" for b, c in floors) + ". The crowd of 100 takes "
               f"**{ratio:.1f}x the floor of 800 bare legs** (median of the rounds). The {BUDGET_MS:g} ms budget "
               f"is {BUDGET_MS / (0.8 * 1.6):.1f}x that floor on a machine where the bare kernel takes 1.6 µs a leg "
               "in Pyodide."]
    return "\n".join(md), {"spiders": {str(c): r for c, r in cache.items()}, "largest": good,
                           "chromium": version, "cpython": cpython, "floors": floors}


def _against_the_floor(page, frames, rounds):
    """``rounds`` pairs ``(bare µs per leg in Pyodide under Node, the crowd of 100's median ms in
    Chromium)``, taken in turn so that the machine's speed falls on both alike; ``[]`` without Node or
    the wheel."""
    wheel, _ = in_node.wheel_for_node()
    if wheel is None:
        return []
    node = in_node.PyodideNode(wheel, legs_block.__file__)
    page.evaluate("ikDemo.setScene('crowd', {count: 100})")
    out = []
    try:
        for _ in range(rounds):
            bare = min(node.time_block({"kind": "bare", "count": 800, "reps": 9})["us_per_leg"] for _ in range(3))
            out.append((bare, _measure(page, frames, quiet=True)["median"]))
    finally:
        node.close()
    return out


def section(cfg):
    """Measure every scene and the crowd; return ``(markdown, data)``."""
    frames = 120 if cfg.quick else 600
    crowd_frames = 60 if cfg.quick else 120
    site = os.path.join(ROOT, "dist", "site")
    if not os.path.isfile(os.path.join(site, "index.html")):
        return ("## Headless Chromium\n\nSkipped: dist/site is missing (run ./build/site).", {})
    if not os.path.isfile(CHROMIUM):
        return (f"## Headless Chromium\n\nSkipped: {CHROMIUM} is missing.", {})
    from playwright.sync_api import sync_playwright

    notes = []
    server = Server(site)
    try:
        with sync_playwright() as driver:
            browser = driver.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
            # A small canvas: software WebGL draws it quickly, so frames come often (Python's share
            # of a frame does not depend on the canvas size).
            page = browser.new_page(viewport={"width": 480, "height": 300})
            version = browser.version
            page.goto(server.url)
            _wait_ready(page)
            scenes = {}
            for name in SCENES:
                page.evaluate(f"ikDemo.setScene('{name}')")
                scenes[name] = _measure(page, frames, quiet=True)
                print(f"[bench] browser {name}: {scenes[name]['median']:.3f} ms", file=sys.stderr, flush=True)
            crowd, tried = _crowd(page, crowd_frames, notes)
            browser.close()
    finally:
        server.stop()
    # The same scenes in CPython, back to back and paced like the animation loop (after the
    # browser is gone, so that nothing else runs): what an idle gap between frames costs here.
    for name, r in scenes.items():
        r["cpython"] = timing.measure(name, frames)["median_ms"]
        r["cpython_paced"] = timing.measure(name, frames, paced=True)["median_ms"]

    rows = [[name, f"{r['frames']}", f"{r['median']:.2f}", f"{r['p95']:.2f}", f"{r['unrendered']:.2f}",
             f"{r['cpython']:.2f}", f"{r['cpython_paced']:.2f}", f"< {TARGETS[name]:g}",
             "yes" if r["median"] < TARGETS[name] else "no"] for name, r in scenes.items()]
    md = [f"## Headless Chromium: Python ms per frame (Chromium {version})", "",
          "The real site (`dist/site` served by `build/serve`), each scene with its defaults; the page's "
          "timer around its one `step(dt)` call into Python a frame (solve every chain, fill the shared "
          f"array), {frames} frames after a {WARMUP}-frame warm-up. Targets: median per frame. "
          "Unrendered: the same frames run back to back by `ikDemo.advance(frames, 1/60, 0)`, three.js "
          "not drawing. CPython: the same scene's `step` + `write` in this process "
          "(`ikcore.rigs.timing`), back to back and paced at 60 frames a second (the thread idle between "
          "frames, as in the animation loop). Where an idle core loses its caches (a shared virtual "
          "machine), a frame that follows an idle gap starts cold: the animation loop's figure sits "
          "above the back-to-back one in the browser as in CPython, whether or not three.js draws.", "",
          table(["scene", "frames", "median ms", "p95 ms", "unrendered median ms", "CPython ms",
                 "CPython paced ms", "target", "met"], rows), "",
          f"Crowd: the tentacle scene (20 bones a tentacle) with `count` tentacles, median over "
          f"{crowd_frames} frames each; the largest count within {BUDGET_MS:g} ms of Python per frame: "
          f"**{crowd} tentacles** ({crowd * 20} joints).", "",
          table(["tentacles", "median ms"], [[str(k), f"{v:.2f}"] for k, v in sorted(tried.items())])]
    md += [""] + notes if notes else []
    return "\n".join(md), {"scenes": scenes, "crowd": crowd, "tried": tried, "chromium": version}
