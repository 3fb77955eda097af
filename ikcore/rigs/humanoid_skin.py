"""The humanoid's skin bones: what a skinned mesh follows, written into the page's buffer.

Each skin bone is a node of the body's skeleton seen through a fixed rest frame
``S``: the bone's frame has its origin at the node (the bone's start joint),
its +Y along the bone and its +Z to the character's front (for a foot, which
runs forward, +Z is the foot's up), so a mesh built at rest along +Y with its
front on +Z follows it. Its world rotation is the node's world rotation (the
rotation from rest, :mod:`ikcore.rotation`) times ``S``::

    record = [x, y, z, qw, qx, qy, qz] = [P_node, W_node S]

The clavicle is the chest node seen along the line to the shoulder.
"""

import math
from array import array

from .. import rotation as rot
from .humanoid_rig import (ANKLE_BONE, FOREARM, HAND, HEAD, NECK, SHIN, SHOULDER, SIDES, SPINE_POINTS, THIGH, TOE,
                           UPPER_ARM, Body, frame_rotation)

#: Floats per skin record.
SKIN_STRIDE = 7
_UP, _DOWN, _FRONT = (0.0, 1.0, 0.0), (0.0, -1.0, 0.0), (0.0, 0.0, 1.0)
#: The bind pose's arms: this many degrees out from the body.
A_POSE = 12.0


def skin_bones(body):
    """The skin bones, parents first: ``[(name, parent index, length, radius, node, S)]``."""
    bones = []

    def add(name, parent, length, radius, node, along, front=_FRONT):
        bones.append((name, -1 if parent is None else [b[0] for b in bones].index(parent), length, radius, node,
                      frame_rotation(along, front)))

    add("pelvis", None, SPINE_POINTS[0][1], 0.13, body.pelvis, _UP)
    spine = body.spine.nodes
    parent = "pelvis"
    for i in range(3):
        length = SPINE_POINTS[i + 1][1] - SPINE_POINTS[i][1]
        add(f"spine_{i + 1}", parent, length, (0.12, 0.125, 0.13)[i], spine[i], _UP)
        parent = f"spine_{i + 1}"
    add("neck", "spine_3", NECK, 0.05, body.neck.nodes[0], _UP)
    add("head", "neck", HEAD, 0.10, body.neck.nodes[1], _UP)
    for side, s, sign in SIDES:
        out = (sign * SHOULDER[0], SHOULDER[1], SHOULDER[2])
        n = math.hypot(*out)
        add(f"{side}_clavicle", "spine_3", n, 0.05, body.chest, (out[0] / n, out[1] / n, out[2] / n))
        arm = body.arms[side].nodes
        add(f"{side}_upper_arm", f"{side}_clavicle", UPPER_ARM, 0.045, arm[0], _DOWN)
        add(f"{side}_forearm", f"{side}_upper_arm", FOREARM, 0.04, arm[1], _DOWN)
        add(f"{side}_hand", f"{side}_forearm", HAND, 0.035, body.hands[side], _DOWN)
    for side, s, sign in SIDES:
        leg = body.legs[side].nodes
        add(f"{side}_thigh", "pelvis", THIGH, 0.07, leg[0], _DOWN)
        add(f"{side}_shin", f"{side}_thigh", SHIN, 0.05, leg[1], _DOWN)
        add(f"{side}_foot", f"{side}_shin", math.hypot(*TOE), 0.045, body.feet[side], ANKLE_BONE, _UP)
    return bones


def describe(bones, rest):
    """``layout()["skin"]``: the bones as plain data, and their records in the bind pose ``rest``."""
    return {"bones": [{"name": name, "parent": parent, "length": length, "radius": radius}
                      for name, parent, length, radius, _, _ in bones], "rest": rest}


def bind_pose():
    """The skin records of the bind pose, ``[[x, y, z, qw, qx, qy, qz]]`` a bone: the character standing
    straight at the origin facing +Z, legs straight, arms hanging ``A_POSE`` degrees away from the
    body (an A pose), everything else at rest."""
    body = Body()
    for side, _, sign in SIDES:
        arm = body.arms[side]
        arm.set_rotations([rot.from_axis_angle((0.0, 0.0, sign), math.radians(A_POSE)), rot.IDENTITY])
    out = array("d", bytes(8 * SKIN_STRIDE * len(skin_bones(body))))
    write_skin(out, 0, [(b[4], b[5]) for b in skin_bones(body)])
    return [list(out[i:i + SKIN_STRIDE]) for i in range(0, len(out), SKIN_STRIDE)]


def write_skin(buf, offset, records):
    """Write each ``(node, S)`` of ``records`` as ``[P_node, W_node S]`` into ``buf`` from
    ``offset``, in place."""
    i = offset
    for node, rest in records:
        buf[i], buf[i + 1], buf[i + 2] = node.world_position
        buf[i + 3], buf[i + 4], buf[i + 5], buf[i + 6] = rot.multiply(node.world_rotation, rest)
        i += SKIN_STRIDE
    return i
