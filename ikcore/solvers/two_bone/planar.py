"""two_bone for many planar legs at once: the reference's steps, on angles in each leg's plane.

A *planar leg* is a two-bone chain whose joints are both hinges about one axis
``a``, with both rest bones across it (a spider's femur and tibia, a finger):
every pose lies in the plane through the root normal to ``a``. There the
reference's steps (:mod:`ikcore.solvers.two_bone`) come down to angles:

- plane coordinates: ``e1`` the rest direction of bone 0, ``e2 = a x e1``; bone
  1 rests at the angle ``psi`` from ``e1``; joint angles ``t0`` (hip) and ``t1``
  (knee), so that bone 0 points at ``t0`` and bone 1 at ``t0 + psi + t1``;
- the knee's angle ``gamma`` between the bones, from the law of cosines on the
  distance ``rho`` from the root to the target's foot on the plane (clamped
  into the shell; the tip's distance to the target is ``hypot`` of its distance
  to the foot and the target's height ``z``): the two elbow sides are
  ``t1 = -psi + gamma`` and ``-psi - gamma``, each clamped into the knee's range;
- for each, the hip turns the tip's direction ``beta`` onto the target's:
  ``t0 = atan2(y, x) - beta``, clamped into the hip's range;
- the side nearer the target wins, the knee on the pole's side on a tie;
- where neither side meets the triangle, the ends of the ranges are weighed
  too: the knee at either end with the hip turning the tip toward the target,
  the hip at either end with the knee turning the lower bone toward it;
- the start stays when the pose found misses the target and ends farther from
  it.

Most targets a leg can reach are met by the triangle itself, within both
ranges, on one side or both: :meth:`PlanarLeg.solve` tries that first by
cosines and sines (no angle until the chosen side's), and weighs a clamped side
only where it could come as near (:meth:`PlanarLeg._weigh`); the angles' steps
above are its way for the rest (:meth:`PlanarLeg._by_angles`).

The triangle first
------------------
With ``u`` the aim (the target's direction in the plane, at ``rho`` from the
root) and ``dc`` that distance clamped into the shell, the law of cosines in
half-angle form (as :func:`~ikcore.solvers.two_bone.triangle`) gives ``1 +-
cos`` of the angle alpha at the root and of the angle gamma between the bones
as products of the sides, and gamma's sine by the law of sines (``l2`` faces
alpha, ``dc`` the knee's inner angle, whose sine is gamma's). Side 1 turns bone
0 by ``-alpha`` from the aim and bends the knee to ``-psi + gamma``, side 2 the
other way.

An angle ``theta`` lies within a range ``[lo, hi]`` when ``cos(theta - mid) >=
cos(half width)``, and both sides are tested at once by the cosine of a sum:
the knee's ``+-gamma`` against its range seen as a range of gamma
(:attr:`PlanarLeg.gamma_arc`, middle ``m``) by ``cos gamma cos m +- sin gamma
sin m``, the hip's ``aim -+ alpha`` by ``cos(aim - m) cos alpha +- sin(aim -
m) sin alpha``.

Where both angles of a side fall within their ranges the side meets the
triangle, the tip on the chord at ``dc``: no pose comes nearer, its error is
``hypot(dc - rho, z)``. The other side, its knee clamped onto ``lo`` or ``hi``,
keeps its tip at a fixed distance from the root (the law of cosines), which
bounds its error from below: where that bound is farther (the two compared by
their squares), the side that meets the triangle wins outright (most targets:
its pose is :meth:`PlanarLeg._met`'s). Otherwise both sides are weighed in
full, or, where no side meets the triangle, taken by their angles.

:meth:`PlanarLeg.solve` runs these steps for many legs of one shape, over flat
arrays (one float per leg in each): no object per leg, the angles updated in
place. Its results are the reference's for the same call (tests hold them to
it: the same status, points within ``1e-9`` of the reach).
"""

from math import atan2, cos, fmod, hypot, inf, pi, sin, sqrt

