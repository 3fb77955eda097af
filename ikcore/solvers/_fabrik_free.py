"""FABRIK over plain floats on a chain without limits (or of hinges about one axis, in their plane).

The passes of :mod:`~.fabrik` on flat point lists, inlined, writing in place
unless they would overwrite the best pose; a dead end (a target nearer than the
chain can fold) restarts near the best pose. Where a point lands on its
neighbour, the pass goes on in its careful form (:func:`_careful_backward`,
:func:`_careful_forward`). The points become rotations once, at the end
(:mod:`~._fabrik_arcs`).
"""

import math
import random

from .. import rotation as rot
from ..problem import Outcome
from . import _limits, _pose, _surgery
from ._fabrik_arcs import rotations_along, settled_along
from ._fabrik_tuning import COLLINEAR, KICK, PATIENCE_FREE, RATE_FREE, SEED, WINDOW
from ._per_chain import per_chain
from ._pose import Pose


def _rest_points_of(chain):
    """A chain's rest points as three tuples, and their :func:`~._surgery.line`."""
    points = chain.points
    xs, ys, zs = tuple(p[0] for p in points), tuple(p[1] for p in points), tuple(p[2] for p in points)
    return xs, ys, zs, _surgery.line(xs, ys, zs, COLLINEAR * chain.reach)


_rest_points = per_chain(_rest_points_of)


def run(problem, normal=None):
    """FABRIK over plain floats; with ``normal``, in the plane through the root
    normal to it (aiming at the target's projection on that plane)."""
    chain = problem.chain
    n = chain.size
    lengths = chain.lengths
    reach = chain.reach
    tx, ty, tz = problem.target
    tol = problem.tolerance
    start = problem.start
    rx, ry, rz = chain.points[0]
    sqrt = math.sqrt
    # Out of plane part of the error (0 for a free chain); the in-plane goal that meets tol.
    off = 0.0
    goal = tol
    if normal is not None:
        ax, ay, az = normal
        off = (tx - rx) * ax + (ty - ry) * ay + (tz - rz) * az
        tx, ty, tz = tx - off * ax, ty - off * ay, tz - off * az
        off = abs(off)
        # Off the plane by more than tol: the in-plane nearest point is the best there is.
        goal = sqrt(tol * tol - off * off) if off < tol else 1e-3 * tol

    # The reference pose rotations are measured from (the start; rest when cold), and its
    # points (sxs, sys_, szs: never changed); the passes work on a copy.
    if start.count(rot.IDENTITY) == n:
        ref = None
        sxs, sys_, szs, rest_line = _rest_points(chain)
    else:
        ref = Pose(chain, start)
        sxs, sys_, szs = ref.xs, ref.ys, ref.zs
    xs, ys, zs = list(sxs), list(sys_), list(szs)
    ex, ey, ez = xs[n] - tx, ys[n] - ty, zs[n] - tz
    error = sqrt(ex * ex + ey * ey + ez * ez)
    errors = [sqrt(error * error + off * off)]
    flip = normal is not None
    if error <= goal:
        if problem.pole is None:
            return Outcome(list(start), 0, errors, off >= tol)
        # Turning to the pole changes the pose: one iteration, so the history keeps the start's error.
        _surgery.swivel(xs, ys, zs, problem.pole, reach, flip)
        errors.append(errors[0])
        rotations, settled = settled_along(chain, ref, xs, ys, zs)
        return Outcome(rotations, 1, errors, off >= tol, settled)

    ex, ey, ez = tx - rx, ty - ry, tz - rz
    distance = sqrt(ex * ex + ey * ey + ez * ez)
    if not chain.min_reach <= distance < reach:
        # Out of reach (or nearer than the chain folds): the nearest pose, in one step.
        _surgery.reach_out(chain, (tx, ty, tz), xs, ys, zs)
        errors.append(sqrt((xs[n] - tx) ** 2 + (ys[n] - ty) ** 2 + (zs[n] - tz) ** 2 + off * off))
        rotations, settled = settled_along(chain, ref, xs, ys, zs)
        return Outcome(rotations, 1, errors, off >= tol, settled)

    # The best pose so far is the start, even when the iterations start from a bent one. Its
    # points are never copied: the passes write in place unless they would overwrite the best
    # pose, then into spare lists (the best pose before, once beaten): no copy per iteration.
    best = error
    bxs, bys, bzs = sxs, sys_, szs
    spare = None
    if ref is None and rest_line is not False:
        # The rest pose's line is known: only the target is left to test (_surgery.near, inlined).
        straight = False
        if rest_line is not None:
            x0, y0, z0, fx, fy, fz = rest_line
            ex, ey, ez = tx - x0, ty - y0, tz - z0
            t = ex * fx + ey * fy + ez * fz
            eps = COLLINEAR * reach
            straight = not ex * ex + ey * ey + ez * ez - t * t > eps * eps
    else:
        straight = _surgery.collinear(xs, ys, zs, COLLINEAR * reach, (tx, ty, tz))
    if straight:
        # Bending moves the reference pose's points: the best keeps a copy.
        bxs, bys, bzs = xs, ys, zs
        ref = ref or Pose(chain, start)
        _surgery.bend(chain, _limits.limit_table(chain), ref, problem.pole, (tx, ty, tz))
        xs, ys, zs = ref.xs[:], ref.ys[:], ref.zs[:]
        error = sqrt((xs[n] - tx) ** 2 + (ys[n] - ty) ** 2 + (zs[n] - tz) ** 2)
    # The stall watch of _pose.Progress, inlined as it runs every iteration (and at N = 10 a solve
    # takes two): progress is an error below cut = mark (1 - rate), the mark being the watched best
    # error at the last progress or restart; after WINDOW iterations without progress, restart, or
    # stop once PATIENCE_FREE restarts in a row left the watched best above restart_best (1 - rate).
    keep = 1.0 - RATE_FREE
    cut = error * keep
    watched = restart_best = error
    since = fruitless = 0
    max_restarts = problem.options.get("max_restarts")
    restarts = 0
    rng = None
    stalled = False
    iterations = 0
    max_iterations = problem.max_iterations
    back, fore = range(n - 1, -1, -1), range(n)
    # In both passes a bone's new direction is its old point's offset over its length, which is
    # 0 only where the two points coincide (a sum of squares > 0 is >= 5e-324, its root > 1e-162).
    # The division then raises, and the pass goes on from that bone in its careful form (see
    # _careful_backward): a try about the loop, not a test per bone, as a try costs nothing
    # until it raises.
    while iterations < max_iterations:
        iterations += 1
        # The passes read the last points (pxs, ...) and write xs, ...
        pxs, pys, pzs = xs, ys, zs
        if xs is bxs:
            xs, ys, zs = spare or ([0.0] * (n + 1), [0.0] * (n + 1), [0.0] * (n + 1))
            spare = None
        # Backward: effector onto the target, then tip to root.
        x, y, z = tx, ty, tz
        xs[n], ys[n], zs[n] = x, y, z
        try:
            for i in back:
                ex, ey, ez = pxs[i] - x, pys[i] - y, pzs[i] - z
                k = lengths[i] / sqrt(ex * ex + ey * ey + ez * ez)
                x += ex * k
                y += ey * k
                z += ez * k
                xs[i], ys[i], zs[i] = x, y, z
        except ZeroDivisionError:
            _careful_backward(i, x, y, z, lengths, pxs, pys, pzs, xs, ys, zs)
        # Forward: root back in place, then root to tip.
        x, y, z = rx, ry, rz
        xs[0], ys[0], zs[0] = x, y, z
        try:
            for i in fore:
                j = i + 1
                ex, ey, ez = xs[j] - x, ys[j] - y, zs[j] - z
                k = lengths[i] / sqrt(ex * ex + ey * ey + ez * ez)
                x += ex * k
                y += ey * k
                z += ez * k
                xs[j], ys[j], zs[j] = x, y, z
        except ZeroDivisionError:
            x, y, z = _careful_forward(i, x, y, z, lengths, xs, ys, zs)
        if normal is not None:
            # A point that landed on its neighbour can leave the plane: back into it.
            x, y, z = _surgery.flatten(xs, ys, zs, normal, lengths, pxs, pys, pzs, 1e-12 * reach) or (x, y, z)
        ex, ey, ez = x - tx, y - ty, z - tz
        error = sqrt(ex * ex + ey * ey + ez * ez)
        errors.append(sqrt(error * error + off * off) if off else error)
        if error < best:
            best = error
            if bxs is not sxs:
                spare = bxs, bys, bzs
            bxs, bys, bzs = xs, ys, zs
            if error <= goal:
                break
        if error < cut:
            watched = error
            cut = error * keep
            since = 0
            continue
        if error < watched:
            watched = error
        since += 1
        if since == WINDOW:
            since = 0
            fruitless = 0 if watched < restart_best * keep else fruitless + 1
            restart_best = watched
            cut = watched * keep
            if fruitless >= PATIENCE_FREE or (max_restarts is not None and restarts >= max_restarts):
                stalled = True
                break
            # A dead end the passes cannot leave: restart near the best pose.
            restarts += 1
            rng = rng or random.Random(SEED)
            kicked = _pose.perturb(chain, _limits.limit_table(chain), rotations_along(chain, ref, bxs, bys, bzs),
                                   rng, KICK)
            ref = Pose(chain, kicked)
            xs, ys, zs = ref.xs[:], ref.ys[:], ref.zs[:]

    if off >= tol and best <= goal:
        # As near as a planar chain gets to a target off its plane.
        stalled = True
    if problem.pole is not None:
        if bxs is sxs:
            bxs, bys, bzs = list(bxs), list(bys), list(bzs)
        _surgery.swivel(bxs, bys, bzs, problem.pole, reach, flip)
    rotations, settled = settled_along(chain, ref, bxs, bys, bzs)
    return Outcome(rotations, iterations, errors, stalled, settled)


