"""``solve_batch``: K copies of one chain against K targets (spider legs, crowds).

Every copy is solved as :func:`ikcore.solve` solves it, with the settings
checked once for the whole batch. Some are solved all at once:

- planar legs under ``two_bone`` (two hinges about one axis:
  :mod:`ikcore.solvers.two_bone.planar`), over flat lists, with or without numpy;
- with numpy, FABRIK without poles on a chain without limits, of twist-free
  cones about a straight line (:mod:`ikcore.solvers.fabrik.batched`) or of
  hinges (:mod:`ikcore.solvers.fabrik.batched_framed`): the kernel runs the
  plain passes over every copy at once and hands the copies that would leave
  them (a stall, an edge of the reach, a straight start, a hand-over to damped
  least squares) to the per-chain reference;
- with numpy, CCD without poles on a chain without limits
  (:mod:`ikcore.solvers.ccd_batched`), the same way;
- with numpy, ``two_bone`` on legs of a hinge knee under a free, hinge or cone
  hip (:mod:`ikcore.solvers.two_bone.batched`), the same way.

A batch smaller than :data:`MIN_COPIES` loops solve instead of a kernel.

Each kernel is held to the per-chain reference by tests (the same status,
points within ``1e-9`` of the reach, iterations within one). The results come
back together, as a :class:`BatchSolution`: arrays with numpy (imported on the
first batch, never with ikcore), lists without it.
"""

from collections.abc import Sequence
from itertools import chain as concatenated

from .chain import Chain
from .checks import check_rotations
from .errors import IKError
from .hints import Rotations, Vector3
from .kinematics import pose_of
from .problem import FARTHEST, check_request, check_settings, check_target
from .solution import CONVERGED, STATUSES, solution_of
from .solvers.two_bone.planar import LegResults, planar_leg

#: Fewest copies the batched kernels take, per method: a smaller batch loops solve, which is faster
#: there (crossovers measured with tests/bench/batched.py and tests/bench/legs_block.py).
MIN_COPIES = {"fabrik": 200, "ccd": 200, "two_bone": 64}

# numpy is optional and imported on the first batch: None when it is missing.
_UNSET = object()
np = _UNSET


def load_numpy():
    """numpy, or ``None`` where it is not installed (Pyodide offline)."""
    global np
    if np is _UNSET:
        try:
            import numpy
        except ImportError:
            numpy = None
        np = numpy
    return np


class BatchSolution:
    """How each solve of a batch ended, and the poses it returns.

    With numpy the fields are arrays, without it lists (one entry per copy).

    Attributes
    ----------
    positions : ndarray (K, N + 1, 3) or list of K lists of (x, y, z)
    rotations : ndarray (K, N, 4) or list of K lists of (w, x, y, z)
    status : list of str
        Per copy, as :attr:`ikcore.Solution.status`.
    iterations : ndarray (K,) of int or list of int
    error : ndarray (K,) or list of float
    tolerance : float
    method : str

    Examples
    --------
    >>> import ikcore
    >>> chain = ikcore.Chain([(0, 0, 0), (0, 1, 0), (0, 2, 0)])
    >>> targets = [(1.0, 1.0, 0.0), (0.0, 1.5, 0.5), (0.0, 3.0, 0.0)]
    >>> batch = ikcore.solve_batch(chain, targets, method="two_bone")
    >>> batch.counts(), batch.method
    ({'converged': 2, 'unreachable': 1}, 'two_bone')
    """

    __slots__ = ("positions", "rotations", "status", "iterations", "error", "tolerance", "method")

    def __init__(self, positions, rotations, status, iterations, error, tolerance, method):
        self.positions = positions
        self.rotations = rotations
        self.status = status
        self.iterations = iterations
        self.error = error
        self.tolerance = tolerance
        self.method = method

    def __len__(self):
        return len(self.status)

    @property
    def converged(self) -> int:
        """Per copy, ``status == "converged"`` (a bool array with numpy)."""
        flags = [s == CONVERGED for s in self.status]
        return flags if load_numpy() is None else np.array(flags, dtype=bool)

    def counts(self) -> dict[str, int]:
        """``{status: number of copies}`` for the statuses that occur."""
        out = {}
        for s in self.status:
            out[s] = out.get(s, 0) + 1
        return out

    def __repr__(self):
        counts = ", ".join(f"{k}={v}" for k, v in sorted(self.counts().items()))
        return f"BatchSolution(method={self.method!r}, chains={len(self)}, {counts})"


