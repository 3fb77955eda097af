"""Section ``pyodide``: the same cold solves in Pyodide under Node, against CPython.

A Node process (``pyodide_solves.mjs``) loads ikcore's wheel (rebuilt from the
working tree by ``./build/wheel`` first, a no-op when unchanged) into Pyodide and runs :mod:`solve_block`, the same timing code CPython runs here. The
two take turns block by block (one method and N, every target once), several
times; per target the median of each side is taken, and the table gives medians
of per-target Pyodide / CPython time ratios.
"""

import glob
import json
import os
import shutil
import statistics
import subprocess

import ikcore

from . import problems, solve_block
from .report import ratio, table, us

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def _missing():
    """Why the section cannot run here, or None."""
    if shutil.which("node") is None:
        return "node is not installed"
    if not os.path.isfile(os.path.join(ROOT, "node_modules", "pyodide", "package.json")):
        return "node_modules/pyodide is missing (./build/setup installs it)"
    return None


class PyodideNode:
    """A Node process serving timing requests: ``driver``'s ``time_block_json`` (default
    :mod:`solve_block`'s) run in Pyodide."""

    def __init__(self, wheel, driver=os.path.join(HERE, "solve_block.py")):
        self.proc = subprocess.Popen(
            ["node", os.path.join(HERE, "pyodide_solves.mjs"), wheel, driver],
            cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        first = self.proc.stdout.readline().split()
        if first[:1] != ["ready"]:
            self.close()
            raise RuntimeError("Pyodide under Node did not start")
        self.version = first[1]

    def time_block(self, request):
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("Pyodide under Node stopped answering")
        return json.loads(line)

    def close(self):
        if self.proc.stdin:
            self.proc.stdin.close()
        self.proc.wait(timeout=60)


def _current_wheel():
    """Build the wheel from the working tree with ./build/wheel (quick when unchanged); its path, or None."""
    script = os.path.join(ROOT, "build", "wheel")
    if not os.access(script, os.X_OK):
        return None
    done = subprocess.run([script], cwd=ROOT, capture_output=True, text=True)
    lines = done.stdout.split()
    if done.returncode != 0 or not lines or not os.path.isfile(lines[-1]):
        return None
    return lines[-1]


def _wheel_note(wheel):
    sources = glob.glob(os.path.join(ROOT, "ikcore", "**", "*.py"), recursive=True)
    newest = max(os.path.getmtime(p) for p in sources)
    if os.path.getmtime(wheel) < newest:
        return f"`{os.path.relpath(wheel, ROOT)}` is older than the ikcore sources: rebuild with ./build/wheel."
    return None


def wheel_for_node():
    """``(wheel path, None)`` for timing in Pyodide under Node, or ``(None, why not)``."""
    why = _missing()
    if why:
        return None, why
    wheel = _current_wheel()
    if wheel is None:
        found = sorted(glob.glob(os.path.join(ROOT, "dist", "ikcore-*-py3-none-any.whl")))
        if not found:
            return None, "no wheel in dist/ and ./build/wheel could not build one"
        wheel = found[-1]
    return wheel, None


def section(cfg):
    wheel, why = wheel_for_node()
    if why:
        return f"## Pyodide in Node\n\nNot run: {why}.", {}
    node = PyodideNode(wheel)
    rows, ratios_all = [], []
    try:
        blocks = [(m, n) for n in cfg.sizes for m in ikcore.METHODS if m != "two_bone" and m in cfg.methods]
        if "two_bone" in cfg.methods:
            blocks.append(("two_bone", 2))
        for method, n in blocks:
            targets = problems.targets_3d(n) if n > 2 else problems.draw_targets(n, 50, 12345 + n)
            probe = solve_block.time_block({"n": n, "method": method, "targets": targets[:5], "reps": 1})
            per_solve = max(statistics.mean(probe["us"]), 1.0) / 1e6
            count = max(3, min(len(targets), int(cfg.pyodide_budget / (per_solve * 3.5))))
            reps = max(1, min(cfg.pyodide_reps, int(cfg.pyodide_budget / (per_solve * 3.5 * count))))
            request = {"n": n, "method": method, "targets": [list(t) for t in targets[:count]], "reps": 1}
            here, there = [[] for _ in range(count)], [[] for _ in range(count)]
            for _ in range(reps):
                a = solve_block.time_block(request)
                b = node.time_block(request)
                for j in range(count):
                    here[j].append(a["us"][j])
                    there[j].append(b["us"][j])
            med_here = [statistics.median(v) for v in here]
            med_there = [statistics.median(v) for v in there]
            per = [t / h for t, h in zip(med_there, med_here)]
            ratios_all += per
            rows.append([method, n, f"{count} x {reps}", us(statistics.median(med_here)),
                         us(statistics.median(med_there)), ratio(statistics.median(per)),
                         f"{sum(b['converged'])} / {count}"])
    finally:
        node.close()
    note = _wheel_note(wheel)
    md = ["## Pyodide in Node against CPython", "",
          f"Pyodide {node.version} (npm `pyodide`) in Node, wheel `{os.path.relpath(wheel, ROOT)}`; the same "
          "cold solves as above, CPython and Pyodide taking turns block by block. Ratio: Pyodide time over "
          "CPython time, median over targets.", "",
          table(["method", "N", "solves x reps", "CPython median µs", "Pyodide median µs", "Pyodide vs CPython",
                 "converged in Pyodide"], rows)]
    if note:
        md += ["", f"- Note: {note}"]
    data = {"median": statistics.median(ratios_all)} if ratios_all else {}
    return "\n".join(md), data
