"""Section ``humanoid``: the seeds' humanoid claims, measured on the humanoid's own limbs.

The claims: FABRIK "typically two to four full iterations ... are sufficient for
humanoid chains"; CCD "for humanoid skeletons with reasonable joint limits ...
converges in two to five iterations". The limbs are the humanoid scene's
(:mod:`ikcore.rigs.humanoid_rig`), each with its limits, in its own frame:

- leg: hip (ball, cone 100, twist +-40) - knee (hinge 0..150) - ankle;
- arm: shoulder (ball, cone 110, twist +-70) - elbow (hinge 0..150) - wrist;
- spine: three balls (cone 20, twist +-12), pelvis to chest.

**Cold.** From the rest pose, ``COUNT`` reachable targets per limb: the tips of
random poses within the limits (``random.Random(SEED)``; per ball joint a swing
axis uniform across the bone, a swing angle uniform in the cone and a twist
uniform in its range; per hinge an angle uniform in its range). Each method
solves each target once with its defaults (tolerance 1e-3 x the limb's reach);
a target counts as solved when the status is ``converged``. Per method and
limb: the solve rate, and the median and 90th percentile of the iterations of
all solves.

**Warm.** The scene itself, frame by frame at 60 fps (walk to the door, reach,
hold the knob while breathing, then the knob moved twice and the look target
dragged about), each chain's iterations a frame, per method; the legs with the
scene's ``leg_method`` set to the method too (two_bone where the method is not
offered for them).
"""

import math
import random
import statistics

import ikcore
from ikcore import rotation as rot
from ikcore.rigs import make_scene
from ikcore.rigs.humanoid_rig import SPINE_POINTS, arm_joints, arm_points, leg_joints, leg_points, spine_joints

from .report import table

SEED = 1750
COUNT = 500
METHODS = ("fabrik", "ccd", "dls", "fabrik_dls", "two_bone")
GOALS = {"fabrik": 4, "ccd": 5}
RATE_GOAL = 0.99
WARM_GOAL = 2
WARM_FRAMES = 1500


def limbs():
    """The three limbs as chains in their own frames, with their limits."""
    return {"leg": ikcore.Chain(leg_points(1.0), leg_joints()),
            "arm": ikcore.Chain(arm_points(1.0), arm_joints()),
            "spine": ikcore.Chain(SPINE_POINTS, spine_joints())}


def random_rotation(joint, bone, rng):
    """A rotation within ``joint``'s limits (see the module docstring)."""
    if isinstance(joint, ikcore.Hinge):
        return rot.from_axis_angle(joint.axis, math.radians(rng.uniform(joint.min_deg, joint.max_deg)))
    axis = rot.rotate(rot.from_axis_angle(bone, rng.uniform(0.0, 2.0 * math.pi)), rot.perpendicular(bone))
    swing = rot.from_axis_angle(axis, rng.uniform(0.0, joint.cone))
    twist = rot.from_axis_angle(bone, math.radians(rng.uniform(joint.twist_min_deg, joint.twist_max_deg)))
    return rot.multiply(swing, twist)


