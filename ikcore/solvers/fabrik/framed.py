"""FABRIK with joint frames: chains with hinges, twist limits, or cones off a straight line.

A hinge limits a bone's direction *in its parent's frame*, so the passes carry
each bone's frame (its world rotation ``R_i``) beside the points:

- **Forward** (root to tip, from the fixed root frame): joint ``i`` turns bone
  ``i`` toward the next wanted point, seen in the parent's frame ``R_{i-1}``
  just placed. A hinge takes the angle about its axis whose bone direction
  lies nearest the wanted one, clamped into its range; any other joint turns
  the bone by the shortest arc (keeping its twist), then its limits apply.
  ``R_i = R_{i-1} q_i``: rotations, frames and points agree exactly.
- **Backward** (tip to root, from the target): each bone's wanted direction is
  limited the same way in its parent's frame from the last forward pass. The
  parent's frame is stale by then (the parent moves in this pass too), but it
  is anchored at the root, which the forward pass must return to: frames
  taken from the child instead follow the tip's twist, which nothing ties to
  the root, and on hinges about differing axes the passes then drift apart.

**Twist toward a hinge.** A joint free to twist (a ball or free joint) ahead of
a run of hinges about one axis decides the plane that run bends in. In the
forward pass such a joint also turns its bone about itself, so that the run's
plane holds the run's wanted end point, on the side where its first hinge can
bend toward the next wanted point (:func:`best_twist`): a leg's hip turns the
knee's plane onto the foot's target at once, where the passes would otherwise
creep toward it over many iterations.

The forward pass leaves rotations within the limits, their world rotations
and points exactly as forward kinematics makes them: the pose needs no
further clamping or forward kinematics.
"""

from math import acos, atan2, pi

from ... import rotation as rot
from ...kinematics import Frames
from ...plan import HINGE
from ...rotation import IDENTITY, conjugate, multiply, rotate, shortest_arc
from ...vectors import across, add_scaled, cross, dot, norm, signed_angle, sub

class Pose:
    """The pose the passes rewrite in place: lists of the local rotations, the world rotations and
    the points (a :class:`~ikcore.kinematics.Frames` is read only)."""

    __slots__ = ("rotations", "worlds", "points")

    def __init__(self, frames):
        self.rotations = list(frames.rotations)
        self.worlds = list(frames.worlds)
        self.points = list(frames.points)

    def frames(self):
        """A copy as :class:`~ikcore.kinematics.Frames`."""
        return Frames(list(self.rotations), list(self.worlds), list(self.points))


def _twists(u, h, v):
    """Turns ``phi`` about unit ``u`` that bring the axis ``h`` across ``v`` (``h(phi) . v = 0``), or
    nearest to it: ``h(phi) . v = A + B cos(phi - psi)``."""
    hp, vp = across(h, u), across(v, u)
    big = norm(hp) * norm(vp)
    if big < 1e-9:
        return []
    e1 = [c / norm(hp) for c in hp]
    e2 = cross(u, e1)
    psi = atan2(dot(e2, vp), dot(e1, vp))
    kappa = -dot(h, u) * dot(v, u) / big
    if kappa >= 1.0:
        return [psi]
    if kappa <= -1.0:
        return [psi + pi]
    delta = acos(kappa)
    return [psi + delta, psi - delta]


def best_twist(frame, u, axis, toward, reach):
    """``frame`` (a world rotation whose bone lies along ``u``) turned about ``u`` so that the
    plane normal to a hinge ``axis`` (in that frame) holds the world direction ``toward``.

    ``reach(frame)`` says how near the hinge then gets to where it should
    point (a cosine, 1 at best). The turns that bring the axis across
    ``toward`` (two of them, one for each side the hinge bends to, or the
    nearest) are weighed against no turn: the best wins, the smaller turn on a
    tie.
    """
    best, best_turn, best_cos = frame, 0.0, reach(frame)
    for phi in _twists(u, rotate(frame, axis), toward):
        phi = rot.wrap_angle(phi)
        candidate = multiply(rot.from_axis_angle(u, phi), frame)
        c = reach(candidate)
        if c > best_cos + 1e-12 or (c > best_cos - 1e-12 and abs(phi) < abs(best_turn)):
            best, best_turn, best_cos = candidate, phi, c
    return best


