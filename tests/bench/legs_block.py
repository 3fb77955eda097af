"""Time many legs solved at once: the same code in CPython and in Pyodide (pure Python, no numpy).

The legs of the crowd benchmark:

- a **planar leg**, the spider's femur and tibia (two hinges about one axis,
  femur -75..45 and tibia -55..80 degrees from a bent rest), for the batched
  ``two_bone`` (``ikcore.solve_batch``) and its kernel alone
  (:meth:`ikcore.solvers.two_bone.planar.PlanarLeg.solve`);
- a **limited leg** of three bones (a ball hip limited to a 100 degree cone and
  45 degrees of twist, a knee hinge 0..150, an ankle hinge -45..45 about the
  same axis), for the batched FABRIK;
- a **ball leg** of two bones (a ball hip limited to a 100 degree cone, free
  to twist, and a knee hinge 0..150 about x), not planar, for the batched
  ``two_bone`` with a pole in front of the knee: ``ball_leg`` through
  ``ikcore.solve_batch`` (its numpy kernel where numpy is present),
  ``ball_leg_lists`` through it without numpy, and ``ball_leg_loop``, a loop
  of ``ikcore.solve``;
- the **bare kernel** (:func:`ikcore.rigs.baselines.bare_two_bone`): the law of cosines, the pole's
  plane, the knee and foot points, over flat float lists, with no rotations,
  limits or status: the floor for this work in this interpreter.

Targets are the tips of random poses within the limits (every one reachable);
every solve starts cold, from the rest pose. A request names the kind, the
number of legs and the repetitions; the answer gives the median time per leg in
microseconds and how many legs converged.
"""

import gc
import json
import math
import random
import time

import ikcore
from ikcore import BallSocket, Chain, Hinge
from ikcore import rotation as rot
from ikcore.rigs.baselines import bare_two_bone
from ikcore.solvers.two_bone.planar import LegResults, PlanarLeg

COXA, FEMUR, TIBIA = 0.18, 0.55, 0.75
FEMUR_REST, TIBIA_REST = math.radians(40.0), math.radians(-75.0)
#: Above the knee, in the leg's frame: knees bend up.
POLE = (COXA + 0.5 * FEMUR, 1.5, 0.0)
SEED = 2021


def planar_leg():
    """The spider's femur and tibia from the coxa's end, hinged about z."""
    knee = (COXA + FEMUR * math.cos(FEMUR_REST), FEMUR * math.sin(FEMUR_REST), 0.0)
    foot = (knee[0] + TIBIA * math.cos(TIBIA_REST), knee[1] + TIBIA * math.sin(TIBIA_REST), 0.0)
    z = (0.0, 0.0, 1.0)
    return Chain([(COXA, 0.0, 0.0), knee, foot], [Hinge(z, -75.0, 45.0), Hinge(z, -55.0, 80.0)])


def limited_leg():
    """Three bones down -y: a limited ball hip, a knee and an ankle hinged about x."""
    x = (1.0, 0.0, 0.0)
    return Chain([(0.0, 0.0, 0.0), (0.0, -0.45, 0.0), (0.0, -0.87, 0.0), (0.0, -1.0, 0.0)],
                 [BallSocket(100.0, -45.0, 45.0), Hinge(x, 0.0, 150.0), Hinge(x, -45.0, 45.0)])


#: In front of the ball leg's knee.
BALL_POLE = (0.0, -0.45, 1.0)


def ball_leg():
    """Two bones down -y: a ball hip limited to a 100 degree cone (free to twist), a knee hinged about x."""
    return Chain([(0.0, 0.0, 0.0), (0.0, -0.45, 0.0), (0.0, -0.87, 0.0)],
                 [BallSocket(100.0), Hinge((1.0, 0.0, 0.0), 0.0, 150.0)])


