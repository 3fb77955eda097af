"""The nearest pose of a two-bone chain with a cone for a hip and a hinge for a knee.

Where neither elbow side meets the target within the limits, the nearest pose
lies on the limits. For a hip that is a ball joint whose bone keeps within a
cone of half-angle ``c`` about its rest direction ``a``, free to twist
(:class:`~ikcore.BallSocket` without a twist limit), and a hinge knee, one
search over the knee's angle finds it.

With the knee at ``theta``, the tip lies at ``R_0 v`` from the root, where
``v = l1 a + l2 q_1(theta) d_1`` (``d_1`` the lower bone's rest direction) has
length ``r`` and makes the angle ``beta`` with ``a``. The hip may put bone 0 along
any ``b`` within ``c`` of ``a`` and turn it about ``b`` at will; the tip keeps
``beta`` from the bone, so it can point along any ``w`` whose angle from ``a``
lies in the band ``[beta - c, beta + c]``, at any turn about ``a``. For a target
``T`` from the root, at distance ``D`` and angle ``psi`` from ``a``, the nearest
of those tips lies in the plane of ``a`` and ``T``, at the angle ``phi`` of the
band nearest ``psi``. It misses the target by (law of cosines, written without
the difference of near equals)::

    e(theta)^2 = (r - D)^2 + 4 r D sin^2((psi - phi) / 2).

What is left is the knee's angle: its range is sampled, and every sample nearer
than its neighbours is refined by golden section between them (the miss may
dip more than once). The pose turns ``v`` about ``a`` into the plane of ``a``
and ``T``, then swings it in that plane by ``phi - beta``: bone 0 leaves ``a``
by no more than ``c``.
"""

import math

from ... import rotation as rot
from ...plan import BALL, HINGE
from ...rotation import multiply
from ...vectors import across, add_scaled, angle, cross, dot, norm, scale, signed_angle, sub, unit

#: Knee angles sampled across its range before the best one is refined.
SAMPLES = 64
#: Golden-section steps refining it (each keeps 0.618 of the bracket: 1e-12 of it after 60).
REFINE = 60
GOLDEN = 0.5 * (math.sqrt(5.0) - 1.0)


def applies(chain):
    """Whether ``chain`` has a twist-free cone for a hip and a hinge for a knee."""
    hip, knee = chain.plan.joints
    return hip.kind == BALL and hip.range.full and knee.kind == HINGE


class ConeHip:
    """The search of the module docstring for one chain and target."""

    def __init__(self, chain, target):
        self.chain = chain
        self.knee = knee = chain.plan.joints[1].constraint
        self.cone = chain.plan.joints[0].cone
        self.axis, lower = chain.directions
        l1, l2 = chain.lengths
        # v(theta) = P + Q cos(theta) + S sin(theta): the lower bone turned about the hinge's axis k
        # keeps its part along k and turns its part across k (Rodrigues).
        k = knee.axis
        along = dot(lower, k)
        self.fixed = add_scaled(scale(self.axis, l1), k, l2 * along)
        self.cosine = scale(across(lower, k), l2)
        self.sine = scale(cross(k, lower), l2)
        self.reach_to = sub(target, chain.points[0])
        self.span = norm(self.reach_to)
        self.psi = angle(self.axis, self.reach_to) if self.span > 0.0 else 0.0

    def tip(self, theta):
        """``v``: the tip from the root with the knee at ``theta`` and the hip at rest."""
        return add_scaled(add_scaled(self.fixed, self.cosine, math.cos(theta)), self.sine, math.sin(theta))

    def band(self, v):
        """``(beta, phi)`` for the tip ``v``: its angle from ``a``, and the angle in the band it
        reaches that is nearest the target's."""
        beta = angle(self.axis, v)
        return beta, min(max(self.psi, beta - self.cone), beta + self.cone)

    def miss(self, theta):
        """``e(theta)``: how near the tip comes with the knee at ``theta``."""
        v = self.tip(theta)
        r = norm(v)
        _, phi = self.band(v)
        return math.hypot(r - self.span, 2.0 * math.sqrt(r * self.span) * math.sin(0.5 * (self.psi - phi)))

    def knee_angle(self):
        """The knee's angle that brings the tip nearest (see the module docstring)."""
        span = self.knee.range
        lo, hi = (-math.pi, math.pi) if span.full else (span.lo, span.hi)
        grid = [lo + (hi - lo) * k / (SAMPLES - 1) for k in range(SAMPLES)]
        misses = [self.miss(theta) for theta in grid]
        best, least = grid[0], misses[0]
        for k, here in enumerate(misses):
            left, right = max(k - 1, 0), min(k + 1, SAMPLES - 1)
            # A dip: no neighbour nearer, and the first sample of a level run (refined once).
            if here > misses[left] or here > misses[right] or (k > 0 and here == misses[k - 1]):
                continue
            theta = self.golden(grid[left], grid[right])
            for candidate, error in ((grid[k], here), (theta, self.miss(theta))):
                if error < least:
                    best, least = candidate, error
        return best

    def golden(self, left, right):
        """The least of :meth:`miss` between ``left`` and ``right``, by golden section."""
        a = right - GOLDEN * (right - left)
        b = left + GOLDEN * (right - left)
        fa, fb = self.miss(a), self.miss(b)
        for _ in range(REFINE):
            if fa <= fb:
                right, b, fb = b, a, fa
                a = right - GOLDEN * (right - left)
                fa = self.miss(a)
            else:
                left, a, fa = a, b, fb
                b = left + GOLDEN * (right - left)
                fb = self.miss(b)
        return a if fa <= fb else b

    def rotations(self, side):
        """The nearest pose's rotations ``[q0, q1]``. ``side`` picks the plane about ``a`` where the
        target lies on ``a``'s line (any plane is as near)."""
        theta = self.knee_angle()
        v = self.tip(theta)
        beta, phi = self.band(v)
        a = self.axis
        # m: across a, toward the target; the plane of a and m holds the nearest tip.
        m = across(self.reach_to, a)
        if norm(m) <= 1e-9 * self.chain.reach:
            m = across(side, a)
            if norm(m) <= 1e-12:
                m = rot.perpendicular(a)
        m = unit(m)
        # Turn v about a into the plane, on m's side; then swing by phi - beta about a x m, which
        # takes a to cos(x) a + sin(x) m.
        spin = signed_angle(a, v, m)
        swing = rot.from_axis_angle(cross(a, m), phi - beta)
        return [multiply(swing, rot.from_axis_angle(a, spin)), self.knee.rotation(theta)]
