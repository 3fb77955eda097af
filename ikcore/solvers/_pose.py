"""Pose state and pose surgery shared by the geometric solvers (CCD, FABRIK).

A :class:`Pose` keeps a chain's local rotations ``q_i``, world rotations
``R_i = q_0 ... q_i`` and points ``p_0 .. p_N`` in flat float lists, the layout
the solvers' inner loops read (convention in :mod:`ikcore.rotation`).

The helpers here run once per solve or once per iteration, never per joint of
an inner loop:

- :func:`limit_table`: each joint's limits as plain floats;
- :func:`follow`: re-pose the chain, root first, so each bone points at the next
  of some wanted points, under the limits (FABRIK's forward pass, and how
  positions become rotations);
- :func:`swivel`: turn interior points about their neighbours' line toward a
  pole (the bend-plane hint), which moves no other point;
- :func:`bend`, :func:`perturb`: leave a straight line or a dead end;
- :class:`Progress`: decides when progress has stopped.
"""

import math

from .. import rotation as rot
from ..constraints import BallSocket, Hinge

FREE = 0
HINGE = 1
BALL = 2

_TWO_PI = 2.0 * math.pi
_TINY = 1e-300


def limit_table(chain):
    """Each joint's limits as a tuple ``(kind, ax, ay, az, lo, hi, full, cone)``.

    ``FREE``: no limit (also a ball joint that allows everything).
    ``HINGE``: ``(ax, ay, az)`` the unit axis in the parent's frame, ``[lo, hi]``
    the angle range in radians, ``full`` when it spans a whole turn.
    ``BALL``: ``(ax, ay, az)`` the rest bone direction, ``cone`` the largest
    swing (:attr:`ikcore.BallSocket.swing_limit`), ``[lo, hi]`` and ``full``
    the twist range.
    """
    table = []
    for c, d in zip(chain.joints, chain.directions):
        if isinstance(c, Hinge):
            r = c.range
            table.append((HINGE, c.axis[0], c.axis[1], c.axis[2], r.lo, r.hi, r.full, 0.0))
        elif isinstance(c, BallSocket) and (c.cone < math.pi or not c.twist.full):
            r = c.twist
            table.append((BALL, d[0], d[1], d[2], r.lo, r.hi, r.full, c.swing_limit))
        else:
            table.append((FREE, 0.0, 0.0, 0.0, 0.0, 0.0, True, 0.0))
    return table


def plane_normal(chain, table):
    """The common axis of a planar chain, or ``None``.

    A chain is planar when every joint is a hinge about one axis ``a`` and
    every rest bone is normal to it: then every pose lies in the plane through
    the root normal to ``a``, and every world hinge axis stays ``a``.
    """
    first = table[0]
    if first[0] != HINGE:
        return None
    ax, ay, az = first[1], first[2], first[3]
    for row in table:
        if row[0] != HINGE or abs(row[1] - ax) + abs(row[2] - ay) + abs(row[3] - az) > 1e-12:
            return None
    for dx, dy, dz in chain.directions:
        if abs(dx * ax + dy * ay + dz * az) > 1e-12:
            return None
    return (ax, ay, az)


def clamp_angle(a, lo, hi):
    """The angle of the arc ``[lo, hi]`` nearest to ``a`` (any turn), as the
    hinge and twist ranges of :mod:`ikcore.constraints` clamp it."""
    t = lo + math.fmod(a - lo, _TWO_PI)
    if t < lo:
        t += _TWO_PI
    if t <= hi:
        return t
    return hi if t - hi <= lo + _TWO_PI - t else lo


