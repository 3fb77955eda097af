"""Time a block of cold solves: the same code in CPython and in Pyodide.

Pure Python (no numpy: Pyodide here has none). A request names the method, the
number of bones, the targets and the repetitions; the answer gives, per target,
the median time in microseconds, the iterations and whether it converged.
"""

import gc
import json
import time

import ikcore


def time_block(request):
    n = request["n"]
    method = request["method"]
    targets = [tuple(t) for t in request["targets"]]
    chain = ikcore.Chain([(float(i), 0.0, 0.0) for i in range(n + 1)])
    times = [[] for _ in targets]
    results = [None] * len(targets)
    clock = time.perf_counter_ns
    gc.collect()
    gc.disable()
    try:
        for _ in range(request["reps"]):
            for j, t in enumerate(targets):
                t0 = clock()
                s = ikcore.solve(chain, t, method)
                times[j].append(clock() - t0)
                results[j] = (s.iterations, s.converged)
    finally:
        gc.enable()
    us = [sorted(ts)[len(ts) // 2] / 1e3 for ts in times]
    return {"us": us, "iterations": [r[0] for r in results], "converged": [r[1] for r in results]}


def time_block_json(line):
    """``time_block`` over a JSON line, answered as a JSON line (the Node side's entry point)."""
    return json.dumps(time_block(json.loads(line)))
