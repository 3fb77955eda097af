"""The analytic two-bone solver: law of cosines, exact in one step.

For bones of lengths ``l1``, ``l2`` and a target at distance ``d`` from the root,
clamped into the reachable shell ``[|l1 - l2|, l1 + l2]``, the angle ``alpha``
between the root-target line ``u`` and the upper bone is::

    cos(alpha) = (l1^2 + d^2 - l2^2) / (2 l1 d)

The knee goes to ``root + l1 (cos(alpha) u + sin(alpha) k)``, with ``k`` the unit
bend direction normal to ``u``, and the tip to ``root + d u``. ``k`` is chosen,
first that applies:

1. toward the ``pole`` (a world point): the bend plane holds root, target and
   pole, the knee on the pole's side;
2. the start pose's bend plane, its normal turned to hold ``u``, the knee on the
   same side as before;
3. for a straight start, toward where the upper bone pointed;
4. the rest pose's bend plane; 5. any perpendicular of ``u`` (deterministic).

Out of reach the chain is stretched straight at the target (too far) or folded
toward it (nearer than ``|l1 - l2|``). Each bone then turns by the shortest arc
from its start direction (its twist kept), the lower bone in its parent's frame,
so the knee turns as a hinge when the bend plane is kept. Joint limits are
applied after; if they move the tip, the error says so (and the outcome is
"stalled": the limits are a wall the closed form cannot pass).

A leg whose two joints are hinges about one axis, its rest points in the plane
normal to that axis through the root, solved for a target and a pole in that
plane (a spider's legs, frame after frame), takes the same steps on angles in the
plane instead of 3D arcs (:func:`_planar`): the same pose to rounding, with no
arc to build nor twist to take back out of it. Its points and world rotations
come from the same clamped angles, and the verdict takes them (see
:attr:`~ikcore.problem.Outcome.settled`) instead of forward kinematics.

No options. Convention: :mod:`ikcore.rotation`.
"""

import math

from .. import rotation as rot
from ..chain import _hinge_rotation
from ..errors import IKError
from ..problem import Outcome
from ..solve import verdict
from ._per_chain import per_chain

OPTIONS = {}
MAX_ITERATIONS = 1


def check_problem(chain, options):
    """Refuse chains that are not two bones (orientation targets are refused before: the
    method is not one of :data:`ikcore.solve.ORIENTATION_METHODS`)."""
    if chain.size != 2:
        raise IKError(f"method 'two_bone' needs a chain of exactly 2 bones, got {chain.size}")


def _sub(a, b):
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def _cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def _across(v, u, eps):
    """The unit part of ``v`` normal to unit ``u``, or None when it is (nearly) zero."""
    t = v[0] * u[0] + v[1] * u[1] + v[2] * u[2]
    x, y, z = v[0] - t * u[0], v[1] - t * u[1], v[2] - t * u[2]
    n = math.sqrt(x * x + y * y + z * z)
    if n <= eps:
        return None
    return (x / n, y / n, z / n)


def _bend_direction(u, root, knee, tip, rest, pole, eps):
    """The unit direction ``k`` normal to ``u`` that the knee bends toward (see module notes)."""
    if pole is not None:
        k = _across(_sub(pole, root), u, eps)
        if k is not None:
            return k
    for a, b, c in ((root, knee, tip), rest):
        normal = _across(_cross(_sub(b, a), _sub(c, a)), u, eps * eps)
        if normal is not None:
            return _cross(u, normal)
        if b is knee:
            k = _across(_sub(knee, root), u, eps)
            if k is not None:
                return k
    return rot.perpendicular(u)


