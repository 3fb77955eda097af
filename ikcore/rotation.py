"""Quaternions and the rotation convention of ikcore, written once.

Quaternions are tuples ``(w, x, y, z)`` of floats, unit length, acting on vectors
as ``v' = q v q*``.

The chain convention
--------------------
A chain has rest points ``p_0 .. p_N`` (root first) and one local rotation
``q_i`` per joint ``i`` (``0 <= i < N``), relative to the rest pose. Joint ``i``'s
world rotation is the product from the root::

    R_i = q_0 q_1 ... q_i

and the points follow by forward kinematics, the root never moving::

    positions[i + 1] = positions[i] + R_i (rest[i + 1] - rest[i])

``q_i`` is expressed in the frame of its parent (``R_{i-1}``, the world frame
for the root joint); at rest every ``q_i`` is the identity, so a constraint on
joint ``i`` is written in world coordinates of the rest pose. An orientation
target is the world rotation ``R_{N-1}`` of the last bone.

Every quaternion operation of the package is here, once: :func:`multiply`,
:func:`conjugate`, :func:`rotate`, :func:`shortest_arc`, :func:`from_axis_angle`.

For example, a quarter turn about z, applied to x and composed with itself:

>>> import math
>>> from ikcore import rotation
>>> quarter = rotation.from_axis_angle((0, 0, 1), math.pi / 2)
>>> [round(c, 6) + 0.0 for c in rotation.rotate(quarter, (1, 0, 0))]
[0.0, 1.0, 0.0]
>>> round(math.degrees(rotation.angle(rotation.multiply(quarter, quarter))), 6)
180.0
"""

import math

IDENTITY = (1.0, 0.0, 0.0, 0.0)


def multiply(a, b):
    """Hamilton product ``a b`` (apply ``b`` first, then ``a``)."""
    aw, ax, ay, az = a
    bw, bx, by, bz = b
    return (
        aw * bw - ax * bx - ay * by - az * bz,
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
    )


def conjugate(q):
    """Inverse of a unit quaternion."""
    return (q[0], -q[1], -q[2], -q[3])


def normalize(q):
    """``q / |q|``; the identity for a (near) zero quaternion."""
    w, x, y, z = q
    n = math.sqrt(w * w + x * x + y * y + z * z)
    if n < 1e-300:
        return IDENTITY
    return (w / n, x / n, y / n, z / n)


def halve(q):
    """The rotation about ``q``'s axis by half its angle: ``(cos(a/2), sin(a/2) n)`` turned into
    ``(cos(a/4), sin(a/4) n)`` by the half-angle identities, which come to normalizing ``(1 + w, x, y,
    z)``. ``q`` is taken the short way round (its angle at most pi: ``w >= 0``)."""
    w, x, y, z = q
    if w < 0.0:
        w, x, y, z = -w, -x, -y, -z
    return normalize((1.0 + w, x, y, z))


def rotate(q, v):
    """Rotate vector ``v`` by unit quaternion ``q``.

    Uses ``v' = v + 2 w (u x v) + 2 u x (u x v)`` with ``u`` the vector part.
    """
    w, x, y, z = q
    vx, vy, vz = v
    tx = 2.0 * (y * vz - z * vy)
    ty = 2.0 * (z * vx - x * vz)
    tz = 2.0 * (x * vy - y * vx)
    return (
        vx + w * tx + (y * tz - z * ty),
        vy + w * ty + (z * tx - x * tz),
        vz + w * tz + (x * ty - y * tx),
    )


def from_axis_angle(axis, angle):
    """Rotation by ``angle`` radians about ``axis`` (any non-zero length)."""
    ax, ay, az = axis
    # hypot: the axis may be tiny (a step's rotation vector), where its square would underflow.
    n = math.hypot(ax, ay, az)
    s = math.sin(0.5 * angle) / n
    return (math.cos(0.5 * angle), ax * s, ay * s, az * s)


def perpendicular(v):
    """A unit vector perpendicular to ``v`` (``v`` non-zero)."""
    x, y, z = v
    # Cross with the world axis least aligned with v: never near-parallel.
    if abs(x) <= abs(y) and abs(x) <= abs(z):
        p = (0.0, z, -y)
    elif abs(y) <= abs(z):
        p = (-z, 0.0, x)
    else:
        p = (y, -x, 0.0)
    n = math.sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2])
    return (p[0] / n, p[1] / n, p[2] / n)


