"""Pose surgery on point lists: pole turns, straight lines left, chains stretched out of reach.

These run once per solve or once per iteration of CCD and FABRIK (never per
joint of an inner loop), on flat point lists ``xs, ys, zs`` or a
:class:`~ikcore.solvers._pose.Pose`:

- :func:`swivel` (by :func:`face`): turn interior points about their
  neighbours' line toward a pole (the bend-plane hint), moving no other point;
- :func:`collinear`, :func:`bend`: notice a straight chain and bend it out of
  the line, so a target behind or on it can be reached;
- :func:`edge`, :func:`reach_out`: targets at or beyond full reach, where the
  best pose is the chain stretched straight at the target.
"""

import math

from .. import rotation as rot
from ._limits import BALL, HINGE, clamp_angle, clamp_ball


def face(xs, ys, zs, pole, size, flip=False):
    """Turn the interior points together toward ``pole`` about the line from
    the first point to the last.

    A rigid turn about that line: bone lengths, the first and the last point
    are kept. The angle brings the mean offset of the interior points from the
    line onto the half-plane holding the pole; with ``flip`` (a planar chain,
    which must stay in its plane) the turn is a half turn or none. Nothing
    moves when the points or the pole lie on the line, or when the first and
    last points are closer than ``1e-12 size`` (the chain's reach). In place.
    """
    n = len(xs) - 1
    x0, y0, z0 = xs[0], ys[0], zs[0]
    nx, ny, nz = xs[n] - x0, ys[n] - y0, zs[n] - z0
    nn = math.sqrt(nx * nx + ny * ny + nz * nz)
    if n < 2 or nn <= 1e-12 * size:
        return
    nx, ny, nz = nx / nn, ny / nn, nz / nn
    # Mean offset m of the interior points across the line, and the pole's offset v.
    mx, my, mz = sum(xs[1:n]) / (n - 1) - x0, sum(ys[1:n]) / (n - 1) - y0, sum(zs[1:n]) / (n - 1) - z0
    t = mx * nx + my * ny + mz * nz
    mx, my, mz = mx - t * nx, my - t * ny, mz - t * nz
    vx, vy, vz = pole[0] - x0, pole[1] - y0, pole[2] - z0
    t = vx * nx + vy * ny + vz * nz
    vx, vy, vz = vx - t * nx, vy - t * ny, vz - t * nz
    nm = math.sqrt(mx * mx + my * my + mz * mz)
    nv = math.sqrt(vx * vx + vy * vy + vz * vz)
    if nm < 1e-9 * nn or nv < 1e-9 * nn:
        return
    # The turn about n taking m's direction to v's: angle a with cos = m.v, sin = n.(m x v).
    c = (mx * vx + my * vy + mz * vz) / (nm * nv)
    s = (nx * (my * vz - mz * vy) + ny * (mz * vx - mx * vz) + nz * (mx * vy - my * vx)) / (nm * nv)
    if flip:
        if c >= 0.0:
            return
        c, s = -1.0, 0.0
    k = 1.0 - c
    for i in range(1, n):
        ux, uy, uz = xs[i] - x0, ys[i] - y0, zs[i] - z0
        t = (ux * nx + uy * ny + uz * nz) * k
        # Rodrigues: u cos a + (n x u) sin a + n (n.u)(1 - cos a)
        xs[i] = x0 + ux * c + (ny * uz - nz * uy) * s + nx * t
        ys[i] = y0 + uy * c + (nz * ux - nx * uz) * s + ny * t
        zs[i] = z0 + uz * c + (nx * uy - ny * ux) * s + nz * t


def edge(chain, distance, tol):
    """Whether a free chain meets a target ``distance`` from its root best in one step.

    True: stretched straight at it (beyond reach, or within ``tol`` of full
    reach, where the stretched pose is already near enough); False: folded
    toward it (nearer than ``min_reach``, or within ``tol`` of it); None: the
    target lies well inside the reachable shell and needs iterations. Near the
    edges of the shell iterations crawl (the chain is almost straight or
    almost folded), so the edges are met in one step.
    """
    if distance >= chain.reach - tol:
        return True
    if distance < chain.min_reach or (chain.min_reach > 0.0 and distance <= chain.min_reach + tol):
        return False
    return None


