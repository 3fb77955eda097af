"""FABRIK's passes on points alone: chains without limits, and chains of cones about a straight line.

The points live in three flat lists ``xs, ys, zs`` (``N + 1`` floats each, root
first), which the passes rewrite in place: a pass reads each old point just
before it writes the new one. One bone costs a square root and a dozen
products; this is the hot loop of every FABRIK solve.

**Cones.** When every limited joint is a ball joint without a twist limit and
every limited bone rests along its parent (a tentacle, a rope, a tail), joint
``i``'s swing is the angle between bone ``i - 1`` (for joint 0, the rest
direction ``d_0``) and bone ``i``, whatever the twist: the limits need no
frames, only directions. A direction ``l`` outside the cone of half-angle
``c`` about ``a`` goes onto its rim toward ``l``: ``a cos c + o sin c / |o|``
with ``o = l - (l . a) a``. The backward pass limits bone ``i`` by the cone of
joint ``i + 1`` about the bone just placed (the limit met from the child's
side), the forward pass by the cone of joint ``i`` about bone ``i - 1``.

**Spreading.** Before each cone pass the offset it corrects is spread along the
chain: the backward pass moves every point ``p_i`` by ``s_i (t - p_N)``, the
forward pass by ``(1 - s_i) (p_0^* - p_0)``, ``s_i`` the share of the chain's
length from the root to ``p_i`` (each offset capped at :data:`SPREAD` of the
reach). Plain passes turn only the bones next to the end they start from;
with cones those bones pin on their limits, and a pinned run swings as one
rigid lever (a small offset at one end becomes a large one at the other).
Spread offsets turn every bone a little instead, so a tracked tentacle keeps a
smooth curl.
"""

from math import cos, hypot, sin, sqrt

from ... import rotation as rot
from ...plan import BALL, FREE

#: Largest spread offset, a fraction of the reach (see the module docstring).
SPREAD = 0.05
#: Rest directions within this of parallel count as one line.
PARALLEL = 1e-12
#: How far inside its cone (a cosine) a bone must keep for its rotation to need no clamp.
ROOM = 1e-12


def backward(xs, ys, zs, lengths, target):
    """Tip to root: the effector onto the target, then each point ``p_i`` onto the line from
    its new child toward its old place, one bone length away:
    ``p_i <- p_{i+1} + L_i (p_i - p_{i+1}) / |p_i - p_{i+1}|``.

    Where a point sits on its new child, the bone goes on along ``-x``.
    """
    x, y, z = target
    n = len(lengths)
    xs[n], ys[n], zs[n] = x, y, z
    for i in range(n - 1, -1, -1):
        dx, dy, dz = xs[i] - x, ys[i] - y, zs[i] - z
        d = hypot(dx, dy, dz)
        if d > 0.0:
            k = lengths[i] / d
            x, y, z = x + dx * k, y + dy * k, z + dz * k
        else:
            x -= lengths[i]
        xs[i], ys[i], zs[i] = x, y, z


def forward(xs, ys, zs, lengths, root):
    """Root to tip: the root back in its place, then each point ``p_{i+1}`` onto the line from
    its new parent toward its backward-pass place, one bone length away:
    ``p_{i+1} <- p_i + L_i (p_{i+1} - p_i) / |p_{i+1} - p_i|``. Returns the effector.

    Where a point sits on its new parent, the bone goes on along ``+x``.
    """
    x, y, z = root
    xs[0], ys[0], zs[0] = x, y, z
    for i, length in enumerate(lengths):
        j = i + 1
        dx, dy, dz = xs[j] - x, ys[j] - y, zs[j] - z
        d = hypot(dx, dy, dz)
        if d > 0.0:
            k = length / d
            x, y, z = x + dx * k, y + dy * k, z + dz * k
        else:
            x += length
        xs[j], ys[j], zs[j] = x, y, z
    return x, y, z


