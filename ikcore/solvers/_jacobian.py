"""The machinery of the Jacobian methods: the geometric Jacobian, small solves, the iteration loop.

Used by :mod:`~ikcore.solvers.jacobian_transpose`, :mod:`~ikcore.solvers.pseudo_inverse`,
:mod:`~ikcore.solvers.dls` and :mod:`~ikcore.solvers.fabrik_dls`. Rotation convention:
:mod:`ikcore.rotation`.

Geometric Jacobian
------------------
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

Normal equations
----------------
Every method solves the ``m x m`` system (``m`` = 3, or 6 with an orientation)::

    (J J^T + lambda^2 I) y = e - J z,      dtheta = J^T y + z

never the ``n x n`` one. ``z`` is the secondary ``rest`` motion (null-space
projected, see below), zero unless asked. A free joint's three columns sum in
closed form, ``sum_a J_a J_a^T = [[|r|^2 I - r r^T, -c [r]x], [c [r]x, c^2 I]]``
and its step is ``J^T y = r x y_p + c y_o``, so a joint costs a few products.

Safeguards (see ``SOLVER-NOTES``): a step turns no joint by more than
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
from ._pose import BALL, FREE, HINGE, Pose, clamp_angle, clamp_ball, follow, limit_table, reach_out

_TWO_PI = 2.0 * math.pi

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
#: Radians: a joint this near a limit sits on it.
EDGE = 1e-7


# ----------------------------------------------------------------------------------------------
# Option checks


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


# ----------------------------------------------------------------------------------------------
# Kinematics over flat float lists


def forward(chain, qs):
    """World positions ``P`` (flat, ``3 (N + 1)``) and rotations ``R`` (flat, ``4 N``)."""
    px, py, pz = chain.points[0]
    P = [px, py, pz]
    R = []
    rw, rx, ry, rz = 1.0, 0.0, 0.0, 0.0
    for (qw, qx, qy, qz), (vx, vy, vz) in zip(qs, chain.offsets):
        rw, rx, ry, rz = (rw * qw - rx * qx - ry * qy - rz * qz,
                          rw * qx + rx * qw + ry * qz - rz * qy,
                          rw * qy - rx * qz + ry * qw + rz * qx,
                          rw * qz + rx * qy - ry * qx + rz * qw)
        tx = 2.0 * (ry * vz - rz * vy)
        ty = 2.0 * (rz * vx - rx * vz)
        tz = 2.0 * (rx * vy - ry * vx)
        px += vx + rw * tx + (ry * tz - rz * ty)
        py += vy + rw * ty + (rz * tx - rx * tz)
        pz += vz + rw * tz + (rx * ty - ry * tx)
        P += (px, py, pz)
        R += (rw, rx, ry, rz)
    return P, R


def residual(P, R, target, orientation, c):
    """The error vector ``e`` (3 or 6, orientation rows times ``c``), position and angle errors.

    The orientation error is the rotation vector of ``Q R_{N-1}^-1`` (``Q`` the
    asked rotation): the world turn of the last bone that would meet it.
    """
    ex = target[0] - P[-3]
    ey = target[1] - P[-2]
    ez = target[2] - P[-1]
    pos = math.sqrt(ex * ex + ey * ey + ez * ez)
    if orientation is None:
        return [ex, ey, ez], pos, 0.0
    tw, tx, ty, tz = orientation
    cw, cx, cy, cz = R[-4], R[-3], R[-2], R[-1]
    w = tw * cw + tx * cx + ty * cy + tz * cz
    x = -tw * cx + tx * cw - ty * cz + tz * cy
    y = -tw * cy + tx * cz + ty * cw - tz * cx
    z = -tw * cz - tx * cy + ty * cx + tz * cw
    if w < 0.0:
        w, x, y, z = -w, -x, -y, -z
    s = math.sqrt(x * x + y * y + z * z)
    ang = 2.0 * math.atan2(s, w)
    k = c * (ang / s if s > 1e-300 else 2.0)
    return [ex, ey, ez, k * x, k * y, k * z], pos, ang


def rest_cost(qs):
    """``sum_j theta_j^2``: squared rotation angles of the joints."""
    total = 0.0
    for w, x, y, z in qs:
        a = 2.0 * math.atan2(math.sqrt(x * x + y * y + z * z), abs(w))
        total += a * a
    return total


def apply_step(chain, table, qs, R, W, scale=1.0):
    """Turn joint ``j`` by world rotation vector ``scale W[3j:3j+3]``; the new ``(qs, P, R)``.

    ``q_j <- exp(R_{j-1}^-1 w_j) q_j`` (``R`` the current world rotations), then
    joint ``j``'s limits (``table``: :func:`~ikcore.solvers._pose.limit_table`,
    or ``None`` for a chain without limits);
    a hinge adds the step's component along its axis to its angle. Forward
    kinematics runs in the same pass.
    """
    sqrt, sin, cos = math.sqrt, math.sin, math.cos
    out = []
    px, py, pz = chain.points[0]
    P = [px, py, pz]
    nR = []
    rw, rx, ry, rz = 1.0, 0.0, 0.0, 0.0  # new world rotation
    pw, ax_, ay_, az_ = 1.0, 0.0, 0.0, 0.0  # current parent world rotation
    k = 0
    for (qw, qx, qy, qz), (vx, vy, vz) in zip(qs, chain.offsets):
        wx, wy, wz = scale * W[k], scale * W[k + 1], scale * W[k + 2]
        a = sqrt(wx * wx + wy * wy + wz * wz)
        if a > 1e-300:
            # The axis in the parent's frame: rotate w by the inverse parent rotation.
            tx = 2.0 * (az_ * wy - ay_ * wz)
            ty = 2.0 * (ax_ * wz - az_ * wx)
            tz = 2.0 * (ay_ * wx - ax_ * wy)
            lx = wx + pw * tx - (ay_ * tz - az_ * ty)
            ly = wy + pw * ty - (az_ * tx - ax_ * tz)
            lz = wz + pw * tz - (ax_ * ty - ay_ * tx)
            row = table[k // 3] if table else None
            if row and row[0] == HINGE:
                _, hx, hy, hz, lo, hi, full, _ = row
                t = 2.0 * math.atan2(qx * hx + qy * hy + qz * hz, qw) + (lx * hx + ly * hy + lz * hz)
                if not full:
                    t = clamp_angle(t, lo, hi)
                h = sin(0.5 * t)
                qw, qx, qy, qz = cos(0.5 * t), hx * h, hy * h, hz * h
            else:
                h = 0.5 * a
                s = sin(h) / a
                ew, ex, ey, ez = cos(h), lx * s, ly * s, lz * s
                qw, qx, qy, qz = (ew * qw - ex * qx - ey * qy - ez * qz,
                                  ew * qx + ex * qw + ey * qz - ez * qy,
                                  ew * qy - ex * qz + ey * qw + ez * qx,
                                  ew * qz + ex * qy - ey * qx + ez * qw)
                n = sqrt(qw * qw + qx * qx + qy * qy + qz * qz)
                qw, qx, qy, qz = qw / n, qx / n, qy / n, qz / n
                if row and row[0] == BALL:
                    _, hx, hy, hz, lo, hi, full, cone = row
                    qw, qx, qy, qz = clamp_ball(qw, qx, qy, qz, hx, hy, hz, cone, lo, hi, full)
        out.append((qw, qx, qy, qz))
        i = k + k // 3  # 4 j
        pw, ax_, ay_, az_ = R[i], R[i + 1], R[i + 2], R[i + 3]
        k += 3
        rw, rx, ry, rz = (rw * qw - rx * qx - ry * qy - rz * qz,
                          rw * qx + rx * qw + ry * qz - rz * qy,
                          rw * qy - rx * qz + ry * qw + rz * qx,
                          rw * qz + rx * qy - ry * qx + rz * qw)
        tx = 2.0 * (ry * vz - rz * vy)
        ty = 2.0 * (rz * vx - rx * vz)
        tz = 2.0 * (rx * vy - ry * vx)
        px += vx + rw * tx + (ry * tz - rz * ty)
        py += vy + rw * ty + (rz * tx - rx * tz)
        pz += vz + rw * tz + (rx * ty - ry * tx)
        P += (px, py, pz)
        nR += (rw, rx, ry, rz)
    return out, P, nR


def _rotate(R, j, v):
    """``R_j v`` for the flat world rotations; ``j = -1`` is the identity."""
    if j < 0:
        return v
    k = 4 * j
    w, x, y, z = R[k], R[k + 1], R[k + 2], R[k + 3]
    vx, vy, vz = v
    tx = 2.0 * (y * vz - z * vy)
    ty = 2.0 * (z * vx - x * vz)
    tz = 2.0 * (x * vy - y * vx)
    return (vx + w * tx + (y * tz - z * ty), vy + w * ty + (z * tx - x * tz), vz + w * tz + (x * ty - y * tx))


# ----------------------------------------------------------------------------------------------
# Columns: which world axes each joint turns about


def joint_axes(chain, R, j, dropped=()):
    """World axes of joint ``j``'s Jacobian columns, minus the ``dropped`` directions.

    A hinge: its current world axis. Otherwise the world x, y, z axes, or an
    orthonormal basis of what remains when directions are dropped.
    """
    c = chain.joints[j]
    if isinstance(c, Hinge):
        return [] if dropped else [_rotate(R, j - 1, c.axis)]
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
        ax = _rotate(R, j - 1, (hx, hy, hz))
        if abs(_wrap(a - hi)) < EDGE:
            out.append(ax)
        if abs(_wrap(a - lo)) < EDGE:
            out.append((-ax[0], -ax[1], -ax[2]))
        return out
    # Ball: (hx, hy, hz) is the rest bone direction d; the swing angle is the angle from d to q d.
    cx, cy, cz = _rotate(R, j - 1, (hx, hy, hz))
    bx, by, bz = _rotate(R, j, (hx, hy, hz))
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


# ----------------------------------------------------------------------------------------------
# The m x m normal equations


def normal_matrix(rs, free, cols, m, c):
    """``J J^T`` (flat ``m x m``) for offsets ``rs`` (flat ``r_j``).

    ``free``: joints with 3 world-axis columns (closed form). ``cols``: flat
    ``[j, ax, ay, az, ...]`` for single columns (hinges, ball joints on a limit).
    """
    sxx = syy = szz = sxy = sxz = syz = sx = sy = sz = 0.0
    for j in free:
        k = 3 * j
        rx, ry, rz = rs[k], rs[k + 1], rs[k + 2]
        sxx += rx * rx
        syy += ry * ry
        szz += rz * rz
        sxy += rx * ry
        sxz += rx * rz
        syz += ry * rz
        sx += rx
        sy += ry
        sz += rz
    a00, a11, a22, a01, a02, a12 = syy + szz, sxx + szz, sxx + syy, -sxy, -sxz, -syz
    cc = c * c
    f = len(free) * cc
    a03, a04, a05 = 0.0, c * sz, -c * sy
    a13, a14, a15 = -c * sz, 0.0, c * sx
    a23, a24, a25 = c * sy, -c * sx, 0.0
    a33 = a44 = a55 = f
    a34 = a35 = a45 = 0.0
    for i in range(0, len(cols), 4):
        k = 3 * cols[i]
        ax, ay, az = cols[i + 1], cols[i + 2], cols[i + 3]
        rx, ry, rz = rs[k], rs[k + 1], rs[k + 2]
        jx, jy, jz = ay * rz - az * ry, az * rx - ax * rz, ax * ry - ay * rx
        a00 += jx * jx
        a01 += jx * jy
        a02 += jx * jz
        a11 += jy * jy
        a12 += jy * jz
        a22 += jz * jz
        if m == 6:
            ux, uy, uz = c * ax, c * ay, c * az
            a03 += jx * ux
            a04 += jx * uy
            a05 += jx * uz
            a13 += jy * ux
            a14 += jy * uy
            a15 += jy * uz
            a23 += jz * ux
            a24 += jz * uy
            a25 += jz * uz
            a33 += ux * ux
            a34 += ux * uy
            a35 += ux * uz
            a44 += uy * uy
            a45 += uy * uz
            a55 += uz * uz
    if m == 3:
        return [a00, a01, a02, a01, a11, a12, a02, a12, a22]
    return [a00, a01, a02, a03, a04, a05,
            a01, a11, a12, a13, a14, a15,
            a02, a12, a22, a23, a24, a25,
            a03, a13, a23, a33, a34, a35,
            a04, a14, a24, a34, a44, a45,
            a05, a15, a25, a35, a45, a55]


def _chol3(a, b, c, d, e, f, floor):
    # Cholesky of [[a, b, c], [b, d, e], [c, e, f]]: (l00, l10, l20, l11, l21, l22), or None.
    if not a > floor:
        return None
    l00 = math.sqrt(a)
    l10, l20 = b / l00, c / l00
    d -= l10 * l10
    if not d > floor:
        return None
    l11 = math.sqrt(d)
    l21 = (e - l20 * l10) / l11
    f -= l20 * l20 + l21 * l21
    if not f > floor:
        return None
    return l00, l10, l20, l11, l21, math.sqrt(f)


def _lower3(L, x, y, z):
    # Solve L u = (x, y, z).
    l00, l10, l20, l11, l21, l22 = L
    u0 = x / l00
    u1 = (y - l10 * u0) / l11
    return u0, u1, (z - l20 * u0 - l21 * u1) / l22


def _upper3(L, x, y, z):
    # Solve L^T u = (x, y, z).
    l00, l10, l20, l11, l21, l22 = L
    u2 = z / l22
    u1 = (y - l21 * u2) / l11
    return (x - l10 * u1 - l20 * u2) / l00, u1, u2


def solve_spd(A, b, m, shift):
    """Solve ``(A + shift I) y = b`` by Cholesky (``A`` flat ``m x m``, symmetric, m = 3 or 6).

    For ``m = 6`` by 3 x 3 blocks: ``A = [[P, Q], [Q^T, S]]`` factors as
    ``L11 = chol(P)``, ``L21 = (L11^-1 Q)^T``, ``L22 = chol(S - L21 L21^T)``.
    Returns ``None`` when the matrix is not safely positive definite (a pivot
    below ``1e-13`` of the largest diagonal entry): the caller damps more.
    """
    big = max(A[i * m + i] for i in range(m)) + shift
    if not big > 0.0:
        return None
    floor = 1e-13 * big
    if m == 3:
        L = _chol3(A[0] + shift, A[1], A[2], A[4] + shift, A[5], A[8] + shift, floor)
        if L is None:
            return None
        return _upper3(L, *_lower3(L, b[0], b[1], b[2]))
    L1 = _chol3(A[0] + shift, A[1], A[2], A[7] + shift, A[8], A[14] + shift, floor)
    if L1 is None:
        return None
    # Rows of L21: x_k solves L11 x_k = column k of Q.
    x0 = _lower3(L1, A[3], A[9], A[15])
    x1 = _lower3(L1, A[4], A[10], A[16])
    x2 = _lower3(L1, A[5], A[11], A[17])
    x00, x01, x02 = x0
    x10, x11, x12 = x1
    x20, x21, x22 = x2
    L2 = _chol3(A[21] + shift - (x00 * x00 + x01 * x01 + x02 * x02),
                A[22] - (x00 * x10 + x01 * x11 + x02 * x12),
                A[23] - (x00 * x20 + x01 * x21 + x02 * x22),
                A[28] + shift - (x10 * x10 + x11 * x11 + x12 * x12),
                A[29] - (x10 * x20 + x11 * x21 + x12 * x22),
                A[35] + shift - (x20 * x20 + x21 * x21 + x22 * x22), floor)
    if L2 is None:
        return None
    u0, u1, u2 = _lower3(L1, b[0], b[1], b[2])
    v0, v1, v2 = _lower3(L2, b[3] - (x00 * u0 + x01 * u1 + x02 * u2),
                         b[4] - (x10 * u0 + x11 * u1 + x12 * u2),
                         b[5] - (x20 * u0 + x21 * u1 + x22 * u2))
    y3, y4, y5 = _upper3(L2, v0, v1, v2)
    y0, y1, y2 = _upper3(L1, u0 - (x00 * y3 + x10 * y4 + x20 * y5),
                         u1 - (x01 * y3 + x11 * y4 + x21 * y5),
                         u2 - (x02 * y3 + x12 * y4 + x22 * y5))
    return [y0, y1, y2, y3, y4, y5]


def joint_step(rs, free, cols, y, m, c, n, Zp):
    """``dtheta = J^T y + z`` as world rotation vectors per joint (flat ``3 n``)."""
    W = [0.0] * (3 * n) if Zp is None else Zp[:]
    yx, yy, yz = y[0], y[1], y[2]
    ox = oy = oz = 0.0
    if m == 6:
        ox, oy, oz = c * y[3], c * y[4], c * y[5]
    for j in free:
        k = 3 * j
        rx, ry, rz = rs[k], rs[k + 1], rs[k + 2]
        W[k] += ry * yz - rz * yy + ox
        W[k + 1] += rz * yx - rx * yz + oy
        W[k + 2] += rx * yy - ry * yx + oz
    for i in range(0, len(cols), 4):
        k = 3 * cols[i]
        ax, ay, az = cols[i + 1], cols[i + 2], cols[i + 3]
        rx, ry, rz = rs[k], rs[k + 1], rs[k + 2]
        t = ((ay * rz - az * ry) * yx + (az * rx - ax * rz) * yy + (ax * ry - ay * rx) * yz
             + ax * ox + ay * oy + az * oz)
        W[k] += t * ax
        W[k + 1] += t * ay
        W[k + 2] += t * az
    return W


# ----------------------------------------------------------------------------------------------
# The secondary "rest" motion


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
    return _rotate(R, j - 1, (f * x, f * y, f * z))


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


# ----------------------------------------------------------------------------------------------
# The iteration loop


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
            cols += (j, *_rotate(R, j - 1, axis))
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