def reach_out(chain, target, xs, ys, zs, stretch=None):
    """Put the points of a free chain on its pose nearest an unreachable target.

    Beyond reach (or with ``stretch`` True), every bone points at the target.
    Nearer than ``min_reach`` (or with ``stretch`` False; one bone longer than
    all the others together), the long bone points at the target and every
    other bone straight back, so the effector lands at ``min_reach`` from the
    root toward the target. Either pose depends on the target alone: solving
    again from it returns it unchanged. In place.
    """
    x, y, z = chain.points[0]
    ux, uy, uz = target[0] - x, target[1] - y, target[2] - z
    d = math.sqrt(ux * ux + uy * uy + uz * uz)
    beyond = d >= chain.reach if stretch is None else stretch
    if d > 1e-12 * chain.reach:
        ux, uy, uz = ux / d, uy / d, uz / d
    else:
        # On the root: any direction is as good; keep the effector's.
        ux, uy, uz = xs[-1] - x, ys[-1] - y, zs[-1] - z
        e = math.sqrt(ux * ux + uy * uy + uz * uz)
        ux, uy, uz = (ux / e, uy / e, uz / e) if e > 1e-12 * chain.reach else chain.directions[0]
    longest = max(chain.lengths)
    for i, length in enumerate(chain.lengths):
        k = length if beyond or length == longest else -length
        x += k * ux
        y += k * uy
        z += k * uz
        xs[i + 1], ys[i + 1], zs[i + 1] = x, y, z


def swivel(xs, ys, zs, pole, size, flip=False):
    """Turn the chain toward ``pole``: all interior points together
    (:func:`face`), then each about its neighbours' line.

    Point ``i`` turns about the line through points ``i - 1`` and ``i + 1``,
    onto the half-plane holding the pole (with ``flip``, a planar chain's, by a
    half turn or none). Its distances to both neighbours are kept, and no other
    point moves: bone lengths and the end effector stay as they are. Straight
    joints (point on the line) and a pole on the line are left alone. In place.
    """
    face(xs, ys, zs, pole, size, flip)
    ox, oy, oz = pole
    for i in range(1, len(xs) - 1):
        ax, ay, az = xs[i - 1], ys[i - 1], zs[i - 1]
        nx, ny, nz = xs[i + 1] - ax, ys[i + 1] - ay, zs[i + 1] - az
        nn = math.sqrt(nx * nx + ny * ny + nz * nz)
        if nn <= 1e-12 * size:
            continue
        nx, ny, nz = nx / nn, ny / nn, nz / nn
        # The point and the pole, split along the line and across it.
        ux, uy, uz = xs[i] - ax, ys[i] - ay, zs[i] - az
        t = ux * nx + uy * ny + uz * nz
        ux, uy, uz = ux - t * nx, uy - t * ny, uz - t * nz
        vx, vy, vz = ox - ax, oy - ay, oz - az
        s = vx * nx + vy * ny + vz * nz
        vx, vy, vz = vx - s * nx, vy - s * ny, vz - s * nz
        # Once more: with the pole near the line, v is a small difference of large vectors and
        # keeps a trace along the line, which the scale nu / |v| below would magnify (the point
        # would leave its circle: bones change length, the effector moves).
        s = vx * nx + vy * ny + vz * nz
        vx, vy, vz = vx - s * nx, vy - s * ny, vz - s * nz
        nu = math.sqrt(ux * ux + uy * uy + uz * uz)
        nv = math.sqrt(vx * vx + vy * vy + vz * vz)
        if nu < 1e-9 * nn or nv < 1e-9 * nn:
            continue
        if flip:
            if ux * vx + uy * vy + uz * vz >= 0.0:
                continue
            xs[i], ys[i], zs[i] = ax + t * nx - ux, ay + t * ny - uy, az + t * nz - uz
            continue
        k = nu / nv
        xs[i], ys[i], zs[i] = ax + t * nx + k * vx, ay + t * ny + k * vy, az + t * nz + k * vz


