"""FABRIK: forward and backward reaching inverse kinematics (Aristidou & Lasenby 2011).

One iteration moves points, never angles:

- **backward** (tip to root): the effector goes onto the target; each point then
  goes onto the line from its new child toward its old place, one bone length
  away: ``p_i <- p_{i+1} + L_i (p_i - p_{i+1}) / |p_i - p_{i+1}|``;
- **forward** (root to tip): the root goes back to its fixed place; each point
  goes onto the line from its new parent toward its backward-pass place:
  ``p_{i+1} <- p_i + L_i (p_{i+1} - p_i) / |p_{i+1} - p_i|``.

Bone lengths hold exactly after every pass. A target beyond reach gives the
chain stretched straight at it in one step (one nearer than the chain can
fold gives its nearest fold, :func:`~._surgery.reach_out`). A planar chain (hinges without
range limits about one axis, rest bones across it) is solved the same way in
its plane, aiming at the target's projection on it.

**Rotations.** Positions become rotations once, at the end: bone ``i`` turns by
the shortest arc from its start direction ``s_i`` to its final direction
``b_i``, ``R_i = arc(s_i, b_i) S_i`` (world rotations; the start pose's twist is
kept), and ``q_i = R_{i-1}^{-1} R_i`` (convention in :mod:`ikcore.rotation`).
For a chain without limits the verdict takes the final points as the pose:
they are the forward kinematics of those rotations to rounding (within
``1e-12`` of the reach; where a bone turned within 0.8 degrees of a half turn
the arc is less precise, and the verdict runs the forward kinematics itself).

**Joint limits.** A limited chain is solved with the limits inside both passes.
The forward pass re-poses each bone by rotation (:func:`~._pose.follow`): the
shortest arc onto its wanted direction, then the joint's limits (hinge: the
angle about its current world axis nearest the wanted direction, clamped;
ball: swing clamped into the cone, twist into its range), so positions and
rotations agree and the limits hold exactly. The backward pass bends each
wanted direction the same way, in the parent's frame of the last forward pass.
Constrained FABRIK can pin a joint on its limit and stop improving; when the
error has not fallen for a few iterations the solve restarts from the best
pose, randomly perturbed (seeded: every solve is repeatable). A chain whose
only limits are twist-free cones about a straight rest line (a tentacle) is
solved in point space, its offsets spread along it before each pass
(:mod:`~._fabrik_cones`).

**Where FABRIK is weak.** Hinges whose axes differ from joint to joint: the
backward pass limits each bone in its parent's frame of the previous forward
pass, which is stale when the parent turns about another axis. On six hinges
about random axes across the bones, FABRIK converges on 64% of reachable
targets where CCD converges on 92% and DLS on 98% (``tests/core/test_fabrik.py``
holds that figure); prefer those methods for such chains. Hinges about one or
two axes (legs, planar arms) and cone chains converge on 96% or more.

**Option** ``max_restarts`` (default ``None``: no cap) bounds those restarts.
A restart lands anywhere near the best pose, so a chain tracking a moving
target frame to frame would jump; with ``max_restarts=0`` a solve that stops
improving returns its best pose, near the start, with its honest status.

**Degenerate starts.** When the chain and the target lie on one line (a straight
chain with the target on it or straight behind it) every point stays on that
line; the chain is first bent slightly off it.

**Pole.** A world point hinting the bend side: after solving, the interior
points turn together about the root-effector line toward it, then each about
its neighbours' line (:func:`~._surgery.swivel`); neither moves the effector or
changes a bone length. A planar chain only flips within its plane. A limited
chain starts turned toward the pole, and the final turn is kept only where the
limits let the effector stay as near.
"""

import math
import random

from .. import rotation as rot
from ..checks import check_int_range
from ..problem import Outcome
from . import _fabrik_cones, _limits, _pose, _surgery
from ._limits import FREE, HINGE
from ._pose import Pose, Progress


def _check_restarts(value, name):
    return check_int_range(value, name, 0, 100000)


OPTIONS = {"max_restarts": (None, _check_restarts)}
MAX_ITERATIONS = 100

