"""Section ``hard``: the hard problems of :mod:`hard` (limbs, near full reach, differing axes, a
limited hip and knee), per method: how many converge, in how many iterations, in what time."""

import statistics
import time

import ikcore

from . import hard
from .report import percent, table, us


def _solve_all(cases, method):
    """Each case solved once from rest: ``(solutions, CPU microseconds per solve)``."""
    solutions, spent = [], []
    for chain, target in cases:
        t0 = time.thread_time_ns()
        solutions.append(ikcore.solve(chain, target, method))
        spent.append((time.thread_time_ns() - t0) / 1e3)
    return solutions, spent


def section(cfg):
    rows = []
    data = {}
    for name, (make, methods) in hard.PROBLEMS.items():
        cases = make()
        if cfg.quick:
            cases = cases[::5]
        for method in methods:
            if method not in cfg.methods:
                continue
            solutions, spent = _solve_all(cases, method)
            hits = sum(s.converged for s in solutions)
            its = [s.iterations for s in solutions]
            worse = sum(s.error > s.errors[0] + 1e-12 * chain.reach
                        for s, (chain, _) in zip(solutions, cases))
            rows.append([name, method, percent(hits, len(cases)), f"{statistics.median(its):g} / {max(its)}",
                         us(statistics.median(spent)), worse])
            data[(name, method)] = {"converged": hits / len(cases), "median_iterations": statistics.median(its)}
    md = ["## Hard problems", "",
          "Where solvers used to fail or crawl (tests/bench/hard.py; the same cases as "
          "tests/core/test_hard_problems.py): limbs of a ball or free hip, a knee and an ankle; straight chains "
          "with targets at 0.95 to 0.999999 of their reach; six hinges about differing axes; a limited hip and "
          "knee under two_bone. Default settings, cold from rest, CPU time per solve (median). \"Worse\": solves "
          "that ended farther from the target than they started.", "",
          table(["problem", "method", "converged", "iterations median / max", "µs per solve (median)", "worse"],
                rows)]
    return "\n".join(md), data
