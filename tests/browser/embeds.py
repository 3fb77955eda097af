"""What a documentation page with three embedded traces costs: memory, and CPU while nobody touches it.

Run: ``.venv/bin/python tests/browser/embeds.py`` (after ``./build/wheel && .venv/bin/python build/site``).

A page on a second server (another origin, as a documentation site would be) embeds three steps scenes at
480x320, the walkthrough's three (FABRIK, CCD, DLS; planar, one target), loaded one after another. Once the
three are ready and have settled, for ``--seconds`` each:

- *visible*: the three in view, paused on their step (the reader reads);
- *scrolled away*: the three above the window (the reader reads on);

the CPU time of the whole browser (every process Chromium started: browser, renderers, GPU, utility) is
read from /proc before and after, and given as a share of one core. Memory: the browser's proportional set
size (PSS, from /proc/<pid>/smaps_rollup, which shares libraries fairly between processes) and each frame's
WebAssembly memory (ikDemo.health()). Numbers on a 2-core machine shared with other work: CPU time, not wall
time, and the median of ``--repeat`` runs.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
from conftest import CHROMIUM, FLAGS  # noqa: E402

SRCS = ["scene=steps&embed=1&planar=1&method=fabrik&t.target=1.3,0.6,0&step=4",
        "scene=steps&embed=1&planar=1&method=ccd&t.target=1.3,0.6,0&step=1",
        "scene=steps&embed=1&planar=1&method=dls&t.target=1.3,0.6,0&step=1"]
PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>three embeds</title>
<link rel="icon" href="data:,"><style>body {{ margin: 0; }} iframe {{ border: 0; display: block; margin: 4px; }}
#below {{ height: 3000px; }}</style></head><body>
{frames}
<div id="below"></div>
<script>
  // One at a time, each when the one before says it is ready, as the walkthrough loads them.
  const frames = [...document.querySelectorAll("iframe")];
  window.ready = 0;
  const next = () => {{ if (ready < frames.length) frames[ready].src = frames[ready].dataset.src; }};
  addEventListener("message", (e) => {{
    if (e.data && e.data.type === "ikcore" && e.data.event === "ready") {{ ready++; next(); }}
  }});
  next();
</script></body></html>"""


def serve(folder):
    process = subprocess.Popen([sys.executable, str(ROOT / "build" / "serve"), "--dir", str(folder), "--port", "0",
                                "--quiet"], stdout=subprocess.PIPE, text=True)
    return process, process.stdout.readline().split(" at ", 1)[1].strip().rstrip("/")


def descendants(root):
    """``root`` and every process under it."""
    parents = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            parents[int(entry)] = int(stat.rsplit(")", 1)[1].split()[1])
    out, todo = [], [root]
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo += [p for p, parent in parents.items() if parent == pid]
    return out


def cpu_seconds(pids):
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / ticks


def pss_bytes(pids):
    total = 0
    for pid in pids:
        try:
            for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    total += int(line.split()[1]) * 1024
        except OSError:
            continue
    return total


def browser_pid(user_data_dir):
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                cmd = Path(f"/proc/{entry}/cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if cmd and b"chrom" in cmd[0]:
                if f"--user-data-dir={user_data_dir}".encode() in cmd and not any(
                        c.startswith(b"--type=") for c in cmd):
                    return int(entry)
    raise RuntimeError("the browser process was not found")


def measure(seconds):
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        site, site_url = serve(ROOT / "dist" / "site")
        folder = Path(tmp) / "doc"
        folder.mkdir()
        (folder / "index.html").write_text("x")
        doc, doc_url = serve(folder)
        frames = "\n".join(f'<iframe width="480" height="320" title="trace {k}" data-src="{site_url}/#{src}'
                           f'&amp;origin={doc_url}"></iframe>' for k, src in enumerate(SRCS))
        (folder / "index.html").write_text(PAGE.format(frames=frames))
        profile = Path(tmp) / "profile"
        try:
            with sync_playwright() as p:
                context = p.chromium.launch_persistent_context(
                    str(profile), executable_path=CHROMIUM, args=FLAGS, viewport={"width": 1000, "height": 1000})
                page = context.pages[0] if context.pages else context.new_page()
                page.goto(doc_url + "/")
                deadline = time.monotonic() + 600
                while page.evaluate("ready") < len(SRCS):
                    if time.monotonic() > deadline:
                        raise RuntimeError("the embeds did not load")
                    page.wait_for_timeout(500)
                page.wait_for_timeout(5000)
                pids = descendants(browser_pid(profile))
                frames = [f for f in page.frames if f != page.main_frame]
                wasm = [f.evaluate("ikDemo.health().python.wasm_bytes") for f in frames]
                heap = [f.evaluate("performance.memory ? performance.memory.usedJSHeapSize : 0") for f in frames]
                figures = {"pss_mib": pss_bytes(pids) / 2**20, "wasm_mib": [w / 2**20 for w in wasm],
                           "js_heap_mib": [h / 2**20 for h in heap]}
                for name, scroll in (("visible", 0), ("scrolled_away", 2000)):
                    page.evaluate(f"scrollTo(0, {scroll})")
                    page.wait_for_timeout(1000)
                    pids = descendants(browser_pid(profile))
                    frame_counts = [f.evaluate("ikDemo.state().frame") for f in frames]
                    before, t0 = cpu_seconds(pids), time.monotonic()
                    time.sleep(seconds)
                    after, t1 = cpu_seconds(descendants(browser_pid(profile))), time.monotonic()
                    figures[name] = {"cpu_share": (after - before) / (t1 - t0),
                                     "frames": [f.evaluate("ikDemo.state().frame") - c
                                                for f, c in zip(frames, frame_counts)]}
                context.close()
        finally:
            site.terminate()
            doc.terminate()
    return figures


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    runs = [measure(args.seconds) for _ in range(args.repeat)]
    for run in runs:
        print(json.dumps(run))
    med = lambda f: statistics.median(f(r) for r in runs)  # noqa: E731
    print(f"three embeds, median of {args.repeat} runs of {args.seconds:.0f} s:")
    print(f"  browser PSS {med(lambda r: r['pss_mib']):.0f} MiB; per frame wasm "
          f"{med(lambda r: statistics.mean(r['wasm_mib'])):.0f} MiB, JS heap "
          f"{med(lambda r: statistics.mean(r['js_heap_mib'])):.1f} MiB")
    for name in ("visible", "scrolled_away"):
        print(f"  {name}: CPU {100 * med(lambda r: r[name]['cpu_share']):.0f}% of one core, "
              f"frames drawn {runs[-1][name]['frames']}")


if __name__ == "__main__":
    main()
