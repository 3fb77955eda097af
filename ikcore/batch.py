"""``solve_batch``: K copies of one chain against K targets (spider legs, crowds).

With numpy, FABRIK on a free chain runs vectorised over the copies: the points of
all chains sit in one joint-major array ``P`` of shape ``(N + 1, K, 3)``, so a
backward or forward step over joint ``i`` is a handful of array operations on
``P[i]`` and ``P[i + 1]`` (``K x 3`` each) for the whole batch::

    d = P[i] - P[i + 1];   P[i] = P[i + 1] + d * (L_i / |d|)      (backward)

Chains drop out of the arrays as they converge, so each one stops after exactly
the iterations the scalar solver would take. The rules are those of
:mod:`ikcore.solvers.fabrik`: a start within tolerance is returned unchanged; a
target at or beyond the reach gives the chain stretched straight at it in one
step; otherwise passes repeat until ``error <= tolerance``. A chain the
vectorised passes cannot treat exactly as the scalar solver does (a target
nearer than the chain folds, chain and target on one line, a coincident point,
progress stalled, or a last iteration that was not its best) is handed to the
scalar solver, which then solves it
from its start. Rotations follow as in the scalar solver, all chains and joints
at once: ``R_i = arc(s_i, b_i) S_i`` from the start's bone directions ``s_i`` and
world rotations ``S_i`` to the final directions ``b_i``, ``q_i = R_{i-1}^{-1} R_i``
(convention in :mod:`ikcore.rotation`).

numpy is imported on the first call, never with ikcore. Other methods, limited chains (their constrained passes are sequential per
joint and per chain), batches smaller than :data:`MIN_VECTOR_BATCH` (where a
numpy call's fixed cost outweighs the work it does, so the loop is faster) and
an interpreter without numpy loop :func:`ikcore.solve`.
"""

from itertools import chain as _chained

from . import rotation as rot
from .chain import Chain
from .checks import check_point, check_rotations
from .errors import IKError
from .solution import CONVERGED, MAX_ITERATIONS, UNREACHABLE
from .solve import make_problem, solve
from .solvers import _fabrik_tuning

# numpy is optional and imported on the first batch, not with ikcore: None when it
# is missing (every chain then goes through solve()).
_UNSET = object()
np = _UNSET


def _load_numpy():
    global np
    if np is _UNSET:
        try:
            import numpy
        except ImportError:
            numpy = None
        np = numpy
    return np

# Below this many chains the vectorised passes are slower than a loop of solve():
# each numpy call costs ~1 us whatever its size, and the batch iterates until its
# slowest chain is done (measured crossover: 40 to 130 chains for N = 3 to 30).
MIN_VECTOR_BATCH = 100

# Chains whose points and target lie within this many times the scalar solver's
# collinearity threshold of one line go to the scalar solver. The scalar test
# measures from the line through the first and last points, ours from the line
# through the root and the farthest point; within a factor 2 of each other.
_COLLINEAR_MARGIN = 4.0


