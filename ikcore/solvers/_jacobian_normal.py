"""The ``m x m`` normal equations of the Jacobian methods, solved in plain Python.

Every method solves the ``m x m`` system (``m`` = 3, or 6 with an orientation)::

    (J J^T + lambda^2 I) y = e - J z,      dtheta = J^T y + z

never the ``n x n`` one. ``z`` is the secondary ``rest`` motion (null-space
projected, see below), zero unless asked. A free joint's three columns sum in
closed form, ``sum_a J_a J_a^T = [[|r|^2 I - r r^T, -c [r]x], [c [r]x, c^2 I]]``
and its step is ``J^T y = r x y_p + c y_o``, so a joint costs a few products.

``m`` is 3 or 6, so the systems are solved by a Cholesky factorisation written
out by hand (3 x 3 blocks), with no linear-algebra library.
"""

import math


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
