"""Run the ikcore speed benchmark and write its markdown report.

Usage (from the repository root, after ``pip install -r tests/bench/requirements.txt``)::

    python -m tests.bench.run                       # every section, ~10 minutes on 2 cores
    python -m tests.bench.run --quick               # a smoke run of every section, ~1 minute
    python -m tests.bench.run --section batch       # some sections only (comma-separated)
    python -m tests.bench.run --out docs/benchmarks.md

Sections: ``cpython`` (cold solves per method and N, against the plain-lists
floor and ikpy), ``processes`` (FABRIK against the floor in several fresh
processes, one after another: the median and the spread of one process's
ratio), ``instructions`` (FABRIK's cold solve against the floor in
machine instructions under valgrind: the same count in every run; needs
``valgrind``), ``hard`` (limbs, near full reach, differing axes, a limited
hip and knee: success and iterations per method), ``robot`` (the Panda-like
7-joint arm on 6-D targets: solve rate, median and p95 CPU time, iterations,
against ikpy), ``urdf`` (the arms shipped as URDF on 4x4 poses, with and without an
axis mask: solve rate, median and p95 against a forward pass), ``humanoid`` (the seeds' humanoid
claims on the humanoid scene's leg, arm and spine: cold solve rate and iterations per method, and
the scene's iterations a frame when warm), ``tracking`` (warm-started
per-frame solves), ``batch``
(``solve_batch`` against a loop and a reference numpy FABRIK), ``legs`` (batched
two_bone and limited FABRIK legs against the bare two-bone kernel, CPython and
Pyodide under Node), ``pyodide`` (the
same cold solves in Pyodide under Node, against CPython; needs
``node_modules/pyodide`` and the wheel in ``dist/``), ``browser`` (each scene's
frame on the real site in headless Chromium against an empty frame of the page,
and the largest tentacle crowd within a number of empty frames; needs
``dist/site`` and Chromium), ``spiders`` (the spider crowd in the page against
an empty frame and against the bare two-bone maths for its legs). The report is
printed and written to ``--out`` (default ``dist/bench/benchmarks.md``).

Every goal is a ratio to a baseline timed in the same runtime in the same run
(tests/bench/goals.py): a machine's speed changes by the hour, and no goal is
stated in milliseconds. Times in milliseconds appear beside them as figures of
the machine the run was made on.
"""

import argparse
import os
import sys
import time

import numpy as np

import ikcore

from . import (batched, goals, hard_report, humanoid, in_browser, in_node, instructions, peers, processes, report,
               robot, solves, tracking, urdf_arms)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class Config:
    """How much to measure. ``full`` is the committed run; ``quick`` a smoke run."""

    def __init__(self, quick=False, sizes=None, methods=None):
        self.quick = quick
        self.sizes = tuple(sizes or ((3, 10, 30) if quick else (3, 10, 30, 100)))
        self.methods = tuple(methods or ikcore.METHODS)
        # Seconds of timing per implementation and N after the first repetition, which always runs whole.
        self.budget = 0.3 if quick else 2.5
        self.max_reps = 5 if quick else 15
        # 1e-6 success is measured where one pass over the targets took less than this (seconds).
        self.cheap = 0.5 if quick else 2.0
        # ikpy: how many of the 50 targets per N (it takes up to seconds per solve), and its budget.
        self.ikpy_subset = ({2: 5, 3: 5, 10: 3, 30: 1} if quick else {2: 20, 3: 20, 10: 10, 30: 4, 100: 2})
        self.ikpy_budget = 1.0 if quick else 8.0
        self.track_chains = 4 if quick else 10
        self.batch_bones = (10,) if quick else (10, 30)
        self.batch_budget = 0.5 if quick else 3.0
        self.batch_reps = 3 if quick else 15
        # Pyodide: seconds per method and N (both sides), and the most turns.
        self.pyodide_budget = 0.5 if quick else 4.0
        self.pyodide_reps = 3 if quick else 7


SECTIONS = {
    "cpython": solves.section,
    "processes": processes.section,
    "instructions": instructions.section,
    "tracking": tracking.section,
    "hard": hard_report.section,
    "robot": robot.section,
    "urdf": urdf_arms.section,
    "humanoid": humanoid.section,
    "batch": batched.section,
    "legs": batched.legs_section,
    "pyodide": in_node.section,
    "browser": in_browser.section,
    "spiders": in_browser.spiders_section,
}


def headline(results):
    """The few ratios worth quoting, from this run's data."""
    lines = []
    cp = results.get("cpython", {})
    for n in (10, 30, 100):
        if n in cp:
            d = cp[n]
            lines.append(f"- FABRIK vs the plain-lists floor, N = {n}: {d['solve']:.2f}x with rotations "
                         f"(ikcore.solve), {d['passes']:.2f}x passes only")
    for n, d in results.get("processes", {}).items():
        lines.append(f"- FABRIK vs the plain-lists floor over {len(d['draws'])} fresh processes, N = {n}: "
                     f"{d['median']:.2f}x median ({d['low']:.2f}x to {d['high']:.2f}x); goal at most "
                     f"{goals.FABRIK_FLOOR[n]:g}x")
    for n, d in results.get("instructions", {}).items():
        lines.append(f"- FABRIK vs the plain-lists floor in machine instructions (callgrind), N = {n}: "
                     f"{d['ratio']:.2f}x")
    for n in (3, 10, 30, 100):
        if n in cp and "vs_ikpy" in cp[n]:
            lines.append(f"- FABRIK vs ikpy {peers.ikpy_version()}, N = {n}: {cp[n]['vs_ikpy']:,.0f}x faster")
    b = results.get("batch", {}).get((10, 1000))
    if b:
        lines.append(f"- solve_batch, K = 1000, N = 10: {b['vs_loop']:.2f}x the time of a loop of solve, "
                     f"{b['vs_reference']:.2f}x the straightforward numpy FABRIK")
    arms = results.get("urdf", {})
    if arms:
        total = sum(d[row]["met"] for d in arms.values() for row in ("pose", "masked"))
        count = sum(d[row]["count"] for d in arms.values() for row in ("pose", "masked"))
        ratios = ", ".join(f"{d['pose']['median_vs_forward']:.0f}x ({name})" for name, d in arms.items())
        lines.append(f"- URDF arms, dls on 4x4 poses: median solve / forward pass {ratios}; solved "
                     f"{total:,} of {count:,} (with and without a mask)")
    lines += goal_lines(results)
    py = results.get("pyodide", {})
    if "median" in py:
        lines.append(f"- Pyodide in Node vs CPython, same solves: {py['median']:.2f}x the time (median)")
    return lines