def targets(chain, count, seed=SEED):
    """Tips of ``count`` random poses within the limits (hinges uniform over their ranges)."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        rotations = []
        for joint in chain.joints:
            if isinstance(joint, Hinge):
                lo, hi = joint.range.lo, joint.range.hi
                rotations.append(joint.rotation(rng.uniform(lo, hi)))
            else:
                axis = (rng.gauss(0.0, 1.0), rng.gauss(0.0, 1.0), rng.gauss(0.0, 1.0))
                rotations.append(rot.from_axis_angle(axis, rng.uniform(0.0, math.pi)))
        out.append(chain.forward(chain.clamp(rotations))[-1])
    return out


def _runner(kind, count):
    """``(run, converged)``: one call solves ``count`` legs of ``kind``; ``converged(result)`` counts."""
    if kind == "bare":
        chain = planar_leg()
        root = chain.points[0]
        offsets = [tuple(c - r for c, r in zip(t, root)) for t in targets(chain, count)]
        xs, ys, zs = (list(c) for c in zip(*offsets))
        px, py, pz = ([c - r] * count for c, r in zip(POLE, root))
        knees, feet = [None] * count, [None] * count
        return (lambda: bare_two_bone(xs, ys, zs, px, py, pz, FEMUR, TIBIA, knees, feet)), lambda _: count
    if kind == "kernel":
        chain = planar_leg()
        leg = PlanarLeg(chain)
        columns = tuple(list(c) for c in zip(*targets(chain, count)))
        poles = tuple([c] * count for c in POLE)
        rest = [j.range.clamp(0.0) for j in chain.joints]
        out = LegResults(count)

        def run():
            leg.solve(count, columns, poles, ([rest[0]] * count, [rest[1]] * count), 1e-3 * chain.reach, out)
            return out.status
        return run, lambda status: status.count(0)
    if kind.startswith("ball_leg"):
        return _ball_legs(kind, count)
    chain = planar_leg() if kind == "two_bone" else limited_leg()
    goals = targets(chain, count)
    method, pole = ("two_bone", POLE) if kind == "two_bone" else ("fabrik", None)
    return (lambda: ikcore.solve_batch(chain, goals, method, poles=pole)), lambda b: b.status.count("converged")


def _ball_legs(kind, count):
    """The ball leg's ``(run, converged)`` (see the module docstring): through solve_batch, with numpy
    where it is present (``ball_leg``) or without (``ball_leg_lists``), or a loop of solve."""
    chain = ball_leg()
    goals = targets(chain, count)
    if kind == "ball_leg_loop":
        return (lambda: [ikcore.solve(chain, t, "two_bone", pole=BALL_POLE) for t in goals]), \
            lambda sols: sum(s.converged for s in sols)
    if kind == "ball_leg_lists":
        from ikcore import batch

        def run():
            numpy, batch.np = batch.np, None
            try:
                return ikcore.solve_batch(chain, goals, "two_bone", poles=BALL_POLE)
            finally:
                batch.np = numpy
        return run, lambda b: b.status.count("converged")
    return (lambda: ikcore.solve_batch(chain, goals, "two_bone", poles=BALL_POLE)), \
        lambda b: b.status.count("converged")


def _clock():
    """The thread's CPU time where there is one (time waiting for a core on a shared machine is not
    counted), else the wall clock (Pyodide: one thread, nothing else runs in it)."""
    try:
        time.thread_time_ns()
        return time.thread_time_ns
    except (OSError, AttributeError):
        return time.perf_counter_ns


def time_legs(request):
    kind, count = request["kind"], request["count"]
    run, converged = _runner(kind, count)
    times, result = [], None
    clock = _clock()
    gc.collect()
    gc.disable()
    try:
        for _ in range(request["reps"]):
            t0 = clock()
            result = run()
            times.append(clock() - t0)
    finally:
        gc.enable()
    return {"us_per_leg": sorted(times)[len(times) // 2] / 1e3 / count, "converged": converged(result)}


def time_block_json(line):
    """``time_legs`` over a JSON line, answered as a JSON line (the Node side's entry point)."""
    return json.dumps(time_legs(json.loads(line)))
