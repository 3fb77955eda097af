"""The analytic two-bone solver: the law of cosines, exact in one step, both elbow sides weighed.

For bones of lengths ``l1``, ``l2`` and a target at distance ``d`` from the root,
clamped into the reachable shell ``[|l1 - l2|, l1 + l2]``, the triangle root -
knee - tip fixes two angles:

- at the root, between the root-target line ``u`` and the upper bone:
  ``cos(alpha) = (l1^2 + d^2 - l2^2) / (2 l1 d)``;
- at the knee, between the two bones' directions:
  ``cos(gamma) = (d^2 - l1^2 - l2^2) / (2 l1 l2)``.

A *planar leg* (both hinges about one axis, every rest bone across it:
:attr:`ikcore.plan.Plan.plane`) never leaves the plane through its root normal
to the axis, where the tip's distance to a target at height ``z`` off the
plane is ``hypot(its distance to the target's foot on the plane, z)``: the
nearest pose to the target is the nearest to its foot, and the triangle is laid
on the foot (``d`` the foot's distance from the root).

What is left is the *swivel*: the triangle may turn about ``u``, and the knee
may sit on either side of ``u`` (the two elbow sides: where the spheres about
root and target meet, in the bend plane). The bend direction ``k`` (across ``u``)
is chosen, first that applies: toward the ``pole``; the start pose's bend
plane, its normal turned to hold ``u``, the knee bending the same way round it
(a chain tracked without a pole keeps its sense of bending); for a straight
start, toward its knee; the rest pose's bend; any direction across ``u``
(:func:`ikcore.rotation.perpendicular`).

**Candidates.** Each elbow side gives a pose:

- a hinge knee takes the hinge angle that makes ``gamma`` (two solve it: the
  two sides), clamped into its range; the upper bone then turns the tip onto
  the target, a hinge hip by its clamped angle, any other hip by the rotation
  whose swivel puts the knee toward ``k``: where the hip's limits forbid that
  swivel, the nearest one they allow (:meth:`ikcore.plan.Joint.swivel_within`);
- any other knee: the knee point goes to ``root + l1 (cos(alpha) u + sin(alpha) k)``
  (or ``-k``), and each bone turns by the shortest arc from its start
  direction (its twist kept), the lower bone in its parent's frame.

The limits apply to every candidate (:func:`ikcore.kinematics.pose_of`); the
one that ends nearest the target wins, the preferred side on a tie.

**The ranges' ends.** Where neither side meets the triangle within the limits,
the pose nearest the target lies on the limits, not where a side's clamped
angles leave it. A hinge knee adds two candidates: the knee at either end of
its range, the hip turning the tip toward the target as far as its limits let
it. A planar leg adds two more: the hip at either end of its range, the knee
turning the lower bone toward the target. In the plane each of the four runs
the tip on a circle (about the root, or about the knee), nearest the target at
the angle nearest the aim, so the nearest of them is the nearest pose the
ranges allow. A hip that is a twist-free cone adds the nearest pose the cone
and the knee's range allow, found by one search over the knee's angle
(:mod:`.cone`). (Under a ball hip with a twist limit, or a joint of the user's
own, the ends are better poses, not always the best.) They win only where they
come nearer than the sides. The candidate kept is taken when it meets the
target, or else ends no farther from it than the start (to rounding, ``1e-12``
of the reach): never worse than the start. Otherwise the start stays, and the
solve is "stalled" (the limits are a wall the closed form cannot pass).

Out of reach, every candidate is the chain stretched straight at the target
(too far) or folded toward it (nearer than ``|l1 - l2|``). No options.
"""

import math

from ... import rotation as rot
from ...errors import IKError
from ...kinematics import pose_of
from ...plan import CUSTOM, BALL, HINGE
from ...problem import Outcome
from ...rotation import multiply, rotate, shortest_arc
from ...vectors import across, add, add_scaled, cross, dot, norm, scale, signed_angle, sub, unit
from . import cone