def run(problem):
    """Solve ``problem`` in closed form (one iteration)."""
    chain = problem.chain
    if problem.pole is not None and chain._hinges[0] is not None:
        plane = _plane(chain)
        if plane is not None:
            outcome = _planar(problem, plane)
            if outcome is not None:
                return outcome
    root = chain.points[0]
    l1, l2 = chain.lengths
    d0, d1 = chain.directions
    q0, q1 = problem.start
    _, knee, tip = _start_points(chain, problem.start, problem.frames)
    target = problem.target
    eps = 1e-9 * chain.reach

    v = _sub(target, root)
    d = math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2])
    if d > eps:
        u = (v[0] / d, v[1] / d, v[2] / d)
    else:
        # Target at the root: any direction serves; keep the tip's, else one across the upper bone.
        w = _sub(tip, root)
        n = math.sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2])
        u = (w[0] / n, w[1] / n, w[2] / n) if n > eps else rot.perpendicular(_sub(knee, root))
    dc = min(max(d, abs(l1 - l2)), l1 + l2)
    cos_a = (l1 * l1 + dc * dc - l2 * l2) / (2.0 * l1 * dc) if dc > eps else 0.0
    cos_a = min(1.0, max(-1.0, cos_a))
    sin_a = math.sqrt(1.0 - cos_a * cos_a)
    k = _bend_direction(u, root, knee, tip, chain.points, problem.pole, eps)

    b0 = (cos_a * u[0] + sin_a * k[0], cos_a * u[1] + sin_a * k[1], cos_a * u[2] + sin_a * k[2])
    new_knee = (root[0] + l1 * b0[0], root[1] + l1 * b0[1], root[2] + l1 * b0[2])
    new_tip = (root[0] + dc * u[0], root[1] + dc * u[1], root[2] + dc * u[2])
    b1 = _sub(new_tip, new_knee)

    # Shortest arcs from the start directions: the upper bone in the world, the lower in its parent's frame.
    r0 = rot.normalize(rot.multiply(rot.between(rot.rotate(q0, d0), b0), q0))
    lower = rot.rotate(rot.conjugate(r0), b1)
    r1 = rot.normalize(rot.multiply(rot.between(rot.rotate(q1, d1), lower), q1))
    # The verdict's own check (clamped to the limits, forward kinematics), done here: the error
    # after the limits says whether they stopped the closed form, and the verdict takes it as is.
    worlds = []
    settled = chain._judge([r0, r1], worlds) if chain.limited else chain._settle([r0, r1], worlds)
    return _outcome(problem, d, tip, settled, worlds)


def _start_points(chain, start, frames):
    """The start's three points: a warm start's verdict kept them (``frames``), else forward kinematics."""
    return chain._forward(start) if frames is None else frames[1]


def _outcome(problem, d, tip, settled, worlds):
    """The closed form's :class:`~ikcore.problem.Outcome`: the verdict's ``settled`` pose (with its
    world rotations ``worlds``) for a target at distance ``d`` from the root, the start's ``tip``."""
    errors, stalled = _measured(problem.chain, problem.tolerance, problem.target, d, tip, settled[1])
    return Outcome(settled[0], 1, errors, stalled, settled, worlds)


def _measured(chain, tolerance, target, d, tip, points):
    """The closed form's errors (the start's ``tip``, then the pose's ``points``) for a target at distance
    ``d`` from the root, and whether it stalled. Only limits can keep the closed form from its best pose;
    then progress is at a wall. (Within the tolerance it is not: the best pose is weighed only past it.)"""
    error = math.dist(points[2], target)
    stalled = False
    if error > tolerance and chain.limited:
        l1, l2 = chain.lengths
        stalled = error > max(d - (l1 + l2), abs(l1 - l2) - d, 0.0) + 1e-9 * chain.reach
    return [math.dist(tip, target), error], stalled


def warm(settings):
    """For a planar leg (see the module notes), the warm solve of ``settings``' chain without the
    Problem and Outcome; ``None`` for any other chain.

    It is ``solve(target, pole, start, frames)``, for what :func:`ikcore.solve.solve_warm` passes on
    (a plain target and pole, the unchanged rotations of the chain's last verdict and their
    frames), and returns the Solution that the planar steps and the verdict give, bit for bit;
    ``None`` where the planar steps do not apply (the caller then takes the usual path).
    """
    chain = settings.chain
    plane = None if chain._hinges[0] is None else _plane(chain)
    if plane is None:
        return None
    tolerance = settings.tolerance

    def solve(target, pole, start, frames):
        if pole is None:
            return None
        pose = _planar_pose(plane, chain, target, pole, start)
        if pose is None:
            return None
        d, rotations, points, last = pose
        errors, stalled = _measured(chain, tolerance, target, d, _start_points(chain, start, frames)[2], points)
        return verdict(chain, target, tolerance, "two_bone", rotations, points, 1, errors, stalled,
                       [rotations[0], last])

    return solve


# -- planar legs ------------------------------------------------------------------------------

#: How far (a fraction of the reach) a point may lie off a leg's plane and still count as in it:
#: rounding only, so the planar pose is the 3D one to rounding.
_IN_PLANE = 1e-12
#: Sine below which a bone's turn counts as a half turn: there the 3D arc may take another axis
#: than the hinges', and only the general path says what the limits make of it.
_HALF_TURN = 1e-6