def targets(chain, count, seed):
    """The tips of ``count`` random poses within the limits."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        rotations = [random_rotation(j, d, rng) for j, d in zip(chain.joints, chain.directions)]
        assert max(chain.violations(rotations)) < 1e-9
        out.append(chain.forward(rotations)[-1])
    return out


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))]


def cold(count=COUNT):
    """``{limb: {method: {"rate", "median", "p90", "unsolved": [target index]}}}``."""
    out = {}
    for k, (name, chain) in enumerate(limbs().items()):
        points = targets(chain, count, SEED + k)
        out[name] = {}
        for method in METHODS:
            if method == "two_bone" and chain.size != 2:
                continue
            iterations, unsolved = [], []
            for i, target in enumerate(points):
                solution = ikcore.solve(chain, target, method)
                iterations.append(solution.iterations)
                if solution.status != "converged":
                    unsolved.append(i)
            out[name][method] = {"rate": 1.0 - len(unsolved) / count, "median": statistics.median(iterations),
                                 "p90": percentile(iterations, 0.9), "unsolved": unsolved}
    return out


def warm(frames=WARM_FRAMES):
    """Per method, each chain's iterations a frame over the scene's motion: ``{method: {chain: [n]}}``."""
    out = {}
    for method in METHODS:
        scene = make_scene("humanoid")
        legs = method if method in ("two_bone", "fabrik", "ccd", "dls", "fabrik_dls") else "two_bone"
        scene.set_params(method=method, leg_method=legs)
        runs = {limb.name: [] for limb in scene.limbs}
        knob = scene.targets["knob"].position
        for frame in range(frames):
            if frame == frames // 2:
                scene.set_target("knob", (knob[0] - 0.6, knob[1] + 0.15, knob[2]))
            if frame == 3 * frames // 4:
                scene.set_target("knob", (knob[0] + 0.1, knob[1] - 0.2, knob[2]))
            if frame >= 7 * frames // 8:
                a = 0.02 * (frame - 7 * frames // 8)
                scene.set_target("look", (knob[0] + 0.8 * math.sin(a), knob[1] + 0.4, knob[2]))
            scene.step(1.0 / 60.0)
            for limb in scene.limbs:
                runs[limb.name].append(limb.result[2])
        out[method] = runs
    return out


def section(cfg):
    count = 100 if cfg.quick else COUNT
    frames = 400 if cfg.quick else WARM_FRAMES
    cold_data = cold(count)
    warm_data = warm(frames)
    rows = []
    for limb, methods in cold_data.items():
        for method, r in methods.items():
            goal = GOALS.get(method)
            met = "" if goal is None else ("met" if r["median"] <= goal and r["rate"] >= RATE_GOAL else "missed")
            rows.append([limb, method, f"{100 * r['rate']:.1f}%", f"{r['median']:g}", f"{r['p90']:g}",
                         "" if goal is None else f"median <= {goal}, >= 99%: {met}"])
    warm_rows = []
    for method, chains in warm_data.items():
        every = [n for runs in chains.values() for n in runs]
        arms_spine = [n for name in ("spine", "left_arm", "right_arm") for n in chains[name]]
        warm_rows.append([method, f"{statistics.median(every):g}", f"{statistics.mean(every):.2f}",
                          f"{statistics.median(arms_spine):g}", f"{percentile(every, 0.9):g}", f"{max(every)}",
                          "met" if statistics.median(every) <= WARM_GOAL else "missed"])
    md = "\n".join([
        "## The humanoid's limbs: the seeds' claims (CPython)", "",
        f"Cold: {count} reachable targets per limb (tips of random poses within the limits, "
        f"`random.Random({SEED} + limb)`), from the rest pose, each method with its defaults (tolerance 1e-3 x "
        "the limb's reach); solved: status `converged`. Limbs: leg hip-knee-ankle (ball cone 100 twist +-40, "
        "hinge 0..150), arm shoulder-elbow-wrist (ball cone 110 twist +-70, hinge 0..150), spine (three balls, "
        "cone 20, twist +-12). Goals from the seeds: FABRIK median <= 4, CCD median <= 5, both solving >= 99%.", "",
        table(["limb", "method", "solved", "median iterations", "p90 iterations", "goal"], rows), "",
        f"Warm: the humanoid scene tracking its own motion, {frames} frames at 60 fps (walk to the door, reach, "
        "hold and breathe, the knob moved twice, the look dragged), every chain's iterations a frame "
        f"(`leg_method` the same method). Goal: a median of <= {WARM_GOAL} iterations a frame.", "",
        table(["method", "median a frame", "mean", "median, spine and arms", "p90", "most", "goal"], warm_rows)])
    return md, {"cold": cold_data, "warm": {m: {c: statistics.median(v) for c, v in ch.items()}
                                           for m, ch in warm_data.items()}}