def shortest_arc(s, b):
    """The unit quaternion that turns unit ``s`` onto unit ``b`` by the smallest angle.

    ``(1 + s.b, s x b)`` normalised, the half-angle form; within a hundredth of
    a half turn it loses digits (``1 + s.b`` is a difference of near equals), so
    there the angle comes from ``atan2(|s x b|, s.b)``, and exactly opposite
    directions turn half a turn about an axis across ``s``.
    """
    sx, sy, sz = s
    bx, by, bz = b
    c = sx * bx + sy * by + sz * bz
    x, y, z = sy * bz - sz * by, sz * bx - sx * bz, sx * by - sy * bx
    if c > -0.99:
        w = 1.0 + c
        n = math.sqrt(w * w + x * x + y * y + z * z)
        return (w / n, x / n, y / n, z / n)
    # Near a half turn: the angle from atan2, the axis the cross product's part across s (rounding
    # leaves it a trace along s, which would tilt the turn), any axis across s at a half turn.
    sine = math.sqrt(x * x + y * y + z * z)
    t = x * sx + y * sy + z * sz
    x, y, z = x - t * sx, y - t * sy, z - t * sz
    n = math.sqrt(x * x + y * y + z * z)
    if n <= 1e-150:
        x, y, z = perpendicular(s)
        n = 1.0
    half = 0.5 * math.atan2(sine, c)
    k = math.sin(half) / n
    return (math.cos(half), x * k, y * k, z * k)


def angle(q):
    """Rotation angle of ``q`` in ``[0, pi]``."""
    w, x, y, z = q
    s = math.sqrt(x * x + y * y + z * z)
    return 2.0 * math.atan2(s, abs(w))


def angle_between(a, b):
    """Angle in ``[0, pi]`` of the rotation taking ``a`` to ``b``."""
    # atan2 of the relative rotation, not acos of the dot product: acos loses
    # half the digits near identical rotations.
    return angle(multiply(conjugate(a), b))


def wrap_angle(a):
    """Map an angle in radians into ``(-pi, pi]``."""
    a = math.fmod(a, 2.0 * math.pi)
    if a > math.pi:
        a -= 2.0 * math.pi
    elif a <= -math.pi:
        a += 2.0 * math.pi
    return a


def twist_angle(q, axis):
    """Signed angle of the twist of ``q`` about unit ``axis``, in ``(-pi, pi]``.

    The twist is the part of ``q`` that rotates about ``axis``; its angle is
    ``2 atan2(v . axis, w)`` with ``v`` the vector part, which keeps the sign
    (never ``acos`` of ``w`` alone).
    """
    w, x, y, z = q
    return wrap_angle(2.0 * math.atan2(x * axis[0] + y * axis[1] + z * axis[2], w))


def swing_twist(q, axis):
    """Split ``q = swing * twist`` with ``twist`` about unit ``axis``.

    ``swing`` moves ``axis`` the shortest way to ``q``'s image of it. When the
    swing is a half turn, the projection of the vector part on ``axis`` and ``w``
    both vanish and the twist is taken as the identity.
    """
    w, x, y, z = q
    ax, ay, az = axis
    p = x * ax + y * ay + z * az
    n = math.sqrt(w * w + p * p)
    if n < 1e-12:
        twist = IDENTITY
    else:
        twist = (w / n, p * ax / n, p * ay / n, p * az / n)
    swing = multiply(q, conjugate(twist))
    return swing, twist


def transform_points(points, position, q):
    """``position + q v`` for each point ``v`` of ``points``: a list of world points from points
    given in the frame at ``position`` turned by the unit quaternion ``q``."""
    px, py, pz = position
    rw, rx, ry, rz = q
    out = []
    for vx, vy, vz in points:
        # q v q* as v + 2w (u x v) + 2 u x (u x v), u the vector part.
        tx = 2.0 * (ry * vz - rz * vy)
        ty = 2.0 * (rz * vx - rx * vz)
        tz = 2.0 * (rx * vy - ry * vx)
        out.append((px + vx + rw * tx + (ry * tz - rz * ty),
                    py + vy + rw * ty + (rz * tx - rx * tz),
                    pz + vz + rw * tz + (rx * ty - ry * tx)))
    return out


def to_matrix(q):
    """Row-major 3x3 rotation matrix of ``q`` as a tuple of 9 floats."""
    w, x, y, z = q
    return (
        1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),
        2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
        2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y),
    )
