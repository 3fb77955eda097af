"""Forward kinematics, written once: local rotations to world rotations and points.

For a chain with rest points ``p_0 .. p_N`` and rest bone vectors
``o_i = p_{i+1} - p_i``, local rotations ``q_0 .. q_{N-1}`` give the world
rotation of each bone and the points (convention in :mod:`ikcore.rotation`)::

    R_i = R_{i-1} q_i          (R_{-1} = identity)
    p_{i+1} = p_i + R_i o_i    (the root p_0 never moves)

:func:`forward` and :func:`frames` compute it; :func:`pose_of` is the same
recurrence fused with what every solve ends with (each rotation made unit and
put within its joint's limits), so that a solver and the Solution's status measure the
very same pose. The rotation of a vector by a unit quaternion is written out
as ``v + 2w (u x v) + 2 u x (u x v)`` (``u`` the vector part): fifteen
products, no matrix.

For example, a two-bone chain with both joints turned a quarter turn about z:

>>> import math, ikcore
>>> chain = ikcore.Chain([(0, 0, 0), (0, 1, 0), (0, 2, 0)])
>>> quarter = ikcore.rotation.from_axis_angle((0, 0, 1), math.pi / 2)
>>> points = ikcore.kinematics.forward(chain, [quarter, quarter])
>>> [tuple(round(c, 6) + 0.0 for c in point) for point in points]
[(0.0, 0.0, 0.0), (-1.0, 0.0, 0.0), (-1.0, -1.0, 0.0)]
"""

from math import hypot, sqrt

from .rotation import IDENTITY, multiply, shortest_arc


class Frames:
    """A chain's pose: local rotations, world rotations and points. Read only: solvers share them
    (a cold solve starts from the chain's one rest pose), and copy what they change.

    Attributes
    ----------
    rotations : list of (w, x, y, z)
        Local rotations ``q_i``, unit and within the joint limits.
    worlds : list of (w, x, y, z)
        World rotations ``R_i``.
    points : list of (x, y, z)
        The ``N + 1`` points.
    slides : list or None
        For a chain with :class:`~ikcore.Slider` joints, per joint its displacement
        (``None`` for the others); ``None`` for a chain without.

    Examples
    --------
    >>> import math, ikcore
    >>> chain = ikcore.Chain([(0, 0, 0), (0, 1, 0), (0, 2, 0)])
    >>> quarter = ikcore.rotation.from_axis_angle((0, 0, 1), math.pi / 2)
    >>> frames = ikcore.kinematics.pose_of(chain, [quarter, ikcore.rotation.IDENTITY])
    >>> [tuple(round(c, 6) + 0.0 for c in point) for point in frames.points]
    [(0.0, 0.0, 0.0), (-1.0, 0.0, 0.0), (-2.0, 0.0, 0.0)]
    """

    __slots__ = ("rotations", "worlds", "points", "slides", "_directions")

    def __init__(self, rotations, worlds, points, slides=None):
        self.rotations = rotations
        self.worlds = worlds
        self.points = points
        self.slides = slides
        self._directions = None

    @property
    def effector(self):
        """The last point."""
        return self.points[-1]

    @property
    def directions(self):
        """The bones' unit directions, ``(p_{i+1} - p_i) / |p_{i+1} - p_i|``, worked out at the
        first call (a pose solves start from, such as the rest pose, is read many times)."""
        if self._directions is None:
            out = []
            for (ax, ay, az), (bx, by, bz) in zip(self.points, self.points[1:]):
                dx, dy, dz = bx - ax, by - ay, bz - az
                n = sqrt(dx * dx + dy * dy + dz * dz)
                out.append((dx / n, dy / n, dz / n))
            self._directions = out
        return self._directions

    def __repr__(self):
        return f"Frames(effector={self.points[-1]!r})"


def frames(chain, rotations, offsets=None):
    """World rotations and points of unit ``rotations``: ``(worlds, points)``; ``offsets``: the
    bones' vectors before they turn, when sliders have moved them (:func:`slid_offsets`), else the
    rest ones."""
    x, y, z = chain.points[0]
    points = [(x, y, z)]
    worlds = []
    rw, rx, ry, rz = 1.0, 0.0, 0.0, 0.0
    for (qw, qx, qy, qz), (vx, vy, vz) in zip(rotations, chain.offsets if offsets is None else offsets):
        # R_i = R_{i-1} q_i
        rw, rx, ry, rz = (rw * qw - rx * qx - ry * qy - rz * qz,
                          rw * qx + rx * qw + ry * qz - rz * qy,
                          rw * qy - rx * qz + ry * qw + rz * qx,
                          rw * qz + rx * qy - ry * qx + rz * qw)
        worlds.append((rw, rx, ry, rz))
        # p_{i+1} = p_i + R_i o_i
        tx = 2.0 * (ry * vz - rz * vy)
        ty = 2.0 * (rz * vx - rx * vz)
        tz = 2.0 * (rx * vy - ry * vx)
        x += vx + rw * tx + (ry * tz - rz * ty)
        y += vy + rw * ty + (rz * tx - rx * tz)
        z += vz + rw * tz + (rx * ty - ry * tx)
        points.append((x, y, z))
    return worlds, points


def forward(chain, rotations):
    """The ``N + 1`` points of unit ``rotations``."""
    return frames(chain, rotations)[1]


