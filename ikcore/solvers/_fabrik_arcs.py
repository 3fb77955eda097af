"""FABRIK's points become rotations: one shortest arc per bone, once a solve.

Bone ``i`` turns by the shortest arc from its direction ``s_i`` in a reference
pose (the start; rest when cold) to its direction ``b_i`` in the final points,
``R_i = arc(s_i, b_i) S_i`` (world rotations; the reference pose's twist is
kept), and ``q_i = R_{i-1}^{-1} R_i`` (convention in :mod:`ikcore.rotation`).

- :func:`arcs`: those rotations and the last world rotation, which tells the
  verdict whether the points stand for their forward kinematics (used by the
  free solve, :mod:`~._fabrik_free`);
- :func:`arcs_from`: the same from a reference pose given as world rotations
  and point lists (a verdict's frames as they come: the cone solve,
  :mod:`~._fabrik_cones`, which also has each bend tested against its cone's
  rim along the way);
- :func:`rotations_along`: the rotations alone (a restart's pose);
- :func:`settled_along`: the rotations and the verdict's pose for them.
"""

import math

from .. import rotation as rot
from ._per_chain import per_chain


def rotations_along(chain, ref, xs, ys, zs):
    """Local rotations putting the free chain's bones along the points' bones.

    World ``R_i = arc(s_i, b_i) S_i`` with ``s_i``, ``S_i`` the bone direction
    and world rotation of ``ref`` (the rest pose when ``None``) and ``b_i`` the
    wanted direction; ``q_i = R_{i-1}^{-1} R_i``. The arc between unit vectors
    is ``(1 + s.b, s x b) / sqrt(2 (1 + s.b))``.
    """
    return arcs(chain, ref, xs, ys, zs)[0]


def settled_along(chain, ref, xs, ys, zs):
    """The rotations putting the bones along the points, and the verdict's pose for them.

    For a chain without limits the points themselves are that pose (see
    :attr:`~ikcore.problem.Outcome.settled`): each bone's arc maps its rest
    bone onto the points' bone to rounding, so ``chain.forward(rotations)``
    would give them back. Where a bone turned nearly half a turn the arc is
    less precise than that, and the pose is the forward kinematics proper.
    A limited chain (planar hinges) gets no pose: the verdict clamps first.
    """
    rotations, last = arcs(chain, ref, xs, ys, zs)
    if chain.limited:
        return rotations, None
    if last is None:
        return rotations, chain._settle(rotations)
    return rotations, (rotations, list(zip(xs, ys, zs)), last)


# A bone's arc whose 1 + s.b (s.b the cosine of its turn) falls below this loses about
# 1e-15 / sqrt(1 + s.b) of a turn to rounding (measured): too much for its points to stand
# for the forward kinematics of its rotations within 1e-13 of its length (a turn within 0.8
# degrees of a half turn; under 3% of the standard benchmark solves have one).
_PRECISE_ARC = 1e-4


def arcs(chain, ref, xs, ys, zs, worlds=None):
    """:func:`rotations_along`, and the last world rotation ``R_{N-1}``, or ``None``
    when some bone's arc is imprecise (see ``_PRECISE_ARC``). With a list
    ``worlds`` and a ``ref``, each ``R_i`` is normalised and appended to it.

    With ``D`` the points' bone (length ``L``), ``(L + s.D, s x D)`` is the arc
    scaled by ``sqrt(2 L (L + s.D))``; it is normalised by its computed norm,
    so every rotation is unit to rounding even where rounding left ``|D| != L``.
    """
    if ref is not None:
        starts = zip(ref.rw, ref.rx, ref.ry, ref.rz)
        return arcs_from(chain, starts, ref.xs, ref.ys, ref.zs, xs, ys, zs, worlds)
    # One loop, the maths inlined: this runs once a solve, and at N = 10 a solve takes two iterations.
    out = []
    append = out.append
    sqrt = math.sqrt
    precise = True
    pw, px, py, pz = 1.0, 0.0, 0.0, 0.0
    x0, y0, z0 = xs[0], ys[0], zs[0]
    j = 0
    for (sx, sy, sz), length in zip(chain.directions, chain.lengths):
        j += 1
        x1, y1, z1 = xs[j], ys[j], zs[j]
        dx, dy, dz = x1 - x0, y1 - y0, z1 - z0
        x0, y0, z0 = x1, y1, z1
        e = length + sx * dx + sy * dy + sz * dz
        # Four names at a time by single assignments: a 4-tuple assignment builds a tuple.
        if e > _PRECISE_ARC * length:
            ax, ay, az = sy * dz - sz * dy, sz * dx - sx * dz, sx * dy - sy * dx
            h = 1.0 / sqrt(e * e + ax * ax + ay * ay + az * az)
            aw = e * h
            ax *= h
            ay *= h
            az *= h
        else:
            precise = False
            aw, ax, ay, az = _reversal_arc(sx, sy, sz, dx, dy, dz, e, length)
        # q_i = conj(P) R_i
        append((pw * aw + px * ax + py * ay + pz * az,
                pw * ax - px * aw - py * az + pz * ay,
                pw * ay + px * az - py * aw - pz * ax,
                pw * az - px * ay + py * ax - pz * aw))
        pw = aw
        px = ax
        py = ay
        pz = az
    return out, ((pw, px, py, pz) if precise else None)


