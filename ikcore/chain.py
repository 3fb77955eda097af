"""A serial chain of bones: rest points, joint limits, forward kinematics."""

import math
from math import atan2, cos, fmod, pi, sin, sqrt

from .checks import check_points, check_quaternion, check_rotations
from .constraints import BallSocket, Constraint, Hinge
from .errors import IKError


_TWO_PI = 2.0 * math.pi
_MINUS_TWO_PI = -_TWO_PI
_MINUS_PI = -math.pi


class Chain:
    """A serial chain: ``N + 1`` rest points (root first) and ``N`` joints.

    Parameters
    ----------
    points : sequence of (x, y, z)
        The rest pose, root first, end effector last. The root never moves.
    joints : None or sequence of N constraints
        One per joint, ``None`` for a free ball joint (see
        :mod:`ikcore.constraints`). Joint ``i`` rotates bone ``i`` (from
        ``points[i]`` to ``points[i + 1]``) and everything after it.

    Attributes
    ----------
    points : tuple of (x, y, z)
        The rest pose.
    offsets : tuple of (x, y, z)
        Rest bone vectors ``points[i + 1] - points[i]``.
    directions : tuple of (x, y, z)
        Unit rest bone directions.
    lengths : tuple of float
        Bone lengths.
    reach : float
        Sum of the bone lengths.
    joints : tuple
        The constraints (``None`` where free).

    Raises
    ------
    IKError
        Non-finite or wrongly shaped points, a bone shorter than ``1e-9 x
        reach``, or a wrong number or type of constraints.

    See :mod:`ikcore.rotation` for the rotation convention.
    """

    __slots__ = ("points", "offsets", "directions", "lengths", "reach", "joints", "size", "limited",
                 "min_reach", "_cones", "_hinges")

    def __init__(self, points, joints=None):
        pts = check_points(points, "Chain points")
        n = len(pts) - 1
        offsets = []
        lengths = []
        for i in range(n):
            a, b = pts[i], pts[i + 1]
            d = (b[0] - a[0], b[1] - a[1], b[2] - a[2])
            offsets.append(d)
            lengths.append(math.sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]))
        reach = sum(lengths)
        if not math.isfinite(reach):
            raise IKError("Chain points are too far apart: the chain's reach overflows")
        for i, length in enumerate(lengths):
            if not length >= 1e-9 * reach or length == 0.0:
                raise IKError(f"Chain bone {i} (points[{i}] to points[{i + 1}]) has length {length!r}, "
                              f"shorter than 1e-9 x reach ({reach!r})")
        if joints is None:
            joints = [None] * n
        else:
            try:
                joints = list(joints)
            except TypeError:
                raise IKError(f"Chain joints must be None or a list of {n} constraints, got {joints!r}") from None
            if len(joints) != n:
                raise IKError(f"Chain joints must hold {n} constraints (one per joint), got {len(joints)}")
            for i, c in enumerate(joints):
                if c is not None and not isinstance(c, Constraint):
                    raise IKError(f"Chain joints[{i}] must be None, a Hinge or a BallSocket, got {c!r}")
        self.points = tuple(pts)
        self.offsets = tuple(offsets)
        self.lengths = tuple(lengths)
        self.directions = tuple((d[0] / l, d[1] / l, d[2] / l) for d, l in zip(offsets, lengths))
        self.reach = reach
        self.joints = tuple(joints)
        self.size = n
        self.limited = any(c is not None for c in joints)
        # The closest a free chain's tip can come to its root: a long bone the others cannot fold back over.
        self.min_reach = max(0.0, 2.0 * max(lengths) - reach)
        # Per joint, the hot paths' view of its limits: (constraint, cosine bound of BallSocket.clamp's
        # no-op test for a twist-free cone, else None), tested inline before any call to _clamp_joint.
        self._cones = tuple((c, c._inside if isinstance(c, BallSocket) and c.twist.full else None)
                            for c in self.joints)
        self._hinges = tuple(_hinge_row(c) for c in self.joints)

    def __len__(self):
        return self.size

    def __repr__(self):
        return f"Chain({list(self.points)!r}, joints={list(self.joints)!r})"

    @property
    def root(self):
        """The fixed root point."""
        return self.points[0]

    def forward(self, rotations):
        """Forward kinematics: the ``N + 1`` points for local ``rotations``.

        ``R_i = q_0 ... q_i`` and ``p_{i+1} = p_i + R_i (rest_{i+1} - rest_i)``.
        """
        qs = check_rotations(rotations, self.size)
        return self._forward(qs)

    def _forward(self, qs):
        # Unchecked forward kinematics over unit quaternions (internal, hot).
        px, py, pz = self.points[0]
        out = [(px, py, pz)]
        rw, rx, ry, rz = 1.0, 0.0, 0.0, 0.0
        for (qw, qx, qy, qz), (vx, vy, vz) in zip(qs, self.offsets):
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
            out.append((px, py, pz))
        return out

    def _settle(self, qs, worlds=None):
        """Normalise ``qs`` and run forward kinematics in one pass (internal, hot).

        Returns the unit rotations, the points and the last world rotation;
        with a list ``worlds``, each world rotation ``R_i`` is appended to it.
        """
        px, py, pz = self.points[0]
        out = [(px, py, pz)]
        units = []
        rw, rx, ry, rz = 1.0, 0.0, 0.0, 0.0
        for (qw, qx, qy, qz), (vx, vy, vz) in zip(qs, self.offsets):
            n = sqrt(qw * qw + qx * qx + qy * qy + qz * qz)
            qw /= n
            qx /= n
            qy /= n
            qz /= n
            units.append((qw, qx, qy, qz))
            rw, rx, ry, rz = (rw * qw - rx * qx - ry * qy - rz * qz,
                              rw * qx + rx * qw + ry * qz - rz * qy,
                              rw * qy - rx * qz + ry * qw + rz * qx,
                              rw * qz + rx * qy - ry * qx + rz * qw)
            if worlds is not None:
                worlds.append((rw, rx, ry, rz))
            tx = 2.0 * (ry * vz - rz * vy)
            ty = 2.0 * (rz * vx - rx * vz)
            tz = 2.0 * (rx * vy - ry * vx)
            px += vx + rw * tx + (ry * tz - rz * ty)
            py += vy + rw * ty + (rz * tx - rx * tz)
            pz += vz + rw * tz + (rx * ty - ry * tx)
            out.append((px, py, pz))
        return units, out, (rw, rx, ry, rz)

    def _judge(self, qs, worlds=None):
        """``_settle(clamp([normalize(q) for q in qs]))`` in one pass (internal, hot).

        Bitwise the same as that composition: the same arithmetic in the same
        order, inlined for free joints and for twist-free cones the rotation
        already keeps within (the common cases), the constraint's own
        :meth:`clamp` otherwise. With a list ``worlds``, each world rotation
        ``R_i`` is appended to it (a warm start's pose, see
        :meth:`ikcore.solvers._pose.Pose.of`).
        """
        px, py, pz = self.points[0]
        out = [(px, py, pz)]
        units = []
        rw, rx, ry, rz = 1.0, 0.0, 0.0, 0.0
        for (qw, qx, qy, qz), (vx, vy, vz), (c, inside), hinge, d in zip(qs, self.offsets, self._cones,
                                                                        self._hinges, self.directions):
            # rotation.normalize
            n = sqrt(qw * qw + qx * qx + qy * qy + qz * qz)
            if n < 1e-300:
                qw, qx, qy, qz = 1.0, 0.0, 0.0, 0.0
            else:
                qw, qx, qy, qz = qw / n, qx / n, qy / n, qz / n
            if c is not None:
                if inside is not None:
                    # BallSocket.clamp's test: the bone turned by q stays within the cone.
                    bx, by, bz = d
                    tx = 2.0 * (qy * bz - qz * by)
                    ty = 2.0 * (qz * bx - qx * bz)
                    tz = 2.0 * (qx * by - qy * bx)
                    if not (bx * (bx + qw * tx + (qy * tz - qz * ty)) + by * (by + qw * ty + (qz * tx - qx * tz))
                            + bz * (bz + qw * tz + (qx * ty - qy * tx))) >= inside:
                        qw, qx, qy, qz = c.clamp((qw, qx, qy, qz), d)
                elif hinge is not None:
                    qw, qx, qy, qz = _clamp_hinge(hinge, qw, qx, qy, qz)
                else:
                    qw, qx, qy, qz = c.clamp((qw, qx, qy, qz), d)
            # _settle
            n = sqrt(qw * qw + qx * qx + qy * qy + qz * qz)
            qw /= n
            qx /= n
            qy /= n
            qz /= n
            units.append((qw, qx, qy, qz))
            rw, rx, ry, rz = (rw * qw - rx * qx - ry * qy - rz * qz,
                              rw * qx + rx * qw + ry * qz - rz * qy,
                              rw * qy - rx * qz + ry * qw + rz * qx,
                              rw * qz + rx * qy - ry * qx + rz * qw)
            if worlds is not None:
                worlds.append((rw, rx, ry, rz))
            tx = 2.0 * (ry * vz - rz * vy)
            ty = 2.0 * (rz * vx - rx * vz)
            tz = 2.0 * (rx * vy - ry * vx)
            px += vx + rw * tx + (ry * tz - rz * ty)
            py += vy + rw * ty + (rz * tx - rx * tz)
            pz += vz + rw * tz + (rx * ty - ry * tx)
            out.append((px, py, pz))
        return units, out, (rw, rx, ry, rz)

    def _start(self, qs):
        """``clamp(check_rotations(qs, size))`` (internal, hot): bitwise the same, with
        plain finite float quaternions checked and normalised inline."""
        if type(qs) is not list and type(qs) is not tuple or len(qs) != self.size:
            return self.clamp(check_rotations(qs, self.size, "start"))
        out = []
        append = out.append
        for i, (q, (c, inside), hinge, d) in enumerate(zip(qs, self._cones, self._hinges, self.directions)):
            if type(q) is tuple and len(q) == 4:
                qw, qx, qy, qz = q
                if type(qw) is float and type(qx) is float and type(qy) is float and type(qz) is float:
                    # checks.check_quaternion: a finite norm means finite components.
                    n = sqrt(qw * qw + qx * qx + qy * qy + qz * qz)
                    if n > 1e-12 and n - n == 0.0:
                        q = (qw / n, qx / n, qy / n, qz / n)
                    else:
                        q = check_quaternion(q, f"start[{i}]")
                else:
                    q = check_quaternion(q, f"start[{i}]")
            else:
                q = check_quaternion(q, f"start[{i}]")
            if c is not None:
                if inside is not None:
                    qw, qx, qy, qz = q
                    bx, by, bz = d
                    tx = 2.0 * (qy * bz - qz * by)
                    ty = 2.0 * (qz * bx - qx * bz)
                    tz = 2.0 * (qx * by - qy * bx)
                    if not (bx * (bx + qw * tx + (qy * tz - qz * ty)) + by * (by + qw * ty + (qz * tx - qx * tz))
                            + bz * (bz + qw * tz + (qx * ty - qy * tx))) >= inside:
                        q = c.clamp(q, d)
                elif hinge is not None:
                    q = _clamp_hinge(hinge, *q)
                else:
                    q = c.clamp(q, d)
            append(q)
        return out

    def world_rotations(self, rotations):
        """World rotations ``R_i = q_0 ... q_i`` of each joint (unchecked)."""
        out = []
        rw, rx, ry, rz = 1.0, 0.0, 0.0, 0.0
        for qw, qx, qy, qz in rotations:
            rw, rx, ry, rz = (rw * qw - rx * qx - ry * qy - rz * qz,
                              rw * qx + rx * qw + ry * qz - rz * qy,
                              rw * qy - rx * qz + ry * qw + rz * qx,
                              rw * qz + rx * qy - ry * qx + rz * qw)
            out.append((rw, rx, ry, rz))
        return out

    def clamp(self, rotations):
        """``rotations`` with each joint's limits applied (unchecked input)."""
        return [q if c is None else c.clamp(q, d) if h is None else _clamp_hinge(h, *q)
                for q, c, h, d in zip(rotations, self.joints, self._hinges, self.directions)]

    def violations(self, rotations):
        """Per joint, how far (radians) each rotation lies outside its limits."""
        return [0.0 if c is None else c.violation(q, d)
                for q, c, d in zip(rotations, self.joints, self.directions)]