def pose_of(chain, rotations, slides=None):
    """The pose a solve returns for ``rotations``: each made unit and put within its joint's
    limits, then forward kinematics. A :class:`Frames`. ``slides``: a chain with sliders'
    displacements (per joint, ``None`` for the others; default each at 0), put within their limits.

    Every solver hands its best rotations to this function and the Solution
    measures what it returns, so "converged" means the same for all of them.
    """
    units = []
    for q, clamp, bone in zip(rotations, chain.plan.clamps, chain.directions):
        w, x, y, z = q
        n = sqrt(w * w + x * x + y * y + z * z)
        q = (w / n, x / n, y / n, z / n)
        if clamp is not None:
            q = clamp(q, bone)
        units.append(q)
    if not chain.plan.sliders:
        worlds, points = frames(chain, units)
        return Frames(units, worlds, points)
    slides = [None if joint.kind != "slider" else
              joint.constraint.clamp_slide(0.0 if slides is None else slides[joint.index])
              for joint in chain.plan.joints]
    worlds, points = frames(chain, units, slid_offsets(chain, slides))
    return Frames(units, worlds, points, slides)


def slid_offsets(chain, slides):
    """The bones' vectors before they turn with each slider's bone moved along its axis by its
    displacement: ``o_i + s_i a_i`` (``slides``: per joint, ``None`` for a joint that is no slider)."""
    out = list(chain.offsets)
    for j in chain.plan.sliders:
        (ox, oy, oz), (ax, ay, az), s = out[j], chain.plan.joints[j].axis, slides[j]
        out[j] = (ox + s * ax, oy + s * ay, oz + s * az)
    return out


def rest(chain):
    """The rest pose (every joint at the identity, within its limits), as :func:`pose_of` makes it.

    Where the limits leave every joint at the identity, every world rotation is
    :data:`~ikcore.rotation.IDENTITY` itself, which :func:`rotations_along` tells by identity
    and does not turn by.
    """
    frames = pose_of(chain, [IDENTITY] * chain.size)
    if all(world == IDENTITY for world in frames.worlds):
        return Frames(frames.rotations, [IDENTITY] * chain.size, frames.points, frames.slides)
    return frames


def rotations_along(chain, reference, points):
    """Rotations that put each bone along ``points`` (the ``N + 1`` points of a pose with the
    chain's bone lengths), each bone turned from its direction in ``reference`` (Frames) by the
    shortest arc, so that the reference's twist about the bone is kept: ``(rotations, worlds)``.

    ``R_i = shortest_arc(s_i, b_i) S_i`` with ``s_i``, ``b_i`` bone ``i``'s direction in the
    reference and in ``points`` and ``S_i`` its reference world rotation (the
    identity all along a free chain's rest pose, :func:`rest`, where the product
    is skipped); then ``q_i = R_{i-1}^* R_i``. For a chain without limits
    ``points`` are these rotations' forward kinematics, to rounding.

    With ``D`` the bone in ``points`` (``|D| = L``), ``(L + s.D, s x D)`` is the
    arc scaled by ``sqrt(2 L (L + s.D))``: normalised by its computed norm, every
    rotation is unit to rounding. Within a hundredth of a half turn
    :func:`~ikcore.rotation.shortest_arc` takes over.
    """
    rotations, worlds = [], []
    pw, px, py, pz = IDENTITY
    x0, y0, z0 = points[0]
    for (x1, y1, z1), length, (sx, sy, sz), S in zip(points[1:], chain.lengths, reference.directions,
                                                      reference.worlds):
        # D: bone i in points, from the point the last bone ended on.
        Dx, Dy, Dz = x1 - x0, y1 - y0, z1 - z0
        x0, y0, z0 = x1, y1, z1
        e = length + sx * Dx + sy * Dy + sz * Dz
        if e > 0.01 * length:
            x, y, z = sy * Dz - sz * Dy, sz * Dx - sx * Dz, sx * Dy - sy * Dx
            n = hypot(e, x, y, z)
            R = (e / n, x / n, y / n, z / n)
        else:
            R = shortest_arc((sx, sy, sz), (Dx / length, Dy / length, Dz / length))
        if S is not IDENTITY:
            R = multiply(R, S)
        worlds.append(R)
        # q_i = R_{i-1}^* R_i
        rw, rx, ry, rz = R
        rotations.append((pw * rw + px * rx + py * ry + pz * rz,
                          pw * rx - px * rw - py * rz + pz * ry,
                          pw * ry + px * rz - py * rw - pz * rx,
                          pw * rz - px * ry + py * rx - pz * rw))
        pw, px, py, pz = R
    return rotations, worlds


def pose_from_points(chain, reference, points, directions=None):
    """The :class:`Frames` of the pose whose points are ``points`` (with the chain's bone lengths):
    :func:`rotations_along`'s rotations, turned from ``reference``'s by the shortest arcs, then the limits.

    Where the limits leave every rotation as it is (a chain without limits, or
    bends that keep within their cones), the points stand as the rotations'
    forward kinematics, which they are to rounding; otherwise the limited
    rotations are posed anew (:func:`pose_of`). ``directions``: the points' unit
    bone directions, which the caller found to keep every joint inside its
    limits (FABRIK's cone chains: :meth:`~ikcore.solvers.fabrik.points.Cones.forward`):
    the clamps need not be asked, and the pose keeps them (the next solve from
    it reads them).
    """
    rotations, worlds = rotations_along(chain, reference, points)
    if directions is not None or chain.plan.free:
        frames = Frames(rotations, worlds, points)
        frames._directions = directions
        return frames
    for q, clamp, bone in zip(rotations, chain.plan.clamps, chain.directions):
        if clamp is not None and clamp(q, bone) is not q:
            return pose_of(chain, rotations)
    return Frames(rotations, worlds, points)