# Stagnation: restart when the best error has not fallen by _RATE in _WINDOW iterations;
# give up after _PATIENCE restarts in a row that brought nothing. A free chain stalls only
# on a dead end (a target nearer than it can fold), so it gives up sooner.
_WINDOW = 6
_RATE = 0.01
_PATIENCE = 5
_RATE_FREE = 1e-3
_PATIENCE_FREE = 2
# Largest random turn per joint on a restart (radians).
_KICK = 0.8
# Chain and target count as collinear within this fraction of the reach.
_COLLINEAR = 1e-6
_SEED = 20110901


def run(problem):
    """Solve ``problem`` by FABRIK; see the module docstring."""
    chain = problem.chain
    if not chain.limited:
        return _run_free(problem)
    table, normal, cones = _layout(chain)
    if all(row[0] == FREE for row in table):
        return _run_free(problem)
    if normal is not None and all(row[6] for row in table):
        # Hinges without range limits about one axis: the free solve, in their plane (the verdict
        # still clamps to the hinges: _settled hands it no pose for a limited chain).
        return _run_free(problem, normal)
    if cones is not None:
        return _fabrik_cones.run(problem, table, cones, _arcs, problem.options.get("max_restarts"),
                                 _WINDOW, _RATE, _PATIENCE, _KICK, _SEED, _COLLINEAR)
    return _run_limited(problem, table, normal)


# A chain's limit table, plane normal and cone passes, by id; a chain never changes, and the
# entry keeps its chain alive, so an id cannot be reused while it is here.
_layouts = {}


def _layout(chain):
    entry = _layouts.get(id(chain))
    if entry is None or entry[0] is not chain:
        if len(_layouts) >= 64:
            _layouts.clear()
        table = _limits.limit_table(chain)
        entry = (chain, table, _limits.plane_normal(chain, table), _fabrik_cones.Passes.of(chain, table))
        _layouts[id(chain)] = entry
    return entry[1:]


# A free chain's rest points as three tuples and their _surgery.line, by id (kept as _layouts
# keeps its entries).
_rests = {}


def _rest_points(chain):
    entry = _rests.get(id(chain))
    if entry is None or entry[0] is not chain:
        if len(_rests) >= 64:
            _rests.clear()
        points = chain.points
        xs, ys, zs = tuple(p[0] for p in points), tuple(p[1] for p in points), tuple(p[2] for p in points)
        entry = (chain, xs, ys, zs, _surgery.line(xs, ys, zs, _COLLINEAR * chain.reach))
        _rests[id(chain)] = entry
    return entry


def _run_free(problem, normal=None):
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
        _, sxs, sys_, szs, rest_line = _rest_points(chain)
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
        rotations, settled = _settled(chain, ref, xs, ys, zs)
        return Outcome(rotations, 1, errors, off >= tol, settled)

    ex, ey, ez = tx - rx, ty - ry, tz - rz
    distance = sqrt(ex * ex + ey * ey + ez * ez)
    if not chain.min_reach <= distance < reach:
        # Out of reach (or nearer than the chain folds): the nearest pose, in one step.
        _surgery.reach_out(chain, (tx, ty, tz), xs, ys, zs)
        errors.append(sqrt((xs[n] - tx) ** 2 + (ys[n] - ty) ** 2 + (zs[n] - tz) ** 2 + off * off))
        rotations, settled = _settled(chain, ref, xs, ys, zs)
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
            eps = _COLLINEAR * reach
            straight = not ex * ex + ey * ey + ez * ez - t * t > eps * eps
    else:
        straight = _surgery.collinear(xs, ys, zs, _COLLINEAR * reach, (tx, ty, tz))
    if straight:
        # Bending moves the reference pose's points: the best keeps a copy.
        bxs, bys, bzs = xs, ys, zs
        ref = ref or Pose(chain, start)
        _surgery.bend(chain, _limits.limit_table(chain), ref, problem.pole, (tx, ty, tz))
        xs, ys, zs = ref.xs[:], ref.ys[:], ref.zs[:]
        error = sqrt((xs[n] - tx) ** 2 + (ys[n] - ty) ** 2 + (zs[n] - tz) ** 2)
    # The stall watch of _pose.Progress, inlined as it runs every iteration (and at N = 10 a solve
    # takes two): progress is an error below cut = mark (1 - rate), the mark being the watched best
    # error at the last progress or restart; after _WINDOW iterations without progress, restart, or
    # stop once _PATIENCE_FREE restarts in a row left the watched best above restart_best (1 - rate).
    keep = 1.0 - _RATE_FREE
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
        if since == _WINDOW:
            since = 0
            fruitless = 0 if watched < restart_best * keep else fruitless + 1
            restart_best = watched
            cut = watched * keep
            if fruitless >= _PATIENCE_FREE or (max_restarts is not None and restarts >= max_restarts):
                stalled = True
                break
            # A dead end the passes cannot leave: restart near the best pose.
            restarts += 1
            rng = rng or random.Random(_SEED)
            kicked = _pose.perturb(chain, _limits.limit_table(chain), _rotations(chain, ref, bxs, bys, bzs),
                                   rng, _KICK)
            ref = Pose(chain, kicked)
            xs, ys, zs = ref.xs[:], ref.ys[:], ref.zs[:]

    if off >= tol and best <= goal:
        # As near as a planar chain gets to a target off its plane.
        stalled = True
    if problem.pole is not None:
        if bxs is sxs:
            bxs, bys, bzs = list(bxs), list(bys), list(bzs)
        _surgery.swivel(bxs, bys, bzs, problem.pole, reach, flip)
    rotations, settled = _settled(chain, ref, bxs, bys, bzs)
    return Outcome(rotations, iterations, errors, stalled, settled)


