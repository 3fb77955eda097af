"""two_bone over K copies of a leg at once, on numpy arrays: the law of cosines for every copy.

The leg: a hinge knee under a hip that is free, a hinge, or a twist-free cone
(any axes: planar legs have their own kernel, :mod:`.planar`). For each copy,
the reference's steps (:mod:`ikcore.solvers.two_bone`) on arrays:

- the triangle: ``u`` the unit direction to the target at ``d`` from the root,
  ``d`` clamped into ``[|l1 - l2|, l1 + l2]``, the angle ``gamma`` between the
  bones (:func:`~ikcore.solvers.two_bone.triangle`);
- the bend direction ``k``: across ``u`` toward the pole, else the start's
  bend plane turned to hold ``u``;
- the knee's two angles that make ``gamma``, ``theta = phi +- spread`` (the
  two elbow sides), each clamped into its range; the hip then turns the tip
  onto ``u``: a hinge by its clamped angle, any other hip by the shortest arc
  and the swivel about ``u`` that puts the knee toward ``k`` (within a cone,
  the nearest swivel it allows, :func:`ikcore.plan.swivel_in_cone`);
- the limits (:func:`ikcore.kinematics.pose_of`), forward kinematics, and the
  side nearer the target, the knee's side toward ``k`` on a tie.

**Which copies the kernel finishes.** A copy whose solve leaves these steps is
handed over to the reference: a target on the root, no bend direction from the
pole or the start's plane, a tip folded onto the root, both sides missing the triangle (the reference then weighs the ends of
the ranges), or a pose farther from the target than the start.
"""

import math

import numpy as np

from ...batched.copies import Copies
from ...batched.hinges import clamped, signed_angle
from ...batched.quaternions import about, cross, multiply, turn
from ...plan import BALL, FREE, HINGE
from ...solution import CONVERGED, STALLED, UNREACHABLE
from . import TIE


def applies(chain):
    """Whether the kernel takes ``chain``: two bones, a hinge knee, a free, hinge or twist-free cone hip."""
    if chain.size != 2:
        return False
    hip, knee = chain.plan.joints
    return knee.kind == HINGE and (hip.kind in (FREE, HINGE) or (hip.kind == BALL and hip.range.full))


def solve(settings, targets, goals, poles, starts):
    """two_bone on K copies of ``settings.chain`` (see the module docstring and :func:`applies`).

    Parameters
    ----------
    settings : Settings
    targets : list of K (x, y, z)
    goals : ndarray (K, 3)
        The same targets.
    poles : ndarray (K, 3), or None
    starts : list of K Frames

    Returns
    -------
    Copies
    """
    chain, tol = settings.chain, settings.tolerance
    count = len(targets)
    root = np.array(chain.points[0], dtype=float)
    u, span, distance, gamma, handed = _triangle(chain, goals - root)
    side = _side(chain, u, None if poles is None else poles - root, starts, handed)
    # Both elbow sides at once: the first K rows one side, the last K the other.
    both = np.zeros(2 * count, dtype=bool)
    q = _candidate(chain, np.concatenate(_knee_angles(chain, gamma)), np.concatenate((u, u)),
                   np.concatenate((side, side)), both)
    handed |= both[:count] | both[count:]
    points = _forward(chain, q)
    e = points[:, 2] - np.concatenate((goals, goals))
    error = np.sqrt(np.einsum("kj,kj->k", e, e))
    rotations, points, error = _weigh(chain, side, *((q[rows], points[rows], error[rows])
                                                      for rows in (slice(0, count), slice(count, None))))
    start = goals - (starts[0].points[-1] if all(f is starts[0] for f in starts)
                     else np.array([f.points[-1] for f in starts], dtype=float).reshape(count, 3))
    start_error = np.sqrt(np.einsum("kj,kj->k", start, start))
    tie = 1e-12 * chain.reach
    met = error <= tol
    # Both sides miss the triangle (the reference weighs the ranges' ends), or the pose is worse than the start.
    handed |= error > np.abs(distance - span) + tie
    handed |= ~met & (error > start_error + tie)
    status = [CONVERGED if m else (STALLED if chain.reachable(t) else UNREACHABLE)
              for m, t in zip(met.tolist(), targets)]
    return Copies(points, rotations, status, np.ones(count, dtype=int), error, handed)


def _triangle(chain, v):
    """Per copy ``u``, the target's distance ``d``, ``d`` clamped into the shell, ``gamma`` (the angle
    between the bones) and whether it is handed over (a target on the root)."""
    l1, l2 = chain.lengths
    d = np.sqrt(np.einsum("kj,kj->k", v, v))
    handed = ~(d > 1e-9 * chain.reach)
    u = v / np.where(handed, 1.0, d)[:, None]
    dc = np.minimum(np.maximum(d, abs(l1 - l2)), l1 + l2)
    long, short = l1 + l2, l1 - l2
    gamma = 2.0 * np.arctan2(np.sqrt(np.maximum(0.0, (long - dc) * (long + dc))),
                             np.sqrt(np.maximum(0.0, (dc - short) * (dc + short))))
    return u, d, dc, gamma, handed


