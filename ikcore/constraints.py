"""Joint limits: a hinge and a ball-and-socket.

A constraint limits a joint's local rotation ``q_i`` (see :mod:`ikcore.rotation`),
which is expressed in the parent's frame; at rest that frame is the world frame,
so axes are given in world coordinates of the rest pose. ``bone`` below is the
joint's rest bone direction (unit), which a ball-and-socket twists about.

Angle ranges are taken as written: ``Hinge(min_deg=150, max_deg=210)`` allows the
arc from 150 to 210 degrees through 180, and ``[-90, -10]`` stays negative.
"""

import math
from abc import ABC, abstractmethod

from . import rotation as rot
from .checks import check_float, check_vector
from .errors import IKError

_TWO_PI = 2.0 * math.pi


class _AngleRange:
    """A closed arc ``[lo, hi]`` of angles (radians), possibly crossing +-pi."""

    __slots__ = ("lo", "hi", "full")

    def __init__(self, lo_deg, hi_deg, what):
        lo = check_float(lo_deg, f"{what} min")
        hi = check_float(hi_deg, f"{what} max")
        if lo > hi:
            raise IKError(f"{what}: min ({lo!r} deg) must not exceed max ({hi!r} deg)")
        self.full = hi - lo >= 360.0
        self.lo = math.radians(lo)
        self.hi = math.radians(hi)

    def clamp(self, a):
        """The angle of the arc nearest to ``a`` (an angle in radians, any turn)."""
        if self.full:
            return a
        # Represent a in [lo, lo + 2 pi): inside the arc iff that is <= hi.
        t = self.lo + math.fmod(a - self.lo, _TWO_PI)
        if t < self.lo:
            t += _TWO_PI
        if t <= self.hi:
            return t
        # Outside: go to the nearer end, measured around the circle.
        return self.hi if t - self.hi <= self.lo + _TWO_PI - t else self.lo

    def distance(self, a):
        """How far (radians) ``a`` lies outside the arc; 0 inside."""
        if self.full:
            return 0.0
        t = self.lo + math.fmod(a - self.lo, _TWO_PI)
        if t < self.lo:
            t += _TWO_PI
        if t <= self.hi:
            return 0.0
        return min(t - self.hi, self.lo + _TWO_PI - t)


class Constraint(ABC):
    """Base of joint limits.

    Subclasses implement :meth:`clamp`, the nearest allowed rotation, and
    :meth:`violation`, how far (radians) a rotation lies outside the limits.
    """

    @abstractmethod
    def clamp(self, q, bone):
        """The allowed rotation nearest to ``q`` for a joint with rest bone direction ``bone``."""

    @abstractmethod
    def violation(self, q, bone):
        """How far, in radians, ``q`` lies outside the limits (0 within)."""

    def contains(self, q, bone, tolerance=1e-9):
        """Whether ``q`` is within the limits (up to ``tolerance`` radians)."""
        return self.violation(q, bone) <= tolerance


class Hinge(Constraint):
    """A single rotation axis with a signed angle range.

    Parameters
    ----------
    axis : (x, y, z)
        Rotation axis in the parent's frame (world frame at rest); normalised.
    min_deg, max_deg : float
        Allowed signed angle about ``axis`` (right-hand rule), taken as written:
        ranges may be negative or cross +-180. A range of 360 degrees or more
        is a free hinge.

    Notes
    -----
    The signed angle of a rotation ``q = (w, v)`` about the axis ``a`` is
    ``2 atan2(v . a, w)``; any component of ``q`` off the axis is not allowed
    and :meth:`clamp` removes it.
    """

    def __init__(self, axis=(0.0, 0.0, 1.0), min_deg=-180.0, max_deg=180.0):
        ax, ay, az = check_vector(axis, "Hinge axis")
        n = math.sqrt(ax * ax + ay * ay + az * az)
        if n < 1e-12:
            raise IKError(f"Hinge axis must be non-zero, got {tuple(axis)!r}")
        self.axis = (ax / n, ay / n, az / n)
        self.range = _AngleRange(min_deg, max_deg, "Hinge")
        self.min_deg = float(min_deg)
        self.max_deg = float(max_deg)

    def __repr__(self):
        return f"Hinge(axis={self.axis!r}, min_deg={self.min_deg!r}, max_deg={self.max_deg!r})"

    def angle(self, q):
        """Signed angle of ``q`` about the axis, in ``(-pi, pi]``."""
        return rot.twist_angle(q, self.axis)

    def clamp(self, q, bone=None):
        """Nearest allowed rotation: about the axis, angle clamped into range."""
        a = self.range.clamp(rot.twist_angle(q, self.axis))
        return rot.from_axis_angle(self.axis, a)

    def violation(self, q, bone=None):
        """Off-axis rotation angle plus the angle outside the range (radians)."""
        swing, twist = rot.swing_twist(q, self.axis)
        return rot.angle(swing) + self.range.distance(rot.twist_angle(twist, self.axis))


