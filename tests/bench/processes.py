"""Section ``processes``: FABRIK against the plain-lists floor, measured afresh in several processes.

One process's ratio is one draw. Every process times ``ikcore.solve`` (FABRIK,
rotations included) and the floor side by side on the same problems, yet where
a fresh interpreter's objects land in memory, and what else the shared machine
runs meanwhile, move the ratio by 10% or more from one process to the next. So
this section starts fresh processes one after another, each making the speed
test's measurement (the same interleaved run over the standard targets), and
gives the median over them with every draw: the figure the speed test holds to its guard (at most
that many times the floor's time, the floor timed in the same process).
"""

import json
import os
import statistics
import subprocess
import sys

from ikcore.solvers import fabrik

from . import goals, problems, solves
from .report import table
from .timing import Impl, run_interleaved

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

#: The guards the speed test holds (tests/bench/test_bench.py), per N: the median over fresh processes
#: of FABRIK's time over the floor's is at most this.
GUARDS = goals.FABRIK_FLOOR


def fabrik_vs_floor(n):
    """Median over the standard targets of ``ikcore.solve`` (FABRIK)'s time over the floor's, the
    two interleaved in one run; only targets both solve in the same iterations count."""
    chain = problems.free_chain(n)
    targets = problems.targets_3d(n)
    tol = 1e-3 * chain.reach
    impls = [Impl("floor", solves._floor_fn(n, targets, tol, fabrik.MAX_ITERATIONS), range(len(targets)),
                  3.0, 9),
             Impl("fabrik", solves._solve_fn(chain, targets, "fabrik"), range(len(targets)), 3.0, 9)]
    run_interleaved(impls, len(targets))
    floor, mine = ([impl.results[j][0] for j in range(len(targets))] for impl in impls)
    # The same work: the same iterations, except where a free chain's crawl near full reach restarts
    # from the arc onto the target and ends sooner (never later) than the floor's passes.
    assert all(a <= b for a, b in zip(mine, floor))
    same = [j for j in range(len(targets)) if mine[j] == floor[j]]
    assert len(same) >= 0.8 * len(targets)
    return statistics.median(impls[1].median_us(j) / impls[0].median_us(j) for j in same)


def draw(sizes):
    """One fresh process's :func:`fabrik_vs_floor` per N: ``{n: ratio}``."""
    done = subprocess.run([sys.executable, "-m", "tests.bench.processes", ",".join(map(str, sizes))],
                          cwd=ROOT, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"a fresh process measuring FABRIK against the floor failed:\n{done.stderr[-2000:]}")
    return {int(n): r for n, r in json.loads(done.stdout.splitlines()[-1]).items()}


def draws(sizes, count):
    """``{n: [ratio of each process]}`` from ``count`` fresh processes, one after another."""
    each = [draw(sizes) for _ in range(count)]
    return {n: [d[n] for d in each] for n in sizes}


def section(cfg):
    """Run the section; return (markdown, data)."""
    count = 5 if cfg.quick else 15
    sizes = [n for n in GUARDS if n in cfg.sizes]
    by_size = draws(sizes, count)
    rows, data = [], {}
    for n in sizes:
        ratios = by_size[n]
        median = statistics.median(ratios)
        data[n] = {"median": median, "low": min(ratios), "high": max(ratios), "draws": ratios}
        over = sum(r > GUARDS[n] for r in ratios)
        rows.append([n, f"{median:.2f}x", f"{min(ratios):.2f}x – {max(ratios):.2f}x",
                     " ".join(f"{r:.2f}" for r in ratios), f"{GUARDS[n]:.1f}x", f"{over} of {count}"])
    about = [" ".join(p.split()) for p in __doc__.split("\n\n")[1:]]
    md = ["## FABRIK against the floor, process by process (CPython)", "", "\n\n".join(about), "",
          table(["N", "median over processes", "range", "each process, in turn", "guard", "processes over it"],
                rows)]
    return "\n".join(md), data


if __name__ == "__main__":
    print(json.dumps({n: fabrik_vs_floor(int(n)) for n in sys.argv[1].split(",")}))
