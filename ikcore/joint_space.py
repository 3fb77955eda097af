"""A chain in joint space: joint values (hinge angles, slider displacements) to poses and back,
the tip frame's pose as a 4x4 matrix, and the reach of a chain whose bones slide.

A hinge's value is its angle in radians (:func:`ikcore.plan.hinge_angle`), a
slider's its displacement along its axis in the chain's units
(:class:`~ikcore.Slider`); a chain from a URDF lists them in the URDF's joint
order. The tip frame turns with the last bone, from its rest rotation
:attr:`~ikcore.Chain.tip_rotation` (:mod:`ikcore.targets`).
"""

import math

from . import kinematics
from .checks import check_float, check_per_joint, check_rotations
from .constraints import Slider
from .errors import IKError
from .plan import HINGE, SLIDER, hinge_angle
from .rotation import from_axis_angle, multiply
from .transforms import from_quaternion, to_matrix4


def frames_of(chain, pose):
    """``pose`` as :class:`~ikcore.kinematics.Frames`: Frames as they are, or local rotations
    (checked) posed by forward kinematics; a chain with sliders needs Frames (its displacements)."""
    if isinstance(pose, kinematics.Frames):
        return pose
    rotations = check_rotations(pose, chain.size)
    if chain.plan.sliders:
        raise IKError(f"joint {chain.plan.sliders[0]} is a Slider: rotations alone do not pose the chain; "
                      f"give its Frames (chain.pose_at(joint_values), a Solution's frames)")
    worlds, points = kinematics.frames(chain, rotations)
    return kinematics.Frames(rotations, worlds, points)


def values_of(chain, pose):
    """Each joint's value in ``pose`` (rotations or Frames): a hinge's angle, within its range where
    the rotation is; a slider's displacement; ``None`` for any other joint."""
    frames = frames_of(chain, pose)
    return tuple(hinge_angle(joint, q) if joint.kind == HINGE else
                 frames.slides[joint.index] if joint.kind == SLIDER else None
                 for joint, q in zip(chain.plan.joints, frames.rotations))


def pose_at(chain, joint_values):
    """The :class:`~ikcore.kinematics.Frames` of ``joint_values`` (one per joint, every joint a
    hinge or a slider), each put within its limits."""
    values = check_per_joint(joint_values, chain.size, "joint_values", "values")
    rotations, slides = [], []
    for i, (joint, value) in enumerate(zip(chain.plan.joints, values)):
        value = check_float(value, f"joint_values[{i}]")
        if joint.kind == HINGE:
            rotations.append(from_axis_angle(joint.axis, value))
            slides.append(None)
        elif joint.kind == SLIDER:
            rotations.append((1.0, 0.0, 0.0, 0.0))
            slides.append(value)
        else:
            raise IKError(f"joint {i} is neither a Hinge nor a Slider: it has no single joint value")
    return kinematics.pose_of(chain, rotations, slides)


def rotations_at(chain, joint_values):
    """The local rotations that turn each hinge by its value (radians; every joint a hinge), not
    clamped into the limits."""
    values = check_per_joint(joint_values, chain.size, "joint_values", "angles")
    out = []
    for i, (joint, value) in enumerate(zip(chain.plan.joints, values)):
        if joint.kind != HINGE:
            raise IKError(f"joint {i} is not a Hinge: rotations_of takes hinges only (see pose_at)")
        out.append(from_axis_angle(joint.axis, check_float(value, f"joint_values[{i}]")))
    return out


def tip_pose(chain, pose):
    """The tip frame's 4x4 pose (four rows) in ``pose`` (rotations or Frames): the last point, and
    the last bone's world rotation times the tip frame's rest rotation."""
    frames = frames_of(chain, pose)
    return to_matrix4((from_quaternion(multiply(frames.worlds[-1], chain.tip_rotation)), frames.points[-1]))


def reach_of(offsets, lengths, joints):
    """``(reach, min_reach, shortest)`` of bones ``offsets`` (``lengths`` their lengths at rest):
    the longest the chain can stretch (the sum of each bone's longest), the nearest its tip can come
    to the root (what is left of one bone at its shortest when all the others, at their longest,
    fold back over it), and the shortest any bone can be.

    A slider's bone ``o + s a`` (``|a| = 1``) has ``|o + s a|^2 = |o|^2 + 2 s (o . a) + s^2``: longest at
    an end of its range, shortest at ``s = -(o . a)`` clamped into it.
    """
    longest, shortest = list(lengths), list(lengths)
    for j, joint in enumerate(joints):
        if type(joint) is Slider:
            o, a = offsets[j], joint.axis
            along = o[0] * a[0] + o[1] * a[1] + o[2] * a[2]
            ends = [math.hypot(*(c + s * d for c, d in zip(o, a))) for s in (joint.lower, joint.upper)]
            s = joint.clamp_slide(-along)
            longest[j] = max(ends)
            shortest[j] = math.hypot(*(c + s * d for c, d in zip(o, a)))
    reach = math.fsum(longest)
    min_reach = max(0.0, max(short - (reach - long) for short, long in zip(shortest, longest)))
    return reach, min_reach, min(shortest)