def _across(v, u):
    """``v`` without its part along the unit ``u``, row by row."""
    return v - np.einsum("kj,kj->k", v, u)[:, None] * u


def _unit(v):
    n = np.sqrt(np.einsum("kj,kj->k", v, v))
    return v / np.where(n > 0.0, n, 1.0)[:, None], n


def _side(chain, u, poles, starts, handed):
    """The bend direction ``k`` per copy: across ``u`` toward the pole, else the start's bend plane
    (its normal made across ``u``) turned to hold ``u``; a copy with neither is handed over."""
    eps = 1e-9 * chain.reach
    side = np.zeros_like(u)
    todo = np.ones(len(u), dtype=bool)
    if poles is not None:
        k, n = _unit(_across(poles, u))
        todo = ~(n > eps)
        side[~todo] = k[~todo]
    if todo.any():
        points = np.array([starts[i].points for i in np.flatnonzero(todo)], dtype=float).reshape(-1, 3, 3)
        normal = _across(cross(points[:, 1] - points[:, 0], points[:, 2] - points[:, 0]), u[todo])
        plane, n = _unit(normal)
        side[todo] = _unit(cross(u[todo], plane))[0]
        lost = np.flatnonzero(todo)[~(n > eps * chain.lengths[0])]
        handed[lost] = True
    return side


def _knee_angles(chain, gamma):
    """The knee's two angles that make ``gamma`` between the bones: ``d0 . rot(a, theta) d1 = a0 a1 +
    B cos(theta - phi) = cos(gamma)``, solved as ``phi +- spread`` (as the reference solves it)."""
    a = np.array(chain.plan.joints[1].axis)
    d0, d1 = (np.array(d) for d in chain.directions)
    a0, a1 = d0 @ a, d1 @ a
    p0, p1 = d0 - a0 * a, d1 - a1 * a
    phi = math.atan2(d0 @ cross(a, p1), p0 @ p1)
    c, s = np.cos(gamma), np.sin(gamma)
    spread = np.arctan2(np.sqrt(np.maximum(0.0, s * s - (a0 * a0 + a1 * a1 - 2.0 * c * a0 * a1))), c - a0 * a1)
    return phi + spread, phi - spread


def _candidate(chain, theta, u, side, handed):
    """One elbow side's rotations ``(K, 2, 4)``: the knee at ``theta`` (clamped), the hip turning the
    tip onto ``u`` with the knee toward ``side``; then the limits, as :func:`ikcore.kinematics.pose_of`
    applies them. Copies whose tip folds onto the root are handed over."""
    hip, knee = chain.plan.joints
    l1, l2 = chain.lengths
    d0, d1 = (np.array(d) for d in chain.directions)
    q1 = about(knee.axis, clamped(knee.range, theta))
    tip, n = _unit(d0 * l1 + turn(q1, d1) * l2)
    handed |= ~(n > 1e-9 * chain.reach)
    if hip.kind == HINGE:
        q0 = about(hip.axis, clamped(hip.range, signed_angle(np.array(hip.axis), tip, u)))
    else:
        base = _arc(tip, u, handed)
        preferred = signed_angle(u, turn(base, d0), side)
        swivel = preferred if hip.kind == FREE else _in_cone(hip, base, u, preferred)
        q0 = multiply(about(u, swivel), base)
    q = np.stack((q0, q1), axis=1)
    q /= np.sqrt(np.einsum("kij,kij->ki", q, q))[..., None]
    for i, joint in enumerate((hip, knee)):
        if joint.kind == HINGE:
            # The hinge's clamp: its angle read back, 2 atan2(v . a, w), clamped into the range.
            angle = 2.0 * np.arctan2(q[:, i, 1:] @ np.array(joint.axis), q[:, i, 0])
            q[:, i] = about(joint.axis, clamped(joint.range, angle))
        elif joint.kind == BALL:
            q[:, i] = _in_coneclamped(joint, q[:, i])
    return q


