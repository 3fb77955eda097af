"""Quaternions on arrays: Hamilton products, and the rotations that put a pose's bones along points.

Quaternions are ``(w, x, y, z)`` in the last axis (convention in
:mod:`ikcore.rotation`); every function works on any leading shape.
"""

import numpy as np

from ..rotation import shortest_arc


def multiply(a, b):
    """The Hamilton product ``a b`` (``b`` applied first)."""
    aw, ax, ay, az = np.moveaxis(a, -1, 0)
    bw, bx, by, bz = np.moveaxis(b, -1, 0)
    return np.stack((aw * bw - ax * bx - ay * by - az * bz,
                     aw * bx + ax * bw + ay * bz - az * by,
                     aw * by - ax * bz + ay * bw + az * bx,
                     aw * bz + ax * by - ay * bx + az * bw), axis=-1)


def conjugate(q):
    """``(w, -x, -y, -z)``: the inverse of a unit quaternion."""
    return q * np.array([1.0, -1.0, -1.0, -1.0])


def rotations_along(points, lengths, directions, worlds=None):
    """Rotations that put each bone along ``points``, turned from a reference pose by the shortest
    arcs (:func:`ikcore.kinematics.rotations_along`, for K poses at once): ``(rotations, worlds)``.

    ``R_i = shortest_arc(s_i, b_i) S_i`` with ``s_i`` bone ``i``'s unit direction in the
    reference, ``b_i`` its direction in ``points`` and ``S_i`` its reference
    world rotation; then ``q_i = R_{i-1}^* R_i``. With ``D`` the bone in
    ``points`` (``|D| = L``), the arc is ``(L + s.D, s x D)`` normalised; a
    bone within a hundredth of a half turn of its reference direction takes
    :func:`ikcore.rotation.shortest_arc`, which stays exact there.

    Parameters
    ----------
    points : ndarray (K, N + 1, 3)
    lengths : ndarray (N,)
    directions : ndarray (K, N, 3) or (N, 3)
        The reference's unit bone directions.
    worlds : ndarray (K, N, 4), optional
        The reference's world rotations (default: the identity, as at a free chain's rest).

    Returns
    -------
    rotations, worlds : ndarray (K, N, 4)
    """
    bones = points[:, 1:] - points[:, :-1]
    s = np.broadcast_to(directions, bones.shape)
    sx, sy, sz = np.moveaxis(s, -1, 0)
    dx, dy, dz = np.moveaxis(bones, -1, 0)
    e = lengths + sx * dx + sy * dy + sz * dz
    arcs = np.stack((e, sy * dz - sz * dy, sz * dx - sx * dz, sx * dy - sy * dx), axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        # (A bone turned exactly half a turn has no arc here: shortest_arc() takes it below.)
        arcs /= np.sqrt(np.einsum("...j,...j->...", arcs, arcs))[..., None]
    for k, i in zip(*np.nonzero(~(e > 0.01 * lengths))):
        arcs[k, i] = shortest_arc(tuple(s[k, i]), tuple(bones[k, i] / lengths[i]))
    placed = arcs if worlds is None else multiply(arcs, worlds)
    rotations = placed.copy()
    rotations[:, 1:] = multiply(conjugate(placed[:, :-1]), placed[:, 1:])
    return rotations, placed


def cross(a, b):
    """The cross products ``a x b`` of vectors in the last axis (either may be one vector)."""
    a0, a1, a2 = a[..., 0], a[..., 1], a[..., 2]
    b0, b1, b2 = b[..., 0], b[..., 1], b[..., 2]
    out = np.empty(np.broadcast_shapes(a.shape, b.shape))
    np.subtract(a1 * b2, a2 * b1, out=out[..., 0])
    np.subtract(a2 * b0, a0 * b2, out=out[..., 1])
    np.subtract(a0 * b1, a1 * b0, out=out[..., 2])
    return out


def turn(q, v):
    """``v`` rotated by the unit quaternions ``q``: ``v + 2w (u x v) + 2 u x (u x v)``, ``u`` the
    vector part (:func:`ikcore.rotation.rotate`)."""
    u = q[..., 1:]
    t = cross(u, v)
    t *= 2.0
    out = cross(u, t)
    out += v
    out += q[..., :1] * t
    return out


def about(axis, angles):
    """Rotations by ``angles`` about the unit ``axis``: ``(cos(a/2), axis sin(a/2))``."""
    half = 0.5 * np.asarray(angles)
    return np.concatenate((np.cos(half)[..., None], np.sin(half)[..., None] * np.asarray(axis)), axis=-1)
