"""One reader's solver on one problem: iterated, measured, and checked at every iteration.

:func:`run_solver` calls the reader's ``step(points, target, lengths)`` once per
iteration (the contract is in :mod:`ikcore.rigs.templates`' files), checks what it
returns (:func:`check_output`) and measures the tip's distance to the target, as
ikcore's methods are measured. It stops as they stop, and ends with a status of
the same words:

``converged``       the tip lies within the tolerance of the target;
``unreachable``     not converged, and no pose of the chain reaches the target
                    (the run ends once the tip is within the tolerance of the
                    nearest point the chain can reach, as ikcore's methods do);
``stalled``         the error stopped falling: over :data:`PATIENCE` iterations
                    the best error fell by less than :data:`RATE` of itself;
``max_iterations``  none of these within the cap;

or with one of the reader's own:

``error``           the code raised an exception (message and line);
``invalid``         it returned something that is not a pose of the chain: the
                    wrong number of points, a NaN, a moved root, a bone of
                    another length (the message says which and by how much);
``timeout``         the run's time budget was spent (an endless loop).

Every iteration's points are kept (``poses``), so that the page can replay the
run as it replays ikcore's solves.
"""

import math
import time

from ..errors import IKError
from .sandbox import Budget, OutOfTime, ReaderError, error_of

#: The reader's statuses besides ikcore's (see the module docstring).
READER_STATUSES = ("error", "invalid", "timeout")
#: The stall watch: the best error must fall by RATE of itself within PATIENCE iterations.
PATIENCE = 10
RATE = 1e-3
#: A bone may come back longer or shorter than its length by this much of it (rounding), no more.
LENGTH_TOLERANCE = 1e-6


class Run:
    """One solver's run on one problem.

    Attributes
    ----------
    name : str
        The solver's name (an ikcore method's, for ikcore's lanes).
    status : str
        See the module docstring.
    errors : list of float
        The tip's distance to the target at the start, then after each iteration.
    iterations : int
    poses : list of list of (x, y, z) or None
        The points at the start, then after each iteration (``None`` where not kept).
    message : str or None
        What went wrong, for ``error``, ``invalid`` and ``timeout``.
    line : int or None
        The line of the reader's code it went wrong on, where known.
    ms : float
        Wall-clock time of the run (the reader's code runs traced: slower than it would alone).
    """

    __slots__ = ("name", "status", "errors", "iterations", "poses", "message", "line", "ms")

    def __init__(self, name, status, errors, iterations, poses=None, message=None, line=None, ms=0.0):
        self.name = name
        self.status = status
        self.errors = errors
        self.iterations = iterations
        self.poses = poses
        self.message = message
        self.line = line
        self.ms = ms

    @property
    def error(self):
        """The last error measured."""
        return self.errors[-1]

    def as_dict(self):
        return {"name": self.name, "status": self.status, "errors": list(self.errors),
                "iterations": self.iterations, "message": self.message, "line": self.line, "ms": self.ms}

    def __repr__(self):
        extra = "" if self.message is None else f", message={self.message!r}"
        return (f"Run(name={self.name!r}, status={self.status!r}, iterations={self.iterations}, "
                f"error={self.error:.3g}{extra})")


class Invalid(Exception):
    """What the reader's step returned is not a pose of the chain (the message says why)."""


