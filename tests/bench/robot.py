"""Section ``robot``: the Panda-like 7-joint arm (:func:`ikcore.rigs.panda`) on 6-D targets.

The targets: the flange's position and orientation in random configurations
within the joint limits (``random.Random(SEED)``, each angle uniform in its
range). The call, for each Jacobian method that takes secondary objectives::

    ikcore.solve(arm, p, method, orientation=R, start=ready, tolerance=1e-4, max_iterations=1000)

A solve succeeds when its flange is within 1e-4 m and 1e-3 rad of the target.
Times are CPU time (``time.process_time``) per solve, each target solved once
in turn by every method (interleaved, so that a busy spell of the shared
machine falls on all of them alike). Beside the milliseconds, the median solve
as a multiple of one forward pass of the same arm timed in the same run, in
turns with the solves (the pose an iteration builds:
:func:`ikcore.kinematics.frames`, world rotations and points together, of unit
rotations): a figure that does not depend on the machine's speed, and the one
the goals hold (:data:`tests.bench.goals.ROBOT_FORWARD`).

ikpy (if installed) solves the same targets from the same ready pose with its
own defaults and ``orientation_mode="all"``, on a subset (its solves take tens of
milliseconds): the arm built from the same Denavit-Hartenberg parameters.
"""

import math
import random
import statistics
import time
import warnings

import ikcore
from ikcore import kinematics
from ikcore.rigs import panda
from ikcore.rigs.panda import DH, LIMITS, READY, rotations

from . import goals, peers
from .report import table

SEED = 2026
METHODS = ("dls", "pseudo_inverse", "fabrik_dls")
POSITION_TOLERANCE = 1e-4
ANGLE_TOLERANCE = 1e-3


def targets(count, seed=SEED):
    """``count`` 6-D targets ``(p, R, angles)``: the flange of random in-limit configurations."""
    arm, _ = panda()
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        angles = [rng.uniform(lo, hi) for lo, hi in LIMITS]
        pose = rotations(arm, angles)
        out.append((arm.forward(pose)[-1], arm.world_rotations(pose)[-1], angles))
    return out


def solve_once(arm, ready, method, p, R):
    """``(met, CPU seconds, iterations)`` of one solve as the module docstring states it."""
    t0 = time.process_time()
    sol = ikcore.solve(arm, p, method, orientation=R, start=ready, tolerance=POSITION_TOLERANCE,
                       max_iterations=1000)
    elapsed = time.process_time() - t0
    met = sol.error <= POSITION_TOLERANCE and sol.orientation_error <= ANGLE_TOLERANCE
    return met, elapsed, sol.iterations


def forward_seconds(arm, ready, repeats=1000):
    """CPU seconds of one forward pass of the arm, the median of 5 runs: one
    :func:`ikcore.kinematics.frames` (world rotations and points in one recurrence), as every solver
    iteration builds it. (``Chain.forward`` and ``Chain.world_rotations`` would each check the
    rotations and run the recurrence again: four times as long, and not what a solve pays.)"""
    runs = []
    for _ in range(5):
        t0 = time.process_time()
        for _ in range(repeats):
            kinematics.frames(arm, ready)
        runs.append((time.process_time() - t0) / repeats)
    return statistics.median(runs)


def ikpy_panda():
    """An ikpy chain of the Panda from :data:`~ikcore.rigs.panda.DH`: each modified DH transform
    ``RotX(alpha) TransX(a) RotZ(theta) TransZ(d)`` is ``Trans(a, -d sin alpha, d cos alpha)
    RotX(alpha)``, then the joint's turn about ``z``; the flange a fixed link."""
    from ikpy.chain import Chain as IkpyChain
    from ikpy.link import OriginLink, URDFLink
    links = [OriginLink()]
    for i, (a, d, alpha) in enumerate(DH):
        joint = {} if i < 7 else {"joint_type": "fixed"}
        links.append(URDFLink(name=f"j{i + 1}", origin_translation=[a, -d * math.sin(alpha), d * math.cos(alpha)],
                              origin_orientation=[alpha, 0.0, 0.0], rotation=None if i == 7 else [0.0, 0.0, 1.0],
                              bounds=LIMITS[i] if i < 7 else (None, None), **joint))
    return IkpyChain(links, active_links_mask=[False] + [True] * 7 + [False])


def to_panda(v):
    """ikcore's Y-up ``(x, y, z)`` as the Panda's Z-up ``(x, -z, y)``."""
    return [v[0], -v[2], v[1]]


