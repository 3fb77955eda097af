"""Pose state shared by the geometric solvers (CCD, FABRIK), and how points become rotations.

A :class:`Pose` keeps a chain's local rotations ``q_i``, world rotations
``R_i = q_0 ... q_i`` and points ``p_0 .. p_N`` in flat float lists, the layout
the solvers' inner loops read (convention in :mod:`ikcore.rotation`).

- :func:`follow`: re-pose the chain, root first, so each bone points at the next
  of some wanted points, under the limits (FABRIK's forward pass, and how
  positions become rotations);
- :func:`turn_to_pole`: swivel toward a pole, then follow;
- :func:`perturb`: a random nearby pose within the limits, to leave a dead end;
- :class:`Progress`: decides when progress has stopped.

Joint limits as floats: :mod:`~ikcore.solvers._limits`; pole turns and straight
lines: :mod:`~ikcore.solvers._surgery`.
"""

import math

from .. import rotation as rot
from ._limits import BALL, HINGE, clamp_angle, clamp_ball
from ._surgery import swivel

_TINY = 1e-300


class Pose:
    """Local rotations, world rotations and points of a chain, as flat lists.

    Attributes
    ----------
    qw, qx, qy, qz : list of float
        Local rotations ``q_i``, N each.
    rw, rx, ry, rz : list of float
        World rotations ``R_i = q_0 ... q_i``, N each.
    xs, ys, zs : list of float
        Points ``p_0 .. p_N``.
    """

    __slots__ = ("qw", "qx", "qy", "qz", "rw", "rx", "ry", "rz", "xs", "ys", "zs")

    def __init__(self, chain, rotations):
        self.qw = [q[0] for q in rotations]
        self.qx = [q[1] for q in rotations]
        self.qy = [q[2] for q in rotations]
        self.qz = [q[3] for q in rotations]
        n = chain.size
        self.rw, self.rx, self.ry, self.rz = [1.0] * n, [0.0] * n, [0.0] * n, [0.0] * n
        self.xs, self.ys, self.zs = [0.0] * (n + 1), [0.0] * (n + 1), [0.0] * (n + 1)
        self.forward(chain)

    @classmethod
    def of(cls, problem):
        """The pose of ``problem.start``: from ``problem.frames`` when a verdict
        kept them, else by forward kinematics. They are what :meth:`forward`
        would give, bitwise where the verdict ran forward kinematics itself (the
        same arithmetic on the same unit rotations), to rounding where it took a
        solver's own points (see :attr:`ikcore.problem.Outcome.settled`)."""
        frames = problem.frames
        if frames is None:
            return cls(problem.chain, problem.start)
        worlds, points = frames
        pose = cls.__new__(cls)
        pose.qw, pose.qx, pose.qy, pose.qz = map(list, zip(*problem.start))
        pose.rw, pose.rx, pose.ry, pose.rz = map(list, zip(*worlds))
        pose.xs, pose.ys, pose.zs = map(list, zip(*points))
        return pose

    def forward(self, chain):
        """Recompute world rotations and points from the local rotations."""
        qw, qx, qy, qz = self.qw, self.qx, self.qy, self.qz
        rws, rxs, rys, rzs = self.rw, self.rx, self.ry, self.rz
        xs, ys, zs = self.xs, self.ys, self.zs
        x, y, z = chain.points[0]
        xs[0], ys[0], zs[0] = x, y, z
        rw, rx, ry, rz = 1.0, 0.0, 0.0, 0.0
        for i, (vx, vy, vz) in enumerate(chain.offsets):
            aw, ax, ay, az = qw[i], qx[i], qy[i], qz[i]
            rw, rx, ry, rz = (rw * aw - rx * ax - ry * ay - rz * az,
                              rw * ax + rx * aw + ry * az - rz * ay,
                              rw * ay - rx * az + ry * aw + rz * ax,
                              rw * az + rx * ay - ry * ax + rz * aw)
            rws[i], rxs[i], rys[i], rzs[i] = rw, rx, ry, rz
            tx = 2.0 * (ry * vz - rz * vy)
            ty = 2.0 * (rz * vx - rx * vz)
            tz = 2.0 * (rx * vy - ry * vx)
            x += vx + rw * tx + (ry * tz - rz * ty)
            y += vy + rw * ty + (rz * tx - rx * tz)
            z += vz + rw * tz + (rx * ty - ry * tx)
            i += 1
            xs[i], ys[i], zs[i] = x, y, z

    def rotations(self):
        """The local rotations as a list of ``(w, x, y, z)``."""
        return list(zip(self.qw, self.qx, self.qy, self.qz))

    def set_rotations(self, chain, rotations):
        """Take ``rotations`` and recompute the rest."""
        self.qw[:] = [q[0] for q in rotations]
        self.qx[:] = [q[1] for q in rotations]
        self.qy[:] = [q[2] for q in rotations]
        self.qz[:] = [q[3] for q in rotations]
        self.forward(chain)

    def error(self, target):
        """Distance from the end effector to ``target``."""
        return math.sqrt((self.xs[-1] - target[0]) ** 2 + (self.ys[-1] - target[1]) ** 2
                         + (self.zs[-1] - target[2]) ** 2)