def _careful_backward(i, x, y, z, lengths, pxs, pys, pzs, xs, ys, zs):
    """The backward pass of :func:`_run_free` from bone ``i`` on, child point ``(x, y, z)``:
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
    """The forward pass of :func:`_run_free` from bone ``i`` on, parent point ``(x, y, z)``:
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


def _rotations(chain, ref, xs, ys, zs):
    """Local rotations putting the free chain's bones along the points' bones.

    World ``R_i = arc(s_i, b_i) S_i`` with ``s_i``, ``S_i`` the bone direction
    and world rotation of ``ref`` (the rest pose when ``None``) and ``b_i`` the
    wanted direction; ``q_i = R_{i-1}^{-1} R_i``. The arc between unit vectors
    is ``(1 + s.b, s x b) / sqrt(2 (1 + s.b))``.
    """
    return _arcs(chain, ref, xs, ys, zs)[0]


def _settled(chain, ref, xs, ys, zs):
    """The rotations putting the bones along the points, and the verdict's pose for them.

    For a chain without limits the points themselves are that pose (see
    :attr:`~ikcore.problem.Outcome.settled`): each bone's arc maps its rest
    bone onto the points' bone to rounding, so ``chain.forward(rotations)``
    would give them back. Where a bone turned nearly half a turn the arc is
    less precise than that, and the pose is the forward kinematics proper.
    A limited chain (planar hinges) gets no pose: the verdict clamps first.
    """
    rotations, last = _arcs(chain, ref, xs, ys, zs)
    if chain.limited:
        return rotations, None
    if last is None:
        return rotations, chain._settle(rotations)
    return rotations, (rotations, list(zip(xs, ys, zs)), last)


# A bone's arc whose 1 + s.b (s.b the cosine of its turn) falls below this loses about
# 1e-15 / sqrt(1 + s.b) of a turn to rounding (measured): too much for its points to stand
# for the forward kinematics of its rotations within 1e-13 of its length (a turn within 0.8
# degrees of a half turn; under 3% of the standard benchmark solves have one).
_PRECISE_ARC = 1e-4


