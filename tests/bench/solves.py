"""Section ``cpython``: one cold solve per standard target, every method, N in {3, 10, 30, 100}.

Per method and N: median microseconds per solve, iterations (median, max), success
at ``1e-3 L`` (and ``1e-6 L`` where that is cheap), nanoseconds per joint-iteration,
the ratio to the plain-lists FABRIK floor on the same targets, and how many times
faster than ikpy (on ikpy's subset of the targets). A second table splits ikcore's
FABRIK against the floor: the whole ``ikcore.solve`` call, the solver alone
(``fabrik.run`` on a prepared problem: no validation, no Solution made; for a free chain it
includes the rotations of the pose it returns) and its passes alone (``fabrik.run`` with
the positions-to-rotations step skipped).
"""

import statistics

import ikcore
from ikcore import kinematics
from ikcore.problem import check_request, check_settings
from ikcore.solvers import fabrik

from . import peers, problems, reference
from .report import big_ratio, percent, ratio, table, us
from .timing import Impl, median_ratio, run_interleaved

TIGHT = 1e-6


def _floor_fn(n, targets, tol, cap, starts=None):
    xs = [float(i) for i in range(n + 1)]
    zeros = [0.0] * (n + 1)
    lengths = [1.0] * n

    def fn(j):
        xs_, ys_, zs_, it, err = reference.fabrik_floor(xs, zeros, zeros, lengths, targets[j], tol, cap)
        return it, err, err <= tol
    return fn


def _solve_fn(chain, targets, method, **kw):
    def fn(j):
        s = ikcore.solve(chain, targets[j], method, **kw)
        return s.iterations, s.error, s.converged
    return fn


def _run_fn(chain, targets, passes_only):
    """``fabrik.run`` on prepared problems; with ``passes_only`` its points-to-rotations step is
    skipped (the final points stand with the start's rotations)."""
    settings = check_settings(chain, "fabrik")
    made = [check_request(settings, t) for t in targets]
    keep = fabrik.pose_from_points

    def skip(chain, reference, points, directions=None):
        return kinematics.Frames(reference.rotations, reference.worlds, points)

    def fn(j):
        if passes_only:
            fabrik.pose_from_points = skip
        try:
            o = fabrik.run(made[j])
        finally:
            fabrik.pose_from_points = keep
        return o.iterations, o.errors[-1], o.errors[-1] <= made[j].tolerance
    return fn


def _ikpy_fn(points, targets, tol):
    solver = peers.IkpySolver(points)

    def fn(j):
        err = solver.solve(targets[j])
        return None, err, err <= tol
    return fn


def _tight_pass(impl_fn_factory, count):
    """Success and median iterations at ``1e-6 L`` (one untimed pass)."""
    fn = impl_fn_factory()
    results = [fn(j) for j in range(count)]
    hits = sum(1 for r in results if r[2])
    its = [r[0] for r in results if r[0] is not None]
    return hits, (statistics.median(its) if its else None)


def measure(n, cfg, methods):
    """Time every implementation on the standard 3D targets for ``n`` bones."""
    chain = problems.free_chain(n)
    targets = problems.targets_3d(n) if n > 2 else problems.draw_targets(n, 50, 12345 + n)
    count = len(targets)
    tol = 1e-3 * chain.reach
    cap = fabrik.MAX_ITERATIONS
    budget = cfg.budget
    impls = [Impl("floor", _floor_fn(n, targets, tol, cap), range(count), budget, cfg.max_reps)]
    for m in methods:
        impls.append(Impl(m, _solve_fn(chain, targets, m), range(count), budget, cfg.max_reps))
    if "fabrik" in methods and n > 2:
        impls.append(Impl("fabrik run()", _run_fn(chain, targets, False), range(count), budget, cfg.max_reps))
        impls.append(Impl("fabrik passes", _run_fn(chain, targets, True), range(count), budget, cfg.max_reps))
    subset = cfg.ikpy_subset.get(n, 0)
    if subset and peers.ikpy_version() is not None:
        impls.append(Impl("ikpy", _ikpy_fn(chain.points, targets, tol), range(min(subset, count)),
                          cfg.ikpy_budget, cfg.max_reps))
    run_interleaved(impls, count)
    by_name = {impl.name: impl for impl in impls}

    tight = {}
    for impl in impls:
        spent = sum(impl.times[j][0] for j in impl.problems) / 1e9
        if impl.name in ("fabrik run()", "fabrik passes", "ikpy") or spent > cfg.cheap:
            continue
        if impl.name == "floor":
            factory = lambda: _floor_fn(n, targets, TIGHT * chain.reach, cap)  # noqa: E731
        else:
            factory = lambda m=impl.name: _solve_fn(chain, targets, m, tolerance=TIGHT * chain.reach)  # noqa: E731
        tight[impl.name] = _tight_pass(factory, count)
    return chain, count, by_name, tight