def clamp_ball(w, x, y, z, dx, dy, dz, cone, lo, hi, full):
    """:meth:`ikcore.BallSocket.clamp` on plain floats.

    ``q = swing * twist`` with the twist about the rest bone direction ``d``:
    ``twist = (w, (v . d) d) / norm``; the swing is scaled back into the cone and
    the twist angle clamped into ``[lo, hi]``.
    """
    p = x * dx + y * dy + z * dz
    n = math.sqrt(w * w + p * p)
    if n < 1e-12:
        # A half-turn swing: no twist to speak of.
        tw, tp = 1.0, 0.0
    else:
        tw, tp = w / n, p / n
    # swing = q * conj(twist), twist = (tw, tp d)
    ux, uy, uz = tp * dx, tp * dy, tp * dz
    sw = w * tw + x * ux + y * uy + z * uz
    sx = tw * x - w * ux - (y * uz - z * uy)
    sy = tw * y - w * uy - (z * ux - x * uz)
    sz = tw * z - w * uz - (x * uy - y * ux)
    s = math.sqrt(sx * sx + sy * sy + sz * sz)
    if 2.0 * math.atan2(s, abs(sw)) > cone:
        if sw < 0.0:
            sx, sy, sz = -sx, -sy, -sz
        # Only the swing about axes across the bone: a half turn's split can leave a trace about it.
        t = sx * dx + sy * dy + sz * dz
        sx, sy, sz = sx - t * dx, sy - t * dy, sz - t * dz
        s = math.sqrt(sx * sx + sy * sy + sz * sz)
        if s > 0.0:
            k = math.sin(0.5 * cone) / s
            sw, sx, sy, sz = math.cos(0.5 * cone), sx * k, sy * k, sz * k
        else:
            sw, sx, sy, sz = 1.0, 0.0, 0.0, 0.0
    if not full:
        a = 2.0 * math.atan2(tp, tw)
        a = math.fmod(a, _TWO_PI)
        if a > math.pi:
            a -= _TWO_PI
        elif a <= -math.pi:
            a += _TWO_PI
        a = clamp_angle(a, lo, hi)
        tw, tp = math.cos(0.5 * a), math.sin(0.5 * a)
        ux, uy, uz = tp * dx, tp * dy, tp * dz
    # swing * twist
    return (sw * tw - sx * ux - sy * uy - sz * uz,
            sw * ux + tw * sx + (sy * uz - sz * uy),
            sw * uy + tw * sy + (sz * ux - sx * uz),
            sw * uz + tw * sz + (sx * uy - sy * ux))


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


def face(xs, ys, zs, pole, size, flip=False):
    """Turn the interior points together toward ``pole`` about the line from
    the first point to the last.

    A rigid turn about that line: bone lengths, the first and the last point
    are kept. The angle brings the mean offset of the interior points from the
    line onto the half-plane holding the pole; with ``flip`` (a planar chain,
    which must stay in its plane) the turn is a half turn or none. Nothing
    moves when the points or the pole lie on the line, or when the first and
    last points are closer than ``1e-12 size`` (the chain's reach). In place.
    """
    n = len(xs) - 1
    x0, y0, z0 = xs[0], ys[0], zs[0]
    nx, ny, nz = xs[n] - x0, ys[n] - y0, zs[n] - z0
    nn = math.sqrt(nx * nx + ny * ny + nz * nz)
    if n < 2 or nn <= 1e-12 * size:
        return
    nx, ny, nz = nx / nn, ny / nn, nz / nn
    # Mean offset m of the interior points across the line, and the pole's offset v.
    mx, my, mz = sum(xs[1:n]) / (n - 1) - x0, sum(ys[1:n]) / (n - 1) - y0, sum(zs[1:n]) / (n - 1) - z0
    t = mx * nx + my * ny + mz * nz
    mx, my, mz = mx - t * nx, my - t * ny, mz - t * nz
    vx, vy, vz = pole[0] - x0, pole[1] - y0, pole[2] - z0
    t = vx * nx + vy * ny + vz * nz
    vx, vy, vz = vx - t * nx, vy - t * ny, vz - t * nz
    nm = math.sqrt(mx * mx + my * my + mz * mz)
    nv = math.sqrt(vx * vx + vy * vy + vz * vz)
    if nm < 1e-9 * nn or nv < 1e-9 * nn:
        return
    # The turn about n taking m's direction to v's: angle a with cos = m.v, sin = n.(m x v).
    c = (mx * vx + my * vy + mz * vz) / (nm * nv)
    s = (nx * (my * vz - mz * vy) + ny * (mz * vx - mx * vz) + nz * (mx * vy - my * vx)) / (nm * nv)
    if flip:
        if c >= 0.0:
            return
        c, s = -1.0, 0.0
    k = 1.0 - c
    for i in range(1, n):
        ux, uy, uz = xs[i] - x0, ys[i] - y0, zs[i] - z0
        t = (ux * nx + uy * ny + uz * nz) * k
        # Rodrigues: u cos a + (n x u) sin a + n (n.u)(1 - cos a)
        xs[i] = x0 + ux * c + (ny * uz - nz * uy) * s + nx * t
        ys[i] = y0 + uy * c + (nz * ux - nx * uz) * s + ny * t
        zs[i] = z0 + uz * c + (nx * uy - ny * ux) * s + nz * t


