"""Every leg of a crowd, aimed and solved at once.

A spider's leg (:mod:`ikcore.rigs.spider`) is a coxa that turns about the
body's up axis, then a femur and a tibia hinged about the coxa's z axis: a
planar leg. Per frame, for every leg of every walker:

1. **Into the body frame.** With the body at ``b`` turned by ``R`` (from its
   quaternion), the foot ``f`` seen from the hip ``h``: ``l = R^T (f - b) - h``.
2. **The coxa's aim.** The yaw that puts the foot in the leg's plane,
   ``yaw = atan2(-l_z, l_x) - base`` (``base`` the leg's rest heading), into
   ``(-pi, pi]`` and, with the limits on, within ``+-YAW_RANGE``. Turned back
   by ``a = base + yaw`` about y, the foot is ``F = (cos a l_x - sin a l_z,
   l_y, sin a l_x + cos a l_z)`` in the coxa's frame; where the yaw was not
   clamped, ``a`` is the foot's own direction and that is simply ``(|l_xz|,
   l_y, 0)``.
3. **Into the leg's plane.** The leg's hinges turn about the coxa's z axis
   and its plane is the coxa's x-y plane: the planar kernel's coordinates of
   the foot are its x and y from the femur's root ``r`` along the plane's axes
   ``e1``, ``e2``, and its z. With ``e1 r`` and ``e2 r`` worked out once,
   ``(e1 . F - e1 . r, e2 . F - e2 . r, F_z)``.
4. **The planar solve.** All the legs' targets go to one call of the planar
   two_bone kernel (:class:`ikcore.solvers.two_bone.planar.PlanarLeg`), warm
   from the last frame's angles, with the spider's pole above the knee: the
   legs are tracked together (:class:`~ikcore.solvers.two_bone.leg_tracker.LegTracker`),
   their targets given in the leg's plane.

What comes out, per leg, is three angles: the coxa's yaw, the femur's and the
tibia's (from rest, about the coxa's z axis). With the rig's geometry
(:meth:`CrowdLegs.rig`) they pose the leg completely: the page draws the legs
from them, and Python works out no leg's world transform.
"""

from math import atan2, copysign, cos, pi, sin, sqrt, tau

from ..chain import Chain
from ..solvers.two_bone.leg_tracker import LegTracker
from .spider import COXA, LEG_POINTS, POLE, YAW_RANGE, leg_joints