def rows_for(n, count, by_name, tight):
    """Main-table rows for one N."""
    floor = by_name["floor"]
    peer = by_name.get("ikpy")
    rows = []
    for name, impl in by_name.items():
        if name in ("fabrik run()", "fabrik passes"):
            continue
        results = [impl.results[j] for j in impl.problems]
        its = [r[0] for r in results if r[0] is not None]
        hits = sum(1 for r in results if r[2])
        med = statistics.median(impl.medians_us().values())
        nsji = None
        if its:
            work = sum(n * max(r[0], 1) for r in results)
            nsji = f"{1e3 * sum(impl.medians_us().values()) / work:,.0f}"
        t_hits, t_its = tight.get(name, (None, None))
        label = "floor (plain lists, reference)" if name == "floor" else name
        solved = f"{len(impl.problems)}" + ("" if len(impl.problems) == count else f" of {count}")
        rows.append([
            label, n, f"{solved} x {impl.reps}", us(med),
            f"{statistics.median(its):g} / {max(its)}" if its else None,
            percent(hits, len(results)),
            None if t_hits is None else f"{percent(t_hits, count)} ({t_its:g} it)",
            nsji,
            ratio(median_ratio(impl, floor)) if name != "floor" else "1.00x",
            None if peer is None or name == "ikpy" else big_ratio(1.0 / median_ratio(impl, peer)),
        ])
    return rows


HEADER = ["method", "N", "solves x reps", "median µs / solve", "iterations median / max", "success 1e-3 L",
          "success 1e-6 L (median it)", "ns / joint-iteration", "time vs floor", "faster than ikpy"]


def section(cfg):
    """Run the section; return (markdown, data)."""
    main_rows, split_rows, data = [], [], {}
    methods = [m for m in ikcore.METHODS if m != "two_bone" and m in cfg.methods]
    for n in cfg.sizes:
        chain, count, by_name, tight = measure(n, cfg, methods)
        main_rows += rows_for(n, count, by_name, tight)
        if "fabrik" in by_name:
            floor = by_name["floor"]
            r_solve = median_ratio(by_name["fabrik"], floor)
            r_run = median_ratio(by_name["fabrik run()"], floor)
            r_pass = median_ratio(by_name["fabrik passes"], floor)
            split_rows.append([n, us(statistics.median(floor.medians_us().values())),
                               us(statistics.median(by_name["fabrik"].medians_us().values())), ratio(r_solve),
                               ratio(r_run), ratio(r_pass)])
            data[n] = {"solve": r_solve, "run": r_run, "passes": r_pass}
            if "ikpy" in by_name:
                data[n]["vs_ikpy"] = 1.0 / median_ratio(by_name["fabrik"], by_name["ikpy"])
    if "two_bone" in cfg.methods:
        _, count, by_name, tight = measure(2, cfg, ["two_bone", "fabrik"])
        main_rows += rows_for(2, count, by_name, tight)
    md = ["## Cold solves, 3D free chains (CPython)", "",
          "Every solve starts from the straight rest pose; targets and tolerance per the standard problems. "
          "`two_bone` applies to a 2-bone chain only: its row (N = 2, same target recipe, seed 12345 + 2) "
          "compares it with FABRIK and the floor there. ikpy runs on a subset of the targets where it is slow "
          "(\"k of 50\"); its ratio is taken on that subset. ikpy's chain: two revolute joints (about z, then y) "
          "per ball joint, all angles 0 at the start (the same straight rest pose), its default least-squares "
          "solve; it reaches about 1e-9 L. ns / joint-iteration: time over N x iterations (for the Jacobian "
          "methods an iteration is one Jacobian step). Success at 1e-6 L is measured (untimed) where one pass "
          "over the targets is cheap.", "",
          table(HEADER, main_rows), "",
          "### ikcore FABRIK against the floor", "",
          "`solve`: the public call (validation, solver, Solution). `run()`: the solver "
          "alone on a prepared problem, rotations included. `passes`: the solver without turning positions "
          "into rotations. Medians of per-target time ratios.", "",
          table(["N", "floor µs", "solve µs", "solve vs floor", "run() vs floor", "passes vs floor"], split_rows)]
    return "\n".join(md), data
