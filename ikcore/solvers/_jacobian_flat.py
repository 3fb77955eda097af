"""Kinematics of the Jacobian methods over flat float lists: poses, errors, steps.

Poses are lists of local unit quaternions ``qs``; world positions ``P`` and
rotations ``R`` are flat lists (``3 (N + 1)`` and ``4 N`` floats), the layout the
Jacobian loop (:mod:`~ikcore.solvers._jacobian`) reads without tuples. Rotation
convention: :mod:`ikcore.rotation`.

A step ``w_j`` (a world rotation vector per joint) is applied to the local
rotation as ``q_j <- exp(R_{j-1}^-1 w_j) q_j``, which turns joint ``j``'s subtree by
``w_j`` about ``p_j`` (all joints at once: first order).
"""

import math

from ._limits import BALL, HINGE, clamp_angle, clamp_ball


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


def rotate(R, j, v):
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
