"""CCD: cyclic coordinate descent.

One iteration (a sweep) visits the joints from the tip to the root. Joint ``i``
at ``p_i`` turns so that the direction to the end effector ``u = e - p_i``
lines up with the direction to the target ``v = t - p_i``:

- a free joint turns by the shortest arc ``u -> v``: the angle
  ``atan2(|u x v|, u . v)`` about ``u x v`` (half a turn about an axis across
  ``u`` where they point opposite ways);
- a hinge turns about its current world axis ``h = R_{i-1} a`` by the angle
  between the projections of ``u`` and ``v`` on the plane normal to ``h``; its
  new angle is clamped into its range;
- a ball joint (or any other limit) turns like a free one, then its limits apply.
  A ball joint followed by a hinge, where its limits would cut the shortest arc,
  first turns further about the direction to the target (which keeps the
  effector on it) by the least angle its limits allow
  (:meth:`ikcore.plan.Joint.swivel_within`): a hip with a twist limit then turns
  the knee's plane instead of losing its step.

Only joint ``i`` and the effector move during a step, so a sweep takes the
points and world rotations once, from forward kinematics at its start, and
carries the effector along: ``e <- p_i + D (e - p_i)`` for the turn ``D`` the
joint made. Turns that would move the effector by less than a thousandth of
the tolerance are skipped (no vibration); the sweep ends early once the
effector meets the target.

**Option** ``max_step_deg`` (default 180: no cap) caps each joint's turn per
step; smaller values spread the bend along the chain (more natural poses, more
sweeps).

**Crawls and stalls.** CCDSearch slow down as a chain straightens (near full
reach every turn moves the effector mostly across the line to the target) or
where a joint is pinned on its limit. A pace that would not meet the tolerance
within :data:`HORIZON` more sweeps counts as a stall (:mod:`~.restarts`): a
chain without limits then restarts from the uniform arc onto the target, which
meets it; any other chain hands over to damped least squares from its best
pose (:mod:`~.handover`), as FABRIK's passes with joint frames do, where the
target lies within the reach (beyond it, the sweeps straighten the chain at
the target, and a stall restarts them from the best pose kicked).

**Shared rules** (as for FABRIK): out of reach (or within the tolerance of its
edges), a chain without limits takes its nearest pose in one step (:mod:`~.reach`); a straight chain with the target on
its line is first bent off it (:mod:`~.degenerate`); the best pose is returned,
swivelled toward a pole where one is given (:mod:`~.pole`).
"""

import math

from .. import rotation as rot
from ..checks import check_float
from ..errors import IKError
from ..kinematics import pose_of
from ..plan import BALL, HINGE
from ..problem import Outcome
from ..rotation import multiply, rotate, shortest_arc
from ..vectors import norm, signed_angle, sub
from . import degenerate, pole, reach
from .handover import finish_with_dls
from .loop import Search, iterate, stall_watch
from .restarts import restart_frames


def _check_step(value, name):
    value = check_float(value, name)
    if not 0.0 < value <= 180.0:
        raise IKError(f"{name} must be in (0, 180] degrees, got {value!r}")
    return value


OPTIONS = {"max_step_deg": (180.0, _check_step)}
MAX_ITERATIONS = 200
#: The stall watch's window (:func:`~ikcore.solvers.restarts.watch_settings`): iterations without
#: progress before a restart.
WINDOW = 6
#: A pace that would not meet the tolerance within this many more sweeps is a crawl (see the module
#: docstring): near full reach the sweeps slow down as the error falls (about as 1 / k).
HORIZON = 25
POLE = True
#: Largest random turn per joint on a restart (radians).
KICK = 0.8
#: Skip a turn that moves the effector less than this fraction of the tolerance.
SKIP = 1e-3


def run(problem, steps=None):
    """Solve ``problem`` by CCD; see the module docstring."""
    chain = problem.chain
    start = problem.start
    if problem.start_met:
        return pole.swivel_toward_pole(problem, Outcome(start, 0, [problem.start_error]), steps)
    if chain.plan.free and problem.at_edge:
        outcome = reach.in_one_step(problem, reach.nearest_frames(problem, start), [problem.start_error], steps)
        return pole.swivel_toward_pole(problem, outcome, steps)
    search = CCDSearch(problem, steps)
    if chain.plan.free or not chain.reachable(problem.target):
        return pole.swivel_toward_pole(problem, iterate(problem, search), steps)
    # A limited chain sweeps to its first stall, then damped least squares goes on from the best pose.
    watch = stall_watch(problem, search)
    outcome = iterate(problem, search, max_restarts=0, watch=watch)
    if outcome.stalled:
        outcome = finish_with_dls(problem, outcome, steps, watch)
    return pole.swivel_toward_pole(problem, outcome, steps)


