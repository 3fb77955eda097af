"""two_bone for many planar legs at once: the reference's steps, on angles in each leg's plane.

A *planar leg* is a two-bone chain whose joints are both hinges about one axis
``a``, with both rest bones across it (a spider's femur and tibia, a finger):
every pose lies in the plane through the root normal to ``a``. There the
reference's steps (:mod:`ikcore.solvers.two_bone`) come down to angles:

- plane coordinates: ``e1`` the rest direction of bone 0, ``e2 = a x e1``; bone
  1 rests at the angle ``psi`` from ``e1``; joint angles ``t0`` (hip) and ``t1``
  (knee), so that bone 0 points at ``t0`` and bone 1 at ``t0 + psi + t1``;
- the knee's angle ``gamma`` between the bones, from the law of cosines on the
  target's distance ``d`` (clamped into the shell): the two elbow sides are
  ``t1 = -psi + gamma`` and ``-psi - gamma``, each clamped into the knee's range;
- for each, the hip turns the tip's direction ``beta`` onto the target's:
  ``t0 = atan2(y, x) - beta``, clamped into the hip's range;
- the side nearer the target wins, the knee on the pole's side on a tie; the
  start stays when neither meets the target and both end farther from it.

:meth:`PlanarLeg.solve` runs these steps for many legs of one shape, over flat
arrays (one float per leg in each): no object per leg, the angles updated in
place. Its results are the reference's for the same call (tests hold them to
it: the same status, points within ``1e-9`` of the reach).
"""

from math import atan2, cos, fmod, hypot, pi, sin, sqrt

from ... import rotation as rot
from ...kinematics import Frames
from ...plan import HINGE
from . import TIE, triangle

