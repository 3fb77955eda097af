"""Fuzzing every method: wide chains, limits, starts, targets, orientations and poles.

Chains of 1 to 60 bones with lengths over six decades, hinges and ball joints
with any ranges, starts folded or on the limits, targets from 1e-9 to 1e9 times
the reach (and exactly at the root, on the chain, at full and at minimum reach),
poles anywhere (on the target, on the root-target line). Every solve keeps the
invariants of :func:`.invariants.check_invariants`, returns no worse a pose than
it started from, and takes time bounded by its iteration budget.

Examples per method: ``FUZZ_EXAMPLES`` in ``conftest.py`` for the loaded
profile (2,000 under ``HYPOTHESIS_PROFILE=ci``).
"""

import gc
import math
import random
import signal
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ikcore
from ikcore import IKError, kinematics
from ikcore.checks import check_rotations
from ikcore.rigs.baselines import joint_seconds
from ikcore.solve import ORIENTATION_METHODS

from .conftest import FUZZ_EXAMPLES
from .invariants import check_invariants, rounding
from .strategies import (POLE_KINDS, START_KINDS, TARGET_KINDS, bone_counts, build_chain, limit_mixes,
                         make_pole, make_start, make_target, random_rotation, scaled, seeds, shapes)

# CPU time a solve may take, per iteration and joint plus a fixed allowance, counted in joints of
# a forward pass (kinematics.frames of the Panda-like arm over its joints: a rotation and a point a
# joint) timed in this process: a ratio, whatever the machine's speed. Over the ci examples the
# worst was about 210 per iteration and joint (DLS, pseudo-inverse) and 28,000 per solve (0.17 ms
# and 22 ms where a joint of the forward pass took 0.8 us); the bound is ~30 times that, so only a
# hang or an unbudgeted inner loop (work growing faster than iterations x joints) breaks it. CPU
# time with the garbage collector off, not wall time: neither other processes nor a collection of
# others' garbage count.
PER_ITERATION_JOINT = 6_000
FIXED = 300_000
#: Seconds of one joint of the forward pass, timed once.
JOINT = joint_seconds()

fuzz = settings(max_examples=FUZZ_EXAMPLES)


#: Chains of at most this many bones are also solved with their method's default iteration budget.
DEFAULT_BUDGET_BONES = 12


