"""Targets in the robot's convention: a pose as a 4x4 homogeneous matrix, or a position and a
3x3 rotation matrix, for the chain's tip frame.

ikcore's own orientation target is the last bone's world rotation ``R_{N-1}``,
its turn from the rest pose (:mod:`ikcore.rotation`). A robot's pose is the
tip frame's, whose rotation at rest is the chain's :attr:`~ikcore.Chain.tip_rotation`
``F`` (a chain from a URDF: the tip link's, or its tool's): the tip frame turns
with the last bone, its rotation ``R_{N-1} F``. So a pose ``(R, t)`` asks the
last point at ``t`` and ``R_{N-1} = R F^-1``. For a chain made from points,
``F`` is the identity and a pose's rotation is the turn from rest itself.

>>> import ikcore
>>> from ikcore.targets import read_target
>>> chain = ikcore.Chain([(0, 0, 0), (0, 1, 0), (0, 2, 0)])
>>> pose = [[0, -1, 0, -1], [1, 0, 0, 1], [0, 0, 1, 0], [0, 0, 0, 1]]  # a quarter turn about z
>>> position, orientation = read_target(chain, pose, None)
>>> position, [round(c, 6) + 0.0 for c in orientation]
((-1.0, 1.0, 0.0), [0.707107, 0.0, 0.0, 0.707107])
"""

from .errors import IKError
from .rotation import conjugate, multiply
from .transforms import check_transform, to_quaternion


def is_pose(target):
    """Whether ``target`` is given as a pose (four rows, or a pair), not a point: its length is
    2 or 4 (a point has 3; anything else is left for the point's check to refuse)."""
    try:
        return len(target) in (2, 4)
    except TypeError:
        return False


def read_target(chain, target, orientation):
    """``(position, orientation)`` of a target: a point ``(x, y, z)`` with its ``orientation``
    (a quaternion or ``None``) as they are, or a pose (a 4x4 homogeneous matrix, or ``(position,
    3x3 rotation matrix)``, nested sequences or numpy arrays) for the chain's tip frame, checked,
    as the last point's position and the last bone's world rotation (see the module docstring)."""
    if not is_pose(target):
        return target, orientation
    if orientation is not None:
        raise IKError("a pose target (a 4x4 matrix or position and rotation) holds its orientation: give no "
                      "orientation= beside it")
    R, t = check_transform(target, "target")
    return t, multiply(to_quaternion(R), conjugate(chain.tip_rotation))
