"""Section ``batch``: K copies of one chain at once (spider legs, crowds).

K in {8, 100, 1000} chains of N bones, batch targets (seed ``12345 + N + 2000``),
cold from rest. Three ways, timed in turn: ``ikcore.solve_batch`` (vectorised
FABRIK with numpy, per-chain stop, rotations and statuses included), a loop of
``ikcore.solve``, and the straightforward batched numpy FABRIK of
:mod:`reference` (positions only; the whole batch iterates until its slowest chain
converges).
"""

import statistics

import numpy as np

import ikcore
from ikcore.solvers import fabrik

from . import problems, reference
from .report import ratio, table, us
from .timing import Impl, run_interleaved


def measure(n, k, cfg):
    chain = problems.free_chain(n)
    targets = problems.targets_batch(n, k)
    array = np.array(targets)
    tol = 1e-3 * chain.reach
    start = np.zeros((n + 1, k, 3))
    start[:, :, 0] = np.arange(n + 1)[:, None]
    lengths = [1.0] * n

    def batch(_):
        b = ikcore.solve_batch(chain, array)
        return b.iterations, int(b.converged.sum())

    def loop(_):
        sols = [ikcore.solve(chain, t) for t in targets]
        return [s.iterations for s in sols], sum(s.converged for s in sols)

    def ref(_):
        p, it, err = reference.fabrik_numpy_batch(start, lengths, array, tol, fabrik.MAX_ITERATIONS)
        return it, int((err <= tol).sum())

    impls = [Impl(name, fn, [0], cfg.batch_budget, cfg.batch_reps)
             for name, fn in (("solve_batch", batch), ("loop of solve", loop), ("numpy reference", ref))]
    run_interleaved(impls, 1)
    return {impl.name: impl for impl in impls}


def section(cfg):
    rows, data = [], {}
    for n in cfg.batch_bones:
        for k in problems.BATCH_SIZES:
            by = measure(n, k, cfg)
            per = {name: impl.median_us(0) / k for name, impl in by.items()}
            its = by["solve_batch"].results[0][0]
            rows.append([n, k, by["solve_batch"].reps,
                         us(per["solve_batch"]), us(per["loop of solve"]), us(per["numpy reference"]),
                         ratio(per["solve_batch"] / per["loop of solve"]),
                         ratio(per["solve_batch"] / per["numpy reference"]),
                         f"{statistics.median(its):g} / {max(its)}", by["numpy reference"].results[0][0],
                         f"{by['solve_batch'].results[0][1]} / {by['loop of solve'].results[0][1]} / "
                         f"{by['numpy reference'].results[0][1]}"])
            data[(n, k)] = {"vs_loop": per["solve_batch"] / per["loop of solve"],
                            "vs_reference": per["solve_batch"] / per["numpy reference"], "per_chain_us": per}
    md = ["## Batched solving (CPython + numpy)", "",
          "µs per chain (whole batch time / K). `solve_batch` returns positions, rotations, status, iterations and "
          "error per chain; the numpy reference returns positions only and iterates the whole batch until its "
          "slowest chain converges (its iteration count is the batch's).", "",
          table(["N", "K", "reps", "solve_batch µs / chain", "loop of solve µs / chain", "numpy reference µs / chain",
                 "solve_batch vs loop", "solve_batch vs reference", "solve_batch iterations median / max",
                 "reference iterations", "converged (batch / loop / reference)"], rows)]
    return "\n".join(md), data