from ... import rotation as rot
from ...kinematics import Frames
from ...plan import HINGE
from ...rotation import from_axis_angle
from ...vectors import across, cross, norm, unit
from . import TIE, triangle

_TWO_PI = 2.0 * pi
#: How far inside atan2's ``(-pi, pi]`` a range's ends must keep for its numbers to be atan2's own.
CLEAR = 1e-6
#: Status codes, indices into :data:`ikcore.STATUSES`.
CONVERGED, UNREACHABLE, STALLED = 0, 1, 3


def planar_leg(chain):
    """The :class:`PlanarLeg` of ``chain``, or ``None`` unless it is a planar leg."""
    if chain.size != 2 or chain.plan.plane is None:
        return None
    return PlanarLeg(chain)


def _range(joint):
    """A hinge's range as ``(lo, hi, full)`` radians."""
    r = joint.range
    return r.lo, r.hi, r.full


def _arc(limits):
    """A range ``(lo, hi, full)`` as its middle's direction and the cosine of its half width:
    ``(mx, my, cos_half, full)``."""
    lo, hi, full = limits
    mid, half = 0.5 * (lo + hi), 0.5 * (hi - lo)
    return cos(mid), sin(mid), cos(half), full


def _bounds(limits):
    """A range ``(lo, hi, full)`` as bounds ``(lo, hi)`` on atan2's angles where its numbers are
    atan2's own: a whole turn (no bounds), or an arc within ``(-pi, pi]`` clear of its ends by
    :data:`CLEAR`; ``None`` for any other (its angles must be brought into its numbering)."""
    lo, hi, full = limits
    if full:
        return -inf, inf
    return (lo, hi) if -pi + CLEAR < lo and hi < pi - CLEAR else None


def clamp_angle(a, lo, hi, full):
    """The angle of the arc ``[lo, hi]`` nearest ``a`` (as :meth:`ikcore.constraints.AngleRange.clamp`)."""
    if full:
        return a
    t = lo + fmod(a - lo, _TWO_PI)
    if t < lo:
        t += _TWO_PI
    if t <= hi:
        return t
    return hi if t - hi <= lo + _TWO_PI - t else lo