def _arcs(chain, ref, xs, ys, zs, worlds=None):
    """:func:`_rotations`, and the last world rotation ``R_{N-1}``, or ``None``
    when some bone's arc is imprecise (see ``_PRECISE_ARC``). With a list
    ``worlds`` and a ``ref``, each ``R_i`` is normalised and appended to it.

    With ``D`` the points' bone (length ``L``), ``(L + s.D, s x D)`` is the arc
    scaled by ``sqrt(2 L (L + s.D))``; it is normalised by its computed norm,
    so every rotation is unit to rounding even where rounding left ``|D| != L``.
    """
    if ref is not None:
        return _arcs_from(chain, ref, xs, ys, zs, worlds)
    # One loop, the maths inlined: this runs once a solve, and at N = 10 a solve takes two iterations.
    out = []
    append = out.append
    sqrt = math.sqrt
    precise = True
    pw, px, py, pz = 1.0, 0.0, 0.0, 0.0
    x0, y0, z0 = xs[0], ys[0], zs[0]
    j = 0
    for (sx, sy, sz), length in zip(chain.directions, chain.lengths):
        j += 1
        x1, y1, z1 = xs[j], ys[j], zs[j]
        dx, dy, dz = x1 - x0, y1 - y0, z1 - z0
        x0, y0, z0 = x1, y1, z1
        e = length + sx * dx + sy * dy + sz * dz
        # Four names at a time by single assignments: a 4-tuple assignment builds a tuple.
        if e > _PRECISE_ARC * length:
            ax, ay, az = sy * dz - sz * dy, sz * dx - sx * dz, sx * dy - sy * dx
            h = 1.0 / sqrt(e * e + ax * ax + ay * ay + az * az)
            aw = e * h
            ax *= h
            ay *= h
            az *= h
        else:
            precise = False
            aw, ax, ay, az = _reversal_arc(sx, sy, sz, dx, dy, dz, e, length)
        # q_i = conj(P) R_i
        append((pw * aw + px * ax + py * ay + pz * az,
                pw * ax - px * aw - py * az + pz * ay,
                pw * ay + px * az - py * aw - pz * ax,
                pw * az - px * ay + py * ax - pz * aw))
        pw = aw
        px = ax
        py = ay
        pz = az
    return out, ((pw, px, py, pz) if precise else None)


def _reversal_arc(sx, sy, sz, dx, dy, dz, e, length):
    # The arc from s onto D when D points nearly straight back: the formula while it holds
    # up, else a half turn about an axis across s.
    if e > 1e-12 * length:
        ax, ay, az = sy * dz - sz * dy, sz * dx - sx * dz, sx * dy - sy * dx
        h = 1.0 / math.sqrt(e * e + ax * ax + ay * ay + az * az)
        return e * h, ax * h, ay * h, az * h
    return (0.0,) + rot.perpendicular((sx, sy, sz))


def _arcs_from(chain, ref, xs, ys, zs, worlds=None):
    # _arcs with a reference pose other than rest: s_i from its points, then R_i = arc S_i.
    out = []
    append = out.append
    sqrt = math.sqrt
    precise = True
    rxs, rys, rzs = ref.xs, ref.ys, ref.zs
    sws, sxs, sys_, szs = ref.rw, ref.rx, ref.ry, ref.rz
    pw, px, py, pz = 1.0, 0.0, 0.0, 0.0
    for i, length in enumerate(chain.lengths):
        k = 1.0 / length
        j = i + 1
        dx, dy, dz = xs[j] - xs[i], ys[j] - ys[i], zs[j] - zs[i]
        sx, sy, sz = (rxs[j] - rxs[i]) * k, (rys[j] - rys[i]) * k, (rzs[j] - rzs[i]) * k
        e = length + sx * dx + sy * dy + sz * dz
        if e > _PRECISE_ARC * length:
            ax, ay, az = sy * dz - sz * dy, sz * dx - sx * dz, sx * dy - sy * dx
            h = 1.0 / sqrt(e * e + ax * ax + ay * ay + az * az)
            aw = e * h
            ax *= h
            ay *= h
            az *= h
        else:
            precise = False
            aw, ax, ay, az = _reversal_arc(sx, sy, sz, dx, dy, dz, e, length)
        # R_i = arc S_i, by single assignments (a 4-tuple assignment builds a tuple).
        cw = sws[i]
        cx = sxs[i]
        cy = sys_[i]
        cz = szs[i]
        rw = aw * cw - ax * cx - ay * cy - az * cz
        rx = aw * cx + ax * cw + ay * cz - az * cy
        ry = aw * cy - ax * cz + ay * cw + az * cx
        az = aw * cz + ax * cy - ay * cx + az * cw
        aw = rw
        ax = rx
        ay = ry
        if worlds is not None:
            # Unit: the next frame's warm start turns these again, and norms must not drift.
            k = 1.0 / sqrt(aw * aw + ax * ax + ay * ay + az * az)
            aw, ax, ay, az = aw * k, ax * k, ay * k, az * k
            worlds.append((aw, ax, ay, az))
        append((pw * aw + px * ax + py * ay + pz * az,
                pw * ax - px * aw - py * az + pz * ay,
                pw * ay + px * az - py * aw - pz * ax,
                pw * az - px * ay + py * ax - pz * aw))
        pw = aw
        px = ax
        py = ay
        pz = az
    return out, ((pw, px, py, pz) if precise else None)