def iteration_cap(n):
    """Largest max_iterations drawn for an n-bone chain: long chains get fewer."""
    return max(1, min(30, 240 // n))


def method_options(method, rng):
    """Random valid options of ``method``."""
    if method == "ccd":
        return {"max_step_deg": rng.choice((None, 180.0, 1e-6, rng.uniform(1.0, 180.0)))}
    if method == "jacobian_transpose":
        return {"alpha": rng.choice((None, 1e-12, 1e6, 10.0 ** rng.uniform(-4.0, 4.0)))}
    if method == "fabrik":
        return {"max_restarts": rng.choice((None, 0, 1, rng.randrange(100)))}
    if method == "two_bone":
        return {}
    options = {"rest_weight": rng.choice((None, 0.0, 1.0, rng.random()))}
    if method in ("dls", "fabrik_dls"):
        options["damping"] = rng.choice((None, 1e-9, 10.0, 10.0 ** rng.uniform(-4.0, 0.0)))
    if method == "dls":
        options["adaptive"] = rng.choice((None, True, False))
    return options


# Strategies built once (a new strategy object is validated at its first draw, which costs more).
start_kinds = st.sampled_from(START_KINDS)
target_kinds = st.sampled_from(TARGET_KINDS)
orientation_kinds = st.sampled_from(("none", "none", "random", "feasible", "start"))
pole_kinds = st.sampled_from(POLE_KINDS)
iteration_counts = {}


def log_uniform(rng, low, high, specials=()):
    """``10 ** u``, ``u`` uniform in ``[low, high]``, or one of ``specials`` (exponents) a third of the time."""
    if specials and rng.random() < 0.3:
        return 10.0 ** rng.choice(specials)
    return 10.0 ** rng.uniform(low, high)


@st.composite
def cases(draw, method):
    """Keyword arguments of one valid solve of ``method``, with its chain.

    Hypothesis draws the kind of each part (a handful of draws: they cost more
    than most solves); a seeded generator draws the details.
    """
    n = 2 if method == "two_bone" else draw(bone_counts())
    rng = random.Random(draw(seeds))
    chain = build_chain(rng, n, draw(shapes), draw(limit_mixes))
    start = make_start(chain, draw(start_kinds), rng)
    distance = log_uniform(rng, -9.0, 9.0, (-9.0, 0.0, 9.0))
    target = make_target(chain, draw(target_kinds), rng, distance, start)
    orientation = None
    if method in ORIENTATION_METHODS:
        kind = draw(orientation_kinds)
        if kind == "random":
            orientation = random_rotation(rng)
        elif kind == "feasible":  # the last bone of a pose within the limits, its tip the target
            pose = chain.clamp([random_rotation(rng) for _ in range(chain.size)])
            orientation = chain.world_rotations(pose)[-1]
            target = chain.forward(pose)[-1]
        elif kind == "start":
            unit = check_rotations(start or [(1.0, 0.0, 0.0, 0.0)] * chain.size, chain.size)
            orientation = chain.world_rotations(chain.clamp(unit))[-1]
        if orientation is not None and rng.random() < 0.3:
            orientation = scaled(orientation, rng)
    pole = make_pole(chain, draw(pole_kinds), rng, target)
    tolerance = None if rng.random() < 0.5 else chain.reach * log_uniform(rng, -12.0, 0.0, (-12.0, 0.0))
    orientation_tolerance = None
    if orientation is not None and rng.random() < 0.5:
        orientation_tolerance = log_uniform(rng, -9.0, 0.0, (-9.0, 0.0))
    cap = iteration_cap(chain.size)
    if cap not in iteration_counts:
        iteration_counts[cap] = st.integers(1, cap)
    max_iterations = draw(iteration_counts[cap])
    if chain.size <= DEFAULT_BUDGET_BONES and rng.random() < 0.25:
        max_iterations = None  # the method's own budget
    return dict(chain=chain, target=target, method=method, start=start, tolerance=tolerance,
                max_iterations=max_iterations, orientation=orientation,
                orientation_tolerance=orientation_tolerance, pole=pole, **method_options(method, rng))


CASES = {method: cases(method) for method in ikcore.METHODS}


def budget(case):
    """The CPU seconds the solve of ``case`` may take."""
    iterations = case["max_iterations"] or ikcore.solvers.method(case["method"]).MAX_ITERATIONS
    return JOINT * (FIXED + PER_ITERATION_JOINT * iterations * case["chain"].size)


def orientation_weight(chain, tolerance, orientation_tolerance):
    """The length weighing one radian against distance (:attr:`ikcore.problem.Problem.orientation_weight`)."""
    return min(max(tolerance / orientation_tolerance, 0.1 * chain.reach), 10.0 * chain.reach)


def start_angle(case):
    """Radians between the start's last bone and the asked orientation, in the start pose a solve
    takes (:func:`ikcore.kinematics.pose_of`, as ``invariants`` takes it): a half-turn swing across a
    hinge's axis lies as near two of its angles, and the ulp the pose's own normalising moves it by
    picks one (fuzz, fabrik_dls: the start measured by another path ended half a turn away)."""
    chain = case["chain"]
    unit = check_rotations(case["start"] or [(1.0, 0.0, 0.0, 0.0)] * chain.size, chain.size)
    last = kinematics.pose_of(chain, unit).worlds[-1]
    return ikcore.rotation.angle_between(last, ikcore.rotation.normalize(case["orientation"]))


class Overrun(Exception):
    """A solve still running past its budget: a hang, or an unbudgeted loop."""


def _overrun(signum, frame):
    raise Overrun


def timed_solve(case):
    """The solution and the CPU seconds it took: the least of up to three timings when the first
    is over budget.

    A solve is deterministic (:func:`test_fuzz_solves_are_repeatable`), so timing it again times
    the same work: a hang or an unbudgeted loop is over budget every time, while a stall that a
    busy host charged to this process once (seen at 1.4x the budget on a loaded machine, with the
    same solve at a tenth of it otherwise) is not.
    """
    sol, seconds = _timed_once(case)
    for _ in range(2):
        if seconds <= budget(case):
            break
        seconds = min(seconds, _timed_once(case)[1])
    return sol, seconds


def _timed_once(case):
    """The solution and the CPU seconds of one solve.

    Where the platform has CPU-time timers, a solve still running at twice its
    budget is interrupted (so a hang fails the test instead of stalling it).
    """
    timer = hasattr(signal, "setitimer")
    if timer:
        previous = signal.signal(signal.SIGVTALRM, _overrun)
        signal.setitimer(signal.ITIMER_VIRTUAL, 2.0 * budget(case))
    gc.disable()
    t0 = time.process_time()
    try:
        sol = ikcore.solve(**case)
    except Overrun:
        raise AssertionError(f"solve interrupted after {time.process_time() - t0:.2f} CPU s "
                             f"({case['max_iterations']} iterations of {case['chain'].size} joints)") from None
    finally:
        gc.enable()
        if timer:
            signal.setitimer(signal.ITIMER_VIRTUAL, 0.0)
            signal.signal(signal.SIGVTALRM, previous)
    return sol, time.process_time() - t0


def check_case(case, sol, seconds):
    chain = case["chain"]
    target = case["target"]
    check_invariants(chain, target, sol, case["start"], case["orientation"], case["tolerance"],
                     case["max_iterations"], case["orientation_tolerance"])
    # The best pose seen is returned, and the start is one of them: never worse (but the rest motion
    # and the pole may spend the tolerance, once met, to come nearer the rest pose or to bend toward
    # the pole). With an orientation target, "worse" weighs the orientation's radians in too, as the
    # solvers do (orientation_weight): a step may trade some distance for a better orientation.
    tolerance = 1e-3 * chain.reach if case["tolerance"] is None else case["tolerance"]
    start_error, error = sol.errors[0], sol.error
    if case["orientation"] is not None:
        weight = orientation_weight(chain, tolerance, case["orientation_tolerance"] or 1e-3)
        start_error = math.hypot(start_error, weight * start_angle(case))
        error = math.hypot(error, weight * sol.orientation_error)
    worst = start_error
    if (case.get("rest_weight") or case["pole"] is not None) and sol.converged:
        worst = max(worst, tolerance)
    # Slack: near a half-turn swing a ball joint's twist is only defined to ~4e-11 rad: up to ~1e-9 x
    # reach at the effector.
    slack = 1e-8 * chain.reach + rounding(chain, target)
    assert sol.converged or error <= worst * (1.0 + 1e-9) + slack, "worse than the start"
    assert seconds <= budget(case), f"{seconds:.3f} s for {case['max_iterations']} iterations of {chain.size} joints"


@pytest.mark.parametrize("method", ikcore.METHODS)
@fuzz
@given(data=st.data())
def test_fuzz(method, data):
    case = data.draw(CASES[method])
    sol, seconds = timed_solve(case)
    check_case(case, sol, seconds)
    if data.draw(st.booleans()):
        # Tracking: the next frame starts from this result. Never worse (no jitter).
        again = dict(case, start=sol.rotations)
        sol2, seconds = timed_solve(again)
        check_case(again, sol2, seconds)


@pytest.mark.parametrize("method", ikcore.METHODS)
@settings(max_examples=max(100, FUZZ_EXAMPLES // 20))
@given(data=st.data())
def test_fuzz_solves_are_repeatable(method, data):
    """The same call gives the same result, to the bit (restarts are seeded, caches are exact)."""
    case = data.draw(CASES[method])
    first, second = ikcore.solve(**case), ikcore.solve(**case)
    assert (first.positions, first.rotations, first.status, first.iterations, first.errors) == (
        second.positions, second.rotations, second.status, second.iterations, second.errors)


# ----------------------------------------------------------------------------------------------
# Invalid input: IKError and nothing else.

NAN, INF = float("nan"), float("inf")
BAD_VALUES = {
    "target": [(NAN, 0.0, 0.0), (0.0, INF, 0.0), (0.0, 0.0), (0.0, 0.0, 0.0, 0.0), None, "abc", (0.0, "x", 0.0),
               (1e155, 0.0, -1e155), (1.7e308, 1.7e308, 0.0)],
    "tolerance": [0.0, -1.0, NAN, INF, "1", -0.0],
    "max_iterations": [0, -1, 100001, 2.5, True, NAN, "10"],
    "orientation": [(0.0, 0.0, 0.0, 0.0), (NAN, 0.0, 0.0, 0.0), (1.0, 0.0, 0.0), 1.0],
    "orientation_tolerance": [0.0, -1e-3, INF],
    "pole": [(NAN, 0.0, 0.0), (0.0, 0.0), "pole", (0.0, 1e155, 1e155)],
    "method": ["newton", None, 3],
    "start": ["bad", [(1.0, 0.0, 0.0, 0.0)] * 61, [(0.0, 0.0, 0.0, 0.0)] * 60, [(NAN, 0.0, 0.0, 1.0)] * 60],
    "bogus_option": [1.0],
}


@pytest.mark.parametrize("method", ikcore.METHODS)
@settings(max_examples=max(100, FUZZ_EXAMPLES // 20))
@given(data=st.data())
def test_fuzz_bad_input_raises_ikerror(method, data):
    case = data.draw(CASES[method])
    field = data.draw(st.sampled_from(sorted(BAD_VALUES)))
    value = data.draw(st.sampled_from(BAD_VALUES[field]))
    if field == "start" and isinstance(value, list):
        value = value[:case["chain"].size + (len(value) > 60)]
    case[field] = value
    with pytest.raises(IKError):
        ikcore.solve(**case)
