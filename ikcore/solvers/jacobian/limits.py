"""Joints pressed against their limits: the directions a step must not turn them.

A joint sitting on a limit cannot turn further through it: a step that asks it
to is clamped back, and spent for nothing. So the loop finds, for the pose it
steps from, the world directions each joint's limits forbid (:func:`limit_directions`);
when a step turns a joint along one (:func:`pushing_through`), that direction leaves the
joint's axes (:meth:`.joints.JointJacobian.block`) and the step is solved again
without it, so that the other joints take up the motion.
"""

from math import atan2, pi, sqrt

from ... import rotation as rot
from ...plan import BALL, HINGE, SLIDER
from ...rotation import rotate
from ...vectors import norm, unit

#: A joint counts as on a limit within this many radians of it.
ON_LIMIT = 1e-9
#: A ball joint farther than this (radians) inside its limits is told at once to be on none.
CLEAR = 1e-7


def limit_directions(chain, frames, j, jac):
    """The world directions joint ``j``'s limits forbid turning about further (it sits on them):
    a hinge at an end of its range, a ball joint on its cone's rim or at an end of its twist, a slider
    at an end of its range (the directions then those it would slide along).
    ``jac``: the pose's :class:`~.joints.JointJacobian` (a hinge's angle and world axis)."""
    joint = chain.plan.joints[j]
    if joint.kind == HINGE:
        limits = joint.range
        t = jac.angles[j]
        if limits.full or limits.lo + ON_LIMIT < t < limits.hi - ON_LIMIT:
            return []
        axis = jac.bases[j][0]
        return [axis] if t >= limits.hi - ON_LIMIT else [(-axis[0], -axis[1], -axis[2])]
    if joint.kind == SLIDER:
        # A slider at an end of its range: its world axis, or the axis reversed, or both.
        slider, s = joint.constraint, jac.angles[j]
        ax, ay, az = jac.bases[j][0]
        return (([(ax, ay, az)] if s >= slider.upper - ON_LIMIT else [])
                + ([(-ax, -ay, -az)] if s <= slider.lower + ON_LIMIT else []))
    if joint.kind != BALL or _inside(joint, frames.rotations[j]):
        return []
    parent = frames.worlds[j - 1] if j else rot.IDENTITY
    found = []
    ball = joint.constraint
    swing, twist = rot.swing_twist(frames.rotations[j], joint.bone)
    if ball.cone < pi and rot.angle(swing) >= joint.cone - ON_LIMIT:
        # Swinging further about the swing's own axis (world) leaves the cone.
        sw = swing if swing[0] >= 0.0 else tuple(-x for x in swing)
        if norm(sw[1:]) > 1e-12:
            found.append(unit(rotate(parent, sw[1:])))
    end = 0 if ball.twist.full else _end(ball.twist, rot.twist_angle(twist, joint.bone))
    if end:
        bone = unit(rotate(frames.worlds[j], joint.bone))
        found.append(bone if end > 0 else tuple(-x for x in bone))
    return found


def _inside(joint, q):
    """Whether ball joint ``joint`` is clearly within its limits at ``q`` (by :data:`CLEAR`): the
    common case, told from ``q = (w, v)`` and the bone ``d`` alone. The twist about ``d`` is ``(w,
    p d)`` normalised, ``p = v . d``, its angle ``2 atan2(p, w)``; the swing's angle is ``2 atan2(|v
    x d|, sqrt(w^2 + p^2))``."""
    ball = joint.constraint
    w, x, y, z = q
    dx, dy, dz = joint.bone
    p = x * dx + y * dy + z * dz
    if ball.cone < pi:
        cx, cy, cz = y * dz - z * dy, z * dx - x * dz, x * dy - y * dx
        if 2.0 * atan2(sqrt(cx * cx + cy * cy + cz * cz), sqrt(w * w + p * p)) >= joint.cone - CLEAR:
            return False
    if ball.twist.full:
        return True
    t = ball.twist.nearest_turn(2.0 * atan2(p, w))
    return ball.twist.lo + CLEAR < t < ball.twist.hi - CLEAR


def _end(limits, angle):
    """Which end of the range ``limits`` (an :class:`~ikcore.constraints.AngleRange`) ``angle`` sits
    on: 1 the top, -1 the bottom (also a hair below it, which unwraps to a whole turn above), 0 none."""
    t = limits.unwrap(angle)
    if t <= limits.lo + ON_LIMIT or t >= limits.lo + 2.0 * pi - ON_LIMIT:
        return -1
    return 1 if t >= limits.hi - ON_LIMIT else 0


def pose_limits(chain, frames, jac):
    """``{j: directions}`` for every joint of ``frames`` that sits on a limit (see :func:`limit_directions`;
    ``jac`` the pose's Jacobian)."""
    if chain.plan.free:
        return {}
    return {j: found for j in range(chain.size) if (found := limit_directions(chain, frames, j, jac))}


def pushing_through(turns, limits, blocked):
    """The limit directions the joints' world ``turns`` push through and that are not ``blocked``
    yet (``{j: [d, ...]}``): ``[(j, d), ...]``."""
    out = []
    for j, found in limits.items():
        w = turns[j]
        if w is None:
            continue
        for d in found:
            if w[0] * d[0] + w[1] * d[1] + w[2] * d[2] > 1e-15 and d not in blocked.get(j, ()):
                out.append((j, d))
    return out