class Cones:
    """A cone chain's constants for :meth:`backward` and :meth:`forward` (see the module docstring).

    Made by :func:`cones_of`. Per joint ``i``, ``cosines[i]`` and ``sines[i]``
    of its cone (``-2`` and ``0`` for a free joint, never clamped); per point,
    the share of the offset the backward pass spreads onto it (``back``: the
    share of the chain's length from the root to it) and the forward pass
    (``fore``: the rest of the length), none on either end: each pass puts the
    end it starts from in place, and the other end is what it moves.
    """

    __slots__ = ("lengths", "cosines", "sines", "back", "fore", "root", "axis", "cap")

    def backward(self, xs, ys, zs, target):
        """Spread the effector's offset, then the backward pass under the children's cones."""
        n = len(self.lengths)
        tx, ty, tz = target
        ox, oy, oz = self._capped(tx - xs[n], ty - ys[n], tz - zs[n])
        x, y, z = tx, ty, tz
        xs[n], ys[n], zs[n] = x, y, z
        # The child's direction; the last bone has no child, its cone never clamps.
        ax, ay, az = self.axis
        for i in range(n - 1, -1, -1):
            # Toward the bone's old place, its offset spread: the direction b, kept within the
            # child's cone about a (the last bone has no child).
            f = self.back[i]
            bx, by, bz = x - (xs[i] + f * ox), y - (ys[i] + f * oy), z - (zs[i] + f * oz)
            d = hypot(bx, by, bz)
            bx, by, bz = (bx / d, by / d, bz / d) if d > 1e-300 else (ax, ay, az)
            if i + 1 < n and bx * ax + by * ay + bz * az < self.cosines[i + 1]:
                bx, by, bz = _onto_rim(bx, by, bz, ax, ay, az, self.cosines[i + 1], self.sines[i + 1])
            length = self.lengths[i]
            x, y, z = x - length * bx, y - length * by, z - length * bz
            xs[i], ys[i], zs[i] = x, y, z
            ax, ay, az = bx, by, bz

    def forward(self, xs, ys, zs, aim=None):
        """Spread the root's offset, then the forward pass under the joints' cones; with ``aim`` (a
        unit vector) every bone is wanted along it instead (nothing is spread). Returns the effector."""
        rx, ry, rz = self.root
        ox, oy, oz = self._capped(rx - xs[0], ry - ys[0], rz - zs[0])
        x, y, z = rx, ry, rz
        xs[0], ys[0], zs[0] = x, y, z
        # The parent's direction: joint 0's cone is about the rest direction of bone 0.
        ax, ay, az = self.axis
        for i, length in enumerate(self.lengths):
            # Toward the point's backward-pass place, the root's offset spread (or along aim): the
            # direction b, kept within the joint's cone about a.
            j = i + 1
            if aim is None:
                f = self.fore[j]
                bx, by, bz = (xs[j] + f * ox) - x, (ys[j] + f * oy) - y, (zs[j] + f * oz) - z
                d = hypot(bx, by, bz)
                bx, by, bz = (bx / d, by / d, bz / d) if d > 1e-300 else (ax, ay, az)
            else:
                bx, by, bz = aim
            if bx * ax + by * ay + bz * az < self.cosines[i]:
                bx, by, bz = _onto_rim(bx, by, bz, ax, ay, az, self.cosines[i], self.sines[i])
            x, y, z = x + length * bx, y + length * by, z + length * bz
            xs[j], ys[j], zs[j] = x, y, z
            ax, ay, az = bx, by, bz
        return x, y, z

    def within(self, xs, ys, zs):
        """The bones' unit directions, where every bone keeps within its joint's cone about its
        parent's direction (joint 0's about the rest direction) with room to spare for rounding,
        :data:`ROOM`; else ``None``. Within, the rotations that put the bones along these points
        need no clamp (:func:`ikcore.kinematics.placed`); a bone on a rim is left to the clamps."""
        ax, ay, az = self.axis
        x0, y0, z0 = xs[0], ys[0], zs[0]
        out = []
        for j, c in enumerate(self.cosines, 1):
            x1, y1, z1 = xs[j], ys[j], zs[j]
            dx, dy, dz = x1 - x0, y1 - y0, z1 - z0
            d = hypot(dx, dy, dz)
            if not d > 0.0:
                return None
            ax, ay, az, px, py, pz = dx / d, dy / d, dz / d, ax, ay, az
            if ax * px + ay * py + az * pz < c + ROOM:
                return None
            out.append((ax, ay, az))
            x0, y0, z0 = x1, y1, z1
        return out

    def _capped(self, x, y, z):
        m = sqrt(x * x + y * y + z * z)
        if m > self.cap:
            k = self.cap / m
            return x * k, y * k, z * k
        return x, y, z


def _onto_rim(bx, by, bz, ax, ay, az, c, s):
    """Unit ``b``, outside the cone of cosine ``c`` and sine ``s`` about unit ``a``, onto its rim
    toward ``b``: ``a c + o s / |o|`` with ``o = b - (b . a) a``."""
    k = bx * ax + by * ay + bz * az
    ox, oy, oz = bx - k * ax, by - k * ay, bz - k * az
    # Once more: near a's opposite, o is a small difference and keeps a trace along a, which 1 / |o|
    # would magnify (the bone would change length).
    k = ox * ax + oy * ay + oz * az
    ox, oy, oz = ox - k * ax, oy - k * ay, oz - k * az
    no = sqrt(ox * ox + oy * oy + oz * oz)
    if no < 1e-12:
        ox, oy, oz = rot.perpendicular((ax, ay, az))
        no = 1.0
    k = s / no
    return ax * c + ox * k, ay * c + oy * k, az * c + oz * k


def cones_of(chain):
    """The :class:`Cones` of a chain whose limits are all twist-free cones about a straight rest
    line (see the module docstring), or ``None`` for any other chain."""
    joints = chain.plan.joints
    if all(j.kind == FREE for j in joints):
        return None
    cosines, sines = [], []
    for joint in joints:
        if joint.kind == FREE:
            cosines.append(-2.0)
            sines.append(0.0)
            continue
        if joint.kind != BALL or not joint.range.full:
            return None
        if joint.index and sum(a * b for a, b in zip(chain.directions[joint.index - 1], joint.bone)) < 1.0 - PARALLEL:
            return None
        cosines.append(cos(joint.cone))
        sines.append(sin(joint.cone))
    cones = Cones()
    cones.lengths = chain.lengths
    cones.cosines, cones.sines = cosines, sines
    along, total = [], 0.0
    for length in chain.lengths[:-1]:
        total += length
        along.append(total / chain.reach)
    cones.back = [0.0, *along, 0.0]
    cones.fore = [0.0, *(1.0 - s for s in along), 0.0]
    cones.root = chain.points[0]
    cones.axis = chain.directions[0]
    cones.cap = SPREAD * chain.reach
    return cones
