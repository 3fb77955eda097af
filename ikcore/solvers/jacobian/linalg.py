"""The small dense linear algebra of the Jacobian methods, in plain Python.

Every step solves an ``m x m`` symmetric positive definite system, ``m`` = 3 (a
position target) or 6 (with an orientation): never one as large as the number
of joints. The Jacobian builds it joint by joint
(:meth:`.joints.JointJacobian.gram`); here it is solved by its 3 x 3 blocks::

    [P   Q] [y_p]   [b_p]        S = O - Q^T P^-1 Q   (the Schur complement)
    [Q^T O] [y_o] = [b_o]        y_o = S^-1 (b_o - Q^T P^-1 b_p)
                                 y_p = P^-1 (b_p - Q y_o)

with the inverses of the two symmetric 3 x 3 matrices ``P`` and ``S`` written
out from their Cholesky factors (an unrolled small solve: docs/develop/performance.md
says what it saves). The pivots met on the way are those of a Cholesky
factorisation of the whole, and the same test refuses a system that is not
safely positive definite.
"""

from math import sqrt


def solve_spd_unrolled(A, b, shift):
    """Solve ``(A + shift I) y = b`` for a symmetric positive definite ``A`` (``m`` = 3 or 6 rows);
    ``None`` when the matrix is not safely positive definite (a pivot below ``1e-13`` of the
    largest diagonal entry): the caller damps more."""
    m = len(b)
    big = max(A[i][i] for i in range(m)) + shift
    if not big > 0.0:
        return None
    floor = 1e-13 * big
    r0, r1, r2 = A[0], A[1], A[2]
    inverse = inverse_sym3(r0[0] + shift, r0[1], r0[2], r1[1] + shift, r1[2], r2[2] + shift, floor)
    if inverse is None:
        return None
    pa, pb, pc, pd, pe, pf = inverse
    x, y, z = b[0], b[1], b[2]
    # h = P^-1 b_p
    hx, hy, hz = pa * x + pb * y + pc * z, pb * x + pd * y + pe * z, pc * x + pe * y + pf * z
    if m == 3:
        return [hx, hy, hz]
    q00, q01, q02 = r0[3], r0[4], r0[5]
    q10, q11, q12 = r1[3], r1[4], r1[5]
    q20, q21, q22 = r2[3], r2[4], r2[5]
    # G = P^-1 Q, a column at a time.
    g00, g10, g20 = pa * q00 + pb * q10 + pc * q20, pb * q00 + pd * q10 + pe * q20, pc * q00 + pe * q10 + pf * q20
    g01, g11, g21 = pa * q01 + pb * q11 + pc * q21, pb * q01 + pd * q11 + pe * q21, pc * q01 + pe * q11 + pf * q21
    g02, g12, g22 = pa * q02 + pb * q12 + pc * q22, pb * q02 + pd * q12 + pe * q22, pc * q02 + pe * q12 + pf * q22
    # S = O - Q^T G, and its inverse.
    r3, r4, r5 = A[3], A[4], A[5]
    inverse = inverse_sym3(r3[3] + shift - (q00 * g00 + q10 * g10 + q20 * g20),
                           r3[4] - (q00 * g01 + q10 * g11 + q20 * g21),
                           r3[5] - (q00 * g02 + q10 * g12 + q20 * g22),
                           r4[4] + shift - (q01 * g01 + q11 * g11 + q21 * g21),
                           r4[5] - (q01 * g02 + q11 * g12 + q21 * g22),
                           r5[5] + shift - (q02 * g02 + q12 * g12 + q22 * g22), floor)
    if inverse is None:
        return None
    sa, sb, sc, sd, se, sf = inverse
    # y_o = S^-1 (b_o - Q^T h), then y_p = h - G y_o.
    u = b[3] - (q00 * hx + q10 * hy + q20 * hz)
    v = b[4] - (q01 * hx + q11 * hy + q21 * hz)
    w = b[5] - (q02 * hx + q12 * hy + q22 * hz)
    ou, ov, ow = sa * u + sb * v + sc * w, sb * u + sd * v + se * w, sc * u + se * v + sf * w
    return [hx - (g00 * ou + g01 * ov + g02 * ow), hy - (g10 * ou + g11 * ov + g12 * ow),
            hz - (g20 * ou + g21 * ov + g22 * ow), ou, ov, ow]


def inverse_sym3(a, b, c, d, e, f, floor):
    """The inverse of the symmetric ``[[a, b, c], [b, d, e], [c, e, f]]``, as its six entries in
    the same order; ``None`` unless its three Cholesky pivots all exceed ``floor``.

    From its Cholesky factor ``L`` (``l_ij``): ``A^-1 = M^T M`` with ``M = L^-1``, lower
    triangular too, which keeps its digits where ``A`` is nearly singular.
    """
    if not a > floor:
        return None
    l11 = sqrt(a)
    l21, l31 = b / l11, c / l11
    pivot = d - l21 * l21
    if not pivot > floor:
        return None
    l22 = sqrt(pivot)
    l32 = (e - l21 * l31) / l22
    pivot = f - l31 * l31 - l32 * l32
    if not pivot > floor:
        return None
    m11, m22, m33 = 1.0 / l11, 1.0 / l22, 1.0 / sqrt(pivot)
    m21 = -l21 * m11 * m22
    m32 = -l32 * m22 * m33
    m31 = -(l31 * m11 + l32 * m21) * m33
    return (m11 * m11 + m21 * m21 + m31 * m31, m21 * m22 + m31 * m32, m31 * m33,
            m22 * m22 + m32 * m32, m32 * m33, m33 * m33)