def _reversal_arc(sx, sy, sz, dx, dy, dz, e, length):
    # The arc from s onto D when D points nearly straight back: the formula while it holds
    # up, else a half turn about an axis across s.
    if e > 1e-12 * length:
        ax, ay, az = sy * dz - sz * dy, sz * dx - sx * dz, sx * dy - sy * dx
        h = 1.0 / math.sqrt(e * e + ax * ax + ay * ay + az * az)
        return e * h, ax * h, ay * h, az * h
    return (0.0,) + rot.perpendicular((sx, sy, sz))


def arcs_from(chain, starts, rxs, rys, rzs, xs, ys, zs, worlds=None, rims=None):
    """:func:`arcs` measured from a reference pose other than rest.

    Parameters
    ----------
    chain : Chain
    starts : iterable of (w, x, y, z)
        The reference pose's unit world rotations ``S_i``, in bone order.
    rxs, rys, rzs : list of float
        The reference pose's points (``s_i`` is the direction of its bone ``i``).
    xs, ys, zs : list of float
        The points to turn the bones onto.
    worlds : list, optional
        Each (unit) world rotation ``R_i`` is appended to it.
    rims : list of float, optional
        Per bone, the least dot product of its bone ``D_i`` with the one before
        (for the first, the chain's rest direction ``d_0``) the caller accepts
        (:func:`~._fabrik_cones.settle`); a bend below it makes ``last`` ``None``,
        as an imprecise arc does.

    Returns
    -------
    rotations : list of (w, x, y, z)
    last : (w, x, y, z) or None
        ``R_{N-1}``, or ``None`` when an arc is imprecise or a bend misses its rim.

    Notes
    -----
    ``s_i`` is taken from the reference points and ``R_i = arc S_i``; the arc is left
    unnormalised (a positive multiple of the unit arc) and ``R_i`` normalised once instead:
    one square root a bone, and world rotations unit to rounding, which they must stay (the
    next frame's warm start turns them again, and norms must not drift).
    """
    out = []
    append = out.append
    keep = None if worlds is None else worlds.append
    sqrt = math.sqrt
    precise = True
    pw, px, py, pz = 1.0, 0.0, 0.0, 0.0
    # Each point is read once and carried to the next bone as its first end (here and in the
    # reference pose); the previous bone (its rest direction for the first) for the rim test.
    x0, y0, z0 = xs[0], ys[0], zs[0]
    u0, v0, w0 = rxs[0], rys[0], rzs[0]
    qx, qy, qz = chain.directions[0]
    j = 0
    for (cw, cx, cy, cz), (length, inverse, cut) in zip(starts, _bones(chain)):
        j += 1
        x1, y1, z1 = xs[j], ys[j], zs[j]
        dx, dy, dz = x1 - x0, y1 - y0, z1 - z0
        x0, y0, z0 = x1, y1, z1
        if rims is not None:
            if qx * dx + qy * dy + qz * dz < rims[j - 1]:
                precise = False
            qx, qy, qz = dx, dy, dz
        u1, v1, w1 = rxs[j], rys[j], rzs[j]
        sx, sy, sz = (u1 - u0) * inverse, (v1 - v0) * inverse, (w1 - w0) * inverse
        u0, v0, w0 = u1, v1, w1
        aw = length + sx * dx + sy * dy + sz * dz
        if aw > cut:
            ax, ay, az = sy * dz - sz * dy, sz * dx - sx * dz, sx * dy - sy * dx
        else:
            precise = False
            aw, ax, ay, az = _reversal_arc(sx, sy, sz, dx, dy, dz, aw, length)
        # R_i = arc S_i, by single assignments (a 4-tuple assignment builds a tuple).
        rw = aw * cw - ax * cx - ay * cy - az * cz
        rx = aw * cx + ax * cw + ay * cz - az * cy
        ry = aw * cy - ax * cz + ay * cw + az * cx
        rz = aw * cz + ax * cy - ay * cx + az * cw
        k = 1.0 / sqrt(rw * rw + rx * rx + ry * ry + rz * rz)
        aw = rw * k
        ax = rx * k
        ay = ry * k
        az = rz * k
        if keep is not None:
            keep((aw, ax, ay, az))
        append((pw * aw + px * ax + py * ay + pz * az,
                pw * ax - px * aw - py * az + pz * ay,
                pw * ay + px * az - py * aw - pz * ax,
                pw * az - px * ay + py * ax - pz * aw))
        pw = aw
        px = ax
        py = ay
        pz = az
    return out, ((pw, px, py, pz) if precise else None)


def _bones_of(chain):
    # Per bone, what arcs_from reads with it: its length L, 1 / L, and the least L + s.D of a
    # precise arc (_PRECISE_ARC L); computed once per chain.
    return [(length, 1.0 / length, _PRECISE_ARC * length) for length in chain.lengths]


_bones = per_chain(_bones_of)
