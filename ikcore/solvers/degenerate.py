"""Starts the iterations cannot leave: a straight chain along the line to its target.

When every point of the chain and the target lie on one line (a straight chain
with the target on it, or straight behind the root), each step of CCD and
FABRIK sees only parallel or opposite directions: CCD's turns have no axis,
and FABRIK keeps every point on the line. :func:`straight` notices it, and
:func:`bend` curls the chain out of the line first.
"""

import math

from .. import rotation as rot
from ..kinematics import compose, turn
from ..plan import HINGE
from ..vectors import across, cross, dot, norm, sub, unit

#: Points count as on one line within this fraction of the chain's reach.
COLLINEAR = 1e-6


def straight(points, size, target=None):
    """Whether every point (and ``target``) lies within ``COLLINEAR x size`` of one line.

    The line runs through the first point and the last, or the farthest one
    when the last sits on the first. The target is tested first: a chain that
    is straight but aims off its target is told at once.
    """
    eps = COLLINEAR * size
    first = points[0]
    candidates = points if target is None else [target, *points]
    far = points[-1]
    if math.dist(far, first) <= eps:
        far = max(candidates, key=lambda p: math.dist(p, first))
        if math.dist(far, first) <= eps:
            return True
    line = unit(sub(far, first))
    return all(norm(across(sub(p, first), line)) <= eps for p in candidates)


def arc_angle(count, ratio):
    """The turn ``a`` at each of ``count`` joints that curls equal bones into an arc whose chord
    is ``ratio`` of their length: ``sin(count a / 2) / (count sin(a / 2)) = ratio``.

    Found by bisection on ``(0, top]``: the chord falls as ``a`` grows up to
    ``top``, which stops short of a closed circle (a chain folded onto a line
    again). At least 0.05 radians, so that the chain leaves the line.
    """
    low, high = 0.0, min(0.5 * math.pi, 1.6 * math.pi / count)
    for _ in range(40):
        a = 0.5 * (low + high)
        if math.sin(0.5 * count * a) / (count * math.sin(0.5 * a)) > ratio:
            low = a
        else:
            high = a
    return max(a, 0.05)


def bend(chain, frames, toward, target):
    """Rotations that curl the straight pose ``frames`` into an arc off its line.

    Every joint turns by one angle (:func:`arc_angle`, so the arc's chord fits
    the target's distance from the root) about one world axis normal to the
    line, a hinge about its own axis; the limits hold. The chain curls toward
    ``toward`` (a point, such as a pole) when given, else toward any side.
    """
    points = frames.points
    root = points[0]
    angle = arc_angle(chain.size, math.dist(target, root) / chain.reach)
    line = sub(points[-1], root)
    if norm(line) < 1e-9 * chain.reach:
        line = sub(points[1], root)
    line = unit(line)
    side = None if toward is None else across(sub(toward, root), line)
    if side is None or norm(side) <= 1e-9 * chain.reach:
        side = rot.perpendicular(line)
    # Turning the line toward the side: about line x side.
    axis = cross(line, side)
    out = []
    parent = rot.IDENTITY
    for q, joint, world in zip(frames.rotations, chain.plan.joints, frames.worlds):
        local = turn(rot.conjugate(parent), axis)
        if joint.kind == HINGE:
            hinge = joint.constraint
            sign = 1.0 if dot(local, hinge.axis) >= 0.0 else -1.0
            q = hinge.rotation(hinge.angle(q) + sign * angle)
        else:
            q = rot.normalize(compose(rot.from_axis_angle(local, angle), q))
            if joint.clamp is not None:
                q = joint.clamp(q, joint.bone)
        out.append(q)
        parent = world
    return out
