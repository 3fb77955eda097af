"""The steps hook of a traced solve: the algorithm's moves, noted as it makes them.

Every method's ``run(problem, steps=None)`` calls these methods of ``steps``
when it is given (:func:`ikcore.trace` gives a :class:`Recorder`); with
``None`` they are never called, and a solve pays nothing for them. The hooks
only read what they are handed: a trace returns what a solve returns.

==============================================  =============================================================
hook                                            called by
==============================================  =============================================================
``setup(points, what, done=None,                a pose set up for what follows: ``what`` is ``"bend"`` (out of
iteration=None)``
                                                a straight start), ``"turn"`` (a start turned toward the
                                                pole), ``"restart"``, ``"handover"`` (CCD's sweeps or
                                                FABRIK's passes hand over to damped least squares),
                                                ``"pole"`` (the final swivel), ``"finish"`` /
                                                ``"fallback"`` (fabrik_dls's finish
                                                starts from the reach / from the start; ``done``: the
                                                iterations so far, from which the finish's count);
                                                ``iteration``: the one it ends, where the caller knows it
                                                (else the last one a step was noted in)
``reach(points)``                               a target out of reach (or at its edge) met in one step
``rotate(iteration, joint, pivot, to_effector,  CCD turns ``joint`` (at ``pivot``) by ``world_turn``;
to_target, wanted_angle, world_turn)``          ``wanted_angle`` is the angle the directions asked for
``backward(iteration, before, after)``,         a whole FABRIK pass (the points before and after it)
``forward(iteration, before, after)``
``jacobian(iteration, before, after, owners,    an accepted Jacobian step from Frames ``before`` to ``after``:
axes, dtheta, scale, damping, alpha,            per column its joint, world axis and angle, the line search's
secondary)``                                    ``scale``, the rule's damping and step factor
``two_bone(triangle, frames)``                  the closed form's triangle and the pose it took
==============================================  =============================================================

The recorder turns them into :class:`ikcore.Step` records: a FABRIK pass
becomes one step per bone, a Jacobian step gets one column per joint, and so
on (:class:`~ikcore.Step` says what each holds). ``holding(hand)`` gives
fabrik_dls's reach a view of the recorder that adds the hand to every pose of
the wrist's chain, and ``seeing(chain)`` one whose steps are of the chain its
reach moves where that is not the traced chain (its sliders held).
"""

import math
from functools import partial

from . import captions
from . import rotation as rot
from .kinematics import frames, slid_offsets
from .plan import HINGE, SLIDER
from .rotation import rotate
from .step import Step
from .vectors import add, angle, cross, dot, norm, scale, sub, unit

#: Poses whose points lie within this fraction of the reach of one another are the same pose.
SAME = 1e-9


def _angle(a, b):
    """Degrees between vectors ``a`` and ``b`` (0 where either vanishes)."""
    return math.degrees(angle(a, b))