def follow(chain, table, pose, aim=None):
    """Re-pose ``pose``, root first, so each bone points at the next wanted point.

    On entry ``pose.xs/ys/zs[1:]`` hold wanted points (FABRIK's backward pass
    leaves them there); with ``aim`` (a unit vector) every bone is wanted along
    ``aim`` instead. Bone ``i`` turns from its current local rotation by the
    shortest arc onto the wanted direction (so its twist is kept), then joint
    ``i``'s limits apply: a hinge takes the angle about its axis whose bone
    direction lies nearest the wanted one, clamped into range; a ball joint is
    clamped by swing and twist. Points and world rotations are then rebuilt
    from the new rotations, so they match forward kinematics exactly.
    """
    qw, qx, qy, qz = pose.qw, pose.qx, pose.qy, pose.qz
    rws, rxs, rys, rzs = pose.rw, pose.rx, pose.ry, pose.rz
    xs, ys, zs = pose.xs, pose.ys, pose.zs
    x, y, z = chain.points[0]
    xs[0], ys[0], zs[0] = x, y, z
    pw, px, py, pz = 1.0, 0.0, 0.0, 0.0
    for i, (dx, dy, dz) in enumerate(chain.directions):
        length = chain.lengths[i]
        if aim is None:
            bx, by, bz = xs[i + 1] - x, ys[i + 1] - y, zs[i + 1] - z
        else:
            bx, by, bz = aim
        w, ax, ay, az = qw[i], qx[i], qy[i], qz[i]
        nb = math.sqrt(bx * bx + by * by + bz * bz)
        if nb > _TINY:
            # The wanted direction in the parent's frame: conj(P) b.
            tx = 2.0 * (-py * bz + pz * by)
            ty = 2.0 * (-pz * bx + px * bz)
            tz = 2.0 * (-px * by + py * bx)
            lx = (bx + pw * tx - (py * tz - pz * ty)) / nb
            ly = (by + pw * ty - (pz * tx - px * tz)) / nb
            lz = (bz + pw * tz - (px * ty - py * tx)) / nb
            kind, hx, hy, hz, lo, hi, full, cone = table[i]
            if kind == HINGE:
                # Angle about the axis from the rest direction to the wanted one,
                # both projected on the plane normal to the axis.
                s = hx * (dy * lz - dz * ly) + hy * (dz * lx - dx * lz) + hz * (dx * ly - dy * lx)
                c = dx * lx + dy * ly + dz * lz - (hx * dx + hy * dy + hz * dz) * (hx * lx + hy * ly + hz * lz)
                if abs(s) + abs(c) > 1e-12:
                    a = math.atan2(s, c)
                    if not full:
                        a = clamp_angle(a, lo, hi)
                    h = math.sin(0.5 * a)
                    w, ax, ay, az = math.cos(0.5 * a), hx * h, hy * h, hz * h
            else:
                # Current local bone direction c = q d, then the shortest arc c -> l.
                tx = 2.0 * (ay * dz - az * dy)
                ty = 2.0 * (az * dx - ax * dz)
                tz = 2.0 * (ax * dy - ay * dx)
                cx = dx + w * tx + (ay * tz - az * ty)
                cy = dy + w * ty + (az * tx - ax * tz)
                cz = dz + w * tz + (ax * ty - ay * tx)
                e = 1.0 + cx * lx + cy * ly + cz * lz
                if e > 1e-12:
                    sw, sx, sy, sz = e, cy * lz - cz * ly, cz * lx - cx * lz, cx * ly - cy * lx
                else:
                    sw = 0.0
                    sx, sy, sz = rot.perpendicular((cx, cy, cz))
                m = math.sqrt(sw * sw + sx * sx + sy * sy + sz * sz)
                sw, sx, sy, sz = sw / m, sx / m, sy / m, sz / m
                w, ax, ay, az = (sw * w - sx * ax - sy * ay - sz * az,
                                 sw * ax + sx * w + sy * az - sz * ay,
                                 sw * ay - sx * az + sy * w + sz * ax,
                                 sw * az + sx * ay - sy * ax + sz * w)
                m = math.sqrt(w * w + ax * ax + ay * ay + az * az)
                w, ax, ay, az = w / m, ax / m, ay / m, az / m
                if kind == BALL:
                    w, ax, ay, az = clamp_ball(w, ax, ay, az, dx, dy, dz, cone, lo, hi, full)
            qw[i], qx[i], qy[i], qz[i] = w, ax, ay, az
        pw, px, py, pz = (pw * w - px * ax - py * ay - pz * az,
                          pw * ax + px * w + py * az - pz * ay,
                          pw * ay - px * az + py * w + pz * ax,
                          pw * az + px * ay - py * ax + pz * w)
        rws[i], rxs[i], rys[i], rzs[i] = pw, px, py, pz
        # p_{i+1} = p_i + R_i (length d)
        tx = 2.0 * (py * dz - pz * dy)
        ty = 2.0 * (pz * dx - px * dz)
        tz = 2.0 * (px * dy - py * dx)
        x += length * (dx + pw * tx + (py * tz - pz * ty))
        y += length * (dy + pw * ty + (pz * tx - px * tz))
        z += length * (dz + pw * tz + (px * ty - py * tx))
        xs[i + 1], ys[i + 1], zs[i + 1] = x, y, z


