"""The humanoid's legs under ``two_bone``: the pose in closed form, straight from the triangle.

A leg is a ball hip and a knee hinge about the leg's +x (see
:mod:`ikcore.rigs.humanoid_rig`), its bones straight down at rest. For an
ankle target at distance ``d`` from the hip (``|a - b| <= d <= a + b``, bones
``a``, ``b``) the triangle hip-knee-ankle fixes two angles (the law of
cosines): the thigh's angle ``alpha`` off the hip-to-target line ``u`` and the
knee's bend ``beta``::

    cos alpha = (a^2 + d^2 - b^2) / (2 a d)        cos(pi - beta) = (a^2 + b^2 - d^2) / (2 a b)

The pole picks the plane: ``w``, the pole's direction square to ``u``, is
where the knee points. The thigh then runs along ``f = cos(alpha) u +
sin(alpha) w`` and the leg's front (the way the knee faces) is ``n =
-sin(alpha) u + cos(alpha) w``; the hip's rotation is the frame whose +Y is
``-f`` and whose +Z is ``n`` (the rest frame has the thigh on -Y, the front on
+Z), and the knee turns by ``beta`` about +x, which takes the shin back under
the knee onto the target: by the law of sines, ``a sin(alpha) = b
sin(beta - alpha)``, so the tip ``a f + b (cos(beta) f - sin(beta) n)`` lies
on ``u`` at ``a cos(alpha) + b cos(beta - alpha) = d``.

That is the pose the general ``two_bone`` method finds with a pole, without the
walk through its cases; :class:`ClosedLeg` gives it when it is exact and
within the hip's and knee's limits, and ``None`` otherwise (a target out of
reach, a knee bent past its range, a hip past its cone or twist, a pole on the
line to the target): then the scene solves the leg with the general method.
"""

import math

from .. import rotation as rot
from ..transforms import from_columns
from ..kinematics import Frames


class ClosedLeg:
    """One leg's closed-form two-bone pose (see the module).

    Parameters
    ----------
    chain : Chain
        The leg: two bones, a ball hip and a hinge knee about +x, or the same leg without limits
        (its joints ``None``: then every bend and every hip rotation is allowed).
    """

    def __init__(self, chain):
        self.root = chain.points[0]
        self.thigh, self.shin = chain.lengths
        self.hip, self.knee = chain.joints
        self.bone = chain.directions[0]
        self.bend_range = (-math.pi, math.pi) if self.knee is None else (self.knee.range.lo, self.knee.range.hi)

    def pose(self, target, pole):
        """The leg's :class:`~ikcore.kinematics.Frames` (in the leg's frame) with its tip on ``target``
        and its knee toward ``pole`` (both in the leg's frame), and the tip's distance from the target;
        ``None`` when that pose is not exact or not within the limits."""
        a, b = self.thigh, self.shin
        ox, oy, oz = self.root
        tx, ty, tz = target[0] - ox, target[1] - oy, target[2] - oz
        d = math.sqrt(tx * tx + ty * ty + tz * tz)
        if not abs(a - b) < d < a + b:
            return None
        ux, uy, uz = tx / d, ty / d, tz / d
        px, py, pz = pole[0] - ox, pole[1] - oy, pole[2] - oz
        s = px * ux + py * uy + pz * uz
        wx, wy, wz = px - s * ux, py - s * uy, pz - s * uz
        m = math.sqrt(wx * wx + wy * wy + wz * wz)
        if m < 1e-9 * a:
            return None
        wx, wy, wz = wx / m, wy / m, wz / m
        ca = (a * a + d * d - b * b) / (2.0 * a * d)
        sa = math.sqrt(max(0.0, 1.0 - ca * ca))
        beta = math.pi - math.acos(max(-1.0, min(1.0, (a * a + b * b - d * d) / (2.0 * a * b))))
        lo, hi = self.bend_range
        if not lo <= beta <= hi:
            return None
        fx, fy, fz = ca * ux + sa * wx, ca * uy + sa * wy, ca * uz + sa * wz
        nx, ny, nz = ca * wx - sa * ux, ca * wy - sa * uy, ca * wz - sa * uz
        # The hip's frame: +Y = -f, +Z = n, +X = Y x Z.
        yx, yy, yz = -fx, -fy, -fz
        hip = from_columns((yy * nz - yz * ny, yz * nx - yx * nz, yx * ny - yy * nx), (yx, yy, yz), (nx, ny, nz))
        if self.hip is not None and self.hip.clamp(hip, self.bone) is not hip:
            return None
        knee = (math.cos(0.5 * beta), math.sin(0.5 * beta), 0.0, 0.0)
        cb, sb = math.cos(beta), math.sin(beta)
        kx, ky, kz = ox + a * fx, oy + a * fy, oz + a * fz
        tip = (kx + b * (cb * fx - sb * nx), ky + b * (cb * fy - sb * ny), kz + b * (cb * fz - sb * nz))
        frames = Frames([hip, knee], [hip, rot.multiply(hip, knee)], [self.root, (kx, ky, kz), tip])
        return frames, math.dist(tip, target)
