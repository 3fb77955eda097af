"""Reference FABRIK implementations the benchmark measures ikcore against.

``fabrik_floor``
    One chain in plain Python: three flat lists of floats, the maths inlined,
    no function call inside the passes. It returns positions only (no
    rotations, no validation, no degenerate-pose handling), so it is the
    interpreter's floor for FABRIK: what any pure-Python FABRIK costs at least.

``fabrik_numpy_batch``
    K copies of one chain in numpy, in the joint-major ``(N + 1, K, 3)`` layout,
    written the straightforward way: one vectorised step per joint over the
    whole batch, every chain iterated until all have converged.

Both follow Aristidou & Lasenby (2011): a target farther than the reach gives
the chain stretched straight at it in one step (one iteration); otherwise
backward (from the target) and forward (from the root) passes repeat while
``|effector - target| > tol``, up to ``max_iterations``.
"""

import math

import numpy as np


def fabrik_floor(xs, ys, zs, lengths, target, tol, max_iterations):
    """Solve one chain given start points as flat lists (copied, not modified).

    Parameters
    ----------
    xs, ys, zs : list of float
        The ``N + 1`` start points, root first, by coordinate.
    lengths : list of float
        The ``N`` bone lengths.
    target : (x, y, z)
    tol : float
        Stop when the effector is within ``tol`` of the target.
    max_iterations : int

    Returns
    -------
    xs, ys, zs, iterations, error
    """
    sqrt = math.sqrt
    xs = list(xs)
    ys = list(ys)
    zs = list(zs)
    n = len(lengths)
    tx, ty, tz = target
    rx = xs[0]
    ry = ys[0]
    rz = zs[0]
    dx = tx - rx
    dy = ty - ry
    dz = tz - rz
    dist = sqrt(dx * dx + dy * dy + dz * dz)
    if dist >= sum(lengths):
        dx /= dist
        dy /= dist
        dz /= dist
        acc = 0.0
        for i in range(n):
            acc += lengths[i]
            xs[i + 1] = rx + dx * acc
            ys[i + 1] = ry + dy * acc
            zs[i + 1] = rz + dz * acc
        ex = xs[n] - tx
        ey = ys[n] - ty
        ez = zs[n] - tz
        return xs, ys, zs, 1, sqrt(ex * ex + ey * ey + ez * ez)
    ex = xs[n] - tx
    ey = ys[n] - ty
    ez = zs[n] - tz
    err = sqrt(ex * ex + ey * ey + ez * ez)
    it = 0
    back = range(n - 1, -1, -1)
    fore = range(n)
    while err > tol and it < max_iterations:
        px = tx
        py = ty
        pz = tz
        xs[n] = px
        ys[n] = py
        zs[n] = pz
        for i in back:
            qx = xs[i] - px
            qy = ys[i] - py
            qz = zs[i] - pz
            s = lengths[i] / sqrt(qx * qx + qy * qy + qz * qz)
            px += qx * s
            py += qy * s
            pz += qz * s
            xs[i] = px
            ys[i] = py
            zs[i] = pz
        px = rx
        py = ry
        pz = rz
        xs[0] = px
        ys[0] = py
        zs[0] = pz
        for i in fore:
            j = i + 1
            qx = xs[j] - px
            qy = ys[j] - py
            qz = zs[j] - pz
            s = lengths[i] / sqrt(qx * qx + qy * qy + qz * qz)
            px += qx * s
            py += qy * s
            pz += qz * s
            xs[j] = px
            ys[j] = py
            zs[j] = pz
        it += 1
        ex = px - tx
        ey = py - ty
        ez = pz - tz
        err = sqrt(ex * ex + ey * ey + ez * ez)
    return xs, ys, zs, it, err


def fabrik_numpy_batch(start, lengths, targets, tol, max_iterations):
    """Solve K copies of one chain, straightforwardly vectorised over the copies.

    Parameters
    ----------
    start : ndarray (N + 1, K, 3)
        Start points of every chain (joint-major); the roots ``start[0]`` are
        all the same point.
    lengths : sequence of N float
    targets : ndarray (K, 3)
    tol : float
    max_iterations : int

    Returns
    -------
    positions : ndarray (N + 1, K, 3)
    iterations : int
        Iterations of the batch (the slowest chain's count).
    errors : ndarray (K,)
    """
    p = np.array(start, dtype=float)
    targets = np.asarray(targets, dtype=float)
    n = len(lengths)
    root = p[0, 0].copy()
    offset = targets - root
    dist = np.sqrt((offset * offset).sum(axis=1))
    far = dist >= sum(lengths)
    if far.any():
        unit = offset[far] / dist[far][:, None]
        along = np.concatenate([[0.0], np.cumsum(lengths)])
        p[:, far] = root + along[:, None, None] * unit[None]
    near = ~far
    q = p[:, near]
    t = targets[near]
    iterations = 1 if far.any() else 0
    d = q[n] - t
    err = np.sqrt((d * d).sum(axis=1))
    it = 0
    while it < max_iterations and (err > tol).any():
        q[n] = t
        for i in range(n - 1, -1, -1):
            d = q[i] - q[i + 1]
            q[i] = q[i + 1] + d * (lengths[i] / np.sqrt((d * d).sum(axis=1)))[:, None]
        q[0] = root
        for i in range(n):
            d = q[i + 1] - q[i]
            q[i + 1] = q[i] + d * (lengths[i] / np.sqrt((d * d).sum(axis=1)))[:, None]
        it += 1
        d = q[n] - t
        err = np.sqrt((d * d).sum(axis=1))
    p[:, near] = q
    d = p[n] - targets
    return p, max(it, iterations), np.sqrt((d * d).sum(axis=1))