def _careful_backward(i, x, y, z, lengths, pxs, pys, pzs, xs, ys, zs):
    """The backward pass of :func:`run` from bone ``i`` on, child point ``(x, y, z)``:
    where a point sits on its new child, the bone goes on along -x."""
    sqrt = math.sqrt
    for i in range(i, -1, -1):
        ex, ey, ez = pxs[i] - x, pys[i] - y, pzs[i] - z
        d = sqrt(ex * ex + ey * ey + ez * ez)
        if d:
            k = lengths[i] / d
            x += ex * k
            y += ey * k
            z += ez * k
        else:
            x -= lengths[i]
        xs[i], ys[i], zs[i] = x, y, z


def _careful_forward(i, x, y, z, lengths, xs, ys, zs):
    """The forward pass of :func:`run` from bone ``i`` on, parent point ``(x, y, z)``:
    where a point sits on its new parent, the bone goes on along +x. Returns the effector."""
    sqrt = math.sqrt
    for i in range(i, len(lengths)):
        j = i + 1
        ex, ey, ez = xs[j] - x, ys[j] - y, zs[j] - z
        d = sqrt(ex * ex + ey * ey + ez * ez)
        if d:
            k = lengths[i] / d
            x += ex * k
            y += ey * k
            z += ez * k
        else:
            x += lengths[i]
        xs[j], ys[j], zs[j] = x, y, z
    return x, y, z