def ikpy_rate(cases):
    """ikpy on ``cases`` (``(p, R)``): ``(met, median CPU seconds)``, or ``None`` without ikpy."""
    if peers.ikpy_version() is None or not cases:
        return None
    import numpy as np
    chain = ikpy_panda()
    start = [0.0, *READY, 0.0]
    met, times = 0, []
    for p, R, _ in cases:
        # The flange's turn from rest in ikcore is R; in Panda coordinates the flange's rotation matrix is
        # R's matrix (converted to Z up) times the rest flange's.
        rest = chain.forward_kinematics([0.0] * 9)[:3, :3]
        turn = np.array([to_panda(ikcore.rotation.rotate(R, e)) for e in ((1, 0, 0), (0, 0, -1), (0, 1, 0))]).T
        target = turn @ rest
        goal = np.array(to_panda(p))
        t0 = time.process_time()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            angles = chain.inverse_kinematics(target_position=goal, target_orientation=target,
                                              orientation_mode="all", initial_position=start)
        times.append(time.process_time() - t0)
        frame = chain.forward_kinematics(angles)
        dp = float(np.linalg.norm(frame[:3, 3] - goal))
        cos = (np.trace(frame[:3, :3].T @ target) - 1.0) / 2.0
        angle = math.acos(max(-1.0, min(1.0, cos)))
        met += dp <= POSITION_TOLERANCE and angle <= ANGLE_TOLERANCE
    return met, statistics.median(times)


def measure(count, ikpy_count):
    """Per method ``{"rate", "median_ms", "p95_ms", "median_iterations", "p95_iterations",
    "max_iterations", "vs_forward"}``, and ``"ikpy"``: ``(met, count, median_ms)`` or ``None``."""
    arm, ready = panda()
    cases = targets(count)
    found = {m: [] for m in METHODS}
    units = []
    for k, (p, R, _) in enumerate(cases):
        if k % 20 == 0:
            units.append(forward_seconds(arm, ready))
        for method in METHODS:
            found[method].append(solve_once(arm, ready, method, p, R))
    unit = statistics.median(units)
    out = {}
    for method, rows in found.items():
        times = sorted(t for _, t, _ in rows)
        its = sorted(i for _, _, i in rows)
        out[method] = {"rate": sum(m for m, _, _ in rows) / count, "met": sum(m for m, _, _ in rows),
                       "median_ms": 1e3 * statistics.median(times), "p95_ms": 1e3 * times[int(0.95 * count)],
                       "median_iterations": statistics.median(its), "p95_iterations": its[int(0.95 * count)],
                       "max_iterations": its[-1], "vs_forward": statistics.median(times) / unit}
    found_ikpy = ikpy_rate(cases[:ikpy_count])
    out["ikpy"] = None if found_ikpy is None else (found_ikpy[0], ikpy_count, 1e3 * found_ikpy[1])
    out["forward_us"] = 1e6 * unit
    return out


def section(cfg):
    count = 200 if cfg.quick else 2000
    ikpy_count = 10 if cfg.quick else 100
    data = measure(count, ikpy_count)
    rows = []
    for method in METHODS:
        d = data[method]
        rows.append([method, f"{100 * d['rate']:.2f}% ({d['met']}/{count})", f"{d['median_ms']:.2f}",
                     f"{d['p95_ms']:.2f}", f"{d['vs_forward']:.0f}x", f"{goals.ROBOT_FORWARD[method]:.0f}x",
                     f"{d['median_iterations']:.0f} / {d['p95_iterations']} / {d['max_iterations']}"])
    if data["ikpy"] is not None:
        met, n, ms = data["ikpy"]
        rows.append([f"ikpy {peers.ikpy_version()} (first {n} targets)", f"{100 * met / n:.1f}% ({met}/{n})",
                     f"{ms:.1f}", None, None, None, None])
    md = "\n".join([
        "## A redundant arm: the Panda-like 7-joint arm on 6-D targets (CPython)", "",
        f"{count} targets, the flange of random configurations within the limits (`random.Random({SEED})`); "
        "`ikcore.solve(arm, p, method, orientation=R, start=ready, tolerance=1e-4, max_iterations=1000)`; "
        "success: within 1e-4 m and 1e-3 rad. CPU time per solve, methods interleaved target by target; "
        f"one forward pass of the arm (`kinematics.frames`: world rotations and points), timed every 20 "
        f"targets, took {data['forward_us']:.1f} µs in this run (median). The goal: the median solve within "
        "the given multiple of the forward pass. ikpy solves the same "
        "targets from the same ready pose with `orientation_mode=\"all\"` and its own defaults.", "",
        table(["method", "solved", "median ms", "p95 ms", "median / forward pass", "goal",
               "iterations (median / p95 / max)"], rows)])
    return md, data
