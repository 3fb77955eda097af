"""Joint limits: a hinge and a ball-and-socket.

A constraint limits a joint's local rotation ``q_i`` (see :mod:`ikcore.rotation`),
which is expressed in the parent's frame; at rest that frame is the world frame,
so axes are given in world coordinates of the rest pose. ``bone`` below is the
joint's rest bone direction (unit), which a ball-and-socket twists about.

Angle ranges are taken as written: ``Hinge(min_deg=150, max_deg=210)`` allows the
arc from 150 to 210 degrees through 180, and ``[-90, -10]`` stays negative.

Every :meth:`Constraint.clamp` is called by the solvers inside their loops, so
the two built-in ones work on plain floats. A user subclass may do anything;
:mod:`ikcore.limits` checks what it returns.
"""

import math
from abc import ABC, abstractmethod
from math import atan2, cos, fmod, pi, sin, sqrt

from . import rotation as rot
from .checks import check_float, check_vector
from .errors import IKError
from .hints import Vector3

_TWO_PI = 2.0 * pi


class AngleRange:
    """A closed arc ``[lo, hi]`` of angles (radians), possibly crossing +-pi.

    ``full`` when the arc is a whole turn or more: then every angle is in it.
    """

    __slots__ = ("lo", "hi", "full")

    def __init__(self, lo_deg, hi_deg, what):
        lo = check_float(lo_deg, f"{what} min")
        hi = check_float(hi_deg, f"{what} max")
        if lo > hi:
            raise IKError(f"{what}: min ({lo!r} deg) must not exceed max ({hi!r} deg)")
        self.full = hi - lo >= 360.0
        self.lo = math.radians(lo)
        self.hi = math.radians(hi)

    def unwrap(self, a):
        """``a`` (any turn) as the angle ``t`` in ``[lo, lo + 2 pi)`` of the same direction."""
        t = self.lo + fmod(a - self.lo, _TWO_PI)
        return t + _TWO_PI if t < self.lo else t

    def nearest_turn(self, a):
        """``a`` (any turn) as the number of the same direction that lies in the arc, or outside it
        just past the end it is nearer to: ``unwrap(a)``, or that less a whole turn."""
        if self.lo <= a <= self.hi:
            return a
        t = self.unwrap(a)
        if t > self.hi and t - self.hi > self.lo + _TWO_PI - t:
            t -= _TWO_PI
        return t

    def clamp(self, a):
        """The angle of the arc nearest to ``a``, measured around the circle."""
        if self.full or self.lo <= a <= self.hi:
            return a
        t = self.unwrap(a)
        if t <= self.hi:
            return t
        return self.hi if t - self.hi <= self.lo + _TWO_PI - t else self.lo

    def distance(self, a):
        """How far (radians) ``a`` lies outside the arc; 0 inside."""
        if self.full:
            return 0.0
        t = self.unwrap(a)
        return 0.0 if t <= self.hi else min(t - self.hi, self.lo + _TWO_PI - t)

    def margin(self, a):
        """How far inside the arc ``a`` lies, as a fraction of its width: 0 at an end, 0.5 in the
        middle, negative outside; ``None`` for a whole turn."""
        if self.full:
            return None
        width = self.hi - self.lo
        if width <= 0.0:
            return 0.0 if self.distance(a) == 0.0 else -self.distance(a) / pi
        t = self.unwrap(a)
        if t <= self.hi:
            return min(t - self.lo, self.hi - t) / width
        return -self.distance(a) / width


