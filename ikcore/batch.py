"""``solve_batch``: K copies of one chain against K targets (spider legs, crowds).

Every copy is solved as :func:`ikcore.solve` solves it, with the settings
checked once for the whole batch. The results come back together, as a
:class:`BatchSolution`: arrays with numpy (imported on the first batch, never
with ikcore), lists without it.
"""

from .checks import check_point, check_rotations
from .errors import IKError
from .problem import check_request, check_settings
from .solution import CONVERGED, verdict

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
    def converged(self):
        """Per copy, ``status == "converged"`` (a bool array with numpy)."""
        flags = [s == CONVERGED for s in self.status]
        return flags if load_numpy() is None else np.array(flags, dtype=bool)

    def counts(self):
        """``{status: number of copies}`` for the statuses that occur."""
        out = {}
        for s in self.status:
            out[s] = out.get(s, 0) + 1
        return out

    def __repr__(self):
        counts = ", ".join(f"{k}={v}" for k, v in sorted(self.counts().items()))
        return f"BatchSolution(method={self.method!r}, chains={len(self)}, {counts})"


def solve_batch(chain, targets, method="fabrik", *, starts=None, tolerance=None, max_iterations=None, **options):
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
    tolerance, max_iterations, **options
        As in :func:`ikcore.solve`, the same for every copy.

    Returns
    -------
    BatchSolution
        Per copy what :func:`ikcore.solve` returns for it.

    Raises
    ------
    IKError
        For every invalid input, naming it (``targets[k]``, ``starts[k]``, ...).
    """
    settings = check_settings(chain, method, tolerance=tolerance, max_iterations=max_iterations, **options)
    targets = _list_of(targets, "targets", "a sequence of (x, y, z) points")
    targets = [check_point(t, f"targets[{k}]") for k, t in enumerate(targets)]
    if starts is None:
        starts = [None] * len(targets)
    else:
        starts = _list_of(starts, "starts", f"a sequence of {len(targets)} rotation lists")
        if len(starts) != len(targets):
            raise IKError(f"starts must hold {len(targets)} rotation lists (one per target), got {len(starts)}")
        starts = [check_rotations(s, chain.size, f"starts[{k}]") for k, s in enumerate(starts)]
    solutions = [verdict(problem, settings.module.run(problem))
                 for problem in (check_request(settings, t, s) for t, s in zip(targets, starts))]
    return _gathered(chain, solutions, settings)


def _list_of(value, name, what):
    if load_numpy() is not None and isinstance(value, np.ndarray):
        return value.tolist()
    try:
        return list(value)
    except TypeError:
        raise IKError(f"{name} must be {what}, got {value!r}") from None


def _gathered(chain, solutions, settings):
    """The :class:`BatchSolution` of ``solutions``."""
    positions = [s.positions for s in solutions]
    rotations = [s.rotations for s in solutions]
    status = [s.status for s in solutions]
    iterations = [s.iterations for s in solutions]
    error = [s.error for s in solutions]
    if load_numpy() is not None:
        k, n = len(solutions), chain.size
        positions = np.array(positions, dtype=float).reshape(k, n + 1, 3)
        rotations = np.array(rotations, dtype=float).reshape(k, n, 4)
        iterations = np.array(iterations, dtype=int)
        error = np.array(error, dtype=float)
    return BatchSolution(positions, rotations, status, iterations, error, settings.tolerance, settings.method)
