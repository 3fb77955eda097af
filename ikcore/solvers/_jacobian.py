"""The iteration loop shared by the Jacobian methods.

Used by :mod:`~ikcore.solvers.jacobian_transpose`, :mod:`~ikcore.solvers.pseudo_inverse`,
:mod:`~ikcore.solvers.dls` and :mod:`~ikcore.solvers.fabrik_dls`. The columns of the
geometric Jacobian are in :mod:`~ikcore.solvers._jacobian_columns`, the ``m x m``
solves in :mod:`~ikcore.solvers._jacobian_normal`, poses and steps over flat lists in
:mod:`~ikcore.solvers._jacobian_flat`. Rotation convention: :mod:`ikcore.rotation`.

Safeguards: a step turns no joint by more than
:data:`MAX_STEP`; it is accepted only when it lowers the error (else the method
damps or shortens it and retries), which keeps unreachable targets from
oscillating; joint limits are applied after each step and the direction of a
joint pressed against its limit is dropped from the Jacobian; when progress
stops the loop restarts from a perturbed copy of the best pose. The best pose
seen is returned.

Rest objective
--------------
With ``rest_weight = k > 0`` the secondary motion is ``z_j = -k theta_j n_j``
(world), the steepest descent of ``sum_j theta_j^2`` (squared joint rotation
angles) scaled by ``k``. ``J^T (J J^T + lambda^2)^-1 J`` is (nearly) the projector
onto the row space, so ``z - J^T (...)^-1 J z`` moves only in the null space.
After the task is met the loop keeps stepping while it lowers ``sum theta^2``
and keeps the task met.
"""

import math
import random

from .. import rotation as rot
from ..checks import check_float
from ..constraints import Hinge
from ..errors import IKError
from ..problem import Outcome
from ._jacobian_columns import joint_axes, limit_directions, rest_motion, times_jacobian
from ._jacobian_flat import apply_step, forward, residual, rest_cost, rotate
from ._jacobian_normal import joint_step, normal_matrix, solve_spd
from ._limits import FREE, limit_table
from ._pose import Pose, follow
from ._surgery import reach_out

#: Largest joint rotation (radians) of one step: bounded steps near singularities.
MAX_STEP = 0.5
#: Retries (damped or shortened steps) within one iteration before it counts as stuck.
MAX_ATTEMPTS = 10
#: Restarts from a perturbed best pose when progress stops.
MAX_RESTARTS = 8
#: Restarts when out of reach: the best stretched pose seldom needs more.
UNREACHABLE_RESTARTS = 2
#: Iterations over which the error must fall by :data:`SLOW_FACTOR` (else restart).
SLOW_WINDOW = 12
SLOW_FACTOR = 0.9
#: Progress has stopped when the error falls by less than this fraction of the tolerance in the window.
CRAWL = 0.01


def check_fraction(value, name):
    """Return ``value`` as a float in ``[0, 1]``."""
    value = check_float(value, name)
    if not 0.0 <= value <= 1.0:
        raise IKError(f"{name} must be in [0, 1], got {value!r}")
    return value


def check_bool(value, name):
    """Return ``value`` if it is a bool."""
    if not isinstance(value, bool):
        raise IKError(f"{name} must be True or False, got {value!r}")
    return value


def perturb(chain, qs, rng, size):
    """A random nearby pose within the limits: each joint turned by up to ``size`` radians."""
    out = []
    for q, con, d in zip(qs, chain.joints, chain.directions):
        if isinstance(con, Hinge):
            q = rot.multiply(rot.from_axis_angle(con.axis, rng.uniform(-size, size)), q)
        else:
            v = (rng.gauss(0.0, 1.0), rng.gauss(0.0, 1.0), rng.gauss(0.0, 1.0))
            if max(abs(x) for x in v) > 0.0:
                q = rot.multiply(rot.from_axis_angle(v, rng.uniform(0.0, size)), q)
        q = rot.normalize(q)
        out.append(q if con is None else con.clamp(q, d))
    return out


def orientation_weight(problem):
    """``c``: the length that weights one radian of orientation error against distance."""
    reach = problem.chain.reach
    return min(max(problem.tolerance / problem.orientation_tolerance, 0.1 * reach), 10.0 * reach)


def _columns(chain, R, plain, hinge_axes, dropped):
    # The free joints (closed form) and the single columns (hinges, joints with dropped directions).
    if not dropped:
        free = plain
        cols = []
        for j, axis in hinge_axes.items():
            cols += (j, *rotate(R, j - 1, axis))
        return free, cols
    free = [j for j in plain if j not in dropped]
    cols = []
    for j in sorted(set(hinge_axes) | set(dropped)):
        for a in joint_axes(chain, R, j, dropped.get(j, ())):
            cols += (j, a[0], a[1], a[2])
    return free, cols


def _drop_outward(W, outward, dropped):
    # Add to `dropped` the limit directions the step W pushes into; True if any was new.
    more = False
    for j, dirs in outward.items():
        k = 3 * j
        wx, wy, wz = W[k], W[k + 1], W[k + 2]
        for o in dirs:
            if wx * o[0] + wy * o[1] + wz * o[2] > 1e-15 and o not in dropped.get(j, ()):
                dropped.setdefault(j, []).append(o)
                more = True
    return more