def collinear(xs, ys, zs, eps, extra=None):
    """Whether all points (and ``extra``) lie within ``eps`` of one line.

    The line runs through the first point and the last one (or the farthest
    one when the last sits on the first). ``extra`` is tested first and the
    scan stops at the first point off the line, so a bent chain costs little.
    """
    x0, y0, z0 = xs[0], ys[0], zs[0]
    fx, fy, fz = xs[-1] - x0, ys[-1] - y0, zs[-1] - z0
    far = fx * fx + fy * fy + fz * fz
    if far <= eps * eps:
        far = 0.0
        for x, y, z in zip(xs, ys, zs):
            d = (x - x0) ** 2 + (y - y0) ** 2 + (z - z0) ** 2
            if d > far:
                far, fx, fy, fz = d, x - x0, y - y0, z - z0
        if extra is not None:
            d = (extra[0] - x0) ** 2 + (extra[1] - y0) ** 2 + (extra[2] - z0) ** 2
            if d > far:
                far, fx, fy, fz = d, extra[0] - x0, extra[1] - y0, extra[2] - z0
        if far <= eps * eps:
            return True
    n = math.sqrt(far)
    found = (x0, y0, z0, fx / n, fy / n, fz / n)
    return (extra is None or near(found, extra, eps)) and near_all(found, xs, ys, zs, eps)


def line(xs, ys, zs, eps):
    """The line :func:`collinear` measures from, when it does not depend on another point.

    Returns ``(x0, y0, z0, fx, fy, fz)`` (through the first point, ``f`` the
    unit direction to the last) when every point lies within ``eps`` of it,
    ``None`` when one does not, and ``False`` when the last point sits on the
    first (the line then runs through the farthest point, which an extra
    point may be). ``collinear(xs, ys, zs, eps, p)`` is then ``False`` for a
    ``None`` line and :func:`near` of ``p`` for a line, bitwise.
    """
    x0, y0, z0 = xs[0], ys[0], zs[0]
    fx, fy, fz = xs[-1] - x0, ys[-1] - y0, zs[-1] - z0
    far = fx * fx + fy * fy + fz * fz
    if far <= eps * eps:
        return False
    n = math.sqrt(far)
    found = (x0, y0, z0, fx / n, fy / n, fz / n)
    return found if near_all(found, xs, ys, zs, eps) else None


def near(found, point, eps):
    """Whether ``point`` lies within ``eps`` of the :func:`line` ``found``."""
    x0, y0, z0, fx, fy, fz = found
    dx, dy, dz = point[0] - x0, point[1] - y0, point[2] - z0
    t = dx * fx + dy * fy + dz * fz
    return not dx * dx + dy * dy + dz * dz - t * t > eps * eps


def near_all(found, xs, ys, zs, eps):
    """Whether every point lies within ``eps`` of the :func:`line` ``found``."""
    x0, y0, z0, fx, fy, fz = found
    eps2 = eps * eps
    for x, y, z in zip(xs, ys, zs):
        dx, dy, dz = x - x0, y - y0, z - z0
        t = dx * fx + dy * fy + dz * fz
        if dx * dx + dy * dy + dz * dz - t * t > eps2:
            return False
    return True


