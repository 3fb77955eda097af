"""CCD: cyclic coordinate descent.

One iteration (a sweep) visits the joints from the tip to the root. Joint ``i``
at ``p_i`` turns so that the direction to the end effector ``u = e - p_i``
lines up with the direction to the target ``v = t - p_i``:

- a free joint turns by the shortest arc ``u -> v``, i.e. by the angle
  ``atan2(|u x v|, u . v)`` about ``u x v``; when ``u`` and ``v`` point
  opposite ways that axis vanishes, and the joint turns half a turn about an
  axis perpendicular to ``u`` instead of standing still;
- a hinge turns about its current world axis ``h = R_{i-1} a`` (its axis ``a``
  lives in the parent's frame) by the angle between the projections of ``u``
  and ``v`` on the plane normal to ``h``, ``atan2(h . (u x v), u . v - (h . u)(h . v))``;
  the new hinge angle is clamped into its range (the arc end nearest the wish);
- a ball joint turns like a free one, then its local rotation is clamped by
  swing and twist (:class:`ikcore.BallSocket`).

Only joint ``i`` and the end effector move during a step, so a sweep needs the
points and world rotations once, from forward kinematics at its start, and
tracks the effector as it goes. Rotations that would move the effector by
less than a thousandth of the tolerance are skipped (no vibration), and the
sweep stops as soon as the effector is within tolerance.

**Option** ``max_step_deg`` (default 180: no limit) caps each joint's turn per
step; smaller values spread the bend along the chain (more natural poses,
more sweeps).

**Dead ends.** A straight chain with the target on its line (on the chain or
behind it) sees only parallel or opposite directions: it is first bent
slightly off the line. When the error stops falling (a joint pinned on a
limit), the solve restarts from the best pose, randomly perturbed (seeded:
every solve is repeatable); the best pose seen is returned.

**Out of reach.** A free chain has one best pose for a target beyond reach
(straight at it) or nearer than it can fold (the long bone at it, the others
folded back): it is returned in one step (:func:`~._pose.reach_out`). So is a
target within tolerance of either edge, where those poses already meet it and
sweeps would crawl (:func:`~._pose.edge`).

**Pole.** A world point hinting the bend side: after solving, the interior
points turn together about the root-effector line toward it, then each about
its neighbours' line (:func:`~._pose.swivel`); neither moves the effector or
changes a bone length. A planar chain only flips within its plane. A straight
start is bent toward the pole first. On a limited chain the final turn is kept
only where the limits let the effector stay as near.
"""

import math
import random

from .. import rotation as rot
from ..checks import check_float
from ..errors import IKError
from ..problem import Outcome
from . import _limits, _pose, _surgery
from ._limits import BALL, FREE, HINGE
from ._pose import Pose, Progress


def _check_step(value, name):
    value = check_float(value, name)
    if not 0.0 < value <= 180.0:
        raise IKError(f"{name} must be in (0, 180] degrees, got {value!r}")
    return value


OPTIONS = {"max_step_deg": (180.0, _check_step)}
MAX_ITERATIONS = 200

# Stagnation: restart when the best error has not fallen by _RATE in _WINDOW sweeps; give
# up after _PATIENCE restarts in a row that brought nothing. A free chain slows down on long
# reaches but seldom meets a dead end, so it restarts only when progress all but stops.
_WINDOW = 8
_RATE = 0.01
_PATIENCE = 5
_RATE_FREE = 1e-3
_PATIENCE_FREE = 2
# Largest random turn per joint on a restart (radians).
_KICK = 0.8
# Points count as collinear within this fraction of the reach.
_COLLINEAR = 1e-6
# Skip a joint step that moves the effector less than this fraction of the tolerance.
_SKIP = 1e-3
_SEED = 19890612