class BatchSolution:
    """How each solve of a batch ended, and the poses it returns.

    With numpy the fields are arrays, without it lists (one entry per chain).

    Attributes
    ----------
    positions : ndarray (K, N + 1, 3) or list of K lists of (x, y, z)
        Each chain's points, its forward kinematics of ``rotations`` (to
        rounding, as :attr:`ikcore.Solution.positions`).
    rotations : ndarray (K, N, 4) or list of K lists of (w, x, y, z)
        Each chain's local joint rotations (convention in :mod:`ikcore.rotation`).
    status : list of str
        Per chain, as :attr:`ikcore.Solution.status`: ``"converged"`` iff
        ``error <= tolerance``; else ``"unreachable"`` when the target lies
        outside ``[chain.min_reach, chain.reach]`` from the root; ``"stalled"``
        when progress stopped; ``"max_iterations"`` otherwise.
    iterations : ndarray (K,) of int or list of int
    error : ndarray (K,) or list of float
        ``|effector - target|`` of each returned pose.
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
        """Per chain, ``status == "converged"`` (a bool array with numpy)."""
        flags = [s == CONVERGED for s in self.status]
        return flags if _load_numpy() is None else np.array(flags, dtype=bool)

    def counts(self):
        """``{status: number of chains}`` for the statuses that occur."""
        out = {}
        for s in self.status:
            out[s] = out.get(s, 0) + 1
        return out

    def __repr__(self):
        counts = ", ".join(f"{k}={v}" for k, v in sorted(self.counts().items()))
        return f"BatchSolution(method={self.method!r}, chains={len(self)}, {counts})"


def solve_batch(chain, targets, method="fabrik", *, starts=None, tolerance=None, max_iterations=None,
                **method_options):
    """Solve K copies of ``chain``: copy ``k`` reaches for ``targets[k]``.

    Parameters
    ----------
    chain : Chain
    targets : sequence of K (x, y, z), or an array (K, 3)
    method : str
        One of :data:`ikcore.METHODS`; ``"fabrik"`` on a free chain runs
        vectorised when numpy is available.
    starts : sequence of K lists of N (w, x, y, z), or an array (K, N, 4), optional
        Each copy's start rotations (default: the rest pose); pass the previous
        result's ``rotations`` to track moving targets.
    tolerance, max_iterations, **method_options
        As in :func:`ikcore.solve`, the same for every copy.

    Returns
    -------
    BatchSolution
        Per chain what :func:`ikcore.solve` returns for it: positions,
        rotations, status, iterations, error. Poses match the scalar solver's
        within the tolerance (rotations may differ from it by rounding).

    Raises
    ------
    IKError
        For every invalid input, naming it (``targets[k]``, ``starts[k][i]``, ...).
    """
    if not isinstance(chain, Chain):
        raise IKError(f"chain must be an ikcore.Chain, got {type(chain).__name__}")
    vectorised = _load_numpy() is not None and method == "fabrik" and not chain.limited and not method_options
    if vectorised:
        targets = _array_targets(targets)
        raw, starts = (None, None) if starts is None else _array_starts(starts, len(targets), chain.size)
    else:
        targets = _list_targets(targets)
        raw = None if starts is None else _list_starts(starts, len(targets), chain.size)
    # One request validates method, tolerance, iteration cap and options for every copy.
    first = targets[0] if len(targets) else chain.points[-1]
    problem = make_problem(chain, tuple(first), method, None, tolerance, max_iterations, None, None, None,
                           method_options)
    tol, cap = problem.tolerance, problem.max_iterations
    if vectorised and len(targets) >= MIN_VECTOR_BATCH:
        return _fabrik_numpy(chain, targets, starts, raw, tol, cap)
    if vectorised:
        # Plain floats: solve() validates them faster than numpy scalars.
        targets = targets.tolist()
        raw = None if raw is None else raw.tolist()
    # Each copy through solve(), from its start as given: exactly a direct call's result.
    sols = [solve(chain, t, method, start=None if raw is None else raw[k], tolerance=tol,
                  max_iterations=cap, **method_options)
            for k, t in enumerate(targets)]
    positions = [s.positions for s in sols]
    rotations = [s.rotations for s in sols]
    status = [s.status for s in sols]
    iterations = [s.iterations for s in sols]
    error = [s.error for s in sols]
    if np is not None:
        n = chain.size
        positions = np.array(positions, dtype=float).reshape(len(sols), n + 1, 3)
        rotations = np.array(rotations, dtype=float).reshape(len(sols), n, 4)
        iterations = np.array(iterations, dtype=int)
        error = np.array(error, dtype=float)
    return BatchSolution(positions, rotations, status, iterations, error, tol, method)


# ---------------------------------------------------------------- validation

def _as_list(value, message):
    try:
        return list(value)
    except TypeError:
        raise IKError(f"{message}, got {value!r}") from None


def _list_targets(targets):
    try:
        items = list(targets)
    except TypeError:
        raise IKError(f"targets must be a sequence of (x, y, z) points, got {targets!r}") from None
    return [check_point(t, f"targets[{k}]") for k, t in enumerate(items)]


def _list_starts(starts, count, n):
    try:
        items = list(starts)
    except TypeError:
        raise IKError(f"starts must be a sequence of {count} rotation lists, got {starts!r}") from None
    if len(items) != count:
        raise IKError(f"starts must hold {count} rotation lists (one per target), got {len(items)}")
    for k, s in enumerate(items):
        check_rotations(s, n, f"starts[{k}]")
    # As given: solve() normalises them itself, exactly as a direct call would.
    return items


def _numeric(value, depth):
    """``value`` as a float array, or None when it is not a regular array of real numbers.

    ``depth`` is how many levels of sequences hold the numbers, less one; booleans there
    are refused, as :func:`ikcore.solve` refuses them.
    """
    if not isinstance(value, np.ndarray):
        try:
            flat = value
            for _ in range(depth):
                flat = _chained.from_iterable(flat)
            kinds = set(map(type, flat))
        except TypeError:
            return None
        if bool in kinds or np.bool_ in kinds:
            return None
        try:
            value = np.asarray(value)
        except (TypeError, ValueError):
            return None
    if value.dtype.kind not in "iuf":
        return None
    return value.astype(float)


def _array_targets(targets):
    if not isinstance(targets, np.ndarray):
        targets = _as_list(targets, "targets must be a sequence of (x, y, z) points")
    a = _numeric(targets, 1)
    if a is not None and a.size == 0:
        return a.reshape(0, 3)
    if a is None or a.ndim != 2 or a.shape[1] != 3 or not np.isfinite(a).all():
        # Find the offending entry and name it.
        _list_targets(targets)
        if a is None or a.ndim != 2:
            raise IKError("targets must be a sequence of (x, y, z) points (an array of shape (K, 3))")
    return a


def _array_starts(starts, count, n):
    """``(raw, unit)``: the start rotations as given (floats) and normalised."""
    if not isinstance(starts, np.ndarray):
        starts = _as_list(starts, f"starts must be a sequence of {count} rotation lists")
    a = _numeric(starts, 2)
    if a is None or a.shape != (count, n, 4) or not np.isfinite(a).all():
        _list_starts(starts, count, n)
        raise IKError(f"starts must be an array of shape ({count}, {n}, 4)")
    w, x, y, z = a[..., 0], a[..., 1], a[..., 2], a[..., 3]
    # Summed in the order check_quaternion sums, so both normalise alike to the bit.
    norm = np.sqrt(w * w + x * x + y * y + z * z)
    small = np.argwhere(~(norm > 1e-12))
    if len(small):
        k, i = small[0]
        raise IKError(f"starts[{k}][{i}] must be a non-zero quaternion (w, x, y, z), got {tuple(a[k, i])!r}")
    return a, a / norm[:, :, None]


# ---------------------------------------------------------------- quaternions on arrays

def _qmul(a, b):
    """Hamilton product of quaternion arrays (..., 4)."""
    aw, ax, ay, az = a[..., 0], a[..., 1], a[..., 2], a[..., 3]
    bw, bx, by, bz = b[..., 0], b[..., 1], b[..., 2], b[..., 3]
    return np.stack((aw * bw - ax * bx - ay * by - az * bz,
                     aw * bx + ax * bw + ay * bz - az * by,
                     aw * by - ax * bz + ay * bw + az * bx,
                     aw * bz + ax * by - ay * bx + az * bw), axis=-1)


def _rotate(q, v):
    """Rotate vectors ``v`` (..., 3) by unit quaternions ``q`` (..., 4)."""
    w = q[..., :1]
    u = q[..., 1:]
    t = 2.0 * np.cross(u, v)
    return v + w * t + np.cross(u, t)


# ---------------------------------------------------------------- vectorised FABRIK

def _fabrik_numpy(chain, targets, starts, raw, tol, cap):
    n = chain.size
    count = len(targets)
    lengths = np.array(chain.lengths)
    root = np.array(chain.points[0])
    offsets = np.array(chain.offsets)                   # (N, 3)
    one = np.ones(3)

    # Start pose: world rotations S (N, K, 4) and points (N + 1, K, 3).
    if starts is None:
        world = None
        start = np.empty((n + 1, count, 3))
        start[:] = np.array(chain.points)[:, None, :]
    else:
        world = np.empty((n, count, 4))
        r = starts[:, 0]
        world[0] = r
        for i in range(1, n):
            r = _qmul(r, starts[:, i])
            world[i] = r
        start = np.empty((n + 1, count, 3))
        start[0] = root
        np.cumsum(_rotate(world, offsets[:, None, :]), axis=0, out=start[1:])
        start[1:] += root
    e = start[n] - targets
    err0 = np.sqrt((e * e) @ one)

    final = start.copy()
    iterations = np.zeros(count, dtype=int)
    handover = np.zeros(count, dtype=bool)          # chains the scalar solver takes
    idle = err0 <= tol                              # returned unchanged, 0 iterations

    to_target = targets - root
    distance = np.sqrt((to_target * to_target) @ one)
    far = ~idle & (distance >= chain.reach)
    # Nearer than the chain folds: the scalar solver's nearest fold (rare: one dominant bone).
    handover |= ~idle & (distance < chain.min_reach)
    if far.any():
        unit = to_target[far] / distance[far][:, None]
        along = np.concatenate(([0.0], np.cumsum(lengths)))
        final[:, far] = root + along[:, None, None] * unit[None]
        iterations[far] = 1
    rest = ~(idle | far | handover)
    handover |= rest & _collinear(start, targets, chain.reach)
    active = np.flatnonzero(rest & ~handover)
    if len(active):
        _iterate(final, active, targets, err0, lengths, tol, cap, iterations, handover)

    # Positions -> rotations, every chain and joint at once.
    bones = (final[1:] - final[:-1]) / lengths[:, None, None]          # b_i (N, K, 3)
    if world is None:
        s = np.broadcast_to(np.array(chain.directions)[:, None, :], bones.shape)
    else:
        s = (start[1:] - start[:-1]) / lengths[:, None, None]
    world_new = _arcs(s, bones)
    if world is not None:
        world_new = _qmul(world_new, world)
    local = world_new.copy()
    local[1:] = _qmul(world_new[:-1] * np.array([1.0, -1.0, -1.0, -1.0]), world_new[1:])
    local /= np.sqrt(np.einsum("nkj,nkj->nk", local, local))[:, :, None]
    rotations = np.ascontiguousarray(local.transpose(1, 0, 2))        # (K, N, 4)
    # Positions as forward kinematics of the returned rotations: p_{i+1} = p_i + R_i (rest offset).
    positions = np.empty((count, n + 1, 3))
    positions[:, 0] = root
    np.cumsum(_rotate(world_new, offsets[:, None, :]), axis=0, out=positions[:, 1:].transpose(1, 0, 2))
    positions[:, 1:] += root
    if idle.any():
        # Already there: the start comes back as it was, as from the scalar solver.
        rotations[idle] = rot.IDENTITY if starts is None else starts[idle]
        positions[idle] = start[:, idle].transpose(1, 0, 2)
    e = positions[:, n] - targets
    error = np.sqrt((e * e) @ one)

    # The verdict of ikcore.solve: converged, else unreachable, else out of iterations
    # (a chain that stalls is the scalar solver's, below).
    inside = (distance >= chain.min_reach) & (distance <= chain.reach)
    status = np.where(error <= tol, CONVERGED, np.where(inside, MAX_ITERATIONS, UNREACHABLE)).tolist()
    for k in np.flatnonzero(handover):
        # From the start exactly as given, so the scalar solver sees what a direct call would.
        sol = solve(chain, tuple(targets[k]), "fabrik", start=None if raw is None else raw[k].tolist(),
                    tolerance=tol, max_iterations=cap)
        positions[k] = sol.positions
        rotations[k] = sol.rotations
        status[k] = sol.status
        iterations[k] = sol.iterations
        error[k] = sol.error
    return BatchSolution(positions, rotations, status, iterations, error, tol, "fabrik")


def _collinear(points, targets, reach):
    """Per chain, whether its points and target lie near one line.

    The spread is the largest distance from the line through the root and the
    point farthest from it.
    """
    pts = np.concatenate((points, targets[None]), axis=0) - points[0]      # (N + 2, K, 3)
    sq = np.einsum("nkj,nkj->nk", pts, pts)
    far = np.argmax(sq, axis=0)
    cols = np.arange(pts.shape[1])
    top = sq[far, cols]
    f = pts[far, cols] / np.sqrt(np.where(top > 0.0, top, 1.0))[:, None]
    along = np.einsum("nkj,kj->nk", pts, f)
    spread = np.sqrt(np.maximum(0.0, sq - along * along)).max(axis=0)
    return spread <= _COLLINEAR_MARGIN * _fabrik_tuning.COLLINEAR * reach


def _arcs(s, b):
    """Shortest-arc rotations from unit vectors ``s`` to unit vectors ``b`` (..., 3).

    ``(1 + s.b, s x b)`` normalised; opposite vectors take a half turn about
    :func:`ikcore.rotation.perpendicular` of ``s``, as the scalar solver does.
    (Dividing by the computed norm rather than ``sqrt(2 (1 + s.b))`` keeps the
    result unit when ``1 + s.b`` is small and has lost digits.)
    """
    e = 1.0 + np.einsum("...j,...j->...", s, b)
    out = np.empty(e.shape + (4,))
    out[..., 0] = e
    out[..., 1:] = np.cross(s, b)
    ok = e > 1e-12
    with np.errstate(divide="ignore", invalid="ignore"):
        out /= np.sqrt(np.einsum("...j,...j->...", out, out)[..., None])
    for idx in zip(*np.nonzero(~ok)):
        out[idx] = (0.0,) + rot.perpendicular(tuple(s[idx]))
    return out


def _iterate(final, active, targets, err0, lengths, tol, cap, iterations, handover):
    """FABRIK iterations on the chains ``active``; results written into ``final``.

    ``final`` (N + 1, K, 3) holds the start points on entry. Chains leave the
    working arrays when they converge (``iterations`` gets their count) or when
    the scalar solver must take them (``handover``).
    """
    n = len(lengths)
    one = np.ones(3)
    lens = [float(v) for v in lengths]
    p = np.ascontiguousarray(final[:, active])      # working copy (N + 1, Ka, 3), C order
    t = targets[active]
    best = err0[active]
    mark = best.copy()
    since = np.zeros(len(active), dtype=int)
    d = np.empty((len(active), 3))
    s = np.empty(len(active))
    s2 = s[:, None]
    it = 0
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        while True:
            it += 1
            # Backward: effector onto the target, then tip to root.
            p[n] = t
            for i in range(n - 1, -1, -1):
                a, b = p[i], p[i + 1]
                np.subtract(a, b, out=d)
                np.matmul(d * d, one, out=s)
                np.sqrt(s, out=s)
                np.divide(lens[i], s, out=s)
                np.multiply(d, s2, out=d)
                np.add(b, d, out=a)
            # Forward: root back in place, then root to tip.
            p[0] = final[0, 0]
            for i in range(n):
                a, b = p[i], p[i + 1]
                np.subtract(b, a, out=d)
                np.matmul(d * d, one, out=s)
                np.sqrt(s, out=s)
                np.divide(lens[i], s, out=s)
                np.multiply(d, s2, out=d)
                np.add(a, d, out=b)
            e = p[n] - t
            err = np.sqrt((e * e) @ one)
            improved = err < best
            np.minimum(best, err, out=best, where=improved)
            done = improved & (err <= tol)
            # The scalar solver's progress rule, for the chains still going.
            moved = best < mark * (1.0 - _fabrik_tuning.RATE_FREE)
            np.copyto(mark, best, where=moved)
            since = np.where(moved, 0, since + 1)
            give = ~done & ((since >= _fabrik_tuning.WINDOW) | ~np.isfinite(err))
            if it >= cap:
                # Out of iterations: the scalar solver returns its best pose;
                # the last one is it only if this iteration improved.
                give |= ~done & ~improved
                done = ~give
            leave = done | give
            if leave.any():
                handover[active[give]] = True
                if done.any():
                    final[:, active[done]] = p[:, done]
                    iterations[active[done]] = it
                keep = ~leave
                if not keep.any():
                    return
                p = np.ascontiguousarray(p[:, keep])
                t, best, mark, since = t[keep], best[keep], mark[keep], since[keep]
                active = active[keep]
                d = np.empty((len(active), 3))
                s = np.empty(len(active))
                s2 = s[:, None]