class Recorder:
    """The steps of one traced solve (see the module docstring); :meth:`finish` closes them."""

    def __init__(self, problem):
        self.problem = problem
        self.chain = problem.chain
        self.target = problem.target
        self.steps = []
        self.positions = tuple(problem.start.points)
        # The last iteration a step was noted in, and the iterations before the current loop began.
        self.iteration = 0
        self.offset = 0
        self._add(0, "setup", None, self.positions, captions.start(problem.start_error), {"what": "start"})

    def _error(self, positions):
        return math.dist(positions[-1], self.target)

    def _add(self, iteration, phase, joint, positions, caption, detail):
        self.positions = positions
        self.iteration = iteration
        self.steps.append(Step(iteration, phase, joint, positions, self._error(positions), caption, detail))

    @staticmethod
    def _pose(points, hand):
        """``points`` as a step's positions; with ``hand``, the hand's end added to the wrist's chain."""
        if hand is None:
            return tuple(points)
        return (*points, add(points[-1], hand))

    def holding(self, hand):
        """This recorder as fabrik_dls's reach sees it: every pose gets the hand (the world vector
        ``hand``, held at the asked orientation) on the wrist's chain."""
        return _Holding(self, hand)

    def seeing(self, chain):
        """This recorder for steps on ``chain``, whose poses are the traced chain's: fabrik_dls's
        reach on the chain with its sliders held (:func:`ikcore.solvers.fabrik_dls.held_chain`), whose
        bones, joints and lengths its steps are of."""
        return _Seeing(self, chain)

    # -- the hooks -----------------------------------------------------------------------------

    def setup(self, points, what, done=None, iteration=None, hand=None):
        positions = self._pose(points, hand)
        if done is not None:
            self.offset = iteration = done
        elif iteration is not None:
            iteration += self.offset
        else:
            iteration = self.iteration
        caption = captions.setup(what, iteration, self._error(positions), self.problem.orientation is not None)
        self._add(iteration, "setup", None, positions, caption, {"what": what})

    def reach(self, points, hand=None):
        positions = self._pose(points, hand)
        chain = self.chain
        distance = chain.distance_to(self.target)
        caption = captions.reach(distance, chain.reach, chain.min_reach, chain.plan.free, self._error(positions))
        self._add(self.offset + 1, "reach", None, positions, caption,
                  {"distance": distance, "reach": chain.reach, "min_reach": chain.min_reach})

    def rotate(self, iteration, joint, pivot, to_effector, to_target, wanted_angle, world_turn):
        before = self.positions
        positions = (*before[:joint + 1], *(add(pivot, rotate(world_turn, sub(p, pivot))) for p in before[joint + 1:]))
        made = math.degrees(rot.angle(world_turn))
        wanted_angle = math.degrees(abs(wanted_angle))
        cap = self.problem.options.get("max_step_deg", 180.0)
        capped = wanted_angle > cap
        clamped = abs(made - min(wanted_angle, cap)) > 1e-7
        # The turn's axis (the vector part, world_turn round where w < 0: the same rotation written the other way).
        axis = world_turn[1:] if world_turn[0] >= 0.0 else scale(world_turn[1:], -1.0)
        constraint = self.chain.joints[joint]
        hinge = self.chain.plan.joints[joint].kind == HINGE
        caption = captions.rotate(joint, made, constraint, hinge, clamped, capped, cap, self._error(positions))
        self._add(self.offset + iteration, "rotate", joint, positions, caption,
                  {"to_effector": unit(to_effector), "to_target": unit(to_target), "angle_deg": made,
                   "wished_deg": wanted_angle, "axis": unit(axis) if norm(axis) > 0.0 else None, "clamped": clamped,
                   "capped": capped})

    def backward(self, iteration, before, after, hand=None):
        """Bone by bone from the effector down: the pass's first move puts the effector on the target
        and places bone ``N - 1``; each next one places the bone below (its lower end, ``moved``)."""
        n = len(after) - 1
        for i in range(n - 1, -1, -1):
            positions = self._pose((*before[:i], *after[i:]), hand)
            turned = _angle(sub(before[i + 1], before[i]), sub(after[i + 1], after[i]))
            anchor = n if i == n - 1 else None
            left = math.dist(after[0], before[0])
            caption = captions.backward(i, self.chain.lengths[i], turned, anchor, left)
            self._add(self.offset + iteration, "backward", i, positions, caption,
                      {"moved": i, "toward": i + 1, "length": self.chain.lengths[i], "turned_deg": turned,
                       "anchor": anchor})

    def forward(self, iteration, before, after, hand=None):
        """Bone by bone from the root up: the pass's first move puts the root back on its base and
        places bone 0; each next one places the bone above (its upper end, ``moved``)."""
        n = len(after) - 1
        for i in range(n):
            positions = self._pose((*after[:i + 2], *before[i + 2:]), hand)
            turned = _angle(sub(before[i + 1], before[i]), sub(after[i + 1], after[i]))
            anchor = 0 if i == 0 else None
            caption = captions.forward(i + 1, self.chain.lengths[i], turned, anchor, self._error(positions),
                                       i == n - 1)
            self._add(self.offset + iteration, "forward", i + 1, positions, caption,
                      {"moved": i + 1, "toward": i, "length": self.chain.lengths[i], "turned_deg": turned,
                       "anchor": anchor})

    def jacobian(self, iteration, before, after, turns, scale_, max_step, damping, alpha, secondary, hand=None):
        points = before.points
        # Each joint's world turn (None: none), as the step turned the joints: the largest capped at max_step.
        turns = [(0.0, 0.0, 0.0) if w is None else w for w in turns]
        biggest = max(norm(w) for w in turns)
        capped = biggest > max_step
        k = scale_ * (max_step / biggest if capped else 1.0)
        end = points[-1]
        directions, columns, deltas, turned = [], [], [], []
        # A slider's displacement after the step, before its range applies, and its slide in the step
        # (None for other joints; both None for a chain without sliders).
        slid = None if before.slides is None else list(before.slides)
        moved = None if slid is None else [None] * len(turns)
        for j, w in enumerate(turns):
            joint = self.chain.plan.joints[j]
            q = before.rotations[j]
            if joint.kind == SLIDER:
                axis = rotate(before.worlds[j - 1], joint.axis) if j else joint.axis
                # A slider's motion lies along its world axis s: it slides by w . s, and moves the
                # effector along s, one unit per unit of slide; it turns nothing.
                slide = k * dot(w, axis)
                slid[j] += slide
                moved[j] = slide
                directions.append(axis)
                columns.append(axis)
                deltas.append(0.0)
                turned.append(q)
                continue
            if joint.kind == HINGE:
                z = rotate(before.worlds[j - 1], joint.axis) if j else joint.axis
                delta = k * dot(w, z)
            elif norm(w) > 0.0:
                z, delta = unit(w), k * norm(w)
            else:
                z, delta = None, 0.0
            directions.append(z)
            columns.append((0.0, 0.0, 0.0) if z is None else cross(z, sub(end, points[j])))
            deltas.append(math.degrees(delta))
            # The joint's rotation turned, before the limits apply: q_j <- exp(R_{j-1}^* w) q_j (world w).
            if delta:
                q = rot.normalize(rot.multiply(rot.from_axis_angle(rotate(rot.conjugate(before.worlds[j - 1]), z)
                                                                   if j else z, delta), q))
            turned.append(q)
        iteration += self.offset
        # The joints whose limits moved them back (pose_of's clamp), if any: a step of their own.
        held = [j for j, (q, p) in enumerate(zip(turned, after.rotations)) if max(abs(a - b) for a, b in zip(q, p)) > 1e-12]
        if slid is not None:
            held = sorted({*held, *(j for j in self.chain.plan.sliders if abs(slid[j] - after.slides[j]) > 1e-12)})
        raw = frames(self.chain, turned, None if slid is None else slid_offsets(self.chain, slid))[1] if held \
            else after.points
        if held and self._same(raw, after.points):
            held = []  # a twist held about a bone's own line: no point moved
        positions = self._pose(raw if held else after.points, hand)
        kind = {"jacobian_transpose": "transpose", "pseudo_inverse": "pseudo_inverse"}.get(
            self.problem.settings.method, "dls")
        halvings = round(-math.log2(scale_)) if scale_ < 1.0 else 0
        caption = captions.jacobian(kind, deltas, damping, alpha, halvings, capped, secondary,
                                    self._error(positions), moved)
        detail = {"columns": columns, "axes": directions, "delta_deg": deltas,
                  "error_vector": sub(self.target, self._pose(points, hand)[-1]), "damping": damping,
                  "alpha": alpha, "scale": scale_, "secondary": secondary}
        if moved is not None:
            detail["slides"] = moved
        self._add(iteration, "step", None, positions, caption, detail)
        if held:
            positions = self._pose(after.points, hand)
            self._add(iteration, "limit", held[0] if len(held) == 1 else None, positions,
                      captions.held(held, self._error(positions)), {"joints": held})

    def two_bone(self, triangle, frames):
        positions = tuple(frames.points)
        root, knee, tip = positions
        sides = (*self.chain.lengths, triangle.distance)
        elbow = 180.0 - math.degrees(triangle.gamma)
        knee_deg = _angle(sub(root, knee), sub(tip, knee))
        kept = frames is self.problem.start
        distance = triangle.span
        caption = captions.two_bone(sides, distance, elbow, math.degrees(triangle.alpha), knee_deg, kept,
                                    self._error(positions), triangle.end,
                                    triangle.height if triangle.height > 1e-9 * self.chain.reach else 0.0,
                                    triangle.searched)
        self._add(self.offset + 1, "solve", None, positions, caption,
                  {"sides": sides, "distance": distance, "height": triangle.height, "elbow_deg": elbow,
                   "root_deg": math.degrees(triangle.alpha), "knee_deg": knee_deg, "knee": knee, "kept": kept,
                   "end": triangle.end, "searched": triangle.searched})

    # -- the end -------------------------------------------------------------------------------

    def finish(self, solution):
        """The steps, closed by the pose ``solution`` returns: a ``limit`` step first when the limits
        moved it off every pose noted, then the ``result`` (its status). Returns the list."""
        final = tuple(solution.positions)
        best = None
        if not self._same(self.steps[-1].positions, final):
            earlier = next((s for s in reversed(self.steps) if self._same(s.positions, final)), None)
            if earlier is None:
                self._add(self.iteration, "limit", None, final, captions.limited(self._error(final)), {})
            else:
                best = earlier
        problem = self.problem
        caption = captions.result(solution, problem.tolerance, self.chain.distance_to(self.target), self.chain.reach,
                                  None if best is None else best.iteration)
        self._add(max(solution.iterations, self.iteration), "result", None, final, caption,
                  {"status": solution.status, "best": None if best is None else self.steps.index(best)})
        return self.steps

    def _same(self, a, b):
        eps = SAME * self.chain.reach
        return all(math.dist(p, q) <= eps for p, q in zip(a, b))


class _Holding:
    """A :class:`Recorder` seen through :meth:`Recorder.holding`: each hook gets the hand."""

    def __init__(self, recorder, hand):
        self.recorder = recorder
        self.hand = hand

    def __getattr__(self, name):
        return partial(getattr(self.recorder, name), hand=self.hand)


class _Seeing:
    """A :class:`Recorder` seen through :meth:`Recorder.seeing`: each hook runs on the other chain."""

    def __init__(self, recorder, chain):
        self.recorder = recorder
        self.chain = chain

    def __getattr__(self, name):
        return partial(self._call, getattr(self.recorder, name))

    def holding(self, hand):
        """This view with the hand on every pose (:meth:`Recorder.holding`)."""
        return _Holding(self, hand)

    def _call(self, hook, *args, **kwargs):
        recorder = self.recorder
        traced, recorder.chain = recorder.chain, self.chain
        try:
            return hook(*args, **kwargs)
        finally:
            recorder.chain = traced
