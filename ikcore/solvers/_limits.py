"""Joint limits as plain floats, for the solvers' inner loops.

:func:`limit_table` turns a chain's :mod:`ikcore.constraints` into one tuple of
floats per joint; :func:`clamp_angle` and :func:`clamp_ball` apply them to
plain-float quaternions exactly as :meth:`ikcore.Hinge.clamp` and
:meth:`ikcore.BallSocket.clamp` do, without building tuples or calling methods.
"""

import math

from ..constraints import BallSocket, Hinge

FREE = 0
HINGE = 1
BALL = 2

_TWO_PI = 2.0 * math.pi


def limit_table(chain):
    """Each joint's limits as a tuple ``(kind, ax, ay, az, lo, hi, full, cone)``.

    ``FREE``: no limit (also a ball joint that allows everything).
    ``HINGE``: ``(ax, ay, az)`` the unit axis in the parent's frame, ``[lo, hi]``
    the angle range in radians, ``full`` when it spans a whole turn.
    ``BALL``: ``(ax, ay, az)`` the rest bone direction, ``cone`` the largest
    swing (:attr:`ikcore.BallSocket.swing_limit`), ``[lo, hi]`` and ``full``
    the twist range.
    """
    table = []
    for c, d in zip(chain.joints, chain.directions):
        if isinstance(c, Hinge):
            r = c.range
            table.append((HINGE, c.axis[0], c.axis[1], c.axis[2], r.lo, r.hi, r.full, 0.0))
        elif isinstance(c, BallSocket) and (c.cone < math.pi or not c.twist.full):
            r = c.twist
            table.append((BALL, d[0], d[1], d[2], r.lo, r.hi, r.full, c.swing_limit))
        else:
            table.append((FREE, 0.0, 0.0, 0.0, 0.0, 0.0, True, 0.0))
    return table


def plane_normal(chain, table):
    """The common axis of a planar chain, or ``None``.

    A chain is planar when every joint is a hinge about one axis ``a`` and
    every rest bone is normal to it: then every pose lies in the plane through
    the root normal to ``a``, and every world hinge axis stays ``a``.
    """
    first = table[0]
    if first[0] != HINGE:
        return None
    ax, ay, az = first[1], first[2], first[3]
    for row in table:
        if row[0] != HINGE or abs(row[1] - ax) + abs(row[2] - ay) + abs(row[3] - az) > 1e-12:
            return None
    for dx, dy, dz in chain.directions:
        if abs(dx * ax + dy * ay + dz * az) > 1e-12:
            return None
    return (ax, ay, az)


def clamp_angle(a, lo, hi):
    """The angle of the arc ``[lo, hi]`` nearest to ``a`` (any turn), as the
    hinge and twist ranges of :mod:`ikcore.constraints` clamp it."""
    t = lo + math.fmod(a - lo, _TWO_PI)
    if t < lo:
        t += _TWO_PI
    if t <= hi:
        return t
    return hi if t - hi <= lo + _TWO_PI - t else lo


def clamp_ball(w, x, y, z, dx, dy, dz, cone, lo, hi, full):
    """:meth:`ikcore.BallSocket.clamp` on plain floats.

    ``q = swing * twist`` with the twist about the rest bone direction ``d``:
    ``twist = (w, (v . d) d) / norm``; the swing is scaled back into the cone and
    the twist angle clamped into ``[lo, hi]``.
    """
    p = x * dx + y * dy + z * dz
    n = math.sqrt(w * w + p * p)
    if n < 1e-12:
        # A half-turn swing: no twist to speak of.
        tw, tp = 1.0, 0.0
    else:
        tw, tp = w / n, p / n
    # swing = q * conj(twist), twist = (tw, tp d)
    ux, uy, uz = tp * dx, tp * dy, tp * dz
    sw = w * tw + x * ux + y * uy + z * uz
    sx = tw * x - w * ux - (y * uz - z * uy)
    sy = tw * y - w * uy - (z * ux - x * uz)
    sz = tw * z - w * uz - (x * uy - y * ux)
    s = math.sqrt(sx * sx + sy * sy + sz * sz)
    if 2.0 * math.atan2(s, abs(sw)) > cone:
        if sw < 0.0:
            sx, sy, sz = -sx, -sy, -sz
        # Only the swing about axes across the bone: a half turn's split can leave a trace about it.
        t = sx * dx + sy * dy + sz * dz
        sx, sy, sz = sx - t * dx, sy - t * dy, sz - t * dz
        s = math.sqrt(sx * sx + sy * sy + sz * sz)
        if s > 0.0:
            k = math.sin(0.5 * cone) / s
            sw, sx, sy, sz = math.cos(0.5 * cone), sx * k, sy * k, sz * k
        else:
            sw, sx, sy, sz = 1.0, 0.0, 0.0, 0.0
    if not full:
        a = 2.0 * math.atan2(tp, tw)
        a = math.fmod(a, _TWO_PI)
        if a > math.pi:
            a -= _TWO_PI
        elif a <= -math.pi:
            a += _TWO_PI
        a = clamp_angle(a, lo, hi)
        tw, tp = math.cos(0.5 * a), math.sin(0.5 * a)
        ux, uy, uz = tp * dx, tp * dy, tp * dz
    # swing * twist
    return (sw * tw - sx * ux - sy * uy - sz * uz,
            sw * ux + tw * sx + (sy * uz - sz * uy),
            sw * uy + tw * sy + (sz * ux - sx * uz),
            sw * uz + tw * sz + (sx * uy - sy * ux))
