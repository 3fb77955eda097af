"""Section ``browser``: each scene's frame on the real site, in headless Chromium, against an empty frame.

``dist/site`` (built by ``./build/site``) is served by ``build/serve`` on a free port and opened
in Debian's Chromium through Playwright (``executable_path``, the flags of the browser tests).
Per scene, after a warm-up, the page's own timer (``performance.now()`` around the one
``step(dt)`` call into Python a frame, which solves the scene and fills the shared array)
records ``frames`` consecutive frames of the animation loop through ``ikDemo.collectTimes``; the
table gives their median and 95th percentile, figures of this machine at this hour. The goal is
a ratio (tests/browser/speed.py): the scene's frame against an **empty frame** of the page, the
same call on a scene with nothing in it, the two timed in turns in the same page (the least of
each over the rounds). The humanoid against the spider: each scene's median frame over
``frames`` frames, the two in turn (:func:`tests.browser.speed.scene_against_scene`). Then the
crowd: the tentacle scene with ``count`` tentacles (``ikDemo.setScene("tentacles", {count})``),
and the largest count whose frame stays within :data:`~tests.bench.goals.CROWD_EMPTY_FRAMES`
empty frames, found by doubling then bisecting.

Section ``spiders`` (:func:`spiders_section`): the crowd scene (``ikcore.rigs.crowd``: spiders
walking over the terrain, every leg solved in one call a frame) at ``count`` 25, 50, 100, 200
and 400, each against an empty frame and against the bare two-bone maths for its legs timed in
the page's Python, and the largest count within the same number of empty frames.

Chromium rounds ``performance.now()`` to 0.1 ms on a page that is not cross-origin isolated,
with random jitter: the ratios time batches of a few milliseconds.
"""

import contextlib
import os
import statistics
import sys
import time

from ikcore.rigs import timing
from tests.browser.conftest import CHROMIUM, FLAGS, Server
from tests.browser.speed import against, scene_against, scene_against_scene

from . import goals
from .report import table

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCENES = tuple(goals.SCENE_EMPTY_FRAME)
#: The crowds' goal: at most this many empty frames of the page a frame.
CROWD_GOAL = goals.CROWD_EMPTY_FRAMES
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
    """The largest count whose ``cost`` (empty frames a frame) is within :data:`CROWD_GOAL`, by
    bisection between ``good`` (within) and ``bad`` (over; ``None``: none found over, ``good`` stands)."""
    while bad is not None and bad - good > 1:
        mid = (good + bad) // 2
        if cost(mid) <= CROWD_GOAL:
            good = mid
        else:
            bad = mid
    return good