def run(problem):
    """Solve ``problem`` by CCD; see the module docstring."""
    chain = problem.chain
    target = tx, ty, tz = problem.target
    tol = problem.tolerance
    pole = problem.pole
    table = _limits.limit_table(chain)
    limited = any(row[0] != FREE for row in table)
    max_step = math.radians(problem.options.get("max_step_deg", 180.0))
    start = list(problem.start)
    pose = Pose.of(problem)
    error = pose.error(target)
    errors = [error]
    flip = limited and _limits.plane_normal(chain, table) is not None
    if error <= tol:
        if pole is not None and not limited:
            # Turning to the pole changes the pose: one iteration, so the history keeps the start's error.
            _pose.turn_to_pole(chain, table, pose, pole, flip)
            errors.append(pose.error(target))
            return Outcome(pose.rotations(), 1, errors)
        return Outcome(start, 0, errors)

    rx, ry, rz = chain.points[0]
    dx, dy, dz = tx - rx, ty - ry, tz - rz
    distance = math.sqrt(dx * dx + dy * dy + dz * dz)
    beyond = distance >= chain.reach
    stretch = None if limited else _surgery.edge(chain, distance, tol)
    if stretch is not None:
        _surgery.reach_out(chain, target, pose.xs, pose.ys, pose.zs, stretch)
        _pose.follow(chain, table, pose)
        errors.append(pose.error(target))
        return Outcome(pose.rotations(), 1, errors)
    if pole is not None and _surgery.collinear(pose.xs, pose.ys, pose.zs, _COLLINEAR * chain.reach):
        _surgery.bend(chain, table, pose, pole, target)
    elif not beyond and _surgery.collinear(pose.xs, pose.ys, pose.zs, _COLLINEAR * chain.reach, target):
        _surgery.bend(chain, table, pose, None, target)

    sweep = _sweep_limited if limited else _sweep_free
    skip = _SKIP * tol
    # The start stays the best pose until beaten, even when the sweeps start from a bent one.
    best, best_rotations = error, start
    if limited:
        progress = Progress(pose.error(target), _WINDOW, _RATE, _PATIENCE)
    else:
        progress = Progress(pose.error(target), _WINDOW, _RATE_FREE, _PATIENCE_FREE)
    rng = None
    stalled = False
    iterations = 0
    while iterations < problem.max_iterations:
        iterations += 1
        sweep(chain, table, pose, target, tol, skip, max_step)
        pose.forward(chain)
        error = pose.error(target)
        errors.append(error)
        if error < best:
            best, best_rotations = error, pose.rotations()
            if error <= tol:
                break
        if progress.update(error):
            if beyond or progress.hopeless:
                # Nothing left to gain: out of reach, or restarts keep failing.
                stalled = True
                break
            rng = rng or random.Random(_SEED)
            pose.set_rotations(chain, _pose.perturb(chain, table, best_rotations, rng, _KICK))

    if pole is not None:
        pose.set_rotations(chain, best_rotations)
        _pose.turn_to_pole(chain, table, pose, pole, flip)
        # Kept where the limits let the effector stay as near.
        if not limited or pose.error(target) <= max(best, tol):
            best_rotations = pose.rotations()
    return Outcome(best_rotations, iterations, errors, stalled)


def _sweep_free(chain, table, pose, target, tol, skip, max_step):
    """One CCD sweep over a chain of free joints, in place on ``pose.q*``.

    ``pose``'s points and world rotations are those at the sweep's start:
    joints nearer the root have not moved yet when joint ``i`` is visited.
    """
    qw, qx, qy, qz = pose.qw, pose.qx, pose.qy, pose.qz
    rws, rxs, rys, rzs = pose.rw, pose.rx, pose.ry, pose.rz
    xs, ys, zs = pose.xs, pose.ys, pose.zs
    sqrt = math.sqrt
    tx, ty, tz = target
    n = chain.size
    ex, ey, ez = xs[n], ys[n], zs[n]
    tol2 = tol * tol
    skip2 = skip * skip
    capped = max_step < math.pi
    for i in range(n - 1, -1, -1):
        px, py, pz = xs[i], ys[i], zs[i]
        ux, uy, uz = ex - px, ey - py, ez - pz
        vx, vy, vz = tx - px, ty - py, tz - pz
        uu = ux * ux + uy * uy + uz * uz
        vv = vx * vx + vy * vy + vz * vz
        if uu == 0.0 or vv == 0.0:
            continue
        nu = sqrt(uu)
        nv = sqrt(vv)
        # Unit directions: the arithmetic below is free of the chain's scale.
        k = 1.0 / nv
        vx, vy, vz = vx * k, vy * k, vz * k
        k = 1.0 / nu
        nx, ny, nz = ux * k, uy * k, uz * k
        # Shortest arc u -> v as the quaternion (1 + u.v, u x v), unnormalised.
        w = 1.0 + nx * vx + ny * vy + nz * vz
        cx, cy, cz = ny * vz - nz * vy, nz * vx - nx * vz, nx * vy - ny * vx
        cc = cx * cx + cy * cy + cz * cz
        if w <= 1e-12:
            # Opposite directions: half a turn about an axis perpendicular to u.
            w = 0.0
            cx, cy, cz = rot.perpendicular((nx, ny, nz))
            cc = 1.0
        elif cc * uu < skip2 and w > 1.0:
            # |u| sin(angle): the effector would barely move.
            continue
        m = 1.0 / sqrt(w * w + cc)
        w, cx, cy, cz = w * m, cx * m, cy * m, cz * m
        capping = capped and w < math.cos(0.5 * max_step)
        if capping:
            k = math.sin(0.5 * max_step) / sqrt(cx * cx + cy * cy + cz * cz)
            w, cx, cy, cz = math.cos(0.5 * max_step), cx * k, cy * k, cz * k
            # The effector turns with the joint: e = p + rotate(arc, u).
            sx = 2.0 * (cy * uz - cz * uy)
            sy = 2.0 * (cz * ux - cx * uz)
            sz = 2.0 * (cx * uy - cy * ux)
            ex = px + ux + w * sx + (cy * sz - cz * sy)
            ey = py + uy + w * sy + (cz * sx - cx * sz)
            ez = pz + uz + w * sz + (cx * sy - cy * sx)
        else:
            # The effector lands on the ray toward the target, |u| from the joint.
            ex, ey, ez = px + vx * nu, py + vy * nu, pz + vz * nu
        # The world turn, seen in the parent's frame: (w, conj(P) c).
        if i:
            pw, ppx, ppy, ppz = rws[i - 1], rxs[i - 1], rys[i - 1], rzs[i - 1]
            sx = 2.0 * (-ppy * cz + ppz * cy)
            sy = 2.0 * (-ppz * cx + ppx * cz)
            sz = 2.0 * (-ppx * cy + ppy * cx)
            cx, cy, cz = (cx + pw * sx - (ppy * sz - ppz * sy),
                          cy + pw * sy - (ppz * sx - ppx * sz),
                          cz + pw * sz - (ppx * sy - ppy * sx))
        # A product of unit quaternions: its norm drifts by rounding only (judge normalises).
        aw, ax, ay, az = qw[i], qx[i], qy[i], qz[i]
        qw[i], qx[i], qy[i], qz[i] = (w * aw - cx * ax - cy * ay - cz * az,
                                      w * ax + cx * aw + cy * az - cz * ay,
                                      w * ay - cx * az + cy * aw + cz * ax,
                                      w * az + cx * ay - cy * ax + cz * aw)
        if capping:
            dx, dy, dz = ex - tx, ey - ty, ez - tz
            if dx * dx + dy * dy + dz * dz <= tol2:
                return
        elif abs(nu - nv) <= tol:
            return