def _plane_of(chain):
    """The leg's plane when both joints are hinges about one unit axis ``a`` and both bones lie
    across it, else ``None``: what :func:`_planar_pose` takes from the chain, worked out once, as
    one flat tuple (one unpacking a solve), in this order:

    - ``a``, ``e1`` the first bone's rest direction and ``e2 = a x e1`` (angles about ``a`` are
      measured from ``e1``), three floats each;
    - ``(cos, sin)`` of ``d1``'s angle, then that angle;
    - the in-plane and at-the-root distances and the bones' lengths as the law of cosines takes
      them (the same floats it would compute);
    - ``i``, where ``a``'s largest component is in a quaternion (1 to 3), and ``a_i`` that component;
    - each joint's limits as the bounds ``lo <= t <= hi`` of angles it takes as they are (within
      its range and within a half turn: ``[-pi, pi]`` for a full circle);
    - each rest bone ``v`` split for a turn by ``t`` about ``a`` (Rodrigues:
      ``R v = (a.v) a + cos(t) (v - (a.v) a) + sin(t) a x v``) into its parts along ``a`` (the
      first one plus the root), across ``a`` and ``a x v``, three floats each;
    - last, ``[pole, (p, q)]``: the last pole found in the plane with its coordinates there (a leg
      is solved frame after frame with the same pole, a tuple, which does not change).
    """
    h0, h1 = chain._hinges
    if h0 is None or h1 is None or chain.joints[0].axis != chain.joints[1].axis:
        return None
    a = chain.joints[0].axis
    d0, d1 = chain.directions
    if max(abs(d[0] * a[0] + d[1] * a[1] + d[2] * a[2]) for d in (d0, d1)) > _IN_PLANE:
        return None
    e1 = _across(d0, a, 0.0)
    e2 = _cross(a, e1)
    x, y = d1[0] * e1[0] + d1[1] * e1[1] + d1[2] * e1[2], d1[0] * e2[0] + d1[1] * e2[1] + d1[2] * e2[2]
    n = math.hypot(x, y)
    l1, l2 = chain.lengths
    sizes = (_IN_PLANE * chain.reach, 1e-9 * chain.reach, l1, l1 * l1, l2 * l2, 2.0 * l1, abs(l1 - l2), l1 + l2)
    i = max(range(3), key=lambda i: abs(a[i]))
    limits = []
    for _, _, _, _, lo, hi, full in (h0, h1):
        limits += (-math.pi, math.pi) if full else (lo, hi)
    bones = []
    for v in chain.offsets:
        t = v[0] * a[0] + v[1] * a[1] + v[2] * a[2]
        bones += [(t * a[0], t * a[1], t * a[2]), (v[0] - t * a[0], v[1] - t * a[1], v[2] - t * a[2]), _cross(a, v)]
    root = chain.points[0]
    bones[0] = (root[0] + bones[0][0], root[1] + bones[0][1], root[2] + bones[0][2])
    return (*a, *e1, *e2, x / n, y / n, math.atan2(y, x), *sizes, i + 1, a[i], *limits,
            *(c for bone in bones for c in bone), [None, None])


_plane = per_chain(_plane_of)


def _planar(problem, plane):
    """:func:`run`'s steps in the leg's plane (see the module notes); ``None`` where they would
    not give its pose (see :func:`_planar_pose`)."""
    chain = problem.chain
    pose = _planar_pose(plane, chain, problem.target, problem.pole, problem.start)
    if pose is None:
        return None
    d, rotations, points, last = pose
    return _outcome(problem, d, _start_points(chain, problem.start, problem.frames)[2], (rotations, points, last),
                    [rotations[0], last])


