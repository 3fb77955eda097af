"""Section ``urdf``: the arms shipped as URDF files on 4x4 pose targets, with and without an axis mask.

For each arm of :data:`ikcore.rigs.URDF_ARMS` (Panda-like, UR5-like, SCARA-like
with a sliding quill): targets are the tip frame's pose (a 4x4 matrix) at
random joint values within the limits (``random.Random(SEED)``; a hinge of a
whole turn or more drawn over one turn), each turned about its own z axis by a
random angle for the masked rows, so that a roll-free task is all that is
reachable there. The call, for each method of :data:`METHODS`::

    ikcore.solve(arm, pose, method, tolerance=1e-4, max_iterations=1000[, mask=MASKS[arm]])

from the rest pose (all joints at 0, within the limits). A solve counts when its
status is ``converged``: within 1e-4 m and 1e-3 rad on the asked axes. CPU time
per solve; the median and p95 also as multiples of one forward pass of the same
arm (:func:`ikcore.kinematics.frames` at rest, timed every 20 targets in the
same run), a figure that does not depend on the machine's speed.
"""

import math
import random
import statistics
import time

import ikcore
from ikcore.rigs import URDF_ARMS, urdf_arm

from . import robot
from .report import table

SEED = 2044
#: The mask of each arm's masked rows: a roll-free tool for the 6-joint and 7-joint arms, and the
#: SCARA's position alone.
MASKS = {"panda": (1, 1, 1, 1, 1, 0), "ur5_like": (1, 1, 1, 1, 1, 0), "scara_like": (1, 1, 1, 0, 0, 0)}
#: The methods timed: damped least squares, and the hybrid (FABRIK's reach, its sliders held, then DLS).
METHODS = ("dls", "fabrik_dls")


def joint_values(chain, rng):
    """Random joint values within the limits (a hinge of a whole turn or more over one turn)."""
    out = []
    for joint in chain.joints:
        if isinstance(joint, ikcore.Slider):
            out.append(rng.uniform(joint.lower, joint.upper))
        else:
            lo, hi = math.radians(joint.min_deg), math.radians(joint.max_deg)
            out.append(rng.uniform(max(lo, -math.pi), min(hi, math.pi)))
    return out


def rolled(T, angle):
    """The 4x4 ``T`` turned by ``angle`` about its own z axis."""
    c, s = math.cos(angle), math.sin(angle)
    return [[r[0] * c + r[1] * s, -r[0] * s + r[1] * c, r[2], r[3]] for r in T[:3]] + [list(T[3])]


def targets(chain, count, seed):
    rng = random.Random(seed)
    return [(chain.tip_pose(chain.pose_at(joint_values(chain, rng))), rng.uniform(-math.pi, math.pi))
            for _ in range(count)]


def forward_seconds(chain, repeats=1000):
    """CPU seconds of one forward pass of ``chain`` at rest (:func:`.robot.forward_seconds`)."""
    return robot.forward_seconds(chain, chain.plan.rest.rotations, repeats)


def measure(name, count):
    """For arm ``name``: per method of :data:`METHODS` and row (``"pose"``, ``"masked"``) its rate,
    median and p95 ms and their ratios to the forward pass, and the forward pass in µs."""
    chain = urdf_arm(name)
    rows = {method: {"pose": [], "masked": []} for method in METHODS}
    units = []
    for k, (T, angle) in enumerate(targets(chain, count, SEED)):
        if k % 20 == 0:
            units.append(forward_seconds(chain))
        for method in METHODS:
            for row, target, mask in (("pose", T, None), ("masked", rolled(T, angle), MASKS[name])):
                t0 = time.process_time()
                solution = ikcore.solve(chain, target, method, tolerance=1e-4, max_iterations=1000, mask=mask)
                rows[method][row].append((solution.converged, time.process_time() - t0))
    unit = statistics.median(units)
    out = {"forward_us": 1e6 * unit}
    for method, found_rows in rows.items():
        out[method] = {}
        for row, found in found_rows.items():
            times = sorted(t for _, t in found)
            median, p95 = statistics.median(times), times[int(0.95 * count)]
            out[method][row] = {"met": sum(m for m, _ in found), "count": count, "median_ms": 1e3 * median,
                                "p95_ms": 1e3 * p95, "median_vs_forward": median / unit, "p95_vs_forward": p95 / unit}
    return out


def section(cfg):
    count = 100 if cfg.quick else 1000
    data = {name: measure(name, count) for name in URDF_ARMS}
    rows = []
    for name, d in data.items():
        for method in METHODS:
            for row, label in (("pose", "4x4 pose"), ("masked", f"rolled pose, mask={MASKS[name]}")):
                r = d[method][row]
                rows.append([name, method, label, f"{100 * r['met'] / count:.1f}% ({r['met']}/{count})",
                             f"{r['median_ms']:.2f}", f"{r['p95_ms']:.2f}", f"{r['median_vs_forward']:.0f}x",
                             f"{r['p95_vs_forward']:.0f}x", f"{d['forward_us']:.1f}"])
    md = "\n".join([
        "## Arms from URDF on 4x4 poses, with and without an axis mask (CPython)", "",
        f"{count} targets per arm: the tip frame's pose at random joint values within the limits "
        f"(`random.Random({SEED})`); the masked rows turn each target about its own z by a random angle and "
        "ask a mask that leaves that free (the SCARA's: its position alone). "
        "`ikcore.solve(arm, pose, method, tolerance=1e-4, max_iterations=1000[, mask=...])` from the rest pose, "
        "for `dls` and `fabrik_dls` (whose FABRIK reach holds the SCARA's quill where the start has it); "
        "solved: status `converged` (1e-4 m and 1e-3 rad on the asked axes). CPU time per solve; the median and "
        "p95 also as multiples of one forward pass of the arm (`kinematics.frames`, timed every 20 targets in "
        "the same run).", "",
        table(["arm", "method", "targets", "solved", "median ms", "p95 ms", "median / forward pass", "p95 / forward pass",
               "forward pass µs"], rows)])
    return md, data
