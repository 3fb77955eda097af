"""The speed goals (tests/bench/goals.py), each a ratio measured in one run (``pytest -m benchmark tests/bench``).

Deselected from the default run (pyproject's addopts): they take minutes and
their verdict depends on the machine's load. Each compares implementations timed
side by side in one run (interleaved, medians), as the benchmark does.
"""

import shutil
import statistics

import numpy as np
import pytest

import ikcore

from ikcore.rigs import timing

from . import batched, goals, instructions, legs_block, problems, reference, robot, run
from .processes import GUARDS, draws

pytestmark = pytest.mark.benchmark


@pytest.fixture(scope="module")
def floor_ratios():
    """Nine fresh processes' ratios of ikcore.solve (FABRIK) to the floor, per N: one process's ratio
    is one draw, which moves by 10% from one process to the next (tests/bench/processes.py)."""
    return draws(list(GUARDS), 9)


@pytest.mark.parametrize("n", list(GUARDS))
def test_fabrik_near_the_floor_with_rotations(floor_ratios, n):
    r = statistics.median(floor_ratios[n])
    assert r <= GUARDS[n], (f"ikcore.solve FABRIK takes {r:.2f}x the plain-lists floor at N = {n} (median of "
                             f"{floor_ratios[n]}; guard {GUARDS[n]}x)")


def test_the_crowds_frame_within_its_goal_of_the_bare_kernel_for_its_legs():
    """The crowd of 100 spiders' frame (walk, gait, bodies, aim, solve, write) against the bare two-bone
    maths for its 800 legs, in CPython, in seven rounds taking the two in turn."""
    r = timing.against_baseline("crowd", 100, rounds=7, count=100)
    assert r["ratio"] <= goals.CROWD_BARE_LEGS, (f"the crowd's frame takes {r['ratio']:.2f}x {r['what']} "
                                                 f"(rounds, frame ms / bare ms: {r['rounds']})")


def test_the_robots_median_solve_within_its_goal_of_forward_passes():
    """The Panda-like arm's median cold solve per method, against its forward pass timed in turns."""
    data = robot.measure(300, 0)
    over = {m: round(data[m]["vs_forward"], 1) for m in robot.METHODS
            if data[m]["vs_forward"] > goals.ROBOT_FORWARD[m]}
    assert not over, f"median solve / forward pass over the goal {goals.ROBOT_FORWARD}: {over}"


def test_solve_batch_within_a_fifth_over_the_numpy_reference():
    """FABRIK's batched kernel (ikcore.solvers.fabrik.batched) at K = 1000, N = 10 with rotations,
    statuses and the copies it hands to the reference: at most 1.2x the straightforward numpy FABRIK
    of the benchmark (positions only), as the median of five measurements in one run (one moves by
    10% or more from the next on this shared machine)."""
    cfg = run.Config()
    ratios = []
    for _ in range(5):
        by = batched.measure(10, 1000, cfg)
        assert by["solve_batch"].results[0][1] == 1000
        ratios.append(by["solve_batch"].median_us(0) / by["numpy reference"].median_us(0))
    assert statistics.median(ratios) <= 1.2, ratios


def test_legs_in_a_batch_within_five_times_the_bare_kernel():
    """800 legs, cold from rest, in CPython, each kind timed in turn with the bare kernel (five rounds,
    medians): planar two-hinge legs (their flat-list kernel) and ball-hip legs with a pole (the numpy
    kernel, ikcore.solvers.two_bone.batched) each within 5x the bare kernel per leg; the ball-hip legs
    without numpy within 1.5x of a loop of solve."""
    times = {"bare": [], "two_bone": [], "ball_leg": [], "ball_leg_lists": [], "ball_leg_loop": []}
    for _ in range(5):
        for kind in times:
            reps = 3 if kind in ("ball_leg_lists", "ball_leg_loop") else 5
            times[kind].append(legs_block.time_legs({"kind": kind, "count": 800, "reps": reps})["us_per_leg"])
    m = {kind: statistics.median(v) for kind, v in times.items()}
    assert m["two_bone"] <= 5.0 * m["bare"], f"planar legs take {m['two_bone'] / m['bare']:.2f}x the bare kernel"
    assert m["ball_leg"] <= 5.0 * m["bare"], f"ball-hip legs take {m['ball_leg'] / m['bare']:.2f}x the bare kernel"
    r = m["ball_leg_lists"] / m["ball_leg_loop"]
    assert r <= 1.5, f"ball-hip legs without numpy take {r:.2f}x the loop of solve"


def test_batch_reference_solves_the_batch():
    n, k = 10, 200
    targets = np.array(problems.targets_batch(n, k))
    start = np.zeros((n + 1, k, 3))
    start[:, :, 0] = np.arange(n + 1)[:, None]
    p, it, err = reference.fabrik_numpy_batch(start, [1.0] * n, targets, 1e-3 * n, 100)
    assert (err <= 1e-3 * n).all()
    assert np.allclose(np.linalg.norm(np.diff(p, axis=0), axis=2), 1.0)
    b = ikcore.solve_batch(problems.free_chain(n), targets)
    assert all(b.converged)


def test_floor_is_fabrik():
    """The floor reaches the same poses as ikcore's FABRIK, in the same iterations."""
    n = 10
    chain = problems.free_chain(n)
    xs = [float(i) for i in range(n + 1)]
    zeros = [0.0] * (n + 1)
    for t in problems.targets_3d(n)[:20]:
        px, py, pz, it, err = reference.fabrik_floor(xs, zeros, zeros, [1.0] * n, t, 1e-3 * n, 100)
        s = ikcore.solve(chain, t)
        assert it == s.iterations
        assert np.allclose(np.array([px, py, pz]).T, s.positions, atol=1e-9)


def test_quick_run_writes_the_report(tmp_path):
    out = tmp_path / "bench.md"
    results = run.main(["--quick", "--section", "cpython,batch", "--sizes", "3", "--methods", "fabrik,two_bone",
                        "--out", str(out)])
    text = out.read_text()
    assert "| fabrik | 3 |" in text and "| two_bone | 2 |" in text and "solve_batch" in text
    assert 3 in results["cpython"] and (10, 1000) in results["batch"]
    assert statistics.median([results["batch"][(10, k)]["vs_loop"] for k in problems.BATCH_SIZES]) > 0


def test_instruction_counts_are_the_same_in_every_run():
    """What the instructions section stands on: callgrind counts a solve alike from run to run
    (within 0.1%), where its time moves by 10% or more."""
    if shutil.which("valgrind") is None:
        pytest.skip("valgrind is not installed")
    first, second = (instructions.per_solve("floor", 10) for _ in range(2))
    assert first["Ir"] > 0
    assert abs(first["Ir"] - second["Ir"]) <= 1e-3 * first["Ir"], (first["Ir"], second["Ir"])