class Constraint(ABC):
    """Base of joint limits.

    Subclasses implement :meth:`clamp`, the nearest allowed rotation, and
    :meth:`violation`, how far (radians) a rotation lies outside the limits.

    Examples
    --------
    >>> import ikcore
    >>> joints = [ikcore.Hinge((1, 0, 0), 0, 140), ikcore.BallSocket(cone_deg=45)]
    >>> [isinstance(joint, ikcore.Constraint) for joint in joints]
    [True, True]
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

    Examples
    --------
    >>> import math, ikcore
    >>> elbow = ikcore.Hinge((0, 0, 1), 0, 90)
    >>> bent = ikcore.rotation.from_axis_angle((0, 0, 1), math.radians(120))
    >>> round(math.degrees(elbow.violation(bent)), 6)  # 30 degrees past the range
    30.0
    >>> round(math.degrees(elbow.angle(elbow.clamp(bent))), 6)
    90.0
    """

    def __init__(self, axis: Vector3 = (0.0, 0.0, 1.0), min_deg: float = -180.0, max_deg: float = 180.0) -> None:
        ax, ay, az = check_vector(axis, "Hinge axis")
        n = sqrt(ax * ax + ay * ay + az * az)
        if not n > 1e-12:
            raise IKError(f"Hinge axis must be non-zero, got {tuple(axis)!r}")
        self.axis = (ax / n, ay / n, az / n)
        self.range = AngleRange(min_deg, max_deg, "Hinge")
        self.min_deg = float(min_deg)
        self.max_deg = float(max_deg)

    def __repr__(self):
        return f"Hinge(axis={self.axis!r}, min_deg={self.min_deg!r}, max_deg={self.max_deg!r})"

    def angle(self, q):
        """Signed angle of ``q`` about the axis, in ``(-pi, pi]``."""
        return rot.twist_angle(q, self.axis)

    def rotation(self, angle):
        """The rotation about the axis by ``angle`` (radians, any turn) clamped into the range."""
        a = self.range.clamp(angle)
        ax, ay, az = self.axis
        s = sin(0.5 * a)
        return (cos(0.5 * a), ax * s, ay * s, az * s)

    def clamp(self, q, bone=None):
        """Nearest allowed rotation: about the axis, angle clamped into range."""
        ax, ay, az = self.axis
        return self.rotation(2.0 * atan2(q[1] * ax + q[2] * ay + q[3] * az, q[0]))

    def violation(self, q, bone=None):
        """Off-axis rotation angle plus the angle outside the range (radians)."""
        swing, twist = rot.swing_twist(q, self.axis)
        return rot.angle(swing) + self.range.distance(rot.twist_angle(twist, self.axis))

    def margin(self, q, bone=None):
        """How far inside its range the angle of ``q`` lies, as a fraction of the range (0 at an
        end, negative outside; ``None`` for a free hinge)."""
        return self.range.margin(self.angle(q))


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

    Examples
    --------
    >>> import math, ikcore
    >>> hip = ikcore.BallSocket(cone_deg=30)
    >>> swung = ikcore.rotation.from_axis_angle((1, 0, 0), math.radians(50))
    >>> bone = (0.0, 1.0, 0.0)
    >>> round(math.degrees(hip.violation(swung, bone)), 6)  # 20 degrees past the cone
    20.0
    >>> round(math.degrees(ikcore.rotation.angle(hip.clamp(swung, bone))), 6)
    30.0
    """

    #: Radians a limited-twist swing stays short of a half turn (see Notes).
    SWING_MARGIN = 1e-5

    def __init__(self, cone_deg: float = 180.0, twist_min_deg: float = -180.0, twist_max_deg: float = 180.0) -> None:
        cone = check_float(cone_deg, "BallSocket cone_deg")
        if not 0.0 <= cone <= 180.0:
            raise IKError(f"BallSocket cone_deg must be in [0, 180], got {cone!r}")
        self.cone_deg = cone
        self.cone = math.radians(cone)
        self.twist = AngleRange(twist_min_deg, twist_max_deg, "BallSocket twist")
        self.twist_min_deg = float(twist_min_deg)
        self.twist_max_deg = float(twist_max_deg)
        #: The largest swing :meth:`clamp` gives.
        self.swing_limit = self.cone if self.twist.full else min(self.cone, pi - self.SWING_MARGIN)
        #: Whether the joint limits nothing (a full cone and a full twist).
        self.free = self.cone >= pi and self.twist.full
        # A swing whose cosine is at least this needs no clamp (a hair inside the cone: rounding).
        self._inside = cos(self.swing_limit) + 1e-15

    def __repr__(self):
        return (f"BallSocket(cone_deg={self.cone_deg!r}, twist_min_deg={self.twist_min_deg!r}, "
                f"twist_max_deg={self.twist_max_deg!r})")

    def clamp(self, q, bone):
        """Nearest allowed rotation: swing scaled into the cone, twist clamped.

        ``q = swing * twist``: the twist ``(w, p d) / sqrt(w^2 + p^2)`` with
        ``p = v . d``, the swing ``q twist*``. A swing past the cone keeps its
        axis (across the bone) and takes the cone's angle.
        """
        w, x, y, z = q
        dx, dy, dz = bone
        if self.twist.full:
            # Without a twist limit only the swing counts, the angle between the bone and its image
            # under q: a bone that stays within the cone needs nothing.
            tx, ty, tz = 2.0 * (y * dz - z * dy), 2.0 * (z * dx - x * dz), 2.0 * (x * dy - y * dx)
            if (dx * (dx + w * tx + (y * tz - z * ty)) + dy * (dy + w * ty + (z * tx - x * tz))
                    + dz * (dz + w * tz + (x * ty - y * tx))) >= self._inside:
                return q
        p = x * dx + y * dy + z * dz
        n = sqrt(w * w + p * p)
        # The twist (tw, tp d); at a half-turn swing there is no twist to speak of.
        tw, tp = (w / n, p / n) if n > 1e-12 else (1.0, 0.0)
        # swing = q twist* (the product written out, twist* = (tw, -tp d)).
        sw = w * tw + p * tp
        sx = tw * x - w * tp * dx - tp * (y * dz - z * dy)
        sy = tw * y - w * tp * dy - tp * (z * dx - x * dz)
        sz = tw * z - w * tp * dz - tp * (x * dy - y * dx)
        changed = False
        if sw < 0.0:
            sw, sx, sy, sz = -sw, -sx, -sy, -sz
        # The swing angle past the cone (atan2, not the cosine: that cannot tell 1e-8 radians from 0).
        if 2.0 * atan2(sqrt(sx * sx + sy * sy + sz * sz), sw) > self.swing_limit:
            # Only the swing about axes across the bone: a half turn's split can leave a trace along it.
            t = sx * dx + sy * dy + sz * dz
            sx, sy, sz = sx - t * dx, sy - t * dy, sz - t * dz
            s = sqrt(sx * sx + sy * sy + sz * sz)
            half = 0.5 * self.swing_limit
            if s > 0.0:
                k = sin(half) / s
                sw, sx, sy, sz = cos(half), sx * k, sy * k, sz * k
            else:
                sw, sx, sy, sz = 1.0, 0.0, 0.0, 0.0
            changed = True
        if not self.twist.full:
            a = 2.0 * atan2(tp, tw)
            if self.twist.distance(a) > 0.0:
                a = self.twist.clamp(a)
                tw, tp = cos(0.5 * a), sin(0.5 * a)
                changed = True
        if not changed:
            return q
        # swing * twist, the twist (tw, tp d).
        return (sw * tw - tp * (sx * dx + sy * dy + sz * dz),
                sw * tp * dx + tw * sx + tp * (sy * dz - sz * dy),
                sw * tp * dy + tw * sy + tp * (sz * dx - sx * dz),
                sw * tp * dz + tw * sz + tp * (sx * dy - sy * dx))

    def violation(self, q, bone):
        """Swing beyond the cone plus twist outside its range (radians)."""
        swing, twist = rot.swing_twist(q, bone)
        over = max(0.0, rot.angle(swing) - self.cone)
        return over + self.twist.distance(rot.twist_angle(twist, bone))

    def margin(self, q, bone):
        """How far inside its limits ``q`` lies, as a fraction of each range (the cone's swing
        measured from 0 to the cone, the twist across its range); the smaller of the two, 0 at a
        limit, negative outside; ``None`` when the joint limits nothing."""
        if self.free:
            return None
        swing, twist = rot.swing_twist(q, bone)
        margins = []
        if self.cone < pi:
            margins.append((self.cone - rot.angle(swing)) / self.cone if self.cone > 0.0 else 0.0)
        twist_margin = self.twist.margin(rot.twist_angle(twist, bone))
        if twist_margin is not None:
            margins.append(twist_margin)
        return min(margins)


class Slider(Constraint):
    """A prismatic (sliding) joint: its bone slides along an axis, and never turns.

    Parameters
    ----------
    axis : (x, y, z)
        The direction the bone slides along, in the parent's frame (world frame at
        rest); normalised.
    lower, upper : float
        The allowed displacement along ``axis`` from the rest pose, in the chain's
        units, ``lower <= upper``.

    Notes
    -----
    Bone ``i`` of a slider runs from ``p_i`` to ``p_i + R_i (o_i + s a)``, ``o_i`` its
    rest vector, ``s`` the displacement, ``a`` the axis and ``R_i = R_{i-1}`` (the
    joint's own rotation is always the identity): everything after the joint moves
    along ``R_{i-1} a``. The Jacobian methods move sliders (``jacobian_transpose``,
    ``pseudo_inverse``, ``dls``), and ``fabrik_dls`` in its finish; the others refuse a
    chain that has one. A Solution's :attr:`~ikcore.Solution.joint_values` gives the
    displacements.

    Examples
    --------
    >>> import ikcore
    >>> lift = ikcore.Slider((0, 0, 1), 0.0, 0.5)
    >>> chain = ikcore.Chain([(0, 0, 0), (0, 0, 1), (1, 0, 1)], [lift, ikcore.Hinge((0, 0, 1))])
    >>> solution = ikcore.solve(chain, (0.0, 1.0, 1.3), "dls", tolerance=1e-6)
    >>> solution.status, [round(v, 6) for v in solution.joint_values]
    ('converged', [0.3, 1.570796])
    """

    def __init__(self, axis: Vector3 = (0.0, 0.0, 1.0), lower: float = 0.0, upper: float = 1.0) -> None:
        ax, ay, az = check_vector(axis, "Slider axis")
        n = sqrt(ax * ax + ay * ay + az * az)
        if not n > 1e-12:
            raise IKError(f"Slider axis must be non-zero, got {tuple(axis)!r}")
        self.axis = (ax / n, ay / n, az / n)
        self.lower = check_float(lower, "Slider lower")
        self.upper = check_float(upper, "Slider upper")
        if self.lower > self.upper:
            raise IKError(f"Slider: lower ({self.lower!r}) must not exceed upper ({self.upper!r})")

    def __repr__(self):
        return f"Slider(axis={self.axis!r}, lower={self.lower!r}, upper={self.upper!r})"

    def clamp(self, q, bone=None):
        """A slider never turns: the identity."""
        return rot.IDENTITY

    def violation(self, q, bone=None):
        """The angle of ``q`` (a slider allows none)."""
        return rot.angle(q)

    def clamp_slide(self, s):
        """The allowed displacement nearest ``s``."""
        return self.lower if s < self.lower else self.upper if s > self.upper else s
