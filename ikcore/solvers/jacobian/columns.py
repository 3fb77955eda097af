"""The geometric Jacobian: one column per joint axis, and the error it acts on.

Turning joint ``j`` (at the world point ``p_j``) by a small angle ``d`` about a
unit world axis ``a`` moves the end effector ``e`` by ``d a x (e - p_j)`` and
turns the last bone by ``d a``. So each axis gives one column::

    J_a = [ a x (e - p_j) ]      (position rows)
          [      c a      ]      (orientation rows, with an orientation target)

A hinge has one axis, its own, ``R_{j-1} h`` in the world; any other joint
three, the world's ``x``, ``y`` and ``z``. ``c`` (a length,
:attr:`ikcore.problem.Problem.orientation_weight`) weighs radians against
distance.

A joint pressed against one of its limits loses the axis that would push it
through (:func:`outward`): the loop solves again without it
(:func:`geometric_jacobian` with ``blocked``).
"""

from math import atan2, pi, sqrt

from ... import rotation as rot
from ...kinematics import turn
from ...plan import BALL, HINGE
from ...vectors import cross, dot, norm, sub, unit

_AXES = ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))
#: A joint counts as on a limit within this many radians of it.
ON_LIMIT = 1e-9


def residual(problem, frames, c):
    """The error the step should undo, ``m`` floats: ``t - e``, then ``c w`` with ``w`` the world
    rotation vector from the last bone's rotation to the asked one (orientation targets)."""
    t, e = problem.target, frames.points[-1]
    out = [t[0] - e[0], t[1] - e[1], t[2] - e[2]]
    if problem.orientation is not None:
        w, x, y, z = rot.multiply(problem.orientation, rot.conjugate(frames.worlds[-1]))
        if w < 0.0:
            w, x, y, z = -w, -x, -y, -z
        s = sqrt(x * x + y * y + z * z)
        k = c * 2.0 * atan2(s, w) / s if s > 0.0 else 0.0
        out += [k * x, k * y, k * z]
    return out


def axes(chain, frames, j, blocked=()):
    """Joint ``j``'s world axes: a hinge's own, else ``x``, ``y``, ``z`` without the ``blocked``
    directions (unit world vectors a limit forbids turning about)."""
    joint = chain.plan.joints[j]
    if joint.kind == HINGE:
        return [] if blocked else [turn(frames.worlds[j - 1], joint.axis) if j else joint.axis]
    found = list(_AXES)
    for b in blocked:
        # Keep the span orthogonal to b: project, drop what vanishes, re-orthonormalise.
        kept = []
        for a in found:
            for k in kept:
                a = sub(a, tuple(dot(a, k) * c for c in k))
            a = sub(a, tuple(dot(a, b) * c for c in b))
            if norm(a) > 1e-6:
                kept.append(unit(a))
        found = kept
    return found


def geometric_jacobian(chain, frames, c, oriented, blocked):
    """The Jacobian of ``frames``: ``(owners, directions, cols)``, for each column the joint it
    belongs to, its world axis and its ``m`` entries. ``blocked`` maps joints to the directions
    their limits forbid."""
    e = frames.points[-1]
    owners, directions, cols = [], [], []
    for j in range(chain.size):
        p = frames.points[j]
        r = (e[0] - p[0], e[1] - p[1], e[2] - p[2])
        for a in axes(chain, frames, j, blocked.get(j, ())):
            col = list(cross(a, r))
            if oriented:
                col += [c * a[0], c * a[1], c * a[2]]
            owners.append(j)
            directions.append(a)
            cols.append(col)
    return owners, directions, cols


def outward(chain, frames, j):
    """The world directions joint ``j``'s limits forbid turning about further (it sits on them):
    a hinge at an end of its range, a ball joint on its cone's rim or at an end of its twist."""
    joint = chain.plan.joints[j]
    parent = frames.worlds[j - 1] if j else rot.IDENTITY
    q = frames.rotations[j]
    if joint.kind == HINGE:
        hinge = joint.constraint
        if hinge.range.full:
            return []
        t = hinge.range.unwrap(hinge.angle(q))
        axis = turn(parent, joint.axis)
        if t >= hinge.range.hi - ON_LIMIT:
            return [axis]
        if t <= hinge.range.lo + ON_LIMIT:
            return [tuple(-x for x in axis)]
        return []
    if joint.kind != BALL:
        return []
    found = []
    ball = joint.constraint
    swing, twist = rot.swing_twist(q, joint.bone)
    if ball.cone < pi and rot.angle(swing) >= joint.cone - ON_LIMIT:
        # Swinging further about the swing's own axis (world) leaves the cone.
        sw = swing if swing[0] >= 0.0 else tuple(-x for x in swing)
        if norm(sw[1:]) > 1e-12:
            found.append(unit(turn(parent, sw[1:])))
    if not ball.twist.full:
        t = ball.twist.unwrap(rot.twist_angle(twist, joint.bone))
        bone = unit(turn(frames.worlds[j], joint.bone))
        if t >= ball.twist.hi - ON_LIMIT:
            found.append(bone)
        elif t <= ball.twist.lo + ON_LIMIT:
            found.append(tuple(-x for x in bone))
    return found