_TWO_PI = 2.0 * pi
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

    def _across(self, x, y, z=0.0):
        """:func:`ikcore.rotation.perpendicular` of the vector ``(x, y, z)`` in plane coordinates, in
        plane coordinates (the reference's choice where nothing else says which way to bend)."""
        v = tuple(x * a + y * b + z * c for a, b, c in zip(self.e1, self.e2, self.axis))
        w = rot.perpendicular(v)
        return (sum(a * b for a, b in zip(w, self.e1)), sum(a * b for a, b in zip(w, self.e2)),
                sum(a * b for a, b in zip(w, self.axis)))

    def solve(self, count, targets, poles, angles, tolerance, out):
        """Solve ``count`` copies of the leg.

        Parameters
        ----------
        count : int
        targets : (xs, ys, zs)
            Flat arrays of the targets, in the leg's frame.
        poles : (xs, ys, zs) or None
            Flat arrays of the poles (each leg's own), or ``None``: each knee
            keeps the side it is on.
        angles : (t0s, t1s)
            Flat arrays of the hip and knee angles: the start, replaced by the
            solved ones.
        tolerance : float
        out : Legs
            Where the knees, tips, errors and statuses go.
        """
        rx, ry, rz = self.root
        e1x, e1y, e1z = self.e1
        e2x, e2y, e2z = self.e2
        ax, ay, az = self.axis
        tie, eps = 1e-12 * self.reach, 1e-9 * self.reach
        xs, ys, zs = targets
        t0s, t1s = angles
        knees, tips = out.knees, out.tips
        for k in range(count):
            # The target in plane coordinates (x, y), off the plane (z), and its distance.
            tx, ty, tz = xs[k] - rx, ys[k] - ry, zs[k] - rz
            x, y, z = tx * e1x + ty * e1y + tz * e1z, tx * e2x + ty * e2y + tz * e2z, tx * ax + ty * ay + tz * az
            d = sqrt(tx * tx + ty * ty + tz * tz)
            u = (x / d, y / d, z / d) if d > eps else self._start_direction(t0s[k], t1s[k])
            one, two = self._sides(x, y, z, d, u)
            if abs(one[0] - two[0]) > tie:
                best = one if one[0] < two[0] else two
            else:
                pole = None if poles is None else (poles[0][k] - rx, poles[1][k] - ry, poles[2][k] - rz)
                best = two if self._prefers(two, one, u, pole, t0s[k], t1s[k]) else one
            error, t0, t1, kx, ky, fx, fy = best
            if error > tolerance and error > tie:
                start = self._start(t0s[k], t1s[k], x, y, z)
                if error > start[0] + tie:
                    error, t0, t1, kx, ky, fx, fy = start
            t0s[k], t1s[k] = t0, t1
            knees[0][k], knees[1][k], knees[2][k] = rx + kx * e1x + ky * e2x, ry + kx * e1y + ky * e2y, \
                rz + kx * e1z + ky * e2z
            tips[0][k], tips[1][k], tips[2][k] = rx + fx * e1x + fy * e2x, ry + fx * e1y + fy * e2y, \
                rz + fx * e1z + fy * e2z
            out.errors[k] = error
            out.status[k] = (CONVERGED if error <= tolerance
                             else UNREACHABLE if not self.min_reach <= d <= self.reach else STALLED)

    def _sides(self, x, y, z, d, u):
        """Both elbow sides for the target ``(x, y, z)`` at distance ``d`` in the direction ``u``:
        per side ``(error, t0, t1, kx, ky, fx, fy)``, the angles and the knee's and tip's plane
        coordinates.

        Where both angles fall within their ranges the triangle is met as it is:
        ``t0 = aim -+ alpha`` and ``t1 = -psi +- gamma``, the tip on the chord. Otherwise
        the reference's order: the knee's angle clamped, then the hip turns the
        tip toward ``u`` (none where ``u`` lies along the axis), clamped.
        """
        l1, l2, psi = self.l1, self.l2, self.psi
        dc = min(max(d, abs(l1 - l2)), l1 + l2)
        alpha, gamma = triangle(l1, l2, dc)
        ux, uy = u[0], u[1]
        aim = atan2(uy, ux) if hypot(ux, uy) > 1e-9 else None
        out = []
        for sign in (1.0, -1.0):
            t1 = within(-psi + sign * gamma, self.knee)
            t0 = within(aim - sign * alpha, self.hip) if t1 is not None and aim is not None else None
            if t0 is None:
                t1 = clamp_angle(-psi + sign * gamma, *self.knee)
                b = psi + t1
                beta = atan2(l2 * sin(b), l1 + l2 * cos(b))
                # The angle that turns the tip's direction toward u in the plane (signed_angle's rule).
                s, c = cos(beta) * uy - sin(beta) * ux, cos(beta) * ux + sin(beta) * uy
                t0 = clamp_angle(atan2(s, c) if abs(s) + abs(c) > 1e-12 else 0.0, *self.hip)
            c, n = cos(t0), sin(t0)
            kx, ky = l1 * c, l1 * n
            b = t0 + psi + t1
            fx, fy = kx + l2 * cos(b), ky + l2 * sin(b)
            out.append((sqrt((fx - x) ** 2 + (fy - y) ** 2 + z * z), t0, t1, kx, ky, fx, fy))
        return out

    def _start_direction(self, t0, t1):
        """The reference's direction for a target on the root: the start tip's, else across its knee."""
        start = self._start(t0, t1, 0.0, 0.0, 0.0)
        n = hypot(start[5], start[6])
        return (start[5] / n, start[6] / n, 0.0) if n > 1e-6 * self.reach else self._across(cos(t0), sin(t0))

    def _start(self, t0, t1, x, y, z):
        """The start's pose, as :meth:`_sides` gives a side's, for the target ``(x, y, z)``."""
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
            k = _across(self._in_plane(pole), u)
            if _norm(k) > eps:
                return _unit(k)[:2]
        for a, b in ((t0, t1), (0.0, 0.0)):
            knee = (self.l1 * cos(a), self.l1 * sin(a), 0.0)
            c = a + self.psi + b
            tip = (knee[0] + self.l2 * cos(c), knee[1] + self.l2 * sin(c), 0.0)
            # The bend plane's normal is along the axis, with the sign of knee x tip.
            normal = _across((0.0, 0.0, knee[0] * tip[1] - knee[1] * tip[0]), u)
            if _norm(normal) > eps * eps:
                return _unit(_cross(u, normal))[:2]
            if a == t0 and b == t1:
                k = _across(knee, u)
                if _norm(k) > eps:
                    return _unit(k)[:2]
        return self._across(*u)[:2]

    def frames(self, t0, t1, knee, tip):
        """The :class:`~ikcore.kinematics.Frames` of the pose with angles ``t0``, ``t1`` and the knee
        and tip points :meth:`solve` gave for them."""
        hip = about(self.axis, t0)
        return Frames([hip, about(self.axis, t1)], [hip, about(self.axis, t0 + t1)], [self.root, knee, tip])

    def _in_plane(self, v):
        """A vector's plane coordinates."""
        return (sum(a * b for a, b in zip(v, self.e1)), sum(a * b for a, b in zip(v, self.e2)),
                sum(a * b for a, b in zip(v, self.axis)))


def _across(v, u):
    t = v[0] * u[0] + v[1] * u[1] + v[2] * u[2]
    return (v[0] - t * u[0], v[1] - t * u[1], v[2] - t * u[2])


def _norm(v):
    return sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2])


def _unit(v):
    n = _norm(v)
    return (v[0] / n, v[1] / n, v[2] / n)


def _cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def about(axis, angle):
    """The rotation by ``angle`` about the unit ``axis``."""
    s = sin(0.5 * angle)
    return (cos(0.5 * angle), axis[0] * s, axis[1] * s, axis[2] * s)


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


class Legs:
    """Flat arrays of results for many legs: knees and tips (three arrays each), errors, status codes."""

    __slots__ = ("knees", "tips", "errors", "status")

    def __init__(self, count):
        self.knees = ([0.0] * count, [0.0] * count, [0.0] * count)
        self.tips = ([0.0] * count, [0.0] * count, [0.0] * count)
        self.errors = [0.0] * count
        self.status = [0] * count