class PlanarLeg:
    """A planar leg's shape in its plane (see the module docstring), worked out once.

    Attributes
    ----------
    axis, e1, e2 : (x, y, z)
        The hinges' axis and the plane's axes.
    root : (x, y, z)
    l1, l2 : float
        The bones' lengths.
    psi : float
        Bone 1's rest angle from ``e1``.
    hip, knee : (lo, hi, full)
        The hinges' ranges.
    hip_arc, gamma_arc : (mx, my, cos_half, full)
        The hip's range, and the knee's as a range of the angle between the
        bones, as their middles' directions and the cosines of their half widths.
    bounds : (lo0, hi0, lo1, hi1) or None
        Where both ranges number their angles as atan2 does (a whole turn, or
        an arc within ``(-pi, pi]`` clear of its ends): the bounds a side's
        angles are tested against (no bounds for a whole turn); ``None`` for other
        ranges, whose angles are brought into their numbering (:func:`within`).
    """

    def __init__(self, chain):
        joints = chain.plan.joints
        assert joints[0].kind == HINGE and joints[1].kind == HINGE
        ax, ay, az = self.axis = joints[0].axis
        self.e1 = d0 = chain.directions[0]
        self.e2 = (ay * d0[2] - az * d0[1], az * d0[0] - ax * d0[2], ax * d0[1] - ay * d0[0])
        d1 = chain.directions[1]
        self.psi = atan2(sum(a * b for a, b in zip(d1, self.e2)), sum(a * b for a, b in zip(d1, d0)))
        self.root = chain.points[0]
        self.l1, self.l2 = chain.lengths
        self.reach, self.min_reach = chain.reach, chain.min_reach
        self.hip, self.knee = _range(joints[0]), _range(joints[1])
        self.cos_psi, self.sin_psi = cos(self.psi), sin(self.psi)
        # The knee's angle is -psi + gamma or -psi - gamma (gamma the angle between the bones): within
        # [lo, hi] when +-gamma is within [lo + psi, hi + psi], its range seen as a range of gamma.
        lo, hi, full = self.knee
        self.hip_arc, self.gamma_arc = _arc(self.hip), _arc((lo + self.psi, hi + self.psi, full))
        hip, knee = _bounds(self.hip), _bounds(self.knee)
        self.bounds = None if hip is None or knee is None else (*hip, *knee)
        # The tip's distance from the root with the knee on either end of its range.
        self.knee_reaches = tuple(sqrt(max(0.0, self.l1 ** 2 + self.l2 ** 2 + 2.0 * self.l1 * self.l2 * cos(self.psi + a)))
                                  for a in self.knee[:2])

    def in_plane(self, point):
        """A point of the leg's frame in plane coordinates: from the root, along ``e1``, ``e2`` and the
        axis."""
        return self._in_plane(tuple(c - r for c, r in zip(point, self.root)))

    def across(self, x, y, z=0.0):
        """:func:`ikcore.rotation.perpendicular` of the vector ``(x, y, z)`` in plane coordinates, in
        plane coordinates (the reference's choice where nothing else says which way to bend)."""
        v = tuple(x * a + y * b + z * c for a, b, c in zip(self.e1, self.e2, self.axis))
        w = rot.perpendicular(v)
        return (sum(a * b for a, b in zip(w, self.e1)), sum(a * b for a, b in zip(w, self.e2)),
                sum(a * b for a, b in zip(w, self.axis)))

    def solve(self, count, targets, poles, angles, tolerance, out, plane=False):
        """Solve ``count`` copies of the leg: each by the triangle first (see the module docstring),
        else by weighing both sides in full (:meth:`_weigh`) or by their angles (:meth:`_by_angles`).

        Parameters
        ----------
        count : int
        targets : (xs, ys, zs)
            Flat arrays of the targets, in the leg's frame (with ``plane``, in plane coordinates).
        poles : (xs, ys, zs) or None
            Flat arrays of the poles (each leg's own) in the leg's frame, or ``None``: each knee keeps its side.
        angles : (t0s, t1s)
            Flat arrays of the hip and knee angles: the start, replaced by the solved ones.
        tolerance : float
        out : LegResults
            Where the knees and tips (unless it has none), errors and statuses go.
        plane : bool
            Whether the targets are given in plane coordinates (:meth:`in_plane`).
        """
        (rx, ry, rz), (e1x, e1y, e1z), (e2x, e2y, e2z), (ax, ay, az) = self.root, self.e1, self.e2, self.axis
        l2, long, short = self.l2, self.l1 + self.l2, self.l1 - self.l2
        least, cpsi, spsi = abs(short), self.cos_psi, self.sin_psi
        (hmx, hmy, hcw, hfull), (gmx, gmy, gcw, kfull) = self.hip_arc, self.gamma_arc
        reach_lo, reach_hi = self.knee_reaches
        near, tie = 1e-9 * self.reach, 1e-12 * self.reach
        (xs, ys, zs), (t0s, t1s) = targets, angles
        errors, status, points = out.errors, out.status, out.knees is not None
        for k in range(count):
            if plane:
                x, y, z = xs[k], ys[k], zs[k]
            else:
                # The target in plane coordinates (x, y), off the plane (z).
                tx, ty, tz = xs[k] - rx, ys[k] - ry, zs[k] - rz
                x, y, z = tx * e1x + ty * e1y + tz * e1z, tx * e2x + ty * e2y + tz * e2z, tx * ax + ty * ay + tz * az
            rho = hypot(x, y)
            pose = None
            if rho > near:
                # The triangle on the target's foot, held within the shell: alpha's and gamma's cosines
                # and sines, from the sums and differences of its sides (d -+ short, long -+ d).
                dc = least if rho < least else long if rho > long else rho
                dp, dm, lp, lm = dc + short, dc - short, long + dc, long - dc
                p, q = dp * lp, dm * lm
                ca, sa = (p - q) / (p + q), 2.0 * sqrt(p * q) / (p + q)
                p, q = dm * dp, lm * lp
                cg, sg = (p - q) / (p + q), sa * dc / l2
                ux, uy = x / rho, y / rho
                # Each side's knee, then its hip, within its range (by the cosine of a sum).
                c, s = cg * gmx, sg * gmy
                knee1, knee2 = kfull or c + s >= gcw, kfull or c - s >= gcw
                c, s = (ux * hmx + uy * hmy) * ca, (uy * hmx - ux * hmy) * sa
                met1, met2 = knee1 and (hfull or c + s >= hcw), knee2 and (hfull or c - s >= hcw)
                if met1 != met2 and not (knee1 and knee2):
                    # The met side's error against the least the other's can be, its knee on either
                    # end of its range: farther with the knee on both ends (by their squares).
                    off, off_lo, off_hi, zz = dc - rho, reach_lo - rho, reach_hi - rho, z * z
                    bound = sqrt(off * off + zz) + tie
                    if off_lo * off_lo + zz > bound * bound and off_hi * off_hi + zz > bound * bound:
                        # The side that meets the triangle wins outright: its bone 0 and knee (side 2
                        # is side 1 with alpha and gamma negated), the tip on the chord.
                        if met2:
                            sa, sg = -sa, -sg
                        pose = self._met(ux * ca + uy * sa, uy * ca - ux * sa, cpsi * cg + spsi * sg,
                                         cpsi * sg - spsi * cg, dc * ux, dc * uy, x, y, z)
                elif met1 or met2:
                    sides = ((ux * ca + uy * sa, uy * ca - ux * sa, cpsi * cg + spsi * sg, cpsi * sg - spsi * cg),
                             (ux * ca - uy * sa, uy * ca + ux * sa, cpsi * cg - spsi * sg, -cpsi * sg - spsi * cg))
                    pose = self._weigh((x, y, z, rho), (t0s[k], t1s[k]), self._pole(poles, k), tie, dc,
                                       tuple(zip(sides, (met1, met2))))
            if pose is None:
                # No side meets the triangle within its ranges (or rounding says one does not after all).
                pose = self._by_angles(x, y, z, rho, t0s[k], t1s[k], poles, k, tie)
            code = CONVERGED
            if pose[0] > tolerance:
                offset = (x, y, z) if plane else (tx, ty, tz)
                pose, code = self._missed(pose, (t0s[k], t1s[k]), (x, y, z), offset, tolerance, tie)
            error, t0s[k], t1s[k], kx, ky, fx, fy = pose
            if points:
                self._write(out, k, kx, ky, fx, fy)
            errors[k], status[k] = error, code

    def _missed(self, pose, start, target, offset, tolerance, tie):
        """A pose that misses the ``target`` (plane coordinates) by more than ``tolerance``: the
        ``start`` angles' pose where that comes nearer (never farther than the start), and its status.

        The target's distance from the root is measured as Chain.reachable measures it (math.dist's
        norm of its ``offset`` from the root in the targets' frame), so that a target on an edge of the
        shell gets the status solve() gives it."""
        if pose[0] > tie:
            posed = self._posed(*start, *target)
            if pose[0] > posed[0] + tie:
                pose = posed
        if pose[0] <= tolerance:
            return pose, CONVERGED
        return pose, UNREACHABLE if not self.min_reach <= hypot(*offset) <= self.reach else STALLED

    def _write(self, out, k, kx, ky, fx, fy):
        """Leg ``k``'s knee ``(kx, ky)`` and tip ``(fx, fy)``, plane coordinates, into ``out`` as world
        points of the leg's frame."""
        rx, ry, rz = self.root
        e1x, e1y, e1z = self.e1
        e2x, e2y, e2z = self.e2
        knees, tips = out.knees, out.tips
        knees[0][k], knees[1][k], knees[2][k] = rx + kx * e1x + ky * e2x, ry + kx * e1y + ky * e2y, \
            rz + kx * e1z + ky * e2z
        tips[0][k], tips[1][k], tips[2][k] = rx + fx * e1x + fy * e2x, ry + fx * e1y + fy * e2y, \
            rz + fx * e1z + fy * e2z

    def _weigh(self, target, start, pole, tie, dc, sides):
        """Both sides worked out in full, where both meet the triangle within their ranges or one
        does and the other, its knee clamped, may come as near: the nearer wins, the preferred one
        (:meth:`_prefers`) on a tie.

        ``target`` is ``(x, y, z, rho)``, ``start`` the start angles ``(t0, t1)``,
        ``pole`` the leg's pole from the root (or ``None``), ``dc`` the clamped
        distance of the tip on the chord; ``sides``: per side ``((hx, hy, kc, ks),
        met)`` (see :meth:`solve`).
        """
        x, y, z, rho = target
        ux, uy = x / rho, y / rho
        one, two = (self._met(*side, dc * ux, dc * uy, x, y, z) if met else
                    self._clamped(clamp_angle(atan2(side[3], side[2]), *self.knee), ux, uy, x, y, z)
                    for side, met in sides)
        if one is None or two is None:
            return None  # a side past an end after all (see _met): the angles decide
        if abs(one[0] - two[0]) > tie:
            return one if one[0] < two[0] else two
        u = self._direction(x, y, rho, *start)
        return two if self._prefers(two, one, u, pole, *start) else one

    def _met(self, hx, hy, kc, ks, fx, fy, x, y, z):
        """The pose of a side that meets the triangle within both ranges: bone 0's direction ``(hx,
        hy)`` and the knee angle's cosine and sine ``(kc, ks)``; the tip at ``(fx, fy)``,
        its error measured to the target ``(x, y, z)`` (as every pose's is: not the triangle's
        ``hypot(dc - rho, z)``, which rounding in the tip would belie).

        ``None`` where an angle lies past an end of its range after all: near
        ``cos = 1`` the cosine test cannot tell angles apart by less than about
        ``1e-8`` radians, so a range narrower than that, or a side that much past
        an end, passes it. The side's angles then decide (:meth:`_by_angles`).
        """
        t0, t1 = atan2(hy, hx), atan2(ks, kc)
        if self.bounds is None:
            # Brought into the ranges' numbering.
            t0, t1 = within(t0, self.hip), within(t1, self.knee)
            if t0 is None or t1 is None:
                return None
        else:
            lo0, hi0, lo1, hi1 = self.bounds
            if not (lo0 <= t0 <= hi0 and lo1 <= t1 <= hi1):
                return None
        return (hypot(fx - x, fy - y, z), t0, t1, self.l1 * hx, self.l1 * hy, fx, fy)

    def _direction(self, x, y, rho, t0, t1):
        """The unit direction of the target's foot ``(x, y)`` at ``rho`` from the root; for a foot
        on the root, the reference's choice (:meth:`_start_direction`)."""
        return (x / rho, y / rho, 0.0) if rho > 1e-9 * self.reach else self._start_direction(t0, t1)

    def _pole(self, poles, k):
        """Leg ``k``'s pole from the root, or ``None``."""
        if poles is None:
            return None
        rx, ry, rz = self.root
        return (poles[0][k] - rx, poles[1][k] - ry, poles[2][k] - rz)

    def _by_angles(self, x, y, z, rho, t0, t1, poles, k, tie):
        """The pose where no side meets the triangle within its ranges (or the target's foot lies
        on the root): both sides by their angles, as the reference takes them."""
        l1, l2, psi = self.l1, self.l2, self.psi
        u = self._direction(x, y, rho, t0, t1)
        dc = min(max(rho, abs(l1 - l2)), l1 + l2)
        alpha, gamma = triangle(l1, l2, dc)
        ux, uy = u[0], u[1]
        aim = atan2(uy, ux) if hypot(ux, uy) > 1e-9 else None
        sides = [None, None]
        for i, sign in enumerate((1.0, -1.0)):
            knee = within(-psi + sign * gamma, self.knee)
            hip = within(aim - sign * alpha, self.hip) if knee is not None and aim is not None else None
            if hip is not None:
                sides[i] = self._exact(hip, knee, dc, ux, uy, x, y, z)
        least = min(side[0] for side in sides if side is not None) if sides != [None, None] else None
        for i, sign in enumerate((1.0, -1.0)):
            if sides[i] is None:
                knee = clamp_angle(-psi + sign * gamma, *self.knee)
                reach = sqrt(max(0.0, l1 * l1 + l2 * l2 + 2.0 * l1 * l2 * cos(psi + knee)))
                if least is None or hypot(reach - rho, z) <= least + tie:
                    sides[i] = self._clamped(knee, ux, uy, x, y, z)
        one, two = sides
        if one is None or two is None:
            best = one or two
        elif abs(one[0] - two[0]) > tie:
            best = one if one[0] < two[0] else two
        else:
            best = two if self._prefers(two, one, u, self._pole(poles, k), t0, t1) else one
        if best[0] > hypot(dc - rho, z) + tie:
            # Neither side meets the triangle: the ranges' ends, as the reference weighs them.
            for pose in self._on_ends(ux, uy, x, y, z):
                if pose[0] < best[0] - tie:
                    best = pose
        return best

    def _on_ends(self, ux, uy, x, y, z):
        """The poses on the ends of the ranges, in the reference's order
        (:meth:`ikcore.solvers.two_bone.Triangle.on_ends`): the knee at ``lo``, then ``hi``, the hip
        turning the tip toward ``u``; the hip at ``lo``, then ``hi``, the knee turning the lower bone
        toward the target."""
        lo, hi, full = self.knee
        if not full:
            yield self._clamped(lo, ux, uy, x, y, z)
            yield self._clamped(hi, ux, uy, x, y, z)
        lo, hi, full = self.hip
        if not full:
            yield self._hip_end(lo, x, y, z)
            yield self._hip_end(hi, x, y, z)

    def _hip_end(self, t0, x, y, z):
        """The hip at ``t0`` (an end of its range), the knee turning the lower bone toward the target
        ``(x, y, z)`` as the reference does (signed_angle's rule), clamped."""
        l1, b = self.l1, t0 + self.psi
        kx, ky = l1 * cos(t0), l1 * sin(t0)
        wx, wy = x - kx, y - ky
        n = sqrt(wx * wx + wy * wy + z * z)
        t1 = 0.0
        if n > 1e-9 * self.reach:
            wx, wy = wx / n, wy / n
            s, c = cos(b) * wy - sin(b) * wx, cos(b) * wx + sin(b) * wy
            t1 = atan2(s, c) if abs(s) + abs(c) > 1e-12 else 0.0
        return self._posed(t0, clamp_angle(t1, *self.knee), x, y, z)

    def _exact(self, t0, t1, dc, ux, uy, x, y, z):
        """A side whose angles are within their ranges: the knee at ``t0``, the tip on the chord at
        ``dc`` from the root."""
        kx, ky = self.l1 * cos(t0), self.l1 * sin(t0)
        k = dc / hypot(ux, uy)
        fx, fy = ux * k, uy * k
        return (sqrt((fx - x) ** 2 + (fy - y) ** 2 + z * z), t0, t1, kx, ky, fx, fy)

    def _clamped(self, t1, ux, uy, x, y, z):
        """A side whose knee is clamped (or whose hip would be): the reference's order, the knee at
        ``t1``, then the hip turns the tip's direction ``beta`` toward ``u`` (none where ``u`` lies
        along the axis), clamped."""
        l1, l2, psi = self.l1, self.l2, self.psi
        b = psi + t1
        beta = atan2(l2 * sin(b), l1 + l2 * cos(b))
        # The angle that turns the tip's direction toward u in the plane (signed_angle's rule).
        s, c = cos(beta) * uy - sin(beta) * ux, cos(beta) * ux + sin(beta) * uy
        t0 = clamp_angle(atan2(s, c) if abs(s) + abs(c) > 1e-12 else 0.0, *self.hip)
        return self._posed(t0, t1, x, y, z)

    def _start_direction(self, t0, t1):
        """The reference's direction for a target on the root: the start tip's, else across its knee."""
        start = self._posed(t0, t1, 0.0, 0.0, 0.0)
        n = hypot(start[5], start[6])
        return (start[5] / n, start[6] / n, 0.0) if n > 1e-6 * self.reach else self._across(cos(t0), sin(t0))

    def _posed(self, t0, t1, x, y, z):
        """The pose of the angles ``t0``, ``t1``, as a side's: its error to the target ``(x, y, z)``, the
        angles, the knee and the tip."""
        c, n = cos(t0), sin(t0)
        kx, ky = self.l1 * c, self.l1 * n
        b = t0 + self.psi + t1
        fx, fy = kx + self.l2 * cos(b), ky + self.l2 * sin(b)
        return (sqrt((fx - x) ** 2 + (fy - y) ** 2 + z * z), t0, t1, kx, ky, fx, fy)

    def _prefers(self, two, one, u, pole, t0, t1):
        """Whether, of two sides equally near the target, ``two`` has its knee on the preferred side
        (:meth:`_side`) and ``one`` not: the reference's tie break."""
        eps = 1e-9 * self.reach
        side = self._side(u, pole, t0, t1, eps)

        def preferred(pose):
            return (pose[3] * side[0] + pose[4] * side[1]) / self.l1 > TIE

        return preferred(two) and not preferred(one)

    def _side(self, u, pole, t0, t1, eps):
        """The reference's preferred bend direction (:meth:`ikcore.solvers.two_bone.Triangle._side`),
        in plane coordinates (its part in the plane: the knee lies there)."""
        if pole is not None:
            k = across(self._in_plane(pole), u)
            if norm(k) > eps:
                return unit(k)[:2]
        for a, b in ((t0, t1), (0.0, 0.0)):
            knee = (self.l1 * cos(a), self.l1 * sin(a), 0.0)
            c = a + self.psi + b
            tip = (knee[0] + self.l2 * cos(c), knee[1] + self.l2 * sin(c), 0.0)
            # The bend plane's normal is along the axis, with the sign of knee x tip.
            normal = across((0.0, 0.0, knee[0] * tip[1] - knee[1] * tip[0]), u)
            if norm(normal) > eps * self.l1:
                return unit(cross(u, normal))[:2]
            if a == t0 and b == t1:
                k = across(knee, u)
                if norm(k) > eps:
                    return unit(k)[:2]
        return self._across(*u)[:2]

    def frames(self, t0, t1, knee, tip):
        """The :class:`~ikcore.kinematics.Frames` of the pose with angles ``t0``, ``t1`` and the knee
        and tip points :meth:`solve` gave for them."""
        hip = from_axis_angle(self.axis, t0)
        return Frames([hip, from_axis_angle(self.axis, t1)], [hip, from_axis_angle(self.axis, t0 + t1)], [self.root, knee, tip])

    def _in_plane(self, v):
        """A vector's plane coordinates."""
        return (sum(a * b for a, b in zip(v, self.e1)), sum(a * b for a, b in zip(v, self.e2)),
                sum(a * b for a, b in zip(v, self.axis)))


def within(a, limits):
    """``a`` as the angle of the arc ``limits = (lo, hi, full)`` it lies on, or ``None`` when it lies
    outside it."""
    lo, hi, full = limits
    if full:
        return a
    t = lo + fmod(a - lo, _TWO_PI)
    if t < lo:
        t += _TWO_PI
    return t if t <= hi else None


class LegResults:
    """Flat arrays of results for many legs: knees and tips (three arrays each), errors, status codes.

    With ``points=False`` the knees and tips are ``None`` and :meth:`PlanarLeg.solve` leaves them out:
    a caller that poses its legs from the angles (the crowd) reads the angles, errors and statuses only.
    """

    __slots__ = ("knees", "tips", "errors", "status")

    def __init__(self, count, points=True):
        self.knees = ([0.0] * count, [0.0] * count, [0.0] * count) if points else None
        self.tips = ([0.0] * count, [0.0] * count, [0.0] * count) if points else None
        self.errors = [0.0] * count
        self.status = [0] * count