OPTIONS = {}
MAX_ITERATIONS = 1
POLE = True
#: How far a knee must lean to the preferred side to count as on it (a cosine): rounding does not choose.
TIE = 1e-12


def check_chain(chain):
    """Refuse chains that are not two bones."""
    if chain.size != 2:
        raise IKError(f"method 'two_bone' needs a chain of exactly 2 bones, got {chain.size}")


def run(problem, steps=None):
    """Solve ``problem`` in closed form (one iteration); see the module docstring."""
    chain, start = problem.chain, problem.start
    triangle = Triangle(chain, problem.target, start, problem.pole)
    tie = 1e-12 * chain.reach
    best = None
    for frames in triangle.candidates():
        error = problem.error(frames)
        if best is None or error < best[0] - tie:
            best = (error, frames)
    if chain.plan.joints[1].kind == HINGE and best[0] > triangle.exact() + tie:
        for joint, frames in triangle.on_ends(problem.target):
            error = problem.error(frames)
            if error < best[0] - tie:
                best = (error, frames)
                triangle.end = joint
        if cone.applies(chain):
            frames = pose_of(chain, cone.ConeHip(chain, problem.target).rotations(triangle.side))
            error = problem.error(frames)
            if error < best[0] - tie:
                best = (error, frames)
                triangle.end, triangle.searched = None, True
    error, frames = best
    if not problem.met(frames) and error > problem.start_error + tie:
        # Never worse than the start: the limits are a wall the closed form cannot pass.
        frames, error = start, problem.start_error
        triangle.end, triangle.searched = None, False
    stalled = not problem.met(frames)
    if steps is not None:
        steps.two_bone(triangle, frames)
    return Outcome(frames, 1, [problem.start_error, error], stalled)


