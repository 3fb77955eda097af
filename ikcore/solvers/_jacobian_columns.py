"""The geometric Jacobian: each joint's columns, the limits that drop some, products with ``J``.

Turning joint ``j`` (at world point ``p_j``) by a small world rotation vector ``w``
moves the effector ``e`` by ``w x r_j`` with ``r_j = e - p_j`` and turns the last bone
by ``w``. A free joint or ball-and-socket has 3 columns, one per world axis; a hinge
has 1, about its current world axis ``R_{j-1} a``. The column of unit axis ``a`` is::

    J_a = [ a x r_j ]        (position rows, 3)
          [   c a   ]        (orientation rows, 3, only with an orientation target)

``c`` (a length) weights radians against distance: ``c = tolerance /
orientation_tolerance``, kept within ``[0.1, 10] x reach``, so that both errors
count alike when measured in their tolerances. A step ``w_j`` is applied to the
local rotation as ``q_j <- exp(R_{j-1}^-1 w_j) q_j``, which turns joint ``j``'s
subtree by ``w_j`` about ``p_j`` (all joints at once: first order).

A joint pressed against a limit loses the column directions that would push it
through (:func:`limit_directions`); the loop drops them and solves again.
"""

import math

from ..constraints import Hinge
from ._jacobian_flat import forward, rotate
from ._limits import FREE, HINGE

_TWO_PI = 2.0 * math.pi

#: Radians: a joint this near a limit sits on it.
EDGE = 1e-7


def joint_axes(chain, R, j, dropped=()):
    """World axes of joint ``j``'s Jacobian columns, minus the ``dropped`` directions.

    A hinge: its current world axis. Otherwise the world x, y, z axes, or an
    orthonormal basis of what remains when directions are dropped.
    """
    c = chain.joints[j]
    if isinstance(c, Hinge):
        return [] if dropped else [rotate(R, j - 1, c.axis)]
    if not dropped:
        return [(1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)]
    return _basis_without(dropped)


def _basis_without(dropped):
    """An orthonormal basis of the directions normal to all of ``dropped``."""
    basis = []
    for d in dropped:  # Gram-Schmidt over the dropped directions
        x, y, z = d
        for bx, by, bz in basis:
            t = x * bx + y * by + z * bz
            x, y, z = x - t * bx, y - t * by, z - t * bz
        n = math.sqrt(x * x + y * y + z * z)
        if n > 1e-9:
            basis.append((x / n, y / n, z / n))
    if len(basis) >= 3:
        return []
    if len(basis) == 2:
        (ax, ay, az), (bx, by, bz) = basis
        return [(ay * bz - az * by, az * bx - ax * bz, ax * by - ay * bx)]
    ax, ay, az = basis[0]
    # Cross with the world axis least aligned with a: a unit perpendicular.
    if abs(ax) <= abs(ay) and abs(ax) <= abs(az):
        px, py, pz = 0.0, az, -ay
    elif abs(ay) <= abs(az):
        px, py, pz = -az, 0.0, ax
    else:
        px, py, pz = ay, -ax, 0.0
    n = math.sqrt(px * px + py * py + pz * pz)
    px, py, pz = px / n, py / n, pz / n
    return [(px, py, pz), (ay * pz - az * py, az * px - ax * pz, ax * py - ay * px)]


