"""A Panda-like 7-joint arm: the Franka Emika Panda's published kinematics and joint limits.

Franka publishes the Panda's kinematics as modified (Craig) Denavit-Hartenberg
parameters, each joint ``i`` turning about the ``z`` axis of its frame,
``T_i = RotX(alpha_i) TransX(a_i) RotZ(theta_i) TransZ(d_i)`` (metres,
radians), and its joint limits (:data:`DH`, :data:`LIMITS`). At ``theta = 0`` the
arm stands upright with the wrist bent down; its usual *ready* pose is
:data:`READY`.

As an ikcore chain (:func:`panda`), the arm's rest pose is that upright pose,
Y up (the Panda's ``(x, y, z)`` is ikcore's ``(x, z, -y)``), and each joint a
:class:`~ikcore.Hinge` about its frame's ``z`` axis at rest, with the published
range, so that a hinge's angle is the Panda's joint angle. A joint may sit
anywhere on its own axis without changing the arm's motion; two of the
published frames share a point (joints 1 and 2 at the shoulder, 5 and 6 at the
wrist), which would make a bone of zero length, so joint 1 sits at the base,
0.333 below the shoulder, and joint 5 at :data:`FOREARM_SPLIT` below the wrist,
each moved along its own axis. The chain's last point is the flange, its last
bone's world rotation the flange's turn from rest (the orientation target of
:func:`ikcore.solve`).
"""

import math

from ..chain import Chain
from ..constraints import Hinge

#: Modified Denavit-Hartenberg parameters ``(a, d, alpha)`` of joints 1 to 7 and of the flange.
DH = ((0.0, 0.333, 0.0), (0.0, 0.0, -math.pi / 2), (0.0, 0.316, math.pi / 2), (0.0825, 0.0, math.pi / 2),
      (-0.0825, 0.384, -math.pi / 2), (0.0, 0.0, math.pi / 2), (0.088, 0.0, math.pi / 2), (0.0, 0.107, 0.0))
#: Joint limits ``(lower, upper)``, radians.
LIMITS = ((-2.8973, 2.8973), (-1.7628, 1.7628), (-2.8973, 2.8973), (-3.0718, -0.0698), (-2.8973, 2.8973),
          (-0.0175, 3.7525), (-2.8973, 2.8973))
#: The ready pose's joint angles.
READY = (0.0, -math.pi / 4, 0.0, -3 * math.pi / 4, 0.0, math.pi / 2, math.pi / 4)
#: How far below the wrist (along its own axis) joint 5 sits.
FOREARM_SPLIT = 0.2


def dh_frames(angles):
    """The Panda's frames for joint ``angles`` by its DH parameters, in its own coordinates (Z up):
    per joint, then the flange, ``(origin, z axis, rotation matrix)`` (rows of 3)."""
    R = ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))
    origin = (0.0, 0.0, 0.0)
    out = []
    for (a, d, alpha), theta in zip(DH, (*angles, 0.0)):
        # RotX(alpha) TransX(a): the origin moves a along the old x; then RotZ(theta) TransZ(d).
        origin = tuple(o + a * R[k][0] for k, o in enumerate(origin))
        R = _times(R, _rot_x(alpha))
        R = _times(R, _rot_z(theta))
        origin = tuple(o + d * R[k][2] for k, o in enumerate(origin))
        out.append((origin, (R[0][2], R[1][2], R[2][2]), R))
    return out


def to_y_up(v):
    """A Panda (Z up) vector in ikcore's Y-up coordinates: ``(x, y, z) -> (x, z, -y)``."""
    return (v[0], v[2], -v[1])


def panda():
    """The Panda-like arm (see the module docstring): ``(chain, ready)``, ``ready`` the ready pose's
    local rotations ``(w, x, y, z)`` in the convention of :mod:`ikcore.rotation`.

    Examples
    --------
    >>> from ikcore.rigs import panda
    >>> chain, ready = panda()
    >>> chain.size, len(ready), round(chain.reach, 3)
    (7, 7, 1.328)
    """
    frames = dh_frames((0.0,) * 7)
    points = [frame[0] for frame in frames]
    # Joints 1 and 5 moved along their own axes, off the points they share.
    points[0] = (0.0, 0.0, 0.0)
    origin, axis, _ = frames[4]
    points[4] = tuple(o - FOREARM_SPLIT * z for o, z in zip(origin, axis))
    joints = [Hinge(to_y_up(axis), math.degrees(lo), math.degrees(hi))
              for (_, axis, _), (lo, hi) in zip(frames, LIMITS)]
    chain = Chain([to_y_up(p) for p in points], joints)
    return chain, rotations(chain, READY)


def rotations(chain, angles):
    """The local rotations of ``chain`` (:func:`panda`'s) for the Panda's joint ``angles``."""
    return [joint.rotation(angle) for joint, angle in zip(chain.joints, angles)]


def _rot_x(t):
    c, s = math.cos(t), math.sin(t)
    return ((1.0, 0.0, 0.0), (0.0, c, -s), (0.0, s, c))


def _rot_z(t):
    c, s = math.cos(t), math.sin(t)
    return ((c, -s, 0.0), (s, c, 0.0), (0.0, 0.0, 1.0))


def _times(A, B):
    return tuple(tuple(sum(A[i][k] * B[k][j] for k in range(3)) for j in range(3)) for i in range(3))