def edge(chain, distance, tol):
    """Whether a free chain meets a target ``distance`` from its root best in one step.

    True: stretched straight at it (beyond reach, or within ``tol`` of full
    reach, where the stretched pose is already near enough); False: folded
    toward it (nearer than ``min_reach``, or within ``tol`` of it); None: the
    target lies well inside the reachable shell and needs iterations. Near the
    edges of the shell iterations crawl (the chain is almost straight or
    almost folded), so the edges are met in one step.
    """
    if distance >= chain.reach - tol:
        return True
    if distance < chain.min_reach or (chain.min_reach > 0.0 and distance <= chain.min_reach + tol):
        return False
    return None


def reach_out(chain, target, xs, ys, zs, stretch=None):
    """Put the points of a free chain on its pose nearest an unreachable target.

    Beyond reach (or with ``stretch`` True), every bone points at the target.
    Nearer than ``min_reach`` (or with ``stretch`` False; one bone longer than
    all the others together), the long bone points at the target and every
    other bone straight back, so the effector lands at ``min_reach`` from the
    root toward the target. Either pose depends on the target alone: solving
    again from it returns it unchanged. In place.
    """
    x, y, z = chain.points[0]
    ux, uy, uz = target[0] - x, target[1] - y, target[2] - z
    d = math.sqrt(ux * ux + uy * uy + uz * uz)
    beyond = d >= chain.reach if stretch is None else stretch
    if d > 1e-12 * chain.reach:
        ux, uy, uz = ux / d, uy / d, uz / d
    else:
        # On the root: any direction is as good; keep the effector's.
        ux, uy, uz = xs[-1] - x, ys[-1] - y, zs[-1] - z
        e = math.sqrt(ux * ux + uy * uy + uz * uz)
        ux, uy, uz = (ux / e, uy / e, uz / e) if e > 1e-12 * chain.reach else chain.directions[0]
    longest = max(chain.lengths)
    for i, length in enumerate(chain.lengths):
        k = length if beyond or length == longest else -length
        x += k * ux
        y += k * uy
        z += k * uz
        xs[i + 1], ys[i + 1], zs[i + 1] = x, y, z


