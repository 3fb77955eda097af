"""AwayFromLimits: every limited joint away from the ends of its ranges."""

from math import atan2, pi, sqrt

from ..chain import Chain
from ..kinematics import Frames
from ..plan import BALL, HINGE, SLIDER, hinge_angle
from ..rotation import rotate
from .base import Objective, check_weight

#: The cost treats a coordinate nearer than this fraction of its range to an end as at it: the
#: cost stays finite on a limit, where the solvers clamp joints.
EDGE = 1e-3
#: The power of each coordinate's cost: high, so that the joint nearest an end outweighs the others.
POWER = 8
#: A range narrower than this (radians) has no middle to keep to: it costs nothing, its margin is 0.
NARROWEST = 1e-9


class AwayFromLimits(Objective):
    """Keeps every limited joint away from the ends of its ranges.

    A joint's limited *coordinates*: a hinge's angle; a slider's displacement
    (:func:`limit_margin` reads it; secondary objectives do not take sliders yet); a ball joint's swing (the
    angle of its bone from the cone's axis, its range ``[-cone, cone]``) and
    its twist. A coordinate ``x`` with range ``[lo, hi]`` lies a fraction ``m =
    min(x - lo, hi - x) / (hi - lo)`` of its range from the nearer end (0 at an
    end, 0.5 in the middle), and costs::

        H(x)^POWER,   H(x) = (hi - lo)^2 / (4 (x - lo) (hi - x)) = 1 / (4 m (1 - m))

    (Chan and Dubey's joint-limit cost, raised to :data:`POWER`): 1 in the
    middle, growing without bound near either end; the power makes the sum
    follow the coordinate nearest an end, which is what the measure reads. A
    joint with no limits, or a constraint of the user's own, costs nothing.

    The measure is the smallest ``m`` of any limited coordinate (see
    :func:`limit_margin`).

    Examples
    --------
    >>> import math, ikcore
    >>> knee = ikcore.Chain([(0, 0, 0), (0, -1, 0), (0, -2, 0)],
    ...                     joints=[None, ikcore.Hinge((1, 0, 0), 0, 140)])
    >>> away = ikcore.AwayFromLimits()
    >>> half = ikcore.rotation.from_axis_angle((1, 0, 0), math.radians(70))
    >>> away.measure(knee, ikcore.kinematics.rest(knee))  # the knee straight: at the end of its range
    0.0
    >>> away.measure(knee, ikcore.kinematics.pose_of(knee, [ikcore.rotation.IDENTITY, half]))  # mid-range
    0.5
    """

    def __init__(self, weight: float = 1.0) -> None:
        self.weight = check_weight(weight)

    def __repr__(self):
        return f"AwayFromLimits(weight={self.weight!r})"

    def cost(self, chain, frames):
        total = 0.0
        for j, joint in enumerate(chain.plan.joints):
            for x, lo, hi, _ in coordinates(joint, frames, j, False):
                total += _barrier(x, lo, hi)[0]
        return total

    def gradient(self, chain, frames):
        out = []
        for j, joint in enumerate(chain.plan.joints):
            g = None
            for x, lo, hi, direction in coordinates(joint, frames, j, True):
                k = _barrier(x, lo, hi)[1]
                g = (k * direction[0], k * direction[1], k * direction[2]) if g is None else \
                    (g[0] + k * direction[0], g[1] + k * direction[1], g[2] + k * direction[2])
            out.append(g)
        return out

    def measure(self, chain: Chain, frames: Frames) -> float | None:
        return limit_margin(chain, frames)


def limit_margin(chain, frames):
    """The smallest margin of ``chain``'s limited coordinates in the pose ``frames`` (see
    :class:`AwayFromLimits`): a fraction of the range, 0 at an end, negative outside; ``None``
    when no joint is limited."""
    found = None
    for j, joint in enumerate(chain.plan.joints):
        for x, lo, hi, _ in coordinates(joint, frames, j, False):
            m = min(x - lo, hi - x) / (hi - lo) if hi - lo > NARROWEST else 0.0
            found = m if found is None or m < found else found
    return found