def _run_limited(problem, table, normal):
    """FABRIK with the limits in both passes, restarting from the best pose
    when it stops improving; ``normal`` marks a planar chain (for the pole)."""
    chain = problem.chain
    tx, ty, tz = target = problem.target
    tol = problem.tolerance
    pole = problem.pole
    pose = Pose.of(problem)
    error = pose.error(target)
    errors = [error]
    if error <= tol:
        return Outcome(list(problem.start), 0, errors)

    rx, ry, rz = chain.points[0]
    dx, dy, dz = tx - rx, ty - ry, tz - rz
    distance = math.sqrt(dx * dx + dy * dy + dz * dz)
    beyond = distance >= chain.reach
    flip = normal is not None
    if pole is not None:
        # Start bent toward the pole: the passes tend to keep the side they start on.
        if _surgery.collinear(pose.xs, pose.ys, pose.zs, _COLLINEAR * chain.reach):
            _surgery.bend(chain, table, pose, pole, target)
        else:
            _pose.turn_to_pole(chain, table, pose, pole, flip)
    elif not beyond and _surgery.collinear(pose.xs, pose.ys, pose.zs, _COLLINEAR * chain.reach, target):
        _surgery.bend(chain, table, pose, None, target)

    best, best_rotations = error, list(problem.start)
    progress = Progress(pose.error(target), _WINDOW, _RATE, _PATIENCE)
    creep = best
    max_restarts = problem.options.get("max_restarts")
    restarts = 0
    rng = None
    stalled = False
    iterations = 0
    while iterations < problem.max_iterations:
        iterations += 1
        if beyond and iterations == 1:
            # Out of reach: every bone aimed straight at the target, within its limits.
            _pose.follow(chain, table, pose, (dx / distance, dy / distance, dz / distance))
        else:
            _backward(chain, table, pose, target)
            _pose.follow(chain, table, pose)
        error = pose.error(target)
        errors.append(error)
        if error < best:
            best, best_rotations = error, pose.rotations()
            if error <= tol:
                break
        stuck = progress.update(error)
        if not stuck and iterations % _WINDOW == 0:
            # A joint pinned on its limit makes the passes creep: the error keeps falling by a few
            # percent an iteration, which counts as progress, yet at that rate it would not reach tol
            # within the iterations left. Treat that as a stall (restart near the best pose) while
            # enough iterations are left for a restart to pay.
            left = problem.max_iterations - iterations
            if not beyond and left >= 2 * _WINDOW and creep > 0.0:
                rate = (best / creep) ** (1.0 / _WINDOW)
                stuck = rate < 1.0 and best * rate ** left > tol
            creep = best
        if stuck:
            if beyond or progress.hopeless or (max_restarts is not None and restarts >= max_restarts):
                # Nothing left to gain (out of reach, restarts keep failing), or no restart allowed.
                stalled = True
                break
            restarts += 1
            rng = rng or random.Random(_SEED)
            pose.set_rotations(chain, _pose.perturb(chain, table, best_rotations, rng, _KICK))
    if pole is not None:
        pose.set_rotations(chain, best_rotations)
        _pose.turn_to_pole(chain, table, pose, pole, flip)
        # Kept where the limits let the effector stay as near.
        if pose.error(target) <= max(best, tol):
            best_rotations = pose.rotations()
    return Outcome(best_rotations, iterations, errors, stalled)