def _planar_pose(plane, chain, target, pole, start):
    """The planar steps' pose for ``target`` with ``pole`` from ``start``: ``(d, rotations, points,
    last)``, ``d`` the target's distance from the root and the rest as an outcome's ``settled``
    (``last`` the lower bone's world rotation); ``None`` where the steps would not give the 3D
    pose: the target or pole off the plane, the target at the root, the pole on the root-target
    line, or a bone turning by about a half turn."""
    (ax, ay, az, e1x, e1y, e1z, e2x, e2y, e2z, c1, s1, t1, off, eps, l1, l1l1, l2l2, l1x2, shortest, longest,
     i, ai, lo0, hi0, lo1, hi1, kx, ky, kz, m0x, m0y, m0z, n0x, n0y, n0z, zx, zy, zz, m1x, m1y, m1z, n1x, n1y, n1z,
     known) = plane
    root = chain.points[0]
    rx, ry, rz = root
    tx, ty, tz = target
    tx, ty, tz = tx - rx, ty - ry, tz - rz
    # |t.a| > off, as comparisons (abs is a call).
    v = tx * ax + ty * ay + tz * az
    if v > off or v < -off:
        return None
    # The target (x, y) and pole (p, q) in the plane's coordinates.
    x, y = tx * e1x + ty * e1y + tz * e1z, tx * e2x + ty * e2y + tz * e2z
    if pole is known[0]:
        p, q = known[1]
    else:
        px, py, pz = pole
        px, py, pz = px - rx, py - ry, pz - rz
        v = px * ax + py * ay + pz * az
        if v > off or v < -off:
            return None
        p, q = known[1] = px * e1x + py * e1y + pz * e1z, px * e2x + py * e2y + pz * e2z
        known[0] = pole
    d = math.hypot(x, y)
    if d <= eps:
        return None
    ux, uy = x / d, y / d
    # The pole's part across u, signed: the knee bends to its side.
    side = ux * q - uy * p
    if -eps <= side <= eps:
        return None
    # run's clamps (min, max) as comparisons: the same floats, without the calls.
    dc = shortest if shortest > d else d
    if longest < dc:
        dc = longest
    cos_a = (l1l1 + dc * dc - l2l2) / (l1x2 * dc) if dc > eps else 0.0
    if not cos_a > -1.0:
        cos_a = -1.0
    elif not cos_a < 1.0:
        cos_a = 1.0
    sin_a = math.sqrt(1.0 - cos_a * cos_a)
    if side < 0.0:
        sin_a = -sin_a
    # Upper bone b0 = cos(alpha) u + sin(alpha) k, k = u turned a quarter about a, toward the pole.
    b0x, b0y = cos_a * ux - sin_a * uy, cos_a * uy + sin_a * ux
    # Lower bone, tip minus knee, then in the upper bone's frame (turned back by b0's angle).
    wx, wy = dc * ux - l1 * b0x, dc * uy - l1 * b0y
    lx, ly = b0x * wx + b0y * wy, b0x * wy - b0y * wx
    q0, q1 = start
    # Each bone's start direction, (cos, sin) of its angle: a hinge rotation by t is
    # (cos t/2, a sin t/2), so cos t = w^2 - s^2 and sin t = 2 w s (s read off a's largest
    # component: a start within the limits is a turn about a).
    w, s = q0[0], q0[i] / ai
    cx, sx = w * w - s * s, 2.0 * w * s
    if cx * b0x + sx * b0y < 0.0 and abs(cx * b0y - sx * b0x) < _HALF_TURN:
        return None
    w, s = q1[0], q1[i] / ai
    cx, sx = w * w - s * s, 2.0 * w * s
    # The lower bone's start direction in the upper bone's frame: d1's angle plus joint 1's.
    cx, sx = cx * c1 - sx * s1, sx * c1 + cx * s1
    if cx * lx + sx * ly < 0.0 and abs(cx * ly - sx * lx) < _HALF_TURN * math.hypot(lx, ly):
        return None
    # Each joint's angle, clamped into its limits: taken as it is where it lies within them (the
    # rotation's half angle straight from it), else by _hinge_rotation (a, or the nearer limit).
    # Then the world rotations, about a too: the upper bone's is r0, the lower bone's turns by both
    # angles (the product of the halves).
    t = math.atan2(b0y, b0x)
    if lo0 <= t <= hi0:
        c, s = math.cos(0.5 * t), math.sin(0.5 * t)
        r0 = (c, ax * s, ay * s, az * s)
    else:
        r0 = _hinge_rotation(chain._hinges[0], t)
        c, s = r0[0], r0[i] / ai
    t = math.atan2(ly, lx) - t1
    if lo1 <= t <= hi1:
        w, v = math.cos(0.5 * t), math.sin(0.5 * t)
        r1 = (w, ax * v, ay * v, az * v)
    else:
        r1 = _hinge_rotation(chain._hinges[1], t)
        w, v = r1[0], r1[i] / ai
    w, v = c * w - s * v, s * w + c * v
    # The verdict's pose, vouched for (Outcome.settled) instead of its forward kinematics: each
    # bone's rest vector turns by its world angle (Rodrigues).
    cx, sx = c * c - s * s, 2.0 * c * s
    kx += cx * m0x + sx * n0x
    ky += cx * m0y + sx * n0y
    kz += cx * m0z + sx * n0z
    cx, sx = w * w - v * v, 2.0 * w * v
    last = (w, v * ax, v * ay, v * az)
    points = [root, (kx, ky, kz), (kx + zx + cx * m1x + sx * n1x, ky + zy + cx * m1y + sx * n1y,
                                   kz + zz + cx * m1z + sx * n1z)]
    return d, [r0, r1], points, last