def swivel(xs, ys, zs, pole, size, flip=False):
    """Turn the chain toward ``pole``: all interior points together
    (:func:`face`), then each about its neighbours' line.

    Point ``i`` turns about the line through points ``i - 1`` and ``i + 1``,
    onto the half-plane holding the pole (with ``flip``, a planar chain's, by a
    half turn or none). Its distances to both neighbours are kept, and no other
    point moves: bone lengths and the end effector stay as they are. Straight
    joints (point on the line) and a pole on the line are left alone. In place.
    """
    face(xs, ys, zs, pole, size, flip)
    ox, oy, oz = pole
    for i in range(1, len(xs) - 1):
        ax, ay, az = xs[i - 1], ys[i - 1], zs[i - 1]
        nx, ny, nz = xs[i + 1] - ax, ys[i + 1] - ay, zs[i + 1] - az
        nn = math.sqrt(nx * nx + ny * ny + nz * nz)
        if nn <= 1e-12 * size:
            continue
        nx, ny, nz = nx / nn, ny / nn, nz / nn
        # The point and the pole, split along the line and across it.
        ux, uy, uz = xs[i] - ax, ys[i] - ay, zs[i] - az
        t = ux * nx + uy * ny + uz * nz
        ux, uy, uz = ux - t * nx, uy - t * ny, uz - t * nz
        vx, vy, vz = ox - ax, oy - ay, oz - az
        s = vx * nx + vy * ny + vz * nz
        vx, vy, vz = vx - s * nx, vy - s * ny, vz - s * nz
        # Once more: with the pole near the line, v is a small difference of large vectors and
        # keeps a trace along the line, which the scale nu / |v| below would magnify (the point
        # would leave its circle: bones change length, the effector moves).
        s = vx * nx + vy * ny + vz * nz
        vx, vy, vz = vx - s * nx, vy - s * ny, vz - s * nz
        nu = math.sqrt(ux * ux + uy * uy + uz * uz)
        nv = math.sqrt(vx * vx + vy * vy + vz * vz)
        if nu < 1e-9 * nn or nv < 1e-9 * nn:
            continue
        if flip:
            if ux * vx + uy * vy + uz * vz >= 0.0:
                continue
            xs[i], ys[i], zs[i] = ax + t * nx - ux, ay + t * ny - uy, az + t * nz - uz
            continue
        k = nu / nv
        xs[i], ys[i], zs[i] = ax + t * nx + k * vx, ay + t * ny + k * vy, az + t * nz + k * vz


def turn_to_pole(chain, table, pose, pole, flip):
    """Swivel ``pose`` toward ``pole`` (:func:`swivel`), then re-pose it by
    :func:`follow` so rotations, points and limits agree. A free chain keeps
    its effector; on a limited one the limits may move it."""
    swivel(pose.xs, pose.ys, pose.zs, pole, chain.reach, flip)
    follow(chain, table, pose)


def collinear(xs, ys, zs, eps, extra=None):
    """Whether all points (and ``extra``) lie within ``eps`` of one line.

    The line runs through the first point and the last one (or the farthest
    one when the last sits on the first). ``extra`` is tested first and the
    scan stops at the first point off the line, so a bent chain costs little.
    """
    x0, y0, z0 = xs[0], ys[0], zs[0]
    fx, fy, fz = xs[-1] - x0, ys[-1] - y0, zs[-1] - z0
    far = fx * fx + fy * fy + fz * fz
    if far <= eps * eps:
        far = 0.0
        for x, y, z in zip(xs, ys, zs):
            d = (x - x0) ** 2 + (y - y0) ** 2 + (z - z0) ** 2
            if d > far:
                far, fx, fy, fz = d, x - x0, y - y0, z - z0
        if extra is not None:
            d = (extra[0] - x0) ** 2 + (extra[1] - y0) ** 2 + (extra[2] - z0) ** 2
            if d > far:
                far, fx, fy, fz = d, extra[0] - x0, extra[1] - y0, extra[2] - z0
        if far <= eps * eps:
            return True
    n = math.sqrt(far)
    fx, fy, fz = fx / n, fy / n, fz / n
    eps2 = eps * eps
    if extra is not None:
        dx, dy, dz = extra[0] - x0, extra[1] - y0, extra[2] - z0
        t = dx * fx + dy * fy + dz * fz
        if dx * dx + dy * dy + dz * dz - t * t > eps2:
            return False
    for x, y, z in zip(xs, ys, zs):
        dx, dy, dz = x - x0, y - y0, z - z0
        t = dx * fx + dy * fy + dz * fz
        if dx * dx + dy * dy + dz * dz - t * t > eps2:
            return False
    return True


