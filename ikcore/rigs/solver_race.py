"""``race_solvers``: the playground's race, headless. Solvers of one's own against ikcore's methods.

A course can hold a student's solver to ikcore's with pytest::

    from ikcore.rigs import race_solvers, standard_targets

    def step(points, target, lengths):
        ...                                   # the student's FABRIK

    races = race_solvers({"student": step}, standard_targets(), methods=("fabrik",))
    for race in races:
        assert race["student"].status == race["fabrik"].status, race["student"].message

Each solver is a function ``step(points, target, lengths)`` (the contract is in the
files of :mod:`ikcore.rigs.templates`) or the source text of one, compiled as the page
compiles the reader's code (:func:`ikcore.rigs.sandbox.load`). Each problem is solved by
every solver and every method from the chain's rest pose; a solver's run is a
:class:`~ikcore.rigs.solver_run.Run` (its per-iteration errors, status, and what it did
wrong, if anything), a method's run the same record of :func:`ikcore.solve`'s Solution.
"""

import math
import random
import time

from ..chain import Chain
from ..checks import check_choice, check_int_range, check_point
from ..errors import IKError
from ..solve import METHODS, solve
from ..trace import trace
from .sandbox import Budget, ReaderError, load
from .solver_run import Run, run_solver

#: The playground's chain: six bones of a quarter unit, straight up from the origin, no joint limits.
BONES = 6
BONE_LENGTH = 0.25
#: How long one solver may take on one problem (seconds of wall clock).
BUDGET = 1.0


def playground_chain():
    """The chain the playground races on (see :data:`BONES`): a new :class:`ikcore.Chain`."""
    return Chain([(0.0, BONE_LENGTH * i, 0.0) for i in range(BONES + 1)])


def standard_targets(count=40, seed=7, chain=None):
    """``count`` seeded targets for ``chain`` (default :func:`playground_chain`): directions all
    round the root (none within 15 degrees of the rest pose's line, where the chain would have to
    fold along itself), at 0.3 to 0.95 of the reach; one in eight beyond it (1.1 to 1.4 reach).

    Examples
    --------
    >>> from ikcore.rigs import standard_targets
    >>> targets = standard_targets(4, seed=7)
    >>> len(targets), [round(c, 3) for c in targets[0]]
    (4, [-0.405, 0.809, -0.358])
    """
    chain = chain or playground_chain()
    rng = random.Random(seed)
    root, targets = chain.points[0], []
    while len(targets) < count:
        d = [rng.gauss(0.0, 1.0) for _ in range(3)]
        n = math.hypot(*d)
        if n < 1e-9 or abs(d[1]) / n > math.cos(math.radians(15.0)):
            continue
        far = len(targets) % 8 == 7
        r = chain.reach * (rng.uniform(1.1, 1.4) if far else rng.uniform(0.3, 0.95))
        targets.append(tuple(root[i] + r * d[i] / n for i in range(3)))
    return targets


def method_run(chain, target, method, *, tolerance, max_iterations, poses=False):
    """ikcore's ``method`` on the problem as a :class:`~.solver_run.Run` (``poses``: with the
    points after each iteration, from :func:`ikcore.trace`)."""
    t0 = time.perf_counter()
    sol = solve(chain, target, method, tolerance=tolerance, max_iterations=max_iterations)
    ms = (time.perf_counter() - t0) * 1e3
    kept = None
    if poses:
        kept = [[tuple(p) for p in pose] for pose in trace(chain, target, method, tolerance=tolerance,
                                                            max_iterations=max_iterations).poses()]
    return Run(method, sol.status, list(sol.errors), sol.iterations, kept, ms=ms)


def race_solvers(solvers, targets, methods=("ccd", "fabrik"), *, chain=None, tolerance=1e-3,
                 max_iterations=100, budget=BUDGET, poses=False):
    """Race ``solvers`` against ikcore's ``methods`` on each of ``targets``.

    Parameters
    ----------
    solvers : dict
        ``{name: step}``: each a function ``step(points, target, lengths)`` or its source text
        (which must define ``step``).
    targets : sequence of (x, y, z)
        One problem each, in ``chain``'s frame (:func:`standard_targets` gives a standard set).
    methods : sequence of str
        ikcore's methods to race (of :data:`ikcore.METHODS`).
    chain : ikcore.Chain, optional
        Default :func:`playground_chain`. Every run starts from its rest pose.
    tolerance : float
        Relative to the chain's reach, as in the page's scenes: a run converges when the tip lies
        within ``tolerance x reach`` of the target.
    max_iterations : int
        The cap of every run.
    budget : float
        Seconds each solver may take on each problem (an endless loop is stopped there).
    poses : bool
        Keep the points after each iteration in every run (``Run.poses``).

    Returns
    -------
    list of dict
        Per target, ``{name: Run}`` for every solver and method (see
        :class:`~ikcore.rigs.solver_run.Run`: status, errors per iteration, message and line).
        A source that does not compile or raises when it runs gives that error as every one of its
        runs.

    Examples
    --------
    >>> from ikcore.rigs import race_solvers, standard_targets
    >>> still = "def step(points, target, lengths):\\n    return points\\n"
    >>> runs = race_solvers({"still": still}, standard_targets(2, seed=7), methods=("fabrik",))
    >>> [(run["still"].status, run["fabrik"].status) for run in runs]
    [('stalled', 'converged'), ('stalled', 'converged')]
    """
    chain = chain or playground_chain()
    if not isinstance(solvers, dict) or not solvers:
        raise IKError(f"solvers must be a non-empty dict {{name: step}}, got {solvers!r}")
    methods = [check_choice(m, "method", METHODS) for m in methods]
    clash = sorted(set(solvers) & set(methods))
    if clash:
        raise IKError(f"solver names {clash} are also methods raced: name the solvers otherwise")
    targets = [check_point(t, f"targets[{i}]") for i, t in enumerate(targets)]
    max_iterations = check_int_range(max_iterations, "max_iterations", 1, 100000)
    tol = tolerance * chain.reach
    races = []
    for target in targets:
        race = {}
        for name, step in solvers.items():
            race[name] = solver_of(step, budget, name, chain, target, tol, max_iterations)
            if not poses:
                race[name].poses = None
        for method in methods:
            race[method] = method_run(chain, target, method, tolerance=tol, max_iterations=max_iterations,
                                      poses=poses)
        races.append(race)
    return races


def solver_of(step, budget, name, chain, target, tolerance, max_iterations):
    """One solver's :class:`~.solver_run.Run` (``step`` a function or its source text)."""
    budget = Budget(budget)
    if isinstance(step, str):
        try:
            step = load(step, budget)
        except ReaderError as exc:
            return Run(name, "error" if exc.kind != "timeout" else "timeout", [math.dist(chain.points[-1], target)], 0,
                       message=exc.message, line=exc.line)
    elif not callable(step):
        raise IKError(f"solver {name!r} must be a function or its source text, got {step!r}")
    return run_solver(step, chain, target, tolerance=tolerance, max_iterations=max_iterations, budget=budget,
                      name=name)