def _hinge_row(c):
    """A :class:`Hinge`'s limits as plain floats for :func:`_clamp_hinge` (None for other joints)."""
    if not isinstance(c, Hinge):
        return None
    ax, ay, az = c.axis
    r = c.range
    return (ax, ay, az, math.sqrt(ax * ax + ay * ay + az * az), r.lo, r.hi, r.full)


def _clamp_hinge(row, qw, qx, qy, qz):
    """:meth:`Hinge.clamp` on plain floats, bitwise the same: the twist angle about the axis
    (:func:`~ikcore.rotation.twist_angle`), clamped into the range, as a rotation about the axis
    (:func:`~ikcore.rotation.from_axis_angle`)."""
    return _hinge_rotation(row, 2.0 * atan2(qx * row[0] + qy * row[1] + qz * row[2], qw))


def _hinge_rotation(row, a):
    """The rotation about a hinge's axis by angle ``a`` (radians, any finite value) clamped into
    its range (``row`` from :func:`_hinge_row`); :func:`_clamp_hinge` once the angle is known."""
    ax, ay, az, n, lo, hi, full = row
    # fmod by a full turn returns anything nearer zero as it is: called only past a turn (the
    # angles a solver hands in mostly lie within a half turn), the same floats.
    if not _MINUS_PI < a <= pi:
        a = fmod(a, _TWO_PI)
        if a > pi:
            a -= _TWO_PI
        elif a <= _MINUS_PI:
            a += _TWO_PI
    if not full:
        t = a - lo
        if not _MINUS_TWO_PI < t < _TWO_PI:
            t = fmod(t, _TWO_PI)
        t += lo
        if t < lo:
            t += _TWO_PI
        if t <= hi:
            a = t
        else:
            a = hi if t - hi <= lo + _TWO_PI - t else lo
    s = sin(0.5 * a) / n
    return (cos(0.5 * a), ax * s, ay * s, az * s)
