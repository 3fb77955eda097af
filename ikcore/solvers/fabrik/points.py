"""FABRIK's passes on points alone: chains without limits, and chains of cones about a straight line.

The points are one list of ``N + 1`` tuples ``(x, y, z)``, root first (the
form a pose and a Solution hold them in), which the passes rewrite in place: a
pass reads each old point just before it writes the new one. One bone costs a
square root and a dozen products; this is the hot loop of every FABRIK solve.
Each pass reads its bones from rows laid out once per chain, in the order it
visits them (:func:`rows_of`; a cone chain's :class:`Cones`).

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


def backward(points, rows, target):
    """Tip to root: the effector onto the target, then each point ``p_i`` onto the line from
    its new child toward its old place, one bone length away:
    ``p_i <- p_{i+1} + L_i (p_i - p_{i+1}) / |p_i - p_{i+1}|``.

    ``rows``: ``(i, L_i)`` from the last bone to the first (:func:`rows_of`).
    Where a point sits on its new child, the bone goes on along ``-x``.
    """
    x, y, z = target
    points[-1] = target
    for i, length in rows:
        px, py, pz = points[i]
        dx, dy, dz = px - x, py - y, pz - z
        try:
            k = length / hypot(dx, dy, dz)
        except ZeroDivisionError:
            x -= length
        else:
            x, y, z = x + dx * k, y + dy * k, z + dz * k
        points[i] = (x, y, z)


def forward(points, rows, root):
    """Root to tip: the root back in its place, then each point ``p_{i+1}`` onto the line from
    its new parent toward its backward-pass place, one bone length away:
    ``p_{i+1} <- p_i + L_i (p_{i+1} - p_i) / |p_{i+1} - p_i|``. Returns the effector.

    ``rows``: ``(i + 1, L_i)`` from the first bone to the last (:func:`rows_of`).
    Where a point sits on its new parent, the bone goes on along ``+x``.
    """
    x, y, z = root
    points[0] = root
    for j, length in rows:
        px, py, pz = points[j]
        dx, dy, dz = px - x, py - y, pz - z
        try:
            k = length / hypot(dx, dy, dz)
        except ZeroDivisionError:
            x += length
        else:
            x, y, z = x + dx * k, y + dy * k, z + dz * k
        points[j] = (x, y, z)
    return points[-1]


def rows_of(chain):
    """A chain's bones in the order the passes on points visit them, laid out once per chain (its
    plan keeps them, as it keeps :class:`Cones`): ``(i, L_i)`` from the last bone to the first for
    :func:`backward`, and ``(i + 1, L_i)`` (the point bone ``i`` moves) from the first to the last
    for :func:`forward`."""
    lengths = chain.lengths
    back = [(i, lengths[i]) for i in reversed(range(len(lengths)))]
    fore = [(i + 1, length) for i, length in enumerate(lengths)]
    return back, fore


class Cones:
    """A cone chain's constants for :meth:`backward` and :meth:`forward` (see the module docstring).

    Made by :func:`cones_of`, laid out once per chain as one row per bone in
    the order each pass visits the bones. A row gives the bone's index, the
    share of the spread offset its moving end takes, its length and the cone
    that bounds it: the child's (joint ``i + 1``) going backward, its own
    joint's going forward; a free joint, and the last bone going backward, have
    the cosine ``-2``, which no direction falls below. The shares are the
    fraction of the chain's length from the root to the point (``back``) and
    the rest of it (``fore``), none on either end: each pass puts the end it
    starts from in place, and the other end is what it moves. A forward row
    also carries its cone's cosine plus :data:`ROOM`: a bone whose cosine
    falls below that sits on the rim, or too near it to count as inside.
    """

    __slots__ = ("back_rows", "fore_rows", "root", "axis", "cap")

    def backward(self, points, target):
        """Spread the effector's offset, then the backward pass under the children's cones."""
        n = len(points) - 1
        tx, ty, tz = target
        ex, ey, ez = points[n]
        ox, oy, oz = self._capped(tx - ex, ty - ey, tz - ez)
        x, y, z = tx, ty, tz
        points[n] = target
        # The child's direction, about which the child's cone bounds this bone.
        ax, ay, az = self.axis
        for i, share, length, c, s in self.back_rows:
            # Toward the bone's old place, its offset spread: the direction b, kept within the
            # child's cone about a.
            px, py, pz = points[i]
            bx, by, bz = x - (px + share * ox), y - (py + share * oy), z - (pz + share * oz)
            d = hypot(bx, by, bz)
            bx, by, bz = (bx / d, by / d, bz / d) if d > 1e-300 else (ax, ay, az)
            if bx * ax + by * ay + bz * az < c:
                bx, by, bz = _onto_rim(bx, by, bz, ax, ay, az, c, s)
            x, y, z = x - length * bx, y - length * by, z - length * bz
            points[i] = (x, y, z)
            ax, ay, az = bx, by, bz

    def forward(self, points, aim=None):
        """Spread the root's offset, then the forward pass under the joints' cones; with ``aim`` (a
        unit vector) every bone is wanted along it instead (nothing is spread).

        Returns the effector and the unit directions the bones were placed
        along, or ``None`` for these where a bone ends on its cone's rim or
        within :data:`ROOM` of it. Inside every cone, the rotations that put
        the bones along these points need no clamp
        (:func:`ikcore.kinematics.pose_from_points`); a bone on a rim is left to the
        clamps.
        """
        rx, ry, rz = self.root
        sx, sy, sz = points[0]
        ox, oy, oz = self._capped(rx - sx, ry - sy, rz - sz)
        x, y, z = rx, ry, rz
        points[0] = self.root
        directions = []
        # The parent's direction: joint 0's cone is about the rest direction of bone 0.
        ax, ay, az = self.axis
        for j, share, length, c, s, clear in self.fore_rows:
            # Toward the point's backward-pass place, the root's offset spread (or along aim): the
            # direction b, kept within the joint's cone about a.
            if aim is None:
                px, py, pz = points[j]
                bx, by, bz = (px + share * ox) - x, (py + share * oy) - y, (pz + share * oz) - z
                d = hypot(bx, by, bz)
                bx, by, bz = (bx / d, by / d, bz / d) if d > 1e-300 else (ax, ay, az)
            else:
                bx, by, bz = aim
            k = bx * ax + by * ay + bz * az
            if k < clear:
                if k < c:
                    bx, by, bz = _onto_rim(bx, by, bz, ax, ay, az, c, s)
                directions = None
            elif directions is not None:
                directions.append((bx, by, bz))
            x, y, z = x + length * bx, y + length * by, z + length * bz
            points[j] = (x, y, z)
            ax, ay, az = bx, by, bz
        return (x, y, z), directions

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
    n = len(chain.lengths)
    # The share of a spread offset each point takes: the fraction of the chain's length from the root
    # to it (backward), or the rest of it (forward); the pass's far end takes none.
    reached, total = [], 0.0
    for length in chain.lengths:
        reached.append(total / chain.reach)
        total += length
    cones = Cones()
    # Backward, bone i moves point i under its child's cone (joint i + 1; the last bone has none).
    child = [*zip(cosines[1:], sines[1:]), (-2.0, 0.0)]
    cones.back_rows = [(i, reached[i], chain.lengths[i], *child[i]) for i in reversed(range(n))]
    # Forward, bone i moves point i + 1 under its own joint's cone.
    cones.fore_rows = [(i + 1, 1.0 - reached[i + 1] if i + 1 < n else 0.0, chain.lengths[i], cosines[i], sines[i],
                        cosines[i] + ROOM) for i in range(n)]
    cones.root = chain.points[0]
    cones.axis = chain.directions[0]
    cones.cap = SPREAD * chain.reach
    return cones