def limit_directions(table, qs, R, j):
    """World rotation directions that would push joint ``j`` further past a limit it sits on.

    Hinge at an end of its range: ``+-`` its world axis. Ball-and-socket with
    the swing at the cone: the axis ``c x b`` turning the bone ``b`` away from
    its rest direction ``c``; with the twist at an end: ``+-b``. ``table``:
    :func:`~ikcore.solvers._pose.limit_table`.
    """
    kind, hx, hy, hz, lo, hi, full, cone = table[j]
    out = []
    if kind == FREE or (kind == HINGE and full):
        return out
    w, x, y, z = qs[j]
    if kind == HINGE:
        a = 2.0 * math.atan2(x * hx + y * hy + z * hz, w)
        ax = rotate(R, j - 1, (hx, hy, hz))
        if abs(_wrap(a - hi)) < EDGE:
            out.append(ax)
        if abs(_wrap(a - lo)) < EDGE:
            out.append((-ax[0], -ax[1], -ax[2]))
        return out
    # Ball: (hx, hy, hz) is the rest bone direction d; the swing angle is the angle from d to q d.
    cx, cy, cz = rotate(R, j - 1, (hx, hy, hz))
    bx, by, bz = rotate(R, j, (hx, hy, hz))
    nx, ny, nz = cy * bz - cz * by, cz * bx - cx * bz, cx * by - cy * bx
    sn = math.sqrt(nx * nx + ny * ny + nz * nz)
    cos_swing = cx * bx + cy * by + cz * bz
    if cone < math.pi and math.atan2(sn, cos_swing) >= cone - EDGE:
        if sn > 1e-9:
            out.append((nx / sn, ny / sn, nz / sn))
        elif cos_swing > 0.0:  # at the rest direction with a zero cone: every swing is outward
            for p in _basis_without([(bx, by, bz)]):
                out += (p, (-p[0], -p[1], -p[2]))
    if not full:
        t = 2.0 * math.atan2(x * hx + y * hy + z * hz, w)
        if abs(_wrap(t - hi)) < EDGE:
            out.append((bx, by, bz))
        if abs(_wrap(t - lo)) < EDGE:
            out.append((-bx, -by, -bz))
    return out


def _wrap(a):
    # a mapped into (-pi, pi].
    a = math.fmod(a, _TWO_PI)
    if a > math.pi:
        return a - _TWO_PI
    if a <= -math.pi:
        return a + _TWO_PI
    return a


def jacobian(chain, rotations, weight=None):
    """The geometric Jacobian at ``rotations``, as a list of rows (for inspection and tests).

    Columns in joint order: 3 per free joint or ball-and-socket (world x, y, z),
    1 per hinge. Rows: 3 position rows, then 3 orientation rows times ``weight``
    when ``weight`` is given.
    """
    P, R = forward(chain, rotations)
    ex, ey, ez = P[-3], P[-2], P[-1]
    rows = [[] for _ in range(3 if weight is None else 6)]
    for j in range(chain.size):
        rx, ry, rz = ex - P[3 * j], ey - P[3 * j + 1], ez - P[3 * j + 2]
        for ax, ay, az in joint_axes(chain, R, j):
            col = (ay * rz - az * ry, az * rx - ax * rz, ax * ry - ay * rx)
            if weight is not None:
                col += (weight * ax, weight * ay, weight * az)
            for row, v in zip(rows, col):
                row.append(v)
    return rows


def rest_motion(qs, R, k, free, cols):
    """``z``: ``-k theta_j n_j`` per joint (world), restricted to the joint's columns.

    ``theta_j n_j`` is joint ``j``'s rotation vector, turned into the world by
    ``R_{j-1}``; ``-theta_j n_j`` is the steepest descent of ``theta_j^2``. For
    joints of single columns only the components along those axes remain.
    """
    n = len(qs)
    Z = [0.0] * (3 * n)
    for j in free:
        Z[3 * j:3 * j + 3] = _rest_vector(qs, R, k, j)
    for i in range(0, len(cols), 4):
        j = cols[i]
        ax, ay, az = cols[i + 1], cols[i + 2], cols[i + 3]
        zx, zy, zz = _rest_vector(qs, R, k, j)
        t = zx * ax + zy * ay + zz * az
        Z[3 * j] += t * ax
        Z[3 * j + 1] += t * ay
        Z[3 * j + 2] += t * az
    return Z


def _rest_vector(qs, R, k, j):
    w, x, y, z = qs[j]
    if w < 0.0:
        w, x, y, z = -w, -x, -y, -z
    s = math.sqrt(x * x + y * y + z * z)
    f = -k * (2.0 * math.atan2(s, w) / s if s > 1e-300 else 2.0)
    return rotate(R, j - 1, (f * x, f * y, f * z))


def times_jacobian(rs, Z, m, c):
    """``J z`` for world rotation vectors ``Z`` per joint (flat)."""
    px = py = pz = ox = oy = oz = 0.0
    for k in range(0, len(Z), 3):
        zx, zy, zz = Z[k], Z[k + 1], Z[k + 2]
        if zx or zy or zz:
            rx, ry, rz = rs[k], rs[k + 1], rs[k + 2]
            px += zy * rz - zz * ry
            py += zz * rx - zx * rz
            pz += zx * ry - zy * rx
            ox += zx
            oy += zy
            oz += zz
    if m == 3:
        return [px, py, pz]
    return [px, py, pz, c * ox, c * oy, c * oz]