def goal_lines(results):
    """The goals of the robot, the crowd and the scenes, as this run's ratios met them."""
    def verdict(value, goal):
        return f"{value:.2f}x, goal at most {goal:g}x: " + ("met" if value <= goal else "**not met**")

    lines = []
    rob = results.get("robot", {})
    for method, goal in goals.ROBOT_FORWARD.items():
        if method in rob:
            lines.append(f"- robot, {method}: median solve / forward pass {verdict(rob[method]['vs_forward'], goal)}")
    spiders = results.get("spiders", {})
    if "cpython" in spiders:
        lines.append(f"- crowd of 100, frame / bare legs, CPython: "
                     f"{verdict(spiders['cpython']['ratio'], goals.CROWD_BARE_LEGS)}")
    if "100" in spiders.get("spiders", {}):
        lines.append(f"- crowd of 100, frame / bare legs, Chromium: "
                     f"{verdict(spiders['spiders']['100']['bare'], goals.CROWD_BARE_LEGS)}")
    for name, r in results.get("browser", {}).get("scenes", {}).items():
        lines.append(f"- {name}, frame / empty frame of the page, Chromium: "
                     f"{verdict(r['empty'], goals.SCENE_EMPTY_FRAME[name])}")
    humanoid = results.get("browser", {}).get("humanoid")
    if humanoid:
        lines.append(f"- humanoid, frame / spider frame, Chromium: {verdict(humanoid['ratio'], goals.HUMANOID_SPIDER)}")
    return lines


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m tests.bench.run", description=__doc__.split("\n")[0])
    parser.add_argument("--section",
                        default="cpython,processes,instructions,hard,robot,urdf,humanoid,tracking,batch,legs,pyodide,browser,spiders",
                        help="comma-separated sections: " + ", ".join(SECTIONS))
    parser.add_argument("--quick", action="store_true", help="small budgets: a smoke run")
    parser.add_argument("--sizes", help="comma-separated N (default 3,10,30,100)")
    parser.add_argument("--methods", help="comma-separated methods (default all)")
    parser.add_argument("--out", default=os.path.join(ROOT, "dist", "bench", "benchmarks.md"))
    args = parser.parse_args(argv)
    names = [s.strip() for s in args.section.split(",") if s.strip()]
    unknown = [s for s in names if s not in SECTIONS]
    if unknown:
        parser.error(f"unknown section(s) {', '.join(unknown)}; choose from {', '.join(SECTIONS)}")
    cfg = Config(args.quick, sizes=[int(v) for v in args.sizes.split(",")] if args.sizes else None,
                 methods=args.methods.split(",") if args.methods else None)

    versions = {"ikcore": ikcore.__version__, "numpy": np.__version__,
                "ikpy": peers.ikpy_version() or "not installed"}
    command = "python -m tests.bench.run " + " ".join(argv if argv is not None else sys.argv[1:])
    parts, results = [], {}
    started = time.perf_counter()
    for name in names:
        t0 = time.perf_counter()
        print(f"[bench] section {name} ...", file=sys.stderr, flush=True)
        md, data = SECTIONS[name](cfg)
        results[name] = data
        parts.append(md)
        print(md + "\n", flush=True)
        print(f"[bench] section {name} took {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
    elapsed = time.perf_counter() - started

    doc = ["# ikcore benchmarks", "",
           report.machine(ROOT, versions),
           f"- Command: `{command.strip()}` ({elapsed / 60:.1f} minutes); dependencies: "
           "`pip install -r tests/bench/requirements.txt`", "",
           "Standard problems: N unit bones on a straight rest pose along +x, 50 targets per N from "
           "`numpy.random.default_rng(12345 + N)`, radius U[0.2, 0.95] x reach L; success means "
           "|effector - target| ≤ 1e-3 L (the default tolerance). The floor is FABRIK over three flat float "
           "lists with the maths inlined and positions only (tests/bench/reference.py): what a pure-Python "
           "FABRIK costs at least. All implementations of a table are timed in one run, turn about per "
           "problem; each problem's time is the median over its repetitions, tables show medians over "
           "problems, and ratios are medians of per-problem ratios. GC is paused while timing. "
           "The machine is shared: absolute times vary by ±20% between runs, ratios less.", ""]
    lines = headline(results)
    if lines:
        doc += ["## Headline", ""] + lines + [""]
    doc += [p + "\n" for p in parts]
    text = "\n".join(doc)
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"[bench] wrote {args.out}", file=sys.stderr)
    return results


if __name__ == "__main__":
    main()