class CCDSearch(Search):
    """CCD's sweeps, for :func:`~ikcore.solvers.loop.iterate`."""

    def __init__(self, problem, steps):
        self.problem = problem
        self.chain = chain = problem.chain
        self.steps = steps
        self.max_step = math.radians(problem.options["max_step_deg"])
        self.restarts = 0
        # The sweep being made (the steps hook numbers a restart by it).
        self.iteration = 0
        joints = chain.plan.joints
        # Ball joints followed by a hinge: their twist decides the hinge's plane.
        self.before_hinge = [j.kind == BALL and i + 1 < len(joints) and joints[i + 1].kind == HINGE
                             for i, j in enumerate(joints)]
        frames = problem.start
        toward, target = problem.pole, problem.target
        # Straight, with the target on its line or a pole to turn toward: curl it first.
        if degenerate.straight(chain, frames, None if toward is not None else target):
            frames = pose_of(chain, degenerate.bend(chain, frames, toward, target))
            if steps is not None:
                steps.setup(frames.points, "bend")
        self._take(frames)

    def _take(self, frames):
        self.frames = frames
        self.error = self.score = self.problem.error(frames)

    def step(self, iteration):
        """One sweep, tip to root (see the module docstring), then forward kinematics."""
        chain, problem, frames = self.chain, self.problem, self.frames
        target, tolerance = problem.target, problem.tolerance
        self.iteration = iteration
        rotations = list(frames.rotations)
        e = frames.points[-1]
        for i in range(chain.size - 1, -1, -1):
            p = frames.points[i]
            u, v = sub(e, p), sub(target, p)
            nu, nv = norm(u), norm(v)
            if nu == 0.0 or nv == 0.0:
                continue
            parent = frames.worlds[i - 1] if i else rot.IDENTITY
            q, world_turn, wanted_angle = self._turn(i, rotations[i], parent, u, v)
            if world_turn is None:
                continue
            if self.steps is not None:
                self.steps.rotate(iteration, i, p, u, v, wanted_angle, world_turn)
            rotations[i] = q
            # The effector turns with the joint: e = p + D u, D the world turn.
            e = tuple(a + b for a, b in zip(p, rotate(world_turn, u)))
            if math.dist(e, target) <= tolerance:
                break
        self._take(pose_of(chain, rotations))

    def _turn(self, i, q, parent, u, v):
        """Joint ``i``'s new rotation, the world turn it made and the angle it wished to turn,
        ``(q, world_turn, wanted_angle)``; ``world_turn`` is ``None`` when the turn is too small to matter or impossible
        (``u`` or ``v`` along a hinge's axis)."""
        joint = self.chain.plan.joints[i]
        bone = joint.bone
        skip = SKIP * self.problem.tolerance
        if joint.kind == HINGE:
            hinge = joint.constraint
            axis = rotate(parent, hinge.axis)
            wanted_angle = signed_angle(axis, u, v)
            delta = max(-self.max_step, min(self.max_step, wanted_angle))
            old = hinge.angle(q)
            new = hinge.rotation(old + delta)
            turned_angle = rot.wrap_angle(hinge.angle(new) - old)
            # The effector moves on a circle of radius |u x axis| about the axis.
            if norm(u) * math.sqrt(max(0.0, 1.0 - (sum(a * b for a, b in zip(u, axis)) / norm(u)) ** 2)) \
                    * abs(2.0 * math.sin(0.5 * turned_angle)) < skip:
                return q, None, wanted_angle
            return new, rot.from_axis_angle(axis, turned_angle), wanted_angle
        world = shortest_arc(tuple(c / norm(u) for c in u), tuple(c / norm(v) for c in v))
        angle = wanted_angle = rot.angle(world)
        if norm(u) * 2.0 * math.sin(0.5 * angle) < skip:
            return q, None, wanted_angle
        if angle > self.max_step:
            world = rot.from_axis_angle(world[1:], self.max_step)
        # The world turn seen in the parent's frame, applied to the joint: q <- (P* D P) q.
        local = multiply(multiply(rot.conjugate(parent), world), parent)
        new = rot.normalize(multiply(local, q))
        if joint.clamp is not None:
            if self.before_hinge[i] and joint.clamp(new, bone) is not new:
                # Any further turn about the target's direction keeps the effector on it: take the one
                # nearest the shortest arc that the limits allow, before they clamp what is left (the
                # plane of the hinge that follows).
                toward = rotate(rot.conjugate(parent), tuple(c / norm(v) for c in v))
                new = rot.normalize(multiply(rot.from_axis_angle(toward, joint.swivel_within(new, toward, 0.0)), new))
            new = joint.clamp(new, bone)
        # The turn the joint actually made, back in the world: D = P (new q*) P*.
        world_turn = multiply(multiply(parent, multiply(new, rot.conjugate(q))), rot.conjugate(parent))
        return new, world_turn, wanted_angle

    def restart(self, kept, rng):
        # A chain without limits starts again from the arc onto the target where one reaches it; out of
        # reach (where the sweeps straighten the chain at the target, and damped least squares' steps
        # would shrink with its bend) a chain starts again from its best pose kicked, harder each
        # restart: a pose far from the target needs more than a nudge.
        self.restarts += 1
        self._take(restart_frames(self.problem, self.pose_of(kept), rng, KICK * (1.0 + 0.5 * self.restarts)))
        if self.steps is not None:
            self.steps.setup(self.frames.points, "restart", iteration=self.iteration)
        return True

