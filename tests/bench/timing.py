"""Interleaved timing: every implementation measured in the same run, turn about.

Each implementation solves problem ``j`` through ``fn(j)``. Repetition 0 runs every
implementation on every one of its problems, alternating implementations problem by
problem (the order rotates), and keeps the results; it also tells how long each
implementation takes, which sets how many more repetitions it gets within its time
budget. Later repetitions interleave the same way. Per problem the median over
repetitions is taken; tables report medians over problems, and ratios are medians
of per-problem ratios between implementations timed side by side.
"""

import gc
import statistics
import time


class Impl:
    """One implementation under test.

    Parameters
    ----------
    name : str
    fn : callable(j) -> result
    problems : list of int
        The problem indices it solves (all of them, or a subset for a slow peer).
    budget : float
        Seconds of timing it may use in all (repetition 0 is always run whole).
    max_reps : int
    """

    def __init__(self, name, fn, problems, budget, max_reps):
        self.name = name
        self.fn = fn
        self.problems = list(problems)
        self.budget = budget
        self.max_reps = max_reps
        self.times = {j: [] for j in self.problems}
        self.results = {}
        self.reps = 1

    def median_us(self, j):
        """Median time of problem ``j`` in microseconds."""
        return statistics.median(self.times[j]) / 1e3

    def medians_us(self):
        """``{j: median microseconds}`` over its problems."""
        return {j: self.median_us(j) for j in self.problems}


def _clock(fn, j):
    # The thread's CPU time: on a shared machine, time spent waiting for a core while other
    # processes run is not counted (wall-clock time would charge it to whoever was running).
    t0 = _cpu_ns()
    result = fn(j)
    return max(0, _cpu_ns() - t0 - _OVERHEAD_NS), result


_cpu_ns = time.thread_time_ns


def _overhead_ns():
    """The clock's own cost between two readings (a system call here), subtracted from each time."""
    deltas = []
    for _ in range(2001):
        t0 = _cpu_ns()
        deltas.append(_cpu_ns() - t0)
    return statistics.median(deltas)


_OVERHEAD_NS = _overhead_ns()


def run_interleaved(impls, count):
    """Time ``impls`` on problems ``0 .. count - 1``, interleaved; fills each ``Impl``."""
    order = list(impls)
    gc.collect()
    gc.disable()
    try:
        spent = {impl.name: 0 for impl in order}
        for j in range(count):
            turn = order[j % len(order):] + order[:j % len(order)]
            for impl in turn:
                if j in impl.times:
                    dt, impl.results[j] = _clock(impl.fn, j)
                    impl.times[j].append(dt)
                    spent[impl.name] += dt
        for impl in order:
            first = max(spent[impl.name] / 1e9, 1e-9)
            impl.reps = max(1, min(impl.max_reps, int(impl.budget / first)))
        for rep in range(1, max(impl.reps for impl in order)):
            for j in range(count):
                shift = (j + rep) % len(order)
                for impl in order[shift:] + order[:shift]:
                    if rep < impl.reps and j in impl.times:
                        dt, _ = _clock(impl.fn, j)
                        impl.times[j].append(dt)
    finally:
        gc.enable()


def median_ratio(a, b):
    """Median over the problems both solved of ``a``'s time over ``b``'s."""
    common = [j for j in a.problems if j in b.times]
    if not common:
        return None
    return statistics.median(a.median_us(j) / b.median_us(j) for j in common)
