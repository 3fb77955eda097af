"""Rigid transforms as roboticists write them: 3x3 rotation matrices and 4x4 homogeneous matrices.

A transform is kept here as a pair ``(R, t)``: ``R`` a rotation matrix as three
rows of three floats, ``t`` a translation; it maps a point ``p`` of its own
frame to ``R p + t`` in the frame it is given in. The 4x4 matrix of ``(R, t)``
is ``[[R, t], [0, 0, 0, 1]]``, and composing two transforms is the matrix
product ``(R1, t1) (R2, t2) = (R1 R2, R1 t2 + t1)``.

Roll, pitch and yaw are URDF's: ``R = Rz(yaw) Ry(pitch) Rx(roll)``, fixed axes
x, then y, then z. Quaternions are ikcore's ``(w, x, y, z)`` (:mod:`ikcore.rotation`).

For example, a quarter turn about z, composed with itself, and back as a quaternion:

>>> import math
>>> from ikcore import transforms
>>> quarter = (transforms.from_rpy(0.0, 0.0, math.pi / 2), (1.0, 0.0, 0.0))
>>> R, t = transforms.compose(quarter, quarter)
>>> [round(c, 6) + 0.0 for c in t]
[1.0, 1.0, 0.0]
>>> [round(c, 6) + 0.0 for c in transforms.to_quaternion(R)]
[0.0, 0.0, 0.0, 1.0]
"""

import math

from .checks import check_quaternion, check_vector
from .errors import IKError
from .rotation import to_matrix

IDENTITY = ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))
#: How far from orthonormal (largest entry of ``R^T R - I``) a given rotation matrix may be.
ORTHONORMAL_TOLERANCE = 1e-6


def from_rpy(roll, pitch, yaw):
    """The rotation matrix ``Rz(yaw) Ry(pitch) Rx(roll)`` (URDF's ``rpy``)."""
    cr, sr = math.cos(roll), math.sin(roll)
    cp, sp = math.cos(pitch), math.sin(pitch)
    cy, sy = math.cos(yaw), math.sin(yaw)
    return ((cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr),
            (sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr),
            (-sp, cp * sr, cp * cr))


def times(A, B):
    """The matrix product ``A B`` of two 3x3 matrices."""
    return tuple(tuple(A[i][0] * B[0][j] + A[i][1] * B[1][j] + A[i][2] * B[2][j] for j in range(3))
                 for i in range(3))


def apply(R, v):
    """``R v``."""
    return tuple(R[i][0] * v[0] + R[i][1] * v[1] + R[i][2] * v[2] for i in range(3))


def compose(a, b):
    """``a b`` for two transforms ``(R, t)``: first ``b``, then ``a``."""
    Ra, ta = a
    Rb, tb = b
    return times(Ra, Rb), tuple(x + y for x, y in zip(apply(Ra, tb), ta))


def to_quaternion(R):
    """The unit quaternion ``(w, x, y, z)`` of a rotation matrix (rows of 3).

    Shepperd's method: of ``4w^2 = 1 + trace`` and ``4x^2 = 1 + 2 R_xx - trace``
    (and alike for y, z), the largest is taken to find that component, so no
    division is by a small number; the others follow from the off-diagonal
    sums and differences.
    """
    (xx, xy, xz), (yx, yy, yz), (zx, zy, zz) = R
    trace = xx + yy + zz
    if trace >= max(xx, yy, zz):
        s = 2.0 * math.sqrt(max(0.0, 1.0 + trace))
        q = (0.25 * s, (zy - yz) / s, (xz - zx) / s, (yx - xy) / s)
    elif xx >= yy and xx >= zz:
        s = 2.0 * math.sqrt(max(0.0, 1.0 + xx - yy - zz))
        q = ((zy - yz) / s, 0.25 * s, (xy + yx) / s, (xz + zx) / s)
    elif yy >= zz:
        s = 2.0 * math.sqrt(max(0.0, 1.0 - xx + yy - zz))
        q = ((xz - zx) / s, (xy + yx) / s, 0.25 * s, (yz + zy) / s)
    else:
        s = 2.0 * math.sqrt(max(0.0, 1.0 - xx - yy + zz))
        q = ((yx - xy) / s, (xz + zx) / s, (yz + zy) / s, 0.25 * s)
    n = math.hypot(*q)
    return tuple(c / n for c in q)


