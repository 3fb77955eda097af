"""From a path of URDF joints to an ikcore chain's rest points, hinge axes and tip frame.

URDF poses a link by the product of its joints' transforms,
``T = O_1 Rot(a_1, q_1) O_2 Rot(a_2, q_2) ... O_tip`` (``O_j`` joint ``j``'s origin,
``a_j`` its axis in its own frame). With ``W_j = O_1 ... O_j`` the rest frame of
joint ``j`` (all ``q = 0``), the same product reads
``T = [W_1 Rot(a_1, q_1) W_1^-1] ... [W_n Rot(a_n, q_n) W_n^-1] W_tip``: each joint turns
everything after it about a fixed line of the rest pose, through its point
``W_j``'s origin, along the world axis ``W_j a_j``. That is exactly an ikcore
chain (:mod:`ikcore.rotation`): rest points, one hinge per joint with its axis in
rest world coordinates, the tip the last point, and a hinge's angle the URDF
joint value. A prismatic joint's bracket ``W_j Trans(a_j d_j) W_j^-1`` moves
everything after it along the world axis ``W_j a_j`` turned by the joints before:
a :class:`~ikcore.Slider` with that axis. Fixed joints only multiply into the ``W``.

A joint turns about a line, so its point may sit anywhere on that line
without changing the motion. A chain wants bones of some length, and URDF
often puts two joints at one point (a shoulder, a wrist): the root is put at
the point of the first axis nearest the base frame's origin, and a joint that
shares its point with the next is moved along its own axis toward the joint
before it (:func:`place`). A slider turns nothing, so its point may sit
anywhere on the link before it: where its bone would pass through the point as
it slides, the point is moved across its axis.
"""

import math

from ..errors import IKError
from ..rotation import perpendicular
from ..transforms import apply, compose

#: Bones shorter than this fraction of the chain's extent count as none: the joint is moved.
SHORT = 1e-6


class Hinges:
    """A path's moving joints at rest: ``names``, ``types``, world ``points`` and unit ``axes``,
    ``limits`` (``(lower, upper)`` radians, ``None`` for a continuous joint), and the ``tip``
    frame's rest transform ``(R, t)`` in the base frame."""

    __slots__ = ("names", "types", "points", "axes", "limits", "slides", "tip")

    def __init__(self, joints, tool=None):
        self.names, self.types, self.points, self.axes, self.limits = [], [], [], [], []
        frame = ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)), (0.0, 0.0, 0.0)
        for joint in joints:
            frame = compose(frame, joint.origin)
            if joint.type == "fixed":
                continue
            self.names.append(joint.name)
            self.types.append(joint.type)
            self.points.append(frame[1])
            axis = apply(frame[0], joint.axis)
            norm = math.hypot(*axis)
            self.axes.append(tuple(c / norm for c in axis))
            self.limits.append(None if joint.type == "continuous" else (joint.lower, joint.upper))
        self.slides = [limits if kind == "prismatic" else None for kind, limits in zip(self.types, self.limits)]
        if not self.names:
            raise IKError(f"no moving joint between the base and the tip: the path "
                          f"({', '.join(j.name for j in joints)}) holds fixed joints only")
        self.tip = frame if tool is None else compose(frame, tool)


def place(points, axes, slides=None):
    """The chain's rest points: ``points`` (each joint's, then the tip) with each joint moved
    along its own axis where it would make a bone of no length, and each slider's (``slides``: per
    joint its range, ``None`` for a hinge) across its axis where it would slide through it (see the
    module docstring)."""
    points = list(points)
    extent = math.fsum(math.dist(a, b) for a, b in zip(points, points[1:])) + math.hypot(*points[0])
    if not extent > 0.0:
        raise IKError("every joint and the tip lie at the base frame's origin: the chain has no extent")
    short = SHORT * extent
    # The root: the point of the first axis nearest the base frame's origin (the foot of the
    # perpendicular, p - ((p - o) . a) a with o = 0), unless that is where the next point is.
    foot = _along(points[0], axes[0], -_dot(points[0], axes[0]))
    if math.dist(foot, points[1]) > short:
        points[0] = foot
    for j in range(len(axes) - 1, -1, -1):
        if math.dist(points[j], points[j + 1]) > short:
            continue
        # Toward the foot of the point before (the base origin before the root) on this axis:
        # half the way, so neither bone vanishes; along the axis by a tenth of the extent where
        # that point lies across the axis.
        before = points[j - 1] if j else (0.0, 0.0, 0.0)
        s = _dot(tuple(b - p for b, p in zip(before, points[j])), axes[j])
        points[j] = _along(points[j], axes[j], 0.5 * s if abs(s) > short else -0.1 * extent)
    for j, limits in enumerate(slides or ()):
        if limits is not None and _shortest(points[j], points[j + 1], axes[j], limits) <= short:
            points[j] = _across(points, j, axes[j], 0.1 * extent, short)
    return points


def _shortest(p, q, axis, limits):
    """The shortest the bone from ``p`` to ``q`` gets as ``q`` slides along ``axis`` within ``limits``:
    ``|o + s a|`` is least at ``s = -(o . a)``, clamped into the range."""
    o = (q[0] - p[0], q[1] - p[1], q[2] - p[2])
    s = min(max(-_dot(o, axis), limits[0]), limits[1])
    return math.dist(_along(o, axis, s), (0.0, 0.0, 0.0))


def _across(points, j, axis, distance, short):
    """Slider ``j``'s point moved ``distance`` across its axis, to the side that leaves the bone
    before it a length."""
    side = perpendicular(axis)
    for sign in (1.0, -1.0):
        moved = _along(points[j], side, sign * distance)
        if j == 0 or math.dist(moved, points[j - 1]) > short:
            return moved
    return moved


def _dot(a, b):
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def _along(p, axis, s):
    return (p[0] + s * axis[0], p[1] + s * axis[1], p[2] + s * axis[2])