def _backward(chain, table, pose, target):
    """The backward pass on a limited chain, in place on ``pose``'s points.

    Each wanted bone direction is limited as joint ``i`` would limit it if its
    parent kept the world rotation ``R_{i-1}`` of the last forward pass: a hinge
    bends it to the nearest direction its clamped angle allows, a ball joint
    into its cone about the parent's rest direction of the bone.
    """
    xs, ys, zs = pose.xs, pose.ys, pose.zs
    rws, rxs, rys, rzs = pose.rw, pose.rx, pose.ry, pose.rz
    lengths = chain.lengths
    directions = chain.directions
    sqrt = math.sqrt
    x, y, z = target
    n = chain.size
    xs[n], ys[n], zs[n] = x, y, z
    for i in range(n - 1, -1, -1):
        length = lengths[i]
        bx, by, bz = x - xs[i], y - ys[i], z - zs[i]
        nb = sqrt(bx * bx + by * by + bz * bz)
        if nb <= 1e-300:
            # The new child sits on the old point: keep the bone's current direction R_i d_i.
            bx, by, bz = rot.rotate((rws[i], rxs[i], rys[i], rzs[i]), directions[i])
            nb = 1.0
        bx, by, bz = bx / nb, by / nb, bz / nb
        kind, hx, hy, hz, lo, hi, full, cone = table[i]
        if kind != FREE:
            if i:
                pw, px, py, pz = rws[i - 1], rxs[i - 1], rys[i - 1], rzs[i - 1]
            else:
                pw, px, py, pz = 1.0, 0.0, 0.0, 0.0
            # l = conj(P) b, in the parent's frame
            tx = 2.0 * (-py * bz + pz * by)
            ty = 2.0 * (-pz * bx + px * bz)
            tz = 2.0 * (-px * by + py * bx)
            lx = bx + pw * tx - (py * tz - pz * ty)
            ly = by + pw * ty - (pz * tx - px * tz)
            lz = bz + pw * tz - (px * ty - py * tx)
            dx, dy, dz = directions[i]
            if kind == HINGE:
                s = hx * (dy * lz - dz * ly) + hy * (dz * lx - dx * lz) + hz * (dx * ly - dy * lx)
                hd = hx * dx + hy * dy + hz * dz
                c = dx * lx + dy * ly + dz * lz - hd * (hx * lx + hy * ly + hz * lz)
                a = math.atan2(s, c) if abs(s) + abs(c) > 1e-12 else 0.0
                if not full:
                    a = _limits.clamp_angle(a, lo, hi)
                # Rodrigues: d turned by a about h.
                ca, sa = math.cos(a), math.sin(a)
                lx = dx * ca + (hy * dz - hz * dy) * sa + hx * hd * (1.0 - ca)
                ly = dy * ca + (hz * dx - hx * dz) * sa + hy * hd * (1.0 - ca)
                lz = dz * ca + (hx * dy - hy * dx) * sa + hz * hd * (1.0 - ca)
            else:
                c = lx * dx + ly * dy + lz * dz
                if c < math.cos(cone):
                    # Outside the cone about d: onto its rim, toward l.
                    ox, oy, oz = lx - c * dx, ly - c * dy, lz - c * dz
                    no = sqrt(ox * ox + oy * oy + oz * oz)
                    if no < 1e-12:
                        ox, oy, oz = rot.perpendicular((dx, dy, dz))
                        no = 1.0
                    cc, sc = math.cos(cone), math.sin(cone) / no
                    lx, ly, lz = dx * cc + ox * sc, dy * cc + oy * sc, dz * cc + oz * sc
            # Back to the world: b = P l
            tx = 2.0 * (py * lz - pz * ly)
            ty = 2.0 * (pz * lx - px * lz)
            tz = 2.0 * (px * ly - py * lx)
            bx = lx + pw * tx + (py * tz - pz * ty)
            by = ly + pw * ty + (pz * tx - px * tz)
            bz = lz + pw * tz + (px * ty - py * tx)
        x -= length * bx
        y -= length * by
        z -= length * bz
        xs[i], ys[i], zs[i] = x, y, z