def turn_to_pole(chain, table, pose, pole, flip):
    """Swivel ``pose`` toward ``pole`` (:func:`swivel`), then re-pose it by
    :func:`follow` so rotations, points and limits agree. A free chain keeps
    its effector; on a limited one the limits may move it."""
    swivel(pose.xs, pose.ys, pose.zs, pole, chain.reach, flip)
    follow(chain, table, pose)


def perturb(chain, table, rotations, rng, angle):
    """``rotations`` each turned by a random angle up to ``angle``, limits applied.

    Free and ball joints turn about a random axis, hinges about their own.
    """
    out = []
    for i, q in enumerate(rotations):
        kind, hx, hy, hz, lo, hi, full, cone = table[i]
        if kind == HINGE:
            a = rot.twist_angle(q, (hx, hy, hz)) + rng.uniform(-angle, angle)
            if not full:
                a = clamp_angle(a, lo, hi)
            out.append(rot.from_axis_angle((hx, hy, hz), a))
            continue
        g = (rng.gauss(0.0, 1.0), rng.gauss(0.0, 1.0), rng.gauss(0.0, 1.0))
        if g[0] * g[0] + g[1] * g[1] + g[2] * g[2] < 1e-12:
            g = (1.0, 0.0, 0.0)
        q = rot.normalize(rot.multiply(rot.from_axis_angle(g, rng.uniform(0.0, angle)), q))
        if kind == BALL:
            d = chain.directions[i]
            q = clamp_ball(*q, d[0], d[1], d[2], cone, lo, hi, full)
        out.append(q)
    return out


class Progress:
    """Watches the error after each iteration and says when progress stopped.

    Progress is a fall of the best error by the fraction ``rate`` below its
    level at the last progress. After ``window`` iterations without progress
    :meth:`update` returns True (the caller restarts from a perturbed best pose,
    or stops); :attr:`hopeless` becomes True once ``patience`` such restarts in
    a row have not improved the best error by ``rate``.
    """

    __slots__ = ("best", "mark", "cut", "keep", "since", "window", "patience", "fruitless", "restart_best")

    def __init__(self, error, window, rate, patience):
        self.best = error
        self.mark = error
        # An error below cut = mark (1 - rate) is progress. The best error never falls below cut
        # (it becomes the mark when it does), so an error below it is also a new best.
        self.keep = 1.0 - rate
        self.cut = error * self.keep
        self.since = 0
        self.window = window
        self.patience = patience
        self.fruitless = 0
        self.restart_best = error

    def update(self, error):
        """Record one iteration's error; True when ``window`` iterations passed
        without progress."""
        if error < self.cut:
            self.best = self.mark = error
            self.cut = error * self.keep
            self.since = 0
            return False
        if error < self.best:
            self.best = error
        self.since += 1
        if self.since < self.window:
            return False
        self.since = 0
        if self.best < self.restart_best * self.keep:
            self.fruitless = 0
        else:
            self.fruitless += 1
        self.restart_best = self.mark = self.best
        self.cut = self.best * self.keep
        return True

    @property
    def hopeless(self):
        """True when ``patience`` restarts in a row brought nothing."""
        return self.fruitless >= self.patience