def _crowd(page, rounds, notes):
    """The largest tentacle count whose frame is within :data:`CROWD_GOAL` empty frames of the page,
    and ``{count: (empty frames a frame, frame ms)}`` of the counts tried."""
    cache = {}

    def cost(count):
        if count not in cache:
            page.evaluate(f"ikDemo.setScene('tentacles', {{count: {count}}})")
            r = against(page, max(1, 20 // count), 1000, rounds, "empty")
            cache[count] = (r["ratio"], min(f for f, _ in r["rounds"]))
            print(f"[bench] crowd: {count} tentacles, {cache[count][0]:.0f} empty frames", file=sys.stderr,
                  flush=True)
        return cache[count][0]

    good, bad = 0, None
    count = 4
    while bad is None:
        if cost(count) <= CROWD_GOAL:
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
    """The crowd scene at :data:`SPIDER_COUNTS` spiders against an empty frame and against the bare
    two-bone maths for its legs, and the largest count within :data:`CROWD_GOAL` empty frames; return
    ``(markdown, data)``."""
    frames = 60 if cfg.quick else 240
    rounds = 5 if cfg.quick else 11
    with _site_page() as (page, version):
        if page is None:
            return f"## Headless Chromium: the spider crowd\n\n{version}", {}
        cache = {}

        def cost(count):
            if count not in cache:
                page.evaluate(f"ikDemo.setScene('crowd', {{count: {count}}})")
                batch = max(1, 100 // count)
                r = _measure(page, frames)
                r["empty"] = against(page, batch, 1000, rounds, "empty")["ratio"]
                r["bare"] = against(page, batch, max(1, 400 // count), rounds)["ratio"]
                cache[count] = r
                print(f"[bench] spiders: {count}, {r['empty']:.0f} empty frames, {r['bare']:.2f}x its bare legs",
                      file=sys.stderr, flush=True)
            return cache[count]["empty"]

        for count in SPIDER_COUNTS:
            cost(count)
        within = [c for c in SPIDER_COUNTS if cache[c]["empty"] <= CROWD_GOAL]
        good = max(within, default=0)
        above = [c for c in SPIDER_COUNTS if c > good]
        good = _largest_within(cost, good, min(above) if above else None)
    # After the browser is gone: the crowd of 100 in CPython against its bare legs, in the same way.
    cpython = timing.against_baseline("crowd", 60 if cfg.quick else 200, rounds=3 if cfg.quick else 7, count=100)
    return _spiders_report(cache, good, version, frames, rounds, cpython)


def _spiders_report(cache, good, version, frames, rounds, cpython):
    rows = [[str(c), str(8 * c), f"{r['median']:.2f}", f"{r['p95']:.2f}", f"{r['empty']:,.0f}", f"{r['bare']:.2f}x"]
            for c, r in sorted(cache.items())]
    largest = (f"**{good} spiders** ({8 * good} legs)" if good else
               f"**none**: even {min(cache)} spiders take more than {CROWD_GOAL:,.0f} empty frames")
    page100 = cache.get(100, {}).get("bare")
    goal = goals.CROWD_BARE_LEGS
    met = "" if page100 is None else (f" In the page the crowd of 100 takes **{page100:.2f}x** its bare legs: "
                                      + ("within" if page100 <= goal else "over") + f" the goal of {goal:g}x.")
    md = [f"## Headless Chromium: the spider crowd (Chromium {version})", "",
          "The crowd scene (`#scene=crowd&count=N`): every spider's walk, gait and body, and all its legs "
          "solved in one call of the planar two_bone kernel, the shared array filled. Median and p95: the "
          f"page's timer around its one `step(dt)` call a frame, {frames} frames of the animation loop after a "
          f"{WARMUP}-frame warm-up (figures of this machine at this hour). Against an empty frame of the page "
          "and against the bare two-bone maths for its legs (`ikcore.rigs.baselines.bare_legs`: the law of "
          "cosines, the pole's plane, the knee and foot points over flat lists, for the crowd's own legs and "
          f"targets) timed in the page's Python: {rounds} rounds taking the two in turn, the least of each. "
          f"Counts between the measured ones are bisected. The largest count within {CROWD_GOAL:,.0f} empty "
          f"frames a frame: {largest}.", "",
          table(["spiders", "legs", "median ms", "p95 ms", "x empty frame", "x bare legs"], rows), "",
          f"The goal: the crowd of 100's frame within {goal:g}x the bare maths for its 800 legs in the same "
          f"runtime.{met} In CPython, the same run (`ikcore.rigs.timing.against_baseline`, thread CPU time, "
          f"{len(cpython['rounds'])} rounds in turn): **{cpython['ratio']:.2f}x** ("
          + ", ".join(f"{f:.2f} / {b:.2f} ms" for f, b in cpython["rounds"]) + ") – "
          + ("within" if cpython["ratio"] <= goal else "over") + " the goal."]
    return "\n".join(md), {"spiders": {str(c): r for c, r in cache.items()}, "largest": good,
                           "chromium": version, "cpython": cpython}


def _scenes(page, frames, rounds):
    """Per scene: the animation loop's figures (:func:`_measure`) and its frame against an empty frame."""
    scenes = {}
    for name in SCENES:
        page.evaluate(f"ikDemo.setScene('{name}')")
        scenes[name] = _measure(page, frames, quiet=True)
        r = scene_against(page, name, rounds, "empty")
        scenes[name]["empty"] = r["ratio"]
        scenes[name]["empty_ms"] = min(b for _, b in r["rounds"])
        print(f"[bench] browser {name}: {scenes[name]['median']:.3f} ms, {r['ratio']:.0f} empty frames",
              file=sys.stderr, flush=True)
    return scenes


def section(cfg):
    """Measure every scene and the crowd; return ``(markdown, data)``."""
    frames = 120 if cfg.quick else 600
    rounds = 5 if cfg.quick else 15
    with _site_page() as (page, version):
        if page is None:
            return f"## Headless Chromium\n\n{version}", {}
        notes = []
        scenes = _scenes(page, frames, rounds)
        humanoid = scene_against_scene(page, "humanoid", "spider", 3, frames)
        crowd, tried = _crowd(page, rounds, notes)
    # The same scenes in CPython, back to back and paced like the animation loop (after the
    # browser is gone, so that nothing else runs): what an idle gap between frames costs here.
    for name, r in scenes.items():
        r["cpython"] = timing.measure(name, frames)["median_ms"]
        r["cpython_paced"] = timing.measure(name, frames, paced=True)["median_ms"]
    return _scenes_report(scenes, humanoid, crowd, tried, notes, version, frames), {
        "scenes": scenes, "humanoid": humanoid, "crowd": crowd, "tried": tried, "chromium": version}


def _humanoid_report(r, frames):
    """The humanoid's frame against the spider's, in words."""
    goal = goals.HUMANOID_SPIDER
    rounds = ", ".join(f"{a:.2f} / {b:.2f} ms" for a, b in r["rounds"])
    return (f"The humanoid (six chains, its walk and its skin) against the spider: each scene's median frame over "
            f"{frames} frames, timed ten frames at a time, the two in turn ({rounds}): a humanoid frame takes "
            f"**{r['ratio']:.2f}x** a spider frame, " + ("within" if r["ratio"] <= goal else "over")
            + f" the goal of at most {goal:g}x.")


def _scenes_report(scenes, humanoid, crowd, tried, notes, version, frames):
    goal = goals.SCENE_EMPTY_FRAME
    empty = statistics.median(r["empty_ms"] for r in scenes.values())
    rows = [[name, f"{r['median']:.2f}", f"{r['p95']:.2f}", f"{r['unrendered']:.2f}", f"{r['cpython']:.2f}",
             f"{r['cpython_paced']:.2f}", f"{r['empty']:,.0f}", f"≤ {goal[name]:g}",
             "yes" if r["empty"] <= goal[name] else "no"] for name, r in scenes.items()]
    md = [f"## Headless Chromium: each scene's frame against an empty frame (Chromium {version})", "",
          "The real site (`dist/site` served by `build/serve`), each scene with its defaults. The goal: the "
          "scene's frame (the page's one `step(dt)` call into Python: solve every chain, fill the shared "
          "array) within so many **empty frames** of the page (the same call on a scene with nothing in it: "
          "what every frame costs before a scene does anything), the two timed in turns in batches of a few "
          f"milliseconds, the least of each (an empty frame took {1e3 * empty:.1f} µs in this run). "
          f"Beside it, figures of this machine at this hour: the median and p95 of {frames} frames of the "
          f"animation loop after a {WARMUP}-frame warm-up; unrendered, the same frames run back to back by "
          "`ikDemo.advance(frames, 1/60, 0)`; CPython, the same scene's `step` + `write` in this process "
          "(`ikcore.rigs.timing`), back to back and paced at 60 frames a second (where an idle core loses its "
          "caches, a frame that follows an idle gap starts cold).", "",
          table(["scene", "median ms", "p95 ms", "unrendered median ms", "CPython ms", "CPython paced ms",
                 "x empty frame", "goal", "met"], rows), "", _humanoid_report(humanoid, frames), "",
          "Crowd: the tentacle scene (20 bones a tentacle) with `count` tentacles; the largest count within "
          f"{CROWD_GOAL:,.0f} empty frames a frame: **{crowd} tentacles** ({crowd * 20} joints).", "",
          table(["tentacles", "x empty frame", "frame ms"],
                [[str(k), f"{v:,.0f}", f"{ms:.2f}"] for k, (v, ms) in sorted(tried.items())])]
    md += [""] + notes if notes else []
    return "\n".join(md)
