"""Frames per second of each scene at each quality, in headless Chromium's software WebGL (SwiftShader).

Not a test: a measurement, run by hand (docs/page/quality.md says what it measures)::

    .venv/bin/python tests/browser/fps.py                         # dist/site, every scene, both qualities
    .venv/bin/python tests/browser/fps.py --site dist/site --site /tmp/old-site --rounds 3

Several ``--site`` folders are measured interleaved (round by round, scene by scene, quality by quality,
site by site), so that a machine whose load changes during the run (2 shared cores) weighs on each
alike; the table gives each site's median over the rounds. Each run opens a fresh page at 1280 x 800 on
``#scene=<name>&quality=<q>``, lets it draw for ``--warmup`` seconds, then counts the animation loop's
frames (``ikDemo.state().frame``) over ``--seconds`` seconds. ``--shots DIR`` saves a screenshot of each
page at the end of its run.
"""

import argparse
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from conftest import CHROMIUM, FLAGS, LOAD_TIMEOUT_MS, Server  # noqa: E402

SCENES = ("arm", "tentacles", "spider", "race", "robot")
QUALITIES = ("low", "high")
VIEWPORT = {"width": 1280, "height": 800}


def measure(browser, url, warmup, seconds, shot=None):
    """Frames per second of the page at ``url`` (a fresh context), and its renderer's description."""
    context = browser.new_context(viewport=VIEWPORT, service_workers="block")
    try:
        page = context.new_page()
        page.goto(url)
        deadline = time.monotonic() + LOAD_TIMEOUT_MS / 1000
        while page.evaluate("document.documentElement.dataset.state") != "ready":
            if time.monotonic() > deadline or page.evaluate("document.documentElement.dataset.state") == "failed":
                raise RuntimeError(f"{url} did not load")
            page.wait_for_timeout(100)
        page.wait_for_timeout(warmup * 1000)
        f0, t0 = page.evaluate("[ikDemo.state().frame, performance.now()]")
        page.wait_for_timeout(seconds * 1000)
        f1, t1, renderer = page.evaluate("[ikDemo.state().frame, performance.now(), ikDemo.state().renderer]")
        if shot:
            page.screenshot(path=str(shot))
        return 1000.0 * (f1 - f0) / (t1 - t0), renderer
    finally:
        context.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", action="append", type=Path, help="a built site folder (repeatable)")
    parser.add_argument("--scene", action="append", choices=SCENES)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--seconds", type=float, default=6.0)
    parser.add_argument("--shots", type=Path)
    args = parser.parse_args()
    sites = args.site or [HERE.parent.parent / "dist" / "site"]
    scenes = args.scene or SCENES
    from playwright.sync_api import sync_playwright

    servers = [Server(site) for site in sites]
    results = {}
    try:
        with sync_playwright() as driver:
            browser = driver.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
            for r in range(args.rounds):
                for scene in scenes:
                    for quality in QUALITIES:
                        for k, server in enumerate(servers):
                            shot = None
                            if args.shots:
                                args.shots.mkdir(parents=True, exist_ok=True)
                                shot = args.shots / f"site{k}-{scene}-{quality}.png"
                            fps, renderer = measure(browser, f"{server.url}#scene={scene}&quality={quality}",
                                                    args.warmup, args.seconds, shot)
                            results.setdefault((k, scene, quality), []).append(fps)
                            print(f"round {r + 1} site {k} {scene:9} {quality:4} {fps:5.1f} fps "
                                  f"({renderer['name']}, antialias {renderer['antialias']}, "
                                  f"shadows {renderer['shadows']})", file=sys.stderr, flush=True)
            browser.close()
    finally:
        for server in servers:
            server.stop()
    header = "| scene | quality | " + " | ".join(str(site) for site in sites) + " |"
    print(header)
    print("|" + "---|" * (2 + len(sites)))
    for scene in scenes:
        for quality in QUALITIES:
            cells = [f"{statistics.median(results[(k, scene, quality)]):.1f}" for k in range(len(sites))]
            print(f"| {scene} | {quality} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