class BallSocket(Constraint):
    """A ball joint: swing within a cone, twist about the bone within a range.

    Parameters
    ----------
    cone_deg : float
        Largest swing angle of the bone away from its rest direction, in
        ``[0, 180]``.
    twist_min_deg, twist_max_deg : float
        Allowed signed twist about the rest bone direction.

    Notes
    -----
    ``q`` is split as ``q = swing * twist`` with ``twist`` about the rest bone
    direction ``d``: the twist is ``(w, (v . d) d)`` normalised and the swing the
    remainder (see :func:`ikcore.rotation.swing_twist`).

    At a half-turn swing ``w`` and ``v . d`` both vanish and the twist is
    undefined (taken as zero). So with a limited twist :meth:`clamp` keeps the
    swing within :attr:`swing_limit`, ``SWING_MARGIN`` short of a half turn,
    where the twist it sets is still read back to ~1e-10 rad.
    """

    #: Radians a limited-twist swing stays short of a half turn (see Notes).
    SWING_MARGIN = 1e-5

    def __init__(self, cone_deg=180.0, twist_min_deg=-180.0, twist_max_deg=180.0):
        cone = check_float(cone_deg, "BallSocket cone_deg")
        if not 0.0 <= cone <= 180.0:
            raise IKError(f"BallSocket cone_deg must be in [0, 180], got {cone!r}")
        self.cone_deg = cone
        self.cone = math.radians(cone)
        self.twist = _AngleRange(twist_min_deg, twist_max_deg, "BallSocket twist")
        self.twist_min_deg = float(twist_min_deg)
        self.twist_max_deg = float(twist_max_deg)
        # The largest swing clamp() gives.
        self.swing_limit = self.cone if self.twist.full else min(self.cone, math.pi - self.SWING_MARGIN)
        # Cosine of the cone, a little inside it: a rotation whose bone stays within needs no clamp.
        self._inside = math.cos(self.swing_limit) + 1e-15

    def __repr__(self):
        return (f"BallSocket(cone_deg={self.cone_deg!r}, twist_min_deg={self.twist_min_deg!r}, "
                f"twist_max_deg={self.twist_max_deg!r})")

    def clamp(self, q, bone):
        """Nearest allowed rotation: swing scaled into the cone, twist clamped."""
        if self.twist.full:
            # The common case, cheaply: the bone turned by q still lies within the cone (the swing
            # angle is the angle between the bone and its turned self), so q is allowed as it is.
            w, x, y, z = q
            bx, by, bz = bone
            tx = 2.0 * (y * bz - z * by)
            ty = 2.0 * (z * bx - x * bz)
            tz = 2.0 * (x * by - y * bx)
            if (bx * (bx + w * tx + (y * tz - z * ty)) + by * (by + w * ty + (z * tx - x * tz))
                    + bz * (bz + w * tz + (x * ty - y * tx))) >= self._inside:
                return q
        swing, twist = rot.swing_twist(q, bone)
        a = rot.angle(swing)
        cone = self.swing_limit
        if a > cone:
            sw, sx, sy, sz = swing
            if sw < 0.0:
                sw, sx, sy, sz = -sw, -sx, -sy, -sz
            # Only the swing about axes across the bone: a half turn's split can leave a trace about it.
            t = sx * bone[0] + sy * bone[1] + sz * bone[2]
            sx, sy, sz = sx - t * bone[0], sy - t * bone[1], sz - t * bone[2]
            s = math.sqrt(sx * sx + sy * sy + sz * sz)
            if s > 0.0:
                k = math.sin(0.5 * cone) / s
                swing = (math.cos(0.5 * cone), sx * k, sy * k, sz * k)
            else:
                swing = rot.IDENTITY
        if not self.twist.full:
            t = self.twist.clamp(rot.twist_angle(twist, bone))
            twist = rot.from_axis_angle(bone, t)
        return rot.multiply(swing, twist)

    def violation(self, q, bone):
        """Swing beyond the cone plus twist outside its range (radians)."""
        swing, twist = rot.swing_twist(q, bone)
        over = max(0.0, rot.angle(swing) - self.cone)
        return over + self.twist.distance(rot.twist_angle(twist, bone))
