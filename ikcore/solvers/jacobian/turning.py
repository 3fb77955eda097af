"""A step taken: every joint turned by its world turn at once, the limits applied, the new pose.

Joint ``j`` turns by ``w_j`` (a world rotation vector, from
:meth:`.joints.JointJacobian.transpose`) about its own point. Seen in the
parent's frame, where its rotation lives, that is ``q_j <- exp(R_{j-1}^* w_j)
q_j``. A hinge turns about its own axis only, so it simply adds the turn to its
angle: ``theta_j + h_j . w_j``, clamped into its range (no quaternion product,
no renormalisation). A slider (:class:`~ikcore.Slider`) adds its motion along its
world axis to its displacement, clamped into its range. The largest turn is capped at ``max_step`` radians, the
others shrink with it, so a step near a singularity stays bounded.

The pose is what :func:`ikcore.kinematics.pose_of` would make of the new
rotations (unit, within the limits, through forward kinematics), built without
clamping a hinge twice; the hinges' new angles come with it, for the next
step's Jacobian to read rather than take them back out of the rotations.
"""

from math import cos, hypot, sin, sqrt

from ... import rotation as rot
from ...kinematics import Frames, frames, slid_offsets
from ...plan import HINGE, SLIDER
from ...rotation import rotate


def turned_pose(chain, pose, jac, turns, scale, max_step):
    """``(frames, angles)``: the :class:`~ikcore.kinematics.Frames` after turning each joint of
    ``pose`` by ``turns[j]`` (world rotation vectors, ``None`` for no turn; a hinge's along its world
    axis) times ``scale``, the largest capped at ``max_step``, and its hinges' angles (``None`` for
    other joints); ``None`` when that is no motion at all. ``jac``: the pose's
    :class:`~.joints.JointJacobian` (a hinge's world axis and angle)."""
    biggest = 0.0
    for w in turns:
        if w is not None:
            n = w[0] * w[0] + w[1] * w[1] + w[2] * w[2]
            if n > biggest:
                biggest = n
    biggest = sqrt(biggest)
    if not biggest > 1e-14:
        return None
    k = scale * (max_step / biggest if biggest > max_step else 1.0)
    rotations = []
    angles = list(jac.angles)
    for j, (q, w, joint) in enumerate(zip(pose.rotations, turns, chain.plan.joints)):
        if w is None:
            rotations.append(q)
            continue
        if joint.kind == HINGE:
            # The turn lies along the hinge's world axis h = R_{j-1} a: its angle is w . h.
            hx, hy, hz = jac.bases[j][0]
            angle = angles[j] = joint.range.clamp(jac.angles[j] + k * (w[0] * hx + w[1] * hy + w[2] * hz))
            rotations.append(joint.constraint.rotation(angle))
            continue
        if joint.kind == SLIDER:
            # The motion lies along the slider's world axis s: its displacement grows by w . s.
            sx, sy, sz = jac.bases[j][0]
            angles[j] = joint.constraint.clamp_slide(jac.angles[j] + k * (w[0] * sx + w[1] * sy + w[2] * sz))
            rotations.append(q)
            continue
        angle = k * hypot(w[0], w[1], w[2])
        if angle > 0.0:
            local = rotate(rot.conjugate(pose.worlds[j - 1]), w) if j else w
            s = sin(0.5 * angle) / hypot(*local)
            lw, lx, ly, lz = cos(0.5 * angle), local[0] * s, local[1] * s, local[2] * s
            w0, x0, y0, z0 = q
            q = (lw * w0 - lx * x0 - ly * y0 - lz * z0, lw * x0 + lx * w0 + ly * z0 - lz * y0,
                 lw * y0 - lx * z0 + ly * w0 + lz * x0, lw * z0 + lx * y0 - ly * x0 + lz * w0)
            n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3])
            q = (q[0] / n, q[1] / n, q[2] / n, q[3] / n)
            if joint.clamp is not None:
                q = joint.clamp(q, joint.bone)
        rotations.append(q)
    if not chain.plan.sliders:
        worlds, points = frames(chain, rotations)
        return Frames(rotations, worlds, points), angles
    slides = [angles[j] if joint.kind == SLIDER else None for j, joint in enumerate(chain.plan.joints)]
    worlds, points = frames(chain, rotations, slid_offsets(chain, slides))
    return Frames(rotations, worlds, points, slides), angles