class Triangle:
    """The root - knee - tip triangle for a target (see the module docstring).

    Attributes
    ----------
    u : (x, y, z)
        Unit direction from the root to the target; for a planar leg, to the target's foot on
        the leg's plane.
    span : float
        The target's distance from the root; for a planar leg, its foot's.
    distance : float
        ``span`` clamped into the reachable shell.
    height : float
        How far the target lies off a planar leg's plane (0 for any other chain).
    alpha, gamma : float
        The angles at the root and between the bones' directions (radians).
    side : (x, y, z)
        The preferred bend direction ``k``, unit, across ``u``.
    end : int or None
        The joint held at an end of its range by the pose :func:`run` took, where one of
        :meth:`on_ends` came nearest; else ``None``.
    searched : bool
        Whether the pose :func:`run` took is the nearest a cone hip and a hinge knee allow
        (:mod:`.cone`), where it came nearer than the sides and the ends.
    """

    def __init__(self, chain, target, start, pole):
        self.chain, self.start = chain, start
        root = chain.points[0]
        l1, l2 = chain.lengths
        eps = 1e-9 * chain.reach
        v = sub(target, root)
        self.height = 0.0
        if chain.plan.plane is not None:
            # Every pose of a planar leg lies in its plane, where the tip's distance to a target off
            # it is hypot(its distance to the target's foot on the plane, the target's height): the
            # nearest pose to the target is the nearest to its foot.
            self.height = abs(dot(v, chain.plan.plane))
            v = across(v, chain.plan.plane)
        self.span = d = norm(v)
        if d > eps:
            self.u = scale(v, 1.0 / d)
        else:
            # Target at the root: any direction serves; keep the tip's, where the start's tip is far
            # enough from the root for its direction to mean anything.
            tip = sub(start.points[2], root)
            self.u = unit(tip) if norm(tip) > 1e-6 * chain.reach else rot.perpendicular(sub(start.points[1], root))
        self.distance = dc = min(max(d, abs(l1 - l2)), l1 + l2)
        self.alpha, self.gamma = triangle(l1, l2, dc)
        self.side = self._side(chain, start, pole, eps)
        self.end = None
        self.searched = False

    def _side(self, chain, start, pole, eps):
        """The preferred bend direction (see the module docstring): across ``u`` toward the pole;
        else the start's bend, its plane turned to hold ``u`` and the knee bending the same way
        round it; a straight start's knee; the rest pose's bend; any direction across ``u``."""
        u = self.u
        if pole is not None:
            k = across(sub(pole, chain.points[0]), u)
            if norm(k) > eps:
                return unit(k)
        # A pose counts as straight where its bones' cross product is below eps times the upper
        # bone's length (a bend of about 1e-9 radians): rounding leaves a straight pose a cross
        # product of some 1e-16 of it, whose sign must not choose the side.
        straight = eps * chain.lengths[0]
        for pose in (start.points, chain.points):
            root, knee, tip = pose
            normal = across(cross(sub(knee, root), sub(tip, root)), u)
            if norm(normal) > straight:
                return unit(cross(u, normal))
            if pose is start.points:
                k = across(sub(knee, root), u)
                if norm(k) > eps:
                    return unit(k)
        return rot.perpendicular(u)

    def candidates(self):
        """The poses of both elbow sides (unit, limited), the preferred first (see the module docstring)."""
        knee = self.chain.plan.joints[1]
        if knee.kind == HINGE:
            return [pose_of(self.chain, r) for r in self._hinge_knee(knee.constraint)]
        return [pose_of(self.chain, self._arcs(side)) for side in (self.side, scale(self.side, -1.0))]

    def exact(self):
        """The error where a side meets the triangle, the tip at the clamped distance toward the
        target (a planar leg's: toward its foot, in the plane): ``hypot(distance - span, height)``."""
        return math.hypot(self.distance - self.span, self.height)

    def on_ends(self, target):
        """The poses on the ends of a hinge knee's range, then of a planar leg's hip (see the module
        docstring), each with the joint held at its end: the knee (1) at its ``lo``, then its
        ``hi``, the hip turning the tip toward the target; then the hip (0) at its ``lo``, then its
        ``hi``, the knee turning the lower bone toward the target. A whole turn has no ends."""
        chain = self.chain
        hip, knee = (joint.constraint for joint in chain.plan.joints)
        d0, d1 = chain.directions
        l1 = chain.lengths[0]
        poses = []
        if not knee.range.full:
            poses += [(1, self._knee_at(knee, end)) for end in (knee.range.lo, knee.range.hi)]
        if chain.plan.plane is not None and not hip.range.full:
            for end in (hip.range.lo, hip.range.hi):
                q0 = hip.rotation(end)
                toward = sub(target, add_scaled(chain.points[0], rotate(q0, d0), l1))
                far = norm(toward) > 1e-9 * chain.reach
                poses.append((0, [q0, knee.rotation(signed_angle(chain.plan.plane, rotate(q0, d1), unit(toward))
                                                     if far else 0.0)]))
        return [(joint, pose_of(chain, r)) for joint, r in poses]

    def _arcs(self, side):
        """Rotations putting the knee toward ``side``, each bone turned by the shortest arc from its
        start direction (the lower one in its parent's frame)."""
        chain, start = self.chain, self.start
        root = chain.points[0]
        l1 = chain.lengths[0]
        b0 = add(scale(self.u, math.cos(self.alpha)), scale(side, math.sin(self.alpha)))
        knee = add_scaled(root, b0, l1)
        tip = add_scaled(root, self.u, self.distance)
        q0, q1 = start.rotations
        d0, d1 = chain.directions
        r0 = rot.normalize(multiply(shortest_arc(rotate(start.worlds[0], d0), b0), q0))
        lower = rotate(rot.conjugate(r0), unit(sub(tip, knee)))
        r1 = rot.normalize(multiply(shortest_arc(rotate(q1, d1), lower), q1))
        return [r0, r1]

    def _hinge_knee(self, hinge):
        """Rotations for each hinge angle that makes the knee's angle (both sides), each clamped,
        the tip then turned onto the target by the hip."""
        chain = self.chain
        d0, d1 = chain.directions
        a = hinge.axis
        # d0 . rot(a, theta) d1 = a0 a1 + B cos(theta - phi), a0 = d0 . a, a1 = d1 . a and B the product of
        # their parts across a: set to cos(gamma). Written as atan2 of B sin and B cos of the spread (no acos:
        # at full stretch it would turn the last bit of rounding into 1e-8 radians), with
        # B^2 sin^2 = sin^2(gamma) - (a0^2 + a1^2 - 2 cos(gamma) a0 a1).
        a0, a1 = dot(d0, a), dot(d1, a)
        phi = math.atan2(dot(d0, cross(a, across(d1, a))), dot(across(d0, a), across(d1, a)))
        c, s = math.cos(self.gamma), math.sin(self.gamma)
        spread = math.atan2(math.sqrt(max(0.0, s * s - (a0 * a0 + a1 * a1 - 2.0 * c * a0 * a1))), c - a0 * a1)
        out = [self._knee_at(hinge, theta) for theta in (phi + spread, phi - spread)]
        # The knee on the preferred side first (it wins a tie); a side square to the bend plane prefers none.
        return sorted(out, key=lambda r: dot(rotate(r[0], d0), self.side) <= TIE)

    def _knee_at(self, hinge, theta):
        """Rotations with the knee ``hinge`` at ``theta`` (clamped into its range), the hip then turning
        the tip onto the target (:meth:`_hip`)."""
        d0, d1 = self.chain.directions
        l1, l2 = self.chain.lengths
        q1 = hinge.rotation(theta)
        return [self._hip(add(scale(d0, l1), scale(rotate(q1, d1), l2)), d0), q1]

    def _hip(self, tip, d0):
        """The hip's rotation that turns the local tip vector ``tip`` onto ``u``, the knee toward
        the preferred side as far as the hip's limits allow."""
        chain, u = self.chain, self.u
        hip = chain.plan.joints[0]
        if norm(tip) <= 1e-9 * chain.reach:
            # The tip folds onto the root wherever the hip turns: the knee goes to the preferred side.
            if hip.kind == HINGE:
                return hip.constraint.rotation(signed_angle(hip.axis, d0, self.side))
            return shortest_arc(d0, self.side)
        if hip.kind == HINGE:
            return hip.constraint.rotation(signed_angle(hip.axis, unit(tip), u))
        base = shortest_arc(unit(tip), u)
        # The swivel about u that puts the knee (bone 0's direction) toward the preferred side.
        preferred = signed_angle(u, rotate(base, d0), self.side)
        swivel = hip.swivel_within(base, u, preferred) if hip.kind in (BALL, CUSTOM) else preferred
        return multiply(rot.from_axis_angle(u, swivel), base)


def triangle(l1, l2, d):
    """The angles of the triangle of sides ``l1``, ``l2``, ``d`` (within the shell
    ``[|l1 - l2|, l1 + l2]``): ``alpha`` at the root (between ``d`` and ``l1``) and ``gamma`` between
    the two bones' directions (pi minus the knee's inner angle).

    Each by its half angle, ``tan(a / 2) = sqrt((1 - cos a) / (1 + cos a))``, with both ``1 - cos``
    and ``1 + cos`` as products of differences of the sides (law of cosines), each exact where it
    vanishes: at full stretch the chain comes out exactly straight, where ``acos`` of the cosine
    would turn its last bit of rounding into ``1e-8`` radians.
    """
    # (d -+ short vanish exactly at the folds, long - d at full stretch: d is clamped to those very floats.)
    long, short = l1 + l2, l1 - l2
    gamma = 2.0 * math.atan2(math.sqrt(max(0.0, (long - d) * (long + d))),
                             math.sqrt(max(0.0, (d - short) * (d + short))))
    alpha = 2.0 * math.atan2(math.sqrt(max(0.0, (d - short) * (long - d))),
                             math.sqrt(max(0.0, (d + short) * (long + d)))) if d > 0.0 else 0.0
    return alpha, gamma