def bend(chain, table, pose, toward, target):
    """Bend every joint by one angle so the chain leaves its line.

    The chain curls into an arc whose chord matches the target's distance from
    the root (a uniform arc of ``N`` equal turns ``a`` has chord over length
    ``sin(N a / 2) / (N sin(a / 2))``), so the solver starts near a fitting
    fold. ``toward`` is a world point (a pole, or ``None``): the chain curls so
    its interior moves toward it; without one the side is any perpendicular.
    Free and ball joints turn about one world axis normal to the line; a hinge
    turns about its own axis. Limits are applied; ``pose`` is updated in place.
    """
    xs, ys, zs = pose.xs, pose.ys, pose.zs
    n = chain.size
    ratio = math.dist(target, chain.points[0]) / chain.reach
    # Bisection for the turn a in (0, top]: the chord ratio falls as a grows.
    # The top stops short of a closed circle, which would fold the chain onto a line again.
    low, high = 0.0, min(0.5 * math.pi, 1.6 * math.pi / n)
    for _ in range(40):
        angle = 0.5 * (low + high)
        if math.sin(0.5 * n * angle) / (n * math.sin(0.5 * angle)) > ratio:
            low = angle
        else:
            high = angle
    angle = max(angle, 0.05)
    lx, ly, lz = xs[n] - xs[0], ys[n] - ys[0], zs[n] - zs[0]
    nl = math.sqrt(lx * lx + ly * ly + lz * lz)
    if nl < 1e-9 * chain.reach:
        lx, ly, lz = xs[1] - xs[0], ys[1] - ys[0], zs[1] - zs[0]
        nl = math.sqrt(lx * lx + ly * ly + lz * lz)
    lx, ly, lz = lx / nl, ly / nl, lz / nl
    side = None
    if toward is not None:
        vx, vy, vz = toward[0] - xs[0], toward[1] - ys[0], toward[2] - zs[0]
        t = vx * lx + vy * ly + vz * lz
        vx, vy, vz = vx - t * lx, vy - t * ly, vz - t * lz
        nv = math.sqrt(vx * vx + vy * vy + vz * vz)
        if nv > 1e-9 * chain.reach:
            side = (vx / nv, vy / nv, vz / nv)
    if side is None:
        side = rot.perpendicular((lx, ly, lz))
    # Turning the line direction toward `side`: about line x side.
    axis = (ly * side[2] - lz * side[1], lz * side[0] - lx * side[2], lx * side[1] - ly * side[0])
    rotations = pose.rotations()
    out = []
    for i, q in enumerate(rotations):
        kind, hx, hy, hz, lo, hi, full, cone = table[i]
        parent = (pose.rw[i - 1], pose.rx[i - 1], pose.ry[i - 1], pose.rz[i - 1]) if i else rot.IDENTITY
        local = rot.rotate(rot.conjugate(parent), axis)
        if kind == HINGE:
            sign = 1.0 if local[0] * hx + local[1] * hy + local[2] * hz >= 0.0 else -1.0
            a = rot.twist_angle(q, (hx, hy, hz)) + sign * angle
            if not full:
                a = clamp_angle(a, lo, hi)
            out.append(rot.from_axis_angle((hx, hy, hz), a))
        else:
            q = rot.normalize(rot.multiply(rot.from_axis_angle(local, angle), q))
            if kind == BALL:
                d = chain.directions[i]
                q = clamp_ball(*q, d[0], d[1], d[2], cone, lo, hi, full)
            out.append(q)
    pose.set_rotations(chain, out)


def flatten(xs, ys, zs, normal, lengths, pxs, pys, pzs, eps):
    """Put a planar chain's points back into its plane, in place; return the new effector.

    The plane holds the root and is normal to the unit ``normal``. FABRIK's passes
    keep points in it, but where a point lands on its new neighbour (to
    rounding) the bone's direction is the rounding's, out of the plane. Then
    each bone, root first, takes its direction projected onto the plane, its
    length kept; a bone along the normal takes that of its bone in ``pxs``, ...
    (the pose the passes started from; the same lists where they wrote in
    place), else any direction in the plane. Returns ``None`` (nothing
    changed) when every point lies within ``eps`` of the plane.
    """
    ax, ay, az = normal
    x, y, z = xs[0], ys[0], zs[0]
    if max(abs((px - x) * ax + (py - y) * ay + (pz - z) * az) for px, py, pz in zip(xs, ys, zs)) <= eps:
        return None
    sqrt = math.sqrt
    # The old points, read before each is overwritten.
    ox, oy, oz = x, y, z
    for i, length in enumerate(lengths):
        j = i + 1
        nx, ny, nz = xs[j], ys[j], zs[j]
        for dx, dy, dz in ((nx - ox, ny - oy, nz - oz), (pxs[j] - pxs[i], pys[j] - pys[i], pzs[j] - pzs[i])):
            t = dx * ax + dy * ay + dz * az
            dx, dy, dz = dx - t * ax, dy - t * ay, dz - t * az
            d = sqrt(dx * dx + dy * dy + dz * dz)
            if d > 1e-9 * length:
                break
        else:
            (dx, dy, dz), d = rot.perpendicular(normal), 1.0
        k = length / d
        x, y, z = x + dx * k, y + dy * k, z + dz * k
        ox, oy, oz = nx, ny, nz
        xs[j], ys[j], zs[j] = x, y, z
    return x, y, z
