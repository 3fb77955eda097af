"""The small dense linear algebra of the Jacobian methods, in plain Python.

Every step solves an ``m x m`` system, ``m`` = 3 (a position target) or 6 (with
an orientation): never one as large as the number of joints. Products of the
Jacobian's columns build it; a Cholesky factorisation solves it.
"""

from math import sqrt


def gram(cols, m):
    """``J J^T``, ``m x m`` (list of rows), from the Jacobian's columns."""
    A = [[0.0] * m for _ in range(m)]
    for col in cols:
        for r, cr in enumerate(col):
            if cr:
                row = A[r]
                for s in range(r, m):
                    row[s] += cr * col[s]
    for r in range(m):
        for s in range(r):
            A[r][s] = A[s][r]
    return A


def times(cols, y):
    """``J^T y``: one entry per column."""
    out = []
    for col in cols:
        total = 0.0
        for c, v in zip(col, y):
            total += c * v
        out.append(total)
    return out


def apply(cols, x, m):
    """``J x``: ``m`` floats from one entry per column."""
    out = [0.0] * m
    for col, v in zip(cols, x):
        if v:
            for r in range(m):
                out[r] += col[r] * v
    return out


def solve_spd(A, b, shift):
    """Solve ``(A + shift I) y = b`` for a symmetric ``A`` by Cholesky, ``A + shift I = L L^T``;
    ``None`` when the matrix is not safely positive definite (a pivot below ``1e-13`` of the
    largest diagonal entry): the caller damps more."""
    m = len(b)
    big = max(A[i][i] for i in range(m)) + shift
    if not big > 0.0:
        return None
    floor = 1e-13 * big
    L = []
    for i in range(m):
        row = A[i]
        Li = [0.0] * m
        for j in range(i + 1):
            Lj = L[j] if j < i else Li
            s = row[j]
            for k in range(j):
                s -= Li[k] * Lj[k]
            if i == j:
                s += shift
                if not s > floor:
                    return None
                Li[i] = sqrt(s)
            else:
                Li[j] = s / Lj[j]
        L.append(Li)
    # L u = b, then L^T y = u.
    u = []
    for i in range(m):
        Li = L[i]
        s = b[i]
        for k in range(i):
            s -= Li[k] * u[k]
        u.append(s / Li[i])
    y = [0.0] * m
    for i in range(m - 1, -1, -1):
        s = u[i]
        for k in range(i + 1, m):
            s -= L[k][i] * y[k]
        y[i] = s / L[i][i]
    return y