def bend(chain, table, pose, toward, target):
    """Bend every joint by one angle so the chain leaves its line.

    The chain curls into an arc whose chord matches the target's distance from
    the root (a uniform arc of ``N`` equal turns ``a`` has chord over length
    ``sin(N a / 2) / (N sin(a / 2))``), so the solver starts near a fitting
    fold. ``toward`` is a world point (a pole, or ``None``): the chain curls so
    its interior moves toward it; without one the side is any perpendicular.
    Free and ball joints turn about one world axis normal to the line; a hinge
    turns about its own axis. Limits are applied; ``pose`` is updated in place.
    """
    xs, ys, zs = pose.xs, pose.ys, pose.zs
    n = chain.size
    ratio = math.dist(target, chain.points[0]) / chain.reach
    # Bisection for the turn a in (0, top]: the chord ratio falls as a grows.
    # The top stops short of a closed circle, which would fold the chain onto a line again.
    low, high = 0.0, min(0.5 * math.pi, 1.6 * math.pi / n)
    for _ in range(40):
        angle = 0.5 * (low + high)
        if math.sin(0.5 * n * angle) / (n * math.sin(0.5 * angle)) > ratio:
            low = angle
        else:
            high = angle
    angle = max(angle, 0.05)
    lx, ly, lz = xs[n] - xs[0], ys[n] - ys[0], zs[n] - zs[0]
    nl = math.sqrt(lx * lx + ly * ly + lz * lz)
    if nl < 1e-9 * chain.reach:
        lx, ly, lz = xs[1] - xs[0], ys[1] - ys[0], zs[1] - zs[0]
        nl = math.sqrt(lx * lx + ly * ly + lz * lz)
    lx, ly, lz = lx / nl, ly / nl, lz / nl
    side = None
    if toward is not None:
        vx, vy, vz = toward[0] - xs[0], toward[1] - ys[0], toward[2] - zs[0]
        t = vx * lx + vy * ly + vz * lz
        vx, vy, vz = vx - t * lx, vy - t * ly, vz - t * lz
        nv = math.sqrt(vx * vx + vy * vy + vz * vz)
        if nv > 1e-9 * chain.reach:
            side = (vx / nv, vy / nv, vz / nv)
    if side is None:
        side = rot.perpendicular((lx, ly, lz))
    # Turning the line direction toward `side`: about line x side.
    axis = (ly * side[2] - lz * side[1], lz * side[0] - lx * side[2], lx * side[1] - ly * side[0])
    rotations = pose.rotations()
    out = []
    for i, q in enumerate(rotations):
        kind, hx, hy, hz, lo, hi, full, cone = table[i]
        parent = (pose.rw[i - 1], pose.rx[i - 1], pose.ry[i - 1], pose.rz[i - 1]) if i else rot.IDENTITY
        local = rot.rotate(rot.conjugate(parent), axis)
        if kind == HINGE:
            sign = 1.0 if local[0] * hx + local[1] * hy + local[2] * hz >= 0.0 else -1.0
            a = rot.twist_angle(q, (hx, hy, hz)) + sign * angle
            if not full:
                a = clamp_angle(a, lo, hi)
            out.append(rot.from_axis_angle((hx, hy, hz), a))
        else:
            q = rot.normalize(rot.multiply(rot.from_axis_angle(local, angle), q))
            if kind == BALL:
                d = chain.directions[i]
                q = clamp_ball(*q, d[0], d[1], d[2], cone, lo, hi, full)
            out.append(q)
    pose.set_rotations(chain, out)


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

    __slots__ = ("best", "mark", "since", "window", "rate", "patience", "fruitless", "restart_best")

    def __init__(self, error, window, rate, patience):
        self.best = error
        self.mark = error
        self.since = 0
        self.window = window
        self.rate = rate
        self.patience = patience
        self.fruitless = 0
        self.restart_best = error

    def update(self, error):
        """Record one iteration's error; True when ``window`` iterations passed
        without progress."""
        if error < self.best:
            self.best = error
        if self.best < self.mark * (1.0 - self.rate):
            self.mark = self.best
            self.since = 0
            return False
        self.since += 1
        if self.since < self.window:
            return False
        self.since = 0
        if self.best < self.restart_best * (1.0 - self.rate):
            self.fruitless = 0
        else:
            self.fruitless += 1
        self.restart_best = self.best
        self.mark = self.best
        return True

    @property
    def hopeless(self):
        """True when ``patience`` restarts in a row brought nothing."""
        return self.fruitless >= self.patience
