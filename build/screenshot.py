"""Take the README's picture of the built site (see build/screenshot, which runs this in .venv)."""

import argparse
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
# What software WebGL needs headless (as in tests/browser/conftest.py).
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--enable-unsafe-swiftshader"]


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scene", default="arm")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "demo.png")
    parser.add_argument("--size", default="1024x640", help="the window, WIDTHxHEIGHT")
    parser.add_argument("--quality", default="high", choices=("high", "low", "auto"),
                        help="the renderer's quality (the page's quality= link key)")
    parser.add_argument("--scale", type=float, default=1, help="device pixels per CSS pixel (a phone's 2 or 3)")
    args = parser.parse_args()
    width, height = (int(v) for v in args.size.split("x"))
    from playwright.sync_api import sync_playwright

    server = subprocess.Popen([sys.executable, str(ROOT / "build" / "serve"), "--dir", str(ROOT / "dist" / "site"),
                               "--port", "0", "--quiet"], stdout=subprocess.PIPE, text=True)
    try:
        url = server.stdout.readline().split(" at ", 1)[1].strip()
        with sync_playwright() as driver:
            browser = driver.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
            page = browser.new_page(viewport={"width": width, "height": height}, device_scale_factor=args.scale,
                                    is_mobile=args.scale > 1, has_touch=args.scale > 1)
            page.goto(f"{url}#scene={args.scene}&quality={args.quality}")
            deadline = time.monotonic() + 120
            while page.evaluate("document.documentElement.dataset.state") != "ready":
                if time.monotonic() > deadline or page.evaluate("document.documentElement.dataset.state") == "failed":
                    sys.exit(f"[ikcore] error: the page did not load: {page.evaluate('ikDemo.state().error')}")
                page.wait_for_timeout(100)
            # Sixty frames of the animation loop, as a reader's page draws them: the HUD then shows this
            # renderer's own frame rate over them (a software one draws a few frames a second); a still
            # scene (the steps scene, paused on its step) rests once drawn.
            # (Polled from here: the page's Content-Security-Policy refuses wait_for_function's eval.)
            deadline = time.monotonic() + 180
            while page.evaluate("ikDemo.state().frame < 62 && !ikDemo.state().resting"):
                if time.monotonic() > deadline:
                    sys.exit("[ikcore] error: the page drew fewer than 62 frames in 3 minutes")
                page.wait_for_timeout(250)
            page.wait_for_timeout(300)
            args.out.parent.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(args.out))
            browser.close()
    finally:
        server.terminate()
        server.wait()
    print(f"[ikcore] wrote {args.out.relative_to(ROOT) if args.out.is_relative_to(ROOT) else args.out}",
          file=sys.stderr)


if __name__ == "__main__":
    main()