def solve_batch(chain: Chain, targets: Sequence[Vector3], method: str = "fabrik", *,
                starts: Sequence[Rotations] | None = None, poles: Vector3 | Sequence[Vector3] | None = None,
                tolerance: float | None = None, max_iterations: int | None = None,
                **options: float) -> BatchSolution:
    """Solve K copies of ``chain``: copy ``k`` reaches for ``targets[k]``.

    Parameters
    ----------
    chain : Chain
    targets : sequence of K (x, y, z), or an array (K, 3)
    method : str
        One of :data:`ikcore.METHODS`.
    starts : sequence of K lists of N (w, x, y, z), or an array (K, N, 4), optional
        Each copy's start rotations (default: the rest pose); pass the previous
        result's ``rotations`` to track moving targets.
    poles : (x, y, z), or a sequence of K of them, optional
        One pole for every copy, or one each (see :func:`ikcore.solve`).
    tolerance, max_iterations, **options
        As in :func:`ikcore.solve`, the same for every copy.

    Returns
    -------
    BatchSolution
        Per copy what :func:`ikcore.solve` returns for it.

    Raises
    ------
    IKError
        For every invalid input, naming it (``targets[k]``, ``starts[k]``, ``poles[k]``, ...).

    Examples
    --------
    >>> import ikcore
    >>> chain = ikcore.Chain([(0, 0, 0), (0, 1, 0), (0, 2, 0)])
    >>> batch = ikcore.solve_batch(chain, [(1.0, 1.0, 0.0), (0.0, 3.0, 0.0)], method="fabrik")
    >>> list(batch.status)
    ['converged', 'unreachable']
    """
    settings = check_settings(chain, method, tolerance=tolerance, max_iterations=max_iterations, **options)
    if chain.plan.sliders:
        # A batch hands back rotations, which do not hold a slider's displacement.
        raise IKError(f"solve_batch takes no sliding joint yet (joint {chain.plan.sliders[0]} is a Slider): "
                      f"solve each target with ikcore.solve")
    targets, goals = _checked_targets(chain, targets)
    count = len(targets)
    poles = _poles(chain, poles, count)
    if starts is None:
        starts = [None] * count
    else:
        starts = _list_of(starts, "starts", f"a sequence of {count} rotation lists")
        if len(starts) != count:
            raise IKError(f"starts must hold {count} rotation lists (one per target), got {len(starts)}")
        # Checked once here, under their own names, and made unit and limited as solve() makes a start.
        starts = [pose_of(chain, check_rotations(s, chain.size, f"starts[{k}]")) for k, s in enumerate(starts)]
    leg = planar_leg(chain) if method == "two_bone" else None
    if leg is not None:
        return _planar_legs(leg, settings, targets, poles, starts)
    if method == "fabrik" and count >= MIN_COPIES[method] and poles[0] is None and load_numpy() is not None:
        from .solvers.fabrik import batched, batched_framed
        for kernel in (batched, batched_framed):
            if kernel.applies(chain):
                copies = kernel.solve(settings, targets, _rows(goals, targets), None if starts[0] is None else starts)
                return _finished(settings, copies, targets, starts, poles)
    if method == "ccd" and count >= MIN_COPIES[method] and poles[0] is None and load_numpy() is not None:
        from .solvers import ccd_batched
        if ccd_batched.applies(chain, settings):
            copies = ccd_batched.solve(settings, targets, _rows(goals, targets), None if starts[0] is None else starts)
            return _finished(settings, copies, targets, starts, poles)
    if method == "two_bone" and count >= MIN_COPIES[method] and load_numpy() is not None:
        from .solvers.two_bone import batched as legs
        if legs.applies(chain):
            rest = chain.plan.rest
            frames = [rest if s is None else s for s in starts]
            copies = legs.solve(settings, targets, _rows(goals, targets), None if poles[0] is None else _rows(None, poles),
                                frames)
            return _finished(settings, copies, targets, starts, poles)
    solutions = [solution_of(problem, settings.module.run(problem))
                 for problem in (check_request(settings, t, s, pole=p) for t, s, p in zip(targets, starts, poles))]
    return _gathered(chain, [(s.frames, s.status, s.iterations, s.error) for s in solutions], settings)


def _finished(settings, copies, targets, starts, poles):
    """The :class:`BatchSolution` of a batched kernel's ``copies`` (:class:`~ikcore.batched.copies.Copies`):
    the copies it handed over are solved here by the per-chain reference, from their start."""
    status = copies.status
    for k in np.flatnonzero(copies.handed).tolist():
        problem = check_request(settings, targets[k], starts[k], pole=poles[k])
        solution = solution_of(problem, settings.module.run(problem))
        copies.points[k] = solution.frames.points
        copies.rotations[k] = solution.frames.rotations
        status[k], copies.iterations[k], copies.error[k] = solution.status, solution.iterations, solution.error
    return BatchSolution(copies.points, copies.rotations, status, copies.iterations, copies.error, settings.tolerance,
                         settings.method)


def _checked_targets(chain, targets):
    """``targets`` as checked ``(x, y, z)`` tuples, and with numpy as an array ``(K, 3)`` where it was
    read as one (else ``None``). An array ``(K, 3)`` of numbers (or a sequence numpy reads as one)
    is checked whole (finite, within reach of the root as :func:`~ikcore.problem.check_target`
    asks); a row it refuses, and anything else, goes through the check of each point, which names
    it."""
    if load_numpy() is not None and isinstance(targets, (list, tuple)) and _plain_numbers(targets):
        try:
            targets = np.array(targets, dtype=float)
        except (ValueError, OverflowError):
            pass  # Rows of differing lengths, an int past any float: the check of each point names it.
    if load_numpy() is not None and isinstance(targets, np.ndarray) and targets.ndim == 2 \
            and targets.shape[1] == 3 and targets.dtype.kind in "iuf":
        rows = targets.astype(float)
        with np.errstate(over="ignore", invalid="ignore"):
            near = np.hypot.reduce(rows - chain.points[0], axis=1) <= FARTHEST
        if near.all():
            return list(map(tuple, rows.tolist())), rows
    targets = _list_of(targets, "targets", "a sequence of (x, y, z) points")
    return [check_target(chain, t, f"targets[{k}]") for k, t in enumerate(targets)], None


