"""FABRIK on a chain with joint limits, the limits inside both passes.

The forward pass is :func:`~._pose.follow` (each bone re-posed by rotation under
its joint's limits); the backward pass, :func:`_backward`, bends each wanted
direction the same way in the parent's frame of the last forward pass. A solve
that stops improving, or creeps too slowly to reach the tolerance, restarts
from the best pose, randomly perturbed (seeded).
"""

import math
import random

from .. import rotation as rot
from ..problem import Outcome
from . import _limits, _pose, _surgery
from ._fabrik_tuning import COLLINEAR, KICK, PATIENCE, RATE, SEED, WINDOW
from ._limits import FREE, HINGE
from ._pose import Pose, Progress


def run(problem, table, normal):
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
        if _surgery.collinear(pose.xs, pose.ys, pose.zs, COLLINEAR * chain.reach):
            _surgery.bend(chain, table, pose, pole, target)
        else:
            _pose.turn_to_pole(chain, table, pose, pole, flip)
    elif not beyond and _surgery.collinear(pose.xs, pose.ys, pose.zs, COLLINEAR * chain.reach, target):
        _surgery.bend(chain, table, pose, None, target)

    best, best_rotations = error, list(problem.start)
    progress = Progress(pose.error(target), WINDOW, RATE, PATIENCE)
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
        if not stuck and iterations % WINDOW == 0:
            # A joint pinned on its limit makes the passes creep: the error keeps falling by a few
            # percent an iteration, which counts as progress, yet at that rate it would not reach tol
            # within the iterations left. Treat that as a stall (restart near the best pose) while
            # enough iterations are left for a restart to pay.
            left = problem.max_iterations - iterations
            if not beyond and left >= 2 * WINDOW and creep > 0.0:
                rate = (best / creep) ** (1.0 / WINDOW)
                stuck = rate < 1.0 and best * rate ** left > tol
            creep = best
        if stuck:
            if beyond or progress.hopeless or (max_restarts is not None and restarts >= max_restarts):
                # Nothing left to gain (out of reach, restarts keep failing), or no restart allowed.
                stalled = True
                break
            restarts += 1
            rng = rng or random.Random(SEED)
            pose.set_rotations(chain, _pose.perturb(chain, table, best_rotations, rng, KICK))
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

