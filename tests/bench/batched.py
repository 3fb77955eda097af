"""Sections ``batch`` and ``legs``: many copies of one chain at once (spider legs, crowds).

``batch``: K in {8, 100, 1000} free chains of N bones, batch targets (seed
``12345 + N + 2000``), cold from rest. Three ways, timed in turn:
``ikcore.solve_batch`` (FABRIK's batched kernel, every copy held to what
``ikcore.solve`` gives it; rotations and statuses included), a loop of
``ikcore.solve``, and the straightforward batched numpy FABRIK of
:mod:`reference` (positions only; the whole batch iterates until its slowest
chain converges).

``legs``: the legs of :mod:`legs_block` (planar spider legs for the batched
``two_bone`` and its kernel, ball-hip legs with a pole for the batched
``two_bone`` with numpy, without it and for a loop of ``solve``, a limited
three-bone leg for the batched FABRIK),
per leg against the bare two-bone kernel, in CPython and in Pyodide under Node,
each kind timed in turn with the bare kernel.
"""

import statistics

import numpy as np

import ikcore
from ikcore.solvers import fabrik

from . import in_node, legs_block, problems, reference
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


#: Legs per batch: a crowd of a hundred spiders (FABRIK's limited legs: fewer, each takes longer).
LEGS = {"bare": 800, "kernel": 800, "two_bone": 800, "ball_leg": 800, "ball_leg_lists": 800, "ball_leg_loop": 800,
        "fabrik": 100}
LABELS = {"bare": "bare two-bone kernel (floor)", "kernel": "PlanarLeg.solve (two_bone kernel)",
          "two_bone": "solve_batch two_bone, planar legs",
          "ball_leg": "solve_batch two_bone, ball-hip legs with a pole (numpy kernel where numpy is)",
          "ball_leg_lists": "solve_batch two_bone, ball-hip legs with a pole, without numpy",
          "ball_leg_loop": "loop of solve two_bone, ball-hip legs with a pole",
          "fabrik": "solve_batch fabrik, limited 3-bone legs"}


def _legs_rounds(time_legs, reps, rounds):
    """Per kind the median over ``rounds`` of its per-leg time, the rounds taking the kinds in turn
    so that load on the machine falls on all alike; and the converged counts."""
    times = {kind: [] for kind in LEGS}
    converged = {}
    for _ in range(rounds):
        for kind, count in LEGS.items():
            answer = time_legs({"kind": kind, "count": count, "reps": reps if kind != "fabrik" else 1})
            times[kind].append(answer["us_per_leg"])
            converged[kind] = answer["converged"]
    return {kind: statistics.median(v) for kind, v in times.items()}, converged


def legs_section(cfg):
    reps, rounds = (3, 2) if cfg.quick else (7, 5)
    here, done_here = _legs_rounds(legs_block.time_legs, reps, rounds)
    wheel, why = in_node.wheel_for_node()
    there = done_there = None
    if wheel is not None:
        node = in_node.PyodideNode(wheel, legs_block.__file__)
        try:
            there, done_there = _legs_rounds(node.time_block, reps, rounds)
        finally:
            node.close()
    rows = []
    for kind, count in LEGS.items():
        row = [LABELS[kind], count, us(here[kind]), ratio(here[kind] / here["bare"]), f"{done_here[kind]} / {count}"]
        if there is not None:
            row += [us(there[kind]), ratio(there[kind] / there["bare"]), f"{done_there[kind]} / {count}"]
        rows.append(row)
    header = ["legs", "count", "CPython µs / leg", "vs bare (CPython)", "converged (CPython)"]
    if there is not None:
        header += ["Pyodide µs / leg", "vs bare (Pyodide)", "converged (Pyodide)"]
    md = ["## Many legs at once: batched two_bone and FABRIK against the bare kernel", "",
          "Cold from rest, targets at the tips of random poses within the limits (tests/bench/legs_block.py). "
          "The bare kernel is the law of cosines, the pole's plane and the knee and foot points over flat lists, "
          "no rotations, limits or status. Per leg: the whole batch's time over its legs, median over "
          f"{rounds} rounds that take the kinds in turn (each round the median of {reps} runs).", "",
          table(header, rows)]
    if why:
        md += ["", f"- Pyodide: not run ({why})."]
    data = {"cpython": {k: here[k] / here["bare"] for k in LEGS}}
    if there is not None:
        data["pyodide"] = {k: there[k] / there["bare"] for k in LEGS}
    return "\n".join(md), data