def _rows(rows, points):
    """``points`` as an array ``(K, 3)``: ``rows`` where given, one point repeated as a view."""
    if rows is not None:
        return rows
    if all(p is points[0] for p in points):
        return np.broadcast_to(np.array(points[0], dtype=float), (len(points), 3))
    return np.array(points, dtype=float).reshape(len(points), 3)


def _plain_numbers(points):
    """Whether ``points`` is a sequence of sequences of plain floats and ints (no bools, which the
    check of each point refuses), which numpy can read as one array."""
    try:
        return set(map(type, concatenated.from_iterable(points))) <= {float, int}
    except TypeError:
        return False


def _poles(chain, poles, count):
    """``poles`` as one checked pole (or ``None``) per copy."""
    if poles is None:
        return [None] * count
    items = _list_of(poles, "poles", "a point or a sequence of points")
    if len(items) == 3 and not any(isinstance(p, (list, tuple)) for p in items):
        return [check_target(chain, items, "poles")] * count
    if len(items) != count:
        raise IKError(f"poles must be one point or {count} points (one per target), got {len(items)}")
    return [check_target(chain, p, f"poles[{k}]") for k, p in enumerate(items)]


def _planar_legs(leg, settings, targets, poles, starts):
    """The batch of planar legs, all at once (:meth:`~ikcore.solvers.two_bone.planar.PlanarLeg.solve`),
    on the targets and poles by coordinate; the poses come back as arrays made at once with numpy."""
    chain, count = settings.chain, len(targets)
    hip, knee = (j.constraint for j in chain.plan.joints)
    rest = (hip.range.clamp(0.0), knee.range.clamp(0.0))
    t0s = [rest[0] if s is None else hip.angle(s.rotations[0]) for s in starts]
    t1s = [rest[1] if s is None else knee.angle(s.rotations[1]) for s in starts]
    out = LegResults(count)
    flat_poles = None if not poles or poles[0] is None else _columns(poles)
    if count:
        leg.solve(count, _columns(targets), flat_poles, (t0s, t1s), settings.tolerance, out)
    status = [STATUSES[code] for code in out.status]
    if load_numpy() is None:
        rows = []
        for k in range(count):
            knee_point = (out.knees[0][k], out.knees[1][k], out.knees[2][k])
            tip = (out.tips[0][k], out.tips[1][k], out.tips[2][k])
            rows.append((leg.frames(t0s[k], t1s[k], knee_point, tip), status[k], 1, out.errors[k]))
        return _gathered(chain, rows, settings)
    # Each joint's rotation about the common axis a by its angle t: (cos(t/2), a sin(t/2)).
    points = np.empty((count, 3, 3))
    points[:, 0] = leg.root
    points[:, 1] = np.array(out.knees).T
    points[:, 2] = np.array(out.tips).T
    half = 0.5 * np.array([t0s, t1s]).T
    rotations = np.empty((count, 2, 4))
    rotations[:, :, 0] = np.cos(half)
    rotations[:, :, 1:] = np.sin(half)[:, :, None] * np.array(leg.axis)
    return BatchSolution(points, rotations, status, np.ones(count, dtype=int), np.array(out.errors), settings.tolerance,
                         settings.method)


def _columns(points):
    """Points as three lists by coordinate."""
    return tuple(list(c) for c in zip(*points)) if points else ([], [], [])


def _list_of(value, name, what):
    if load_numpy() is not None and isinstance(value, np.ndarray):
        return value.tolist()
    try:
        return list(value)
    except TypeError:
        raise IKError(f"{name} must be {what}, got {value!r}") from None


def _gathered(chain, rows, settings):
    """The :class:`BatchSolution` of ``rows``: per copy ``(frames, status, iterations, error)``."""
    frames, status, iterations, error = (list(c) for c in zip(*rows)) if rows else ([], [], [], [])
    if load_numpy() is None:
        return BatchSolution([list(f.points) for f in frames], [list(f.rotations) for f in frames], status,
                             iterations, error, settings.tolerance, settings.method)
    k, n = len(rows), chain.size
    return BatchSolution(_array((f.points for f in frames), (k, n + 1, 3)),
                         _array((f.rotations for f in frames), (k, n, 4)), status, np.array(iterations, dtype=int),
                         np.array(error, dtype=float), settings.tolerance, settings.method)


def _array(poses, shape):
    """``poses`` (K lists of tuples of floats) as one array of ``shape``, read as one flat run of
    floats (docs/develop/performance.md says why)."""
    k, count, size = shape
    return np.fromiter(concatenated.from_iterable(concatenated.from_iterable(poses)), float,
                       k * count * size).reshape(shape)
