"""Section ``tracking``: per-frame use, warm-started from the previous frame.

Chain ``k`` starts converged on standard target ``k`` (a FABRIK solve at ``1e-6 L``,
not timed); each of 30 frames moves its target ``0.01 L`` (see
:func:`problems.track_paths`) and every method solves from its own previous
result. Per method and N: iterations per frame (median, max), share of frames
converged at ``1e-3 L``, median microseconds per frame, and the ratio to the
floor FABRIK warm-started from its own previous points.
"""

import statistics

import ikcore
from ikcore.solvers import fabrik

from . import problems, reference
from .report import percent, ratio, table, us
from .timing import Impl, median_ratio, run_interleaved


def _floor_track(n, starts, paths, tol, cap):
    chains = len(paths)
    lengths = [1.0] * n
    state = {}

    def fn(j):
        f, k = divmod(j, chains)
        xs, ys, zs = starts[k] if f == 0 else state[k]
        xs, ys, zs, it, err = reference.fabrik_floor(xs, ys, zs, lengths, paths[k][f], tol, cap)
        state[k] = (xs, ys, zs)
        return it, err, err <= tol
    return fn


def _method_track(chain, method, rotations, paths):
    chains = len(paths)
    state = {}

    def fn(j):
        f, k = divmod(j, chains)
        start = rotations[k] if f == 0 else state[k]
        s = ikcore.solve(chain, paths[k][f], method, start=start)
        state[k] = s.rotations
        return s.iterations, s.error, s.converged
    return fn


def measure(n, cfg, methods):
    chain = problems.free_chain(n)
    firsts = problems.targets_3d(n)[:cfg.track_chains]
    paths = problems.track_paths(n, firsts)
    settled = [ikcore.solve(chain, t, "fabrik", tolerance=1e-6 * chain.reach) for t in firsts]
    rotations = [s.rotations for s in settled]
    starts = [tuple(list(c) for c in zip(*s.positions)) for s in settled]
    count = len(firsts) * problems.TRACK_FRAMES
    tol = 1e-3 * chain.reach
    impls = [Impl("floor", _floor_track(n, starts, paths, tol, fabrik.MAX_ITERATIONS), range(count), cfg.budget,
                  cfg.max_reps)]
    impls += [Impl(m, _method_track(chain, m, rotations, paths), range(count), cfg.budget, cfg.max_reps)
              for m in methods]
    run_interleaved(impls, count)
    unsettled = sum(1 for s in settled if not s.converged)
    return impls, unsettled


def section(cfg):
    methods = [m for m in ikcore.METHODS if m != "two_bone" and m in cfg.methods]
    rows, data = [], {}
    notes = []
    for n in cfg.sizes:
        impls, unsettled = measure(n, cfg, methods)
        if unsettled:
            notes.append(f"N = {n}: {unsettled} of {cfg.track_chains} chains did not converge at 1e-6 L "
                         "before tracking (they start from their best pose).")
        floor = impls[0]
        for impl in impls:
            results = [impl.results[j] for j in impl.problems]
            its = [r[0] for r in results]
            med = statistics.median(impl.medians_us().values())
            rows.append([impl.name if impl.name != "floor" else "floor (plain lists, reference)", n,
                         f"{len(impl.problems)} x {impl.reps}",
                         f"{statistics.median(its):g} / {max(its)}", percent(sum(r[2] for r in results), len(results)),
                         us(med), ratio(median_ratio(impl, floor)) if impl is not floor else "1.00x"])
            data[(impl.name, n)] = {"iterations": statistics.median(its), "us": med}
    md = ["## Tracking: per-frame solves, warm-started (CPython)", "",
          f"{cfg.track_chains} chains per N, {problems.TRACK_FRAMES} frames each; the target moves 0.01 L per frame "
          "(BENCHMARKS definition; a step that would leave 0.2 L ≤ |t| ≤ 0.95 L is mirrored off that shell).", "",
          table(["method", "N", "frames x reps", "iterations / frame median / max", "frames converged 1e-3 L",
                 "median µs / frame", "time vs floor"], rows)]
    if notes:
        md += [""] + [f"- {line}" for line in notes]
    return "\n".join(md), data