def _in_coneclamped(joint, q):
    """Rotations ``q`` whose bone leaves a twist-free cone, their swing scaled into it
    (:meth:`ikcore.BallSocket.clamp`): ``q = swing twist``, the twist ``(w, p d) / sqrt(w^2 + p^2)``
    with ``p = v . d``; a swing past the cone keeps its axis across the bone and takes the cone's
    angle."""
    d = np.array(joint.bone)
    out = q.copy()
    rows = np.flatnonzero(~(turn(q, d) @ d >= joint.constraint._inside))
    if not len(rows):
        return out
    w, v = q[rows, 0], q[rows, 1:]
    p = v @ d
    n = np.sqrt(w * w + p * p)
    twisted = n > 1e-12
    tw, tp = np.where(twisted, w / np.where(twisted, n, 1.0), 1.0), np.where(twisted, p / np.where(twisted, n, 1.0), 0.0)
    sw = w * tw + p * tp
    sv = tw[:, None] * v - (w * tp)[:, None] * d - tp[:, None] * cross(v, d)
    flip = np.where(sw < 0.0, -1.0, 1.0)
    sw, sv = sw * flip, sv * flip[:, None]
    past = 2.0 * np.arctan2(np.sqrt(np.einsum("kj,kj->k", sv, sv)), sw) > joint.cone
    # Only the swing about axes across the bone, at the cone's angle.
    sv = sv - (sv @ d)[:, None] * d
    size = np.sqrt(np.einsum("kj,kj->k", sv, sv))
    half = 0.5 * joint.cone
    k = np.where(size > 0.0, math.sin(half) / np.where(size > 0.0, size, 1.0), 0.0)
    sw = np.where(past, np.where(size > 0.0, math.cos(half), 1.0), sw)
    sv = np.where(past[:, None], sv * k[:, None], sv)
    clamped = np.concatenate(((sw * tw - tp * (sv @ d))[:, None],
                              (sw * tp)[:, None] * d + tw[:, None] * sv + tp[:, None] * cross(sv, d)), axis=1)
    out[rows[past]] = clamped[past]
    return out


def _forward(chain, q):
    """Forward kinematics of the rotations ``q`` (K, 2, 4): the points (K, 3, 3)."""
    offsets = np.array(chain.offsets)
    worlds = q.copy()
    worlds[:, 1] = multiply(q[:, 0], q[:, 1])
    points = np.empty((len(q), 3, 3))
    points[:, 0] = chain.points[0]
    points[:, 1] = points[:, 0] + turn(worlds[:, 0], offsets[0])
    points[:, 2] = points[:, 1] + turn(worlds[:, 1], offsets[1])
    return points


def _weigh(chain, side, one, other):
    """The nearer side per copy (each ``(rotations, points, error)``): the one whose knee bends
    toward ``side`` first, the other only where it comes nearer by more than ``1e-12`` of the reach."""
    d0 = np.array(chain.directions[0])
    tie = 1e-12 * chain.reach
    leans = [np.einsum("kj,kj->k", turn(q[:, 0], d0), side) > TIE for q, _, _ in (one, other)]
    # The reference sorts the sides, the one leaning toward side first; the second wins by more than the tie.
    first_is_one = leans[0] | ~leans[1]
    take_other = np.where(first_is_one, other[2] < one[2] - tie, ~(one[2] < other[2] - tie))
    return tuple(np.where(take_other.reshape((-1,) + (1,) * (a.ndim - 1)), b, a) for a, b in zip(one, other))


def _arc(s, b, handed):
    """The shortest arcs turning unit ``s`` onto unit ``b`` (:func:`ikcore.rotation.shortest_arc`); a half
    turn with no axis across ``s`` is handed over."""
    c = np.einsum("kj,kj->k", s, b)
    axis = cross(s, b)
    out = np.concatenate(((1.0 + c)[:, None], axis), axis=1)
    out /= np.sqrt(np.einsum("kj,kj->k", out, out))[:, None]
    far = np.flatnonzero(~(c > -0.99))
    if len(far):
        # Near a half turn: the angle from atan2, the axis the cross product's part across s.
        sine = np.sqrt(np.einsum("kj,kj->k", axis[far], axis[far]))
        across, n = _unit(_across(axis[far], s[far]))
        handed[far[~(n > 1e-150)]] = True
        half = 0.5 * np.arctan2(sine, c[far])
        out[far] = np.concatenate((np.cos(half)[:, None], across * np.sin(half)[:, None]), axis=1)
    return out


def _in_cone(hip, base, u, preferred):
    """The swivel about ``u`` nearest ``preferred`` that keeps the hip's bone within its cone
    (:func:`ikcore.plan.swivel_in_cone`): ``cos = A + B cos(s - s0)``, within ``w`` of ``s0`` where
    ``A + B cos(w) = cos(cone)``."""
    bone = np.array(hip.bone)
    e = turn(base, bone)
    a = (u @ bone) * np.einsum("kj,kj->k", u, e)
    c, s = _across(e, u) @ bone, cross(u, e) @ bone
    b = np.sqrt(c * c + s * s)
    least = math.cos(hip.cone)
    middle = np.arctan2(s, c)
    with np.errstate(divide="ignore", invalid="ignore"):
        width = np.arccos(np.minimum(1.0, (least - a) / b))
    off = np.fmod(preferred - middle, 2.0 * math.pi)
    off = np.where(off > math.pi, off - 2.0 * math.pi, np.where(off <= -math.pi, off + 2.0 * math.pi, off))
    edge = np.where(np.abs(off) <= width, preferred, middle + np.copysign(width, off))
    none = np.where(b > 0.0, middle, preferred)
    return np.where(a - b >= least, preferred, np.where(a + b < least, none, edge))
