"""Starts the iterations cannot leave: a straight chain along the line to its target.

When every point of the chain and the target lie on one line (a straight chain
with the target on it, or straight behind the root), each step of CCD and
FABRIK sees only parallel or opposite directions: CCD's turns have no axis,
and FABRIK keeps every point on the line. :func:`straight` notices it, and
:func:`bend` curls the chain out of the line first.
"""

import math

from .. import rotation as rot
from ..plan import HINGE
from ..rotation import multiply, rotate
from ..vectors import across, cross, dot, norm, sub, unit

#: Points count as on one line within this fraction of the chain's reach.
COLLINEAR = 1e-6


def straight(chain, frames, target=None):
    """Whether every point of ``frames`` (and ``target``, when given) lies within ``COLLINEAR x
    reach`` of one line.

    The line runs through the first point and the last, or the farthest one
    when the last sits on the first; when every point sits on the first, any
    target is on a line with them. The target is tested first: a chain that is
    straight but aims off its target is told at once. A cold solve's start, the
    rest pose, has its line worked out once per chain.
    """
    rest, line = chain.plan.layouts[_rest_line]
    if frames is not rest:
        line = _line(frames.points, chain.reach, target)
    if line is None or target is None or line[1] is None:
        return line is not None
    return _off_line(target, line) <= COLLINEAR * chain.reach


def _line(points, size, target=None):
    """``(first point, unit direction)`` of the line every point (and ``target``) lies on (the
    direction ``None`` when every point sits on the first), or ``None`` when they leave every line."""
    eps = COLLINEAR * size
    first = points[0]
    far = points[-1]
    if math.dist(far, first) <= eps:
        far = max(points, key=lambda p: math.dist(p, first))
        if math.dist(far, first) <= eps:
            return first, None
    line = first, unit(sub(far, first))
    if target is not None and _off_line(target, line) > eps:
        return None
    return line if all(_off_line(p, line) <= eps for p in points) else None


def _off_line(p, line):
    """``p``'s distance from the line through ``a`` along unit ``u``: ``|d - (d.u) u|``, ``d = p - a``."""
    (ax, ay, az), (ux, uy, uz) = line
    dx, dy, dz = p[0] - ax, p[1] - ay, p[2] - az
    t = dx * ux + dy * uy + dz * uz
    return math.hypot(dx - t * ux, dy - t * uy, dz - t * uz)


def _rest_line(chain):
    """The chain's rest pose and its line (:func:`_line`)."""
    rest = chain.plan.rest
    return rest, _line(rest.points, chain.reach)


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
        local = rotate(rot.conjugate(parent), axis)
        if joint.kind == HINGE:
            hinge = joint.constraint
            sign = 1.0 if dot(local, hinge.axis) >= 0.0 else -1.0
            q = hinge.rotation(hinge.angle(q) + sign * angle)
        else:
            q = rot.normalize(multiply(rot.from_axis_angle(local, angle), q))
            if joint.clamp is not None:
                q = joint.clamp(q, joint.bone)
        out.append(q)
        parent = world
    return out