def _sweep_limited(chain, table, pose, target, tol, skip, max_step):
    """One CCD sweep with joint limits applied after each joint's step."""
    qw, qx, qy, qz = pose.qw, pose.qx, pose.qy, pose.qz
    rws, rxs, rys, rzs = pose.rw, pose.rx, pose.ry, pose.rz
    xs, ys, zs = pose.xs, pose.ys, pose.zs
    directions = chain.directions
    sqrt = math.sqrt
    tx, ty, tz = target
    n = chain.size
    ex, ey, ez = xs[n], ys[n], zs[n]
    tol2 = tol * tol
    capped = max_step < math.pi
    for i in range(n - 1, -1, -1):
        px, py, pz = xs[i], ys[i], zs[i]
        ux, uy, uz = ex - px, ey - py, ez - pz
        vx, vy, vz = tx - px, ty - py, tz - pz
        uu = ux * ux + uy * uy + uz * uz
        vv = vx * vx + vy * vy + vz * vz
        if uu == 0.0 or vv == 0.0:
            continue
        # u as its length and unit direction, v as a unit direction.
        nu = sqrt(uu)
        k = 1.0 / nu
        ux, uy, uz = ux * k, uy * k, uz * k
        k = 1.0 / sqrt(vv)
        vx, vy, vz = vx * k, vy * k, vz * k
        if i:
            pw, ppx, ppy, ppz = rws[i - 1], rxs[i - 1], rys[i - 1], rzs[i - 1]
        else:
            pw, ppx, ppy, ppz = 1.0, 0.0, 0.0, 0.0
        kind, hx, hy, hz, lo, hi, full, cone = table[i]
        aw, ax, ay, az = qw[i], qx[i], qy[i], qz[i]
        if kind == HINGE:
            # World axis g = P h.
            sx = 2.0 * (ppy * hz - ppz * hy)
            sy = 2.0 * (ppz * hx - ppx * hz)
            sz = 2.0 * (ppx * hy - ppy * hx)
            gx = hx + pw * sx + (ppy * sz - ppz * sy)
            gy = hy + pw * sy + (ppz * sx - ppx * sz)
            gz = hz + pw * sz + (ppx * sy - ppy * sx)
            gu = gx * ux + gy * uy + gz * uz
            s = gx * (uy * vz - uz * vy) + gy * (uz * vx - ux * vz) + gz * (ux * vy - uy * vx)
            c = ux * vx + uy * vy + uz * vz - gu * (gx * vx + gy * vy + gz * vz)
            if s * s + c * c <= 1e-24:
                # u or v along the axis: turning cannot bring them closer.
                continue
            turn = math.atan2(s, c)
            if capped:
                turn = max(-max_step, min(max_step, turn))
            old = 2.0 * math.atan2(ax * hx + ay * hy + az * hz, aw)
            new = old + turn if full else _limits.clamp_angle(old + turn, lo, hi)
            delta = new - old
            # The effector moves on a circle of radius |u| |u x g| about the axis.
            if uu * (1.0 - gu * gu) * (1.0 - math.cos(delta)) * 2.0 < skip * skip:
                continue
            h = math.sin(0.5 * new)
            qw[i], qx[i], qy[i], qz[i] = math.cos(0.5 * new), hx * h, hy * h, hz * h
            # Rodrigues: u turned by delta about g.
            cd, sd = math.cos(delta), math.sin(delta)
            k = gu * (1.0 - cd)
            ex = px + nu * (ux * cd + (gy * uz - gz * uy) * sd + gx * k)
            ey = py + nu * (uy * cd + (gz * ux - gx * uz) * sd + gy * k)
            ez = pz + nu * (uz * cd + (gx * uy - gy * ux) * sd + gz * k)
        else:
            w = 1.0 + ux * vx + uy * vy + uz * vz
            cx, cy, cz = uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx
            cc = cx * cx + cy * cy + cz * cz
            if w <= 1e-12:
                w = 0.0
                cx, cy, cz = rot.perpendicular((ux, uy, uz))
                cc = 1.0
            elif cc * uu < skip * skip and w > 1.0:
                continue
            m = 1.0 / sqrt(w * w + cc)
            w, cx, cy, cz = w * m, cx * m, cy * m, cz * m
            if capped and w < math.cos(0.5 * max_step):
                k = math.sin(0.5 * max_step) / sqrt(cx * cx + cy * cy + cz * cz)
                w, cx, cy, cz = math.cos(0.5 * max_step), cx * k, cy * k, cz * k
            # In the parent's frame: (w, conj(P) c); new q = that * q.
            sx = 2.0 * (-ppy * cz + ppz * cy)
            sy = 2.0 * (-ppz * cx + ppx * cz)
            sz = 2.0 * (-ppx * cy + ppy * cx)
            cx, cy, cz = (cx + pw * sx - (ppy * sz - ppz * sy),
                          cy + pw * sy - (ppz * sx - ppx * sz),
                          cz + pw * sz - (ppx * sy - ppy * sx))
            bw, bx, by, bz = (w * aw - cx * ax - cy * ay - cz * az,
                              w * ax + cx * aw + cy * az - cz * ay,
                              w * ay - cx * az + cy * aw + cz * ax,
                              w * az + cx * ay - cy * ax + cz * aw)
            m = 1.0 / sqrt(bw * bw + bx * bx + by * by + bz * bz)
            bw, bx, by, bz = bw * m, bx * m, by * m, bz * m
            if kind == BALL:
                dx, dy, dz = directions[i]
                bw, bx, by, bz = _limits.clamp_ball(bw, bx, by, bz, dx, dy, dz, cone, lo, hi, full)
            qw[i], qx[i], qy[i], qz[i] = bw, bx, by, bz
            # The turn actually made, D = q_new conj(q_old), in the world: (D.w, P D.v).
            w = bw * aw + bx * ax + by * ay + bz * az
            cx = -bw * ax + bx * aw - by * az + bz * ay
            cy = -bw * ay + by * aw - bz * ax + bx * az
            cz = -bw * az + bz * aw - bx * ay + by * ax
            sx = 2.0 * (ppy * cz - ppz * cy)
            sy = 2.0 * (ppz * cx - ppx * cz)
            sz = 2.0 * (ppx * cy - ppy * cx)
            cx, cy, cz = (cx + pw * sx + (ppy * sz - ppz * sy),
                          cy + pw * sy + (ppz * sx - ppx * sz),
                          cz + pw * sz + (ppx * sy - ppy * sx))
            sx = 2.0 * (cy * uz - cz * uy)
            sy = 2.0 * (cz * ux - cx * uz)
            sz = 2.0 * (cx * uy - cy * ux)
            ex = px + nu * (ux + w * sx + (cy * sz - cz * sy))
            ey = py + nu * (uy + w * sy + (cz * sx - cx * sz))
            ez = pz + nu * (uz + w * sz + (cx * sy - cy * sx))
        dx, dy, dz = ex - tx, ey - ty, ez - tz
        if dx * dx + dy * dy + dz * dz <= tol2:
            return