class CrowdLegs:
    """The crowd's legs as flat lists (one entry per leg, ``8 k + i`` for leg ``i`` of walker ``k``).

    Parameters
    ----------
    mounts : list of (hip, base, rest)
        Where each of a walker's legs hangs (:func:`ikcore.rigs.spider.mounts`).

    Attributes
    ----------
    yaw, femur, tibia : list of float
        Each leg's angles (radians): the coxa's from its rest heading, the femur's and the tibia's
        from their rest pose.
    strain : list of float
        Per walker, the largest ``|yaw|`` its coxas were asked for (before the limit): how hard its
        feet pull its legs round (:class:`~ikcore.rigs.walkers.Walkers` eases off as it nears the
        limit).
    results : LegResults
        The kernel's results for every leg (errors, status codes 0 converged, 1 unreachable, 3
        stalled), after :meth:`solve`.
    """

    def __init__(self, mounts):
        self.hips = [hip for hip, _, _ in mounts]
        self.bases = [base for _, base, _ in mounts]
        self._mounts = tuple(zip(self.hips, self.bases))
        self.per_walker = len(self.hips)
        #: The planar legs, tracked together (their chains with and without the limits, their kernels).
        self.tracked = LegTracker(Chain(LEG_POINTS, leg_joints()), pole=POLE, points=False, in_plane=True)
        self.chains, self.kernels, self.reach = self.tracked.chains, self.tracked.kernels, self.tracked.reach
        # Step 3's plane (the leg's geometry is the same with the limits and without): its axes' x and y,
        # and their dot products with the root.
        leg = self.kernels[True]
        assert leg.axis == (0.0, 0.0, 1.0) and leg.e1[2] == leg.e2[2] == leg.root[2] == 0.0, "a leg in the coxa's x-y plane"
        self._plane = tuple((e[0], e[1], e[0] * leg.root[0] + e[1] * leg.root[1]) for e in (leg.e1, leg.e2))
        # The tracker's lists themselves, by the names the crowd gives them (resized in place).
        self.xs, self.ys, self.zs = self.tracked.targets
        self.femur, self.tibia = self.tracked.angles
        self.poles = self.tracked.poles
        self.yaw = []
        self.strain = []

    @property
    def count(self):
        """The number of legs."""
        return self.tracked.count

    @property
    def results(self):
        """The last solve's :class:`~ikcore.solvers.two_bone.planar.LegResults`."""
        return self.tracked.results

    def resize(self, walkers):
        """Lay the lists out for ``walkers`` walkers: kept angles for the legs kept, rest for new ones."""
        count = self.per_walker * walkers
        self.tracked.resize(count)
        del self.yaw[count:]
        self.yaw += [0.0] * (count - len(self.yaw))
        del self.strain[walkers:]
        self.strain += [0.0] * (walkers - len(self.strain))

    def aim(self, walkers, bodies, gait, clamp):
        """Steps 1 to 3 of the module docstring for every leg: the coxas' yaws and the kernel's targets."""
        xs, ys, zs, yaws, strain = self.xs, self.ys, self.zs, self.yaw, self.strain
        (e1x, e1y, c1), (e2x, e2y, c2) = self._plane
        fxs, fys, fzs = gait.fx, gait.fy, gait.fz
        n = 0
        for k in range(walkers.count):
            bx, by, bz = walkers.x[k], bodies.y[k], walkers.z[k]
            w, x, y, z = bodies.qw[k], bodies.qx[k], bodies.qy[k], bodies.qz[k]
            # R's columns (the body's axes in the world): R^T v is their dot products with v.
            r00, r10, r20 = 1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y + w * z), 2.0 * (x * z - w * y)
            r01, r11, r21 = 2.0 * (x * y - w * z), 1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z + w * x)
            r02, r12, r22 = 2.0 * (x * z + w * y), 2.0 * (y * z - w * x), 1.0 - 2.0 * (x * x + y * y)
            most = 0.0
            for (hx, hy, hz), base in self._mounts:
                dx, dy, dz = fxs[n] - bx, fys[n] - by, fzs[n] - bz
                lx = r00 * dx + r10 * dy + r20 * dz - hx
                ly = r01 * dx + r11 * dy + r21 * dz - hy
                lz = r02 * dx + r12 * dy + r22 * dz - hz
                yaw = atan2(-lz, lx) - base
                if yaw > pi:
                    yaw -= tau
                elif yaw <= -pi:
                    yaw += tau
                turn = abs(yaw)
                if turn > most:
                    most = turn
                if clamp and turn > YAW_RANGE:
                    yaw = copysign(YAW_RANGE, yaw)
                    a = base + yaw
                    c, s = cos(a), sin(a)
                    fx, zs[n] = c * lx - s * lz, s * lx + c * lz
                else:
                    fx, zs[n] = sqrt(lx * lx + lz * lz), 0.0
                xs[n], ys[n] = e1x * fx + e1y * ly - c1, e2x * fx + e2y * ly - c2
                yaws[n] = yaw
                n += 1
            strain[k] = most

    def solve(self, tolerance, constrained):
        """Step 4: every leg in one call of the planar kernel; ``tolerance`` is relative to the leg's
        reach. Returns the number of legs that converged."""
        self.tracked.constrained = constrained
        return self.tracked.solve(tolerance * self.reach)

    def rig(self):
        """The leg's geometry for whoever poses legs from the angles (JSON-ready): per leg of a walker
        its hip and rest heading; the coxa's length; the planar leg's root, plane axes ``e1``, ``e2``
        (the femur's rest direction and the hinge axis crossed with it), bone lengths and the tibia's
        rest angle ``psi`` from ``e1``; and the hinges' ranges (radians)."""
        leg = self.kernels[True]
        return {"hips": [list(h) for h in self.hips], "bases": list(self.bases), "coxa": COXA,
                "root": list(leg.root), "axis": list(leg.axis), "e1": list(leg.e1), "e2": list(leg.e2),
                "lengths": [leg.l1, leg.l2], "psi": leg.psi, "yaw_range": YAW_RANGE,
                "femur_range": list(leg.hip[:2]), "tibia_range": list(leg.knee[:2])}