def _direction(kind, A, b, m, lam, alpha, tiny, lam_bump):
    # y of dtheta = J^T y (+ z), and the damping actually used.
    if kind == "transpose":
        if alpha is None:
            v = [sum(A[i * m + t] * b[t] for t in range(m)) for i in range(m)]
            vv = sum(x * x for x in v)
            alpha = sum(x * y for x, y in zip(b, v)) / vv if vv > 0.0 else 0.0
        return [alpha * x for x in b], lam
    y = solve_spd(A, b, m, max(lam * lam, tiny))
    while y is None:  # singular even with this damping: damp more
        lam = max(4.0 * lam, lam_bump)
        y = solve_spd(A, b, m, lam * lam)
    return y, lam


def iterate(problem, kind, *, damping=0.0, adaptive=False, alpha=None, rest_weight=0.0, start=None,
            max_iterations=None, errors=None):
    """The shared Jacobian loop; returns an :class:`~ikcore.problem.Outcome`.

    Parameters
    ----------
    problem : Problem
    kind : {"transpose", "inverse"}
        ``"transpose"``: ``y = alpha e`` (``alpha`` given, or the step
        ``<e, J J^T e> / |J J^T e|^2`` that minimises the linearised error along
        ``J^T e``). ``"inverse"``: ``y = (J J^T + lambda^2 I)^-1 (e - J z)``.
    damping : float
        ``lambda`` as a fraction of the chain's reach (0: the pseudo-inverse,
        with just enough damping to keep the solve defined).
    adaptive : bool
        On a rejected step multiply ``lambda^2`` by 16 and retry, on an accepted
        one halve ``lambda`` (down to ``damping / 100``); otherwise halve the step.
    alpha : float or None
    rest_weight : float
        ``k`` of the rest motion (0: none).
    start : list of quaternions, optional
        Start pose (default ``problem.start``).
    max_iterations : int, optional
        Iteration budget (default ``problem.max_iterations``).
    errors : list of float, optional
        An error history to continue (its last entry is this start's error).
    """
    chain = problem.chain
    n = chain.size
    reach = chain.reach
    target = problem.target
    orientation = problem.orientation
    m = 3 if orientation is None else 6
    c = 0.0 if orientation is None else orientation_weight(problem)
    # A small margin keeps "met" true after solve() renormalises the rotations.
    tol = problem.tolerance * (1.0 - 1e-9)
    otol = problem.orientation_tolerance * (1.0 - 1e-9)
    budget = problem.max_iterations if max_iterations is None else max_iterations
    table = limit_table(chain) if chain.limited else None
    limited = [j for j, row in enumerate(table) if row[0] != FREE] if table else []
    hinge_axes = {j: con.axis for j, con in enumerate(chain.joints) if isinstance(con, Hinge)} if table else {}
    plain = [j for j in range(n) if j not in hinge_axes]
    lam0 = damping * reach
    lam_min = 0.01 * lam0 if adaptive else lam0
    lam_bump = 1e-3 * reach
    # The least damping that keeps the m x m solve well defined (pseudo-inverse).
    tiny = (1e-9 * reach) ** 2
    rx, ry, rz = chain.points[0]
    d = math.sqrt((target[0] - rx) ** 2 + (target[1] - ry) ** 2 + (target[2] - rz) ** 2)
    reachable = chain.min_reach <= d <= reach
    # The least error a free chain can have for a position target: how far out of reach it is.
    floor = gap = None
    if orientation is None and not chain.limited and not reachable:
        gap = max(d - reach, chain.min_reach - d, 0.0)
        floor = gap * gap * (1.0 + 1e-6) + (1e-9 * reach) ** 2

    qs = list(problem.start if start is None else start)
    P, R = forward(chain, qs)
    e, pos, ang = residual(P, R, target, orientation, c)
    F = sum(v * v for v in e)
    errors = [pos] if errors is None else errors
    # (the start's error against the least, up to the rounding of coordinates this far out)
    if gap is not None and budget > 0 and pos - gap > 1e-9 * reach + 1e-14 * (d + abs(rx) + abs(ry) + abs(rz)):
        # Out of reach, a free chain's best pose is known: straight at the target (or folded
        # toward it, nearer than it folds). Steps crawl there, along the stretched chain's
        # singular direction (5 reaches away, 200 DLS steps still left it 0.15% short), so
        # it is taken in one step, as CCD and FABRIK take it.
        pose = Pose(chain, qs)
        reach_out(chain, target, pose.xs, pose.ys, pose.zs)
        follow(chain, limit_table(chain), pose)
        qs = pose.rotations()
        errors.append(pose.error(target))
        return Outcome(qs, 1, errors, False)
    best, best_F = qs, F
    rest_on = rest_weight > 0.0
    rest = None  # the rest cost, once the task is met
    rng = None  # made at the first restart: seeded, so every solve is repeatable
    lam = lam0
    restarts = 0
    stalled = False
    history = [F]
    it = 0
    while it < budget:
        met = pos <= tol and ang <= otol
        if met:
            best, best_F = qs, F
            if not rest_on:
                break
            if rest is None:
                rest = rest_cost(qs)
        it += 1
        ex, ey, ez = P[-3], P[-2], P[-1]
        rs = []
        for j in range(n):
            k = 3 * j
            rs += (ex - P[k], ey - P[k + 1], ez - P[k + 2])
        # Joints on a limit, and the directions that would push them through it.
        outward = {}
        for j in limited:
            dirs = limit_directions(table, qs, R, j)
            if dirs:
                outward[j] = dirs
        dropped = {}
        while True:
            free, cols = _columns(chain, R, plain, hinge_axes, dropped)
            A = normal_matrix(rs, free, cols, m, c)
            b, Zp = e, None
            if rest_on:
                Zp = rest_motion(qs, R, rest_weight, free, cols)
                jz = times_jacobian(rs, Zp, m, c)
                b = [u - v for u, v in zip(e, jz)]
            y, lam = _direction(kind, A, b, m, lam, alpha, tiny, lam_bump)
            W = joint_step(rs, free, cols, y, m, c, n, Zp)
            if not outward or not _drop_outward(W, outward, dropped):
                break
        # Line search: accept only a step that lowers the error (or, once met, the rest cost).
        accepted = False
        scale = 1.0
        for _ in range(MAX_ATTEMPTS):
            big = max(W[k] * W[k] + W[k + 1] * W[k + 1] + W[k + 2] * W[k + 2] for k in range(0, 3 * n, 3))
            big = math.sqrt(big)
            if not big > 1e-14:
                break  # no motion left: singular, or every direction blocked by a limit
            s = scale * (MAX_STEP / big if big > MAX_STEP else 1.0)
            nq, nP, nR = apply_step(chain, table, qs, R, W, s)
            ne, npos, nang = residual(nP, nR, target, orientation, c)
            nF = sum(v * v for v in ne)
            if met:
                nrest = rest_cost(nq)
                ok = (npos <= max(pos, 0.5 * tol) and nang <= max(ang, 0.5 * otol)
                      and nrest < rest * (1.0 - 1e-6))
            else:
                ok = nF < F
            if ok:
                accepted = True
                break
            if Zp is not None and not met:
                # Meet the task first: retry without the rest motion.
                Zp, b = None, e
                y, lam = _direction(kind, A, b, m, lam, alpha, tiny, lam_bump)
                W = joint_step(rs, free, cols, y, m, c, n, Zp)
            elif kind == "inverse" and adaptive and not met:
                lam = max(4.0 * lam, lam_bump)
                y, lam = _direction(kind, A, b, m, lam, alpha, tiny, lam_bump)
                W = joint_step(rs, free, cols, y, m, c, n, Zp)
            else:
                scale *= 0.5
        if accepted:
            if met and nrest > rest * (1.0 - 1e-4):
                rest_on = False  # the rest cost has settled
            gain = F - nF
            qs, P, R, e, pos, ang, F = nq, nP, nR, ne, npos, nang, nF
            rest = nrest if met else None
            if F < best_F or met:
                best, best_F = qs, F
            if adaptive:
                lam = 0.5 * lam
                if lam < lam_min or lam < 1e-6 * reach:
                    lam = lam_min
            history.append(F)
            past = history[-1 - SLOW_WINDOW] if len(history) > SLOW_WINDOW else None
            # Progress has stopped when a step gains (next to) nothing, or when the
            # error (sqrt F, a length) fell by less than 1% of the tolerance in a window;
            # stretching a free chain out of reach, crawling is fine: the pose still settles.
            stuck = not met and (gain <= 1e-12 * (F + gain)
                                 or (past is not None and floor is None
                                     and math.sqrt(past) - math.sqrt(F) < CRAWL * tol))
            # Slow progress counts too, except for the transpose, which is slow by nature.
            slow = stuck or (kind == "inverse" and not met and past is not None and F > SLOW_FACTOR * past)
        else:
            if met:
                errors.append(pos)  # the rest cost cannot fall further: the pose stands
                break
            stuck = slow = True
        if slow:
            # Out of reach, a restart only helps a pose short of the best stretch.
            if reachable:
                restart = restarts < MAX_RESTARTS
            else:
                restart = stuck and restarts < UNREACHABLE_RESTARTS and (floor is None or best_F > floor)
            if restart:
                # Stuck or crawling: try again from near the best pose.
                restarts += 1
                rng = rng or random.Random(20261130)
                qs = perturb(chain, best, rng, 0.2 + 0.1 * restarts)
                P, R = forward(chain, qs)
                e, pos, ang = residual(P, R, target, orientation, c)
                F = sum(v * v for v in e)
                history = [F]
                lam = lam0
            elif stuck:
                stalled = True
                errors.append(pos)
                break
        errors.append(pos)
    return Outcome(best, it, errors, stalled)