def _barrier(x, lo, hi):
    """``(H(x)^POWER, d/dx H(x)^POWER)`` for the range ``[lo, hi]``, ``x`` kept :data:`EDGE` of the
    range inside (a range narrower than :data:`NARROWEST` costs nothing)."""
    width = hi - lo
    if not width > NARROWEST:
        return 0.0, 0.0
    x = min(max(x, lo + EDGE * width), hi - EDGE * width)
    a, b = x - lo, hi - x
    h = width * width / (4.0 * a * b)
    slope = width * width * (a - b) / (4.0 * a * a * b * b)
    return h ** POWER, POWER * h ** (POWER - 1) * slope


def coordinates(joint, frames, j, with_directions):
    """Joint ``j``'s limited coordinates in ``frames``: ``(x, lo, hi, direction)`` each, the world
    vector ``direction`` the rate of ``x`` as the joint turns about each world axis (with
    ``with_directions``; else ``None``)."""
    q = frames.rotations[j]
    if joint.kind == HINGE:
        if joint.range.full:
            return ()
        direction = (rotate(frames.worlds[j - 1], joint.axis) if j else joint.axis) if with_directions else None
        return ((hinge_angle(joint, q), joint.range.lo, joint.range.hi, direction),)
    if joint.kind == SLIDER:
        # A slider's displacement; moving the joint by a world vector w slides it by w . s, s its
        # world axis.
        slider = joint.constraint
        direction = (rotate(frames.worlds[j - 1], joint.axis) if j else joint.axis) if with_directions else None
        return ((frames.slides[j], slider.lower, slider.upper, direction),)
    if joint.kind != BALL:
        return ()
    ball = joint.constraint
    w, x, y, z = q
    d = joint.bone
    p = x * d[0] + y * d[1] + z * d[2]
    out = []
    if ball.cone < pi:
        # The swing: the angle between the bone (R_j d) and the cone's axis (R_{j-1} d), 2 atan2(|v x d|,
        # |(w, p)|); turning the joint about w widens it at the rate w . unit(axis x bone).
        cx, cy, cz = y * d[2] - z * d[1], z * d[0] - x * d[2], x * d[1] - y * d[0]
        swing = 2.0 * atan2(sqrt(cx * cx + cy * cy + cz * cz), sqrt(w * w + p * p))
        direction = _swing_rate(frames, j, d) if with_directions else None
        out.append((swing, -joint.cone, joint.cone, direction))
    if not ball.twist.full:
        twist = ball.twist.nearest_turn(2.0 * atan2(p, w))
        direction = None
        if with_directions:
            rate = _twist_rate(q, d)
            direction = rotate(frames.worlds[j - 1], rate) if j else rate
        out.append((twist, ball.twist.lo, ball.twist.hi, direction))
    return out


def _swing_rate(frames, j, d):
    """The rate of joint ``j``'s swing as it turns about each world axis: ``unit(axis x bone)``."""
    axis = rotate(frames.worlds[j - 1], d) if j else d
    bone = rotate(frames.worlds[j], d)
    n = (axis[1] * bone[2] - axis[2] * bone[1], axis[2] * bone[0] - axis[0] * bone[2],
         axis[0] * bone[1] - axis[1] * bone[0])
    length = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2])
    return (n[0] / length, n[1] / length, n[2] / length) if length > 1e-12 else (0.0, 0.0, 0.0)


def _twist_rate(q, d):
    """The rate of ``q``'s twist angle about ``d`` as ``q`` turns about each axis of its parent's
    frame (``q <- exp(a) q``): ``(w^2 d + w (v x d) + p v) / (w^2 + p^2)``, ``p = v . d``."""
    w, x, y, z = q
    p = x * d[0] + y * d[1] + z * d[2]
    n = w * w + p * p
    if n < 1e-12:  # a half-turn swing: no twist to speak of
        return (0.0, 0.0, 0.0)
    cx, cy, cz = y * d[2] - z * d[1], z * d[0] - x * d[2], x * d[1] - y * d[0]
    return ((w * w * d[0] + w * cx + p * x) / n, (w * w * d[1] + w * cy + p * y) / n,
            (w * w * d[2] + w * cz + p * z) / n)