def from_parent(parent, u, bone, hinge):
    """The world rotation of a bone whose joint is a hinge, placed from its parent's frame:
    ``R_{i-1} rot(a, theta)`` with ``theta`` the clamped angle that turns ``bone`` (its rest
    direction) nearest to the world direction ``u``."""
    return multiply(parent, hinge.rotation(signed_angle(hinge.axis, bone, rotate(conjugate(parent), u))))


def _direction(to, frm, fallback):
    d = sub(to, frm)
    n = norm(d)
    return (d[0] / n, d[1] / n, d[2] / n) if n > 1e-300 else fallback


def forward(chain, pose, wanted):
    """Root to tip (see the module docstring): ``pose`` (a :class:`Pose`) re-posed so each bone
    points at the next of the ``wanted`` points."""
    joints = chain.plan.joints
    directions, lengths = chain.directions, chain.lengths
    rotations, worlds, points = pose.rotations, pose.worlds, pose.points
    runs = chain.plan.layouts[hinge_runs]
    parent = IDENTITY
    p = points[0] = chain.points[0]
    for i, joint in enumerate(joints):
        bone = directions[i]
        u = _direction(wanted[i + 1], p, rotate(worlds[i], bone))
        u_local = rotate(conjugate(parent), u)
        if joint.kind == HINGE:
            q = joint.constraint.rotation(signed_angle(joint.axis, bone, u_local))
        else:
            q = multiply(shortest_arc(rotate(rotations[i], bone), u_local), rotations[i])
            end = runs[i]
            if end is not None:
                # Twist toward the run of hinges ahead: its plane should hold the run's wanted end.
                hinge, child_bone = joints[i + 1].constraint, directions[i + 1]
                knee = add_scaled(p, u, lengths[i])
                toward = _direction(wanted[end], knee, u)
                want = _direction(wanted[i + 2], knee, u)

                def limited(frame):
                    # The frame as the joint's limits allow it.
                    local = rot.normalize(multiply(conjugate(parent), frame))
                    return multiply(parent, local if joint.clamp is None else joint.clamp(local, bone))

                def reach(frame):
                    # How near the hinge that follows comes to the wanted direction (a cosine).
                    return dot(rotate(from_parent(limited(frame), want, child_bone, hinge), child_bone), want)

                frame = best_twist(multiply(parent, q), u, hinge.axis, toward, reach)
                q = multiply(conjugate(parent), frame)
            q = rot.normalize(q)
            if joint.clamp is not None:
                q = joint.clamp(q, bone)
        rotations[i] = q
        parent = worlds[i] = multiply(parent, q)
        p = points[i + 1] = add_scaled(p, rotate(parent, bone), lengths[i])


def backward(chain, pose, target):
    """Tip to root (see the module docstring): the points of ``pose`` re-placed from the target,
    each bone's wanted direction limited in its parent's frame from the last forward pass. The
    points it leaves are what the forward pass aims at; the rotations, each bone's turn from
    that stale parent (the forward pass starts from them, keeping their twist)."""
    joints = chain.plan.joints
    directions, lengths = chain.directions, chain.lengths
    rotations, worlds, points = pose.rotations, pose.worlds, pose.points
    parents = [IDENTITY, *worlds[:-1]]
    p = target
    for i in range(chain.size - 1, -1, -1):
        joint, bone, parent, current = joints[i], directions[i], parents[i], worlds[i]
        u = _direction(p, points[i], rotate(current, bone))
        if joint.kind == HINGE:
            frame = from_parent(parent, u, bone, joint.constraint)
        else:
            frame = multiply(shortest_arc(rotate(current, bone), u), current)
            if joint.clamp is not None:
                frame = multiply(parent, joint.clamp(rot.normalize(multiply(conjugate(parent), frame)), bone))
        rotations[i] = multiply(conjugate(parent), frame)
        worlds[i] = frame
        points[i + 1] = p
        p = add_scaled(p, rotate(frame, bone), -lengths[i])
    points[0] = p


def hinge_runs(chain):
    """Per joint ``i``, the index of the wanted point that ends the run of hinges about one axis
    that follows it (joints ``i + 1`` to ``k``: point ``k + 1``), when joint ``i`` can twist
    (any joint but a hinge); else ``None``."""
    joints = chain.plan.joints
    runs = []
    for i, joint in enumerate(joints):
        end = None
        if joint.kind != HINGE and i + 1 < len(joints) and joints[i + 1].kind == HINGE:
            k = i + 1
            while k + 1 < len(joints) and joints[k + 1].kind == HINGE and joints[k + 1].axis == joints[i + 1].axis:
                k += 1
            end = k + 1
        runs.append(end)
    return runs