def from_columns(x, y, z):
    """The unit quaternion of the rotation matrix whose columns are the frame's axes ``x, y, z``
    (:func:`to_quaternion` of its rows)."""
    return to_quaternion(tuple(zip(x, y, z)))


def from_quaternion(q):
    """The rotation matrix (rows of 3) of a unit quaternion."""
    m = to_matrix(q)
    return (m[0:3], m[3:6], m[6:9])


def to_matrix4(transform):
    """The 4x4 homogeneous matrix (a tuple of four rows) of a transform ``(R, t)``."""
    R, t = transform
    return (tuple(R[0]) + (t[0],), tuple(R[1]) + (t[1],), tuple(R[2]) + (t[2],), (0.0, 0.0, 0.0, 1.0))


def check_rotation_matrix(value, name):
    """``value`` (three rows of three, nested lists or a numpy array) as a rotation matrix; an
    :class:`~ikcore.IKError` unless it is finite, orthonormal to :data:`ORTHONORMAL_TOLERANCE` and
    turns right-handed (determinant +1, not a reflection)."""
    rows = _rows(value, 3, name)
    R = tuple(check_vector(row, f"{name} row {i}") for i, row in enumerate(rows))
    for i in range(3):
        for j in range(3):
            dot = R[0][i] * R[0][j] + R[1][i] * R[1][j] + R[2][i] * R[2][j]
            if abs(dot - (i == j)) > ORTHONORMAL_TOLERANCE:
                raise IKError(f"{name} is not a rotation matrix: its columns are not orthonormal "
                              f"(column {i} . column {j} = {dot!r})")
    det = (R[0][0] * (R[1][1] * R[2][2] - R[1][2] * R[2][1]) - R[0][1] * (R[1][0] * R[2][2] - R[1][2] * R[2][0])
           + R[0][2] * (R[1][0] * R[2][1] - R[1][1] * R[2][0]))
    if det < 0.0:
        raise IKError(f"{name} is a reflection (determinant {det!r}), not a rotation")
    return R


def check_transform(value, name):
    """A transform ``(R, t)`` from a 4x4 homogeneous matrix (four rows of four; the last row
    ``0 0 0 1``) or a pair ``(position, 3x3 rotation matrix)``; :class:`~ikcore.IKError` otherwise."""
    rows = _rows(value, (2, 4), name)
    if len(rows) == 2:
        t = check_vector(rows[0], f"{name} position")
        return check_rotation_matrix(rows[1], f"{name} rotation"), t
    rows = [check_vector(row, f"{name} row {i}", 4) for i, row in enumerate(rows)]
    if rows[3] != (0.0, 0.0, 0.0, 1.0):
        raise IKError(f"{name}'s last row must be (0, 0, 0, 1) in a homogeneous matrix, got {rows[3]!r}")
    R = check_rotation_matrix([row[:3] for row in rows[:3]], f"{name}'s rotation block")
    return R, (rows[0][3], rows[1][3], rows[2][3])


def check_frame(value, name):
    """A transform ``(R, t)`` from a 4x4 homogeneous matrix or a pair ``(position, quaternion
    (w, x, y, z))``, as a tool or base frame is given; :class:`~ikcore.IKError` otherwise."""
    rows = _rows(value, (2, 4), name)
    if len(rows) == 2:
        t = check_vector(rows[0], f"{name} position")
        return from_quaternion(check_quaternion(rows[1], f"{name} quaternion")), t
    return check_transform(rows, name)


def _rows(value, count, name):
    """``value``'s rows as a list, ``count`` (an int or a tuple of the lengths allowed) of them."""
    counts = (count,) if isinstance(count, int) else count
    try:
        rows = list(value)
    except TypeError:
        rows = None
    if rows is None or len(rows) not in counts:
        text = repr(value)
        text = text if len(text) <= 80 else text[:77] + "..."
        raise IKError(f"{name} must be {_shapes(counts)}, got {text}")
    return rows


def _shapes(counts):
    names = {2: "a pair (position, rotation)", 3: "a 3x3 rotation matrix", 4: "a 4x4 homogeneous matrix"}
    return " or ".join(names[c] for c in counts)