def check_output(value, chain):
    """The ``N + 1`` points of ``value``, what the reader's step returned for ``chain``: points, or
    ``N`` rotations (unit quaternions relative to the rest pose, turned into points by
    :meth:`ikcore.Chain.forward`). Raises :class:`Invalid` naming what is wrong."""
    n = chain.size
    try:
        items = [tuple(p) for p in value]
    except TypeError:
        raise Invalid(f"step returned {type(value).__name__}, not a list of {n + 1} points") from None
    if len(items) == n and all(len(q) == 4 for q in items):
        try:
            return chain.forward(items)
        except IKError as exc:
            raise Invalid(f"step returned {n} rotations, but {exc}") from None
    if len(items) != n + 1:
        raise Invalid(f"step returned {len(items)} points; the chain has {n + 1} (or {n} rotations)")
    points = []
    for i, p in enumerate(items):
        if len(p) != 3 or not all(isinstance(c, (int, float)) and not isinstance(c, bool) for c in p):
            raise Invalid(f"point {i} is {p!r}, not three numbers (x, y, z)")
        if not all(math.isfinite(c) for c in p):
            raise Invalid(f"point {i} is {tuple(p)!r}: NaN or infinite")
        points.append((float(p[0]), float(p[1]), float(p[2])))
    moved = math.dist(points[0], chain.points[0])
    if moved > LENGTH_TOLERANCE * chain.reach:
        raise Invalid(f"the root moved by {moved:.4g}: it must stay at {chain.points[0]!r}")
    for i, (a, b, length) in enumerate(zip(points, points[1:], chain.lengths)):
        d = math.dist(a, b)
        if abs(d - length) > LENGTH_TOLERANCE * length:
            raise Invalid(f"bone {i} (point {i} to {i + 1}) is {d:.4g} long; it must stay {length:.4g}")
    return points


def stalled(errors):
    """Whether the best of the last :data:`PATIENCE` errors fell by less than :data:`RATE` of the best
    before them."""
    if len(errors) <= PATIENCE:
        return False
    before = min(errors[:-PATIENCE])
    return min(errors[-PATIENCE:]) > (1.0 - RATE) * before


def run_solver(step, chain, target, *, tolerance, max_iterations, budget, name="yours", start=None):
    """Run the reader's ``step`` on ``chain`` toward ``target``; a :class:`Run`.

    ``tolerance`` is in the chain's units; ``budget`` a :class:`~.sandbox.Budget` (or seconds);
    ``start`` the points to start from (default the chain's rest pose). ``step`` gets the points,
    the target and the bone lengths, and the :class:`ikcore.Chain` as well when it takes a
    fourth argument.
    """
    budget = budget if isinstance(budget, Budget) else Budget(budget)
    t0 = time.perf_counter()
    points = [tuple(p) for p in (chain.points if start is None else start)]
    target = tuple(float(c) for c in target)
    lengths = list(chain.lengths)
    extra = (chain,) if _takes_chain(step) else ()
    errors, poses = [math.dist(points[-1], target)], [points]
    reachable = chain.reachable(target)
    # Out of reach, the nearest point the chain can reach lies this far from the target.
    distance = chain.distance_to(target)
    floor = 0.0 if reachable else max(distance - chain.reach, chain.min_reach - distance)

    def end(status, message=None, line=None):
        return Run(name, status, errors, len(errors) - 1, poses, message, line, (time.perf_counter() - t0) * 1e3)

    for _ in range(max_iterations + 1):
        if errors[-1] <= tolerance:
            return end("converged")
        if not reachable and errors[-1] - floor <= tolerance:
            return end("unreachable")
        if stalled(errors):
            return end("stalled" if reachable else "unreachable")
        if len(errors) > max_iterations:
            break
        try:
            points = check_output(budget.call(step, [p for p in points], target, list(lengths), *extra), chain)
        except OutOfTime:
            stopped = budget.timeout(f"Your solver, at iteration {len(errors)},")
            return end("timeout", stopped.message, stopped.line)
        except Invalid as exc:
            code = getattr(step, "__code__", None)
            return end("invalid", f"iteration {len(errors)}: {exc}", code and code.co_firstlineno)
        except ReaderError as exc:
            return end(exc.kind, exc.message, exc.line)
        except Exception as exc:
            error = error_of(exc)
            return end("error", error.message, error.line)
        if budget.spent():
            stopped = budget.timeout(f"Your solver, at iteration {len(errors)},")
            return end("timeout", stopped.message, stopped.line)
        errors.append(math.dist(points[-1], target))
        poses.append(points)
    return end("max_iterations" if reachable else "unreachable")


def _takes_chain(step):
    # Whether the reader's step takes a fourth positional argument (the Chain).
    code = getattr(step, "__code__", None)
    return code is not None and (code.co_argcount >= 4 or bool(code.co_flags & 0x04))
