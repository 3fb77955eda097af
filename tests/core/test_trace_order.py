"""The order of a trace's steps, per family, and what each step keeps.

- CCD: within an iteration the joints turn from the tip to the root; a turn moves only the points past
  its joint, rigidly about it.
- FABRIK: an iteration is N backward moves from the effector down, then N forward moves from the root
  up; each move keeps every bone length its pass has settled, moves only the point it places (and the
  end the pass starts from, on its first move), and the pass's last move leaves the pass's pose.
"""

import math
import random
from itertools import groupby

from hypothesis import given
from hypothesis import strategies as st

import ikcore

from .strategies import build_chain, make_start, random_direction, seeds, shapes


@st.composite
def problems(draw, mixes):
    """(chain, target, start) with limits of ``mixes``, a reachable or unreachable target."""
    rng = random.Random(draw(seeds))
    chain = build_chain(rng, draw(st.integers(1, 7)), draw(shapes), draw(st.sampled_from(mixes)))
    start = make_start(chain, draw(st.sampled_from(("none", "random", "small"))), rng)
    r = draw(st.floats(0.05, 1.2)) * chain.reach
    target = tuple(c + r * d for c, d in zip(chain.points[0], random_direction(rng)))
    return chain, target, start


def eps(chain):
    return 1e-9 * chain.reach


@given(problems(("free", "hinge", "ball", "mixed", "planar_hinges")), st.sampled_from((None, 3, 40)))
def test_ccd_turns_the_joints_from_the_tip_to_the_root(problem, budget):
    chain, target, start = problem
    traced = ikcore.trace(chain, target, "ccd", start=start, max_iterations=budget)
    steps = traced.steps
    for iteration, group in groupby((s for s in steps if s.phase == "rotate"), key=lambda s: s.iteration):
        joints = [s.joint for s in group]
        assert joints == sorted(joints, reverse=True) and len(set(joints)) == len(joints), (iteration, joints)
    for before, step in zip(steps, steps[1:]):
        if step.phase != "rotate":
            continue
        j = step.joint
        pivot = before.positions[j]
        # Points up to the joint stay; the rest turn rigidly about it.
        assert step.positions[:j + 1] == before.positions[:j + 1]
        for p, q in zip(before.positions[j + 1:], step.positions[j + 1:]):
            assert abs(math.dist(p, pivot) - math.dist(q, pivot)) <= eps(chain)
        u, v = step.detail["to_effector"], step.detail["to_target"]
        assert abs(math.hypot(*u) - 1.0) < 1e-9 and abs(math.hypot(*v) - 1.0) < 1e-9
        e = before.positions[-1]
        if math.dist(e, pivot) > 1e-6 * chain.reach:
            assert all(abs(a - (b - c) / math.dist(e, pivot)) < 1e-6 for a, b, c in zip(u, e, pivot))
        assert 0.0 <= step.detail["angle_deg"] <= 180.0 + 1e-9


def bone_ok(chain, positions, i):
    return abs(math.dist(positions[i], positions[i + 1]) - chain.lengths[i]) <= eps(chain)


@given(problems(("free", "cones", "hinge", "planar_hinges", "mixed")), st.sampled_from((None, 2, 30)))
def test_a_fabrik_iteration_is_n_moves_down_then_n_moves_up(problem, budget):
    chain, target, start = problem
    n = chain.size
    traced = ikcore.trace(chain, target, "fabrik", start=start, max_iterations=budget)
    steps = traced.steps
    passes = [s for s in steps if s.phase in ("backward", "forward")]
    for iteration, group in groupby(passes, key=lambda s: s.iteration):
        moves = [(s.phase, s.joint) for s in group]
        assert moves == [("backward", i) for i in range(n - 1, -1, -1)] + [("forward", i) for i in range(1, n + 1)]
    for before, step in zip(steps, steps[1:]):
        if step.phase not in ("backward", "forward"):
            continue
        moved, toward, anchor = step.detail["moved"], step.detail["toward"], step.detail["anchor"]
        assert step.joint == moved and abs(moved - toward) == 1
        assert step.detail["length"] == chain.lengths[min(moved, toward)]
        # Only the point placed moves, and on the pass's first move the end it starts from.
        changed = {i for i, (p, q) in enumerate(zip(before.positions, step.positions)) if p != q}
        assert changed <= {moved, n if step.phase == "backward" else 0}
        if step.phase == "backward":
            assert anchor == (n if moved == n - 1 else None)
            settled = range(moved, n)
            assert math.dist(step.positions[n], target) <= eps(chain)
        else:
            assert anchor == (0 if moved == 1 else None)
            settled = range(0, moved)
            assert step.positions[0] == chain.points[0]
        for i in settled:
            assert bone_ok(chain, step.positions, i), (step, i)


def test_the_pass_starts_from_its_end_and_the_root_leaves_its_base_and_comes_back():
    chain = ikcore.Chain([(0.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 2.0, 0.0), (0.0, 2.5, 0.0)])
    traced = ikcore.trace(chain, (1.2, 1.3, 0.4), "fabrik")
    first_backward = traced.steps[1]
    assert first_backward.positions[-1] == (1.2, 1.3, 0.4)
    assert first_backward.caption.startswith("Backward pass: the effector goes onto the target and point 2")
    last_backward = traced.steps[3]
    assert last_backward.joint == 0 and last_backward.positions[0] != (0.0, 0.0, 0.0)
    assert "the root has left its base by" in last_backward.caption
    first_forward = traced.steps[4]
    assert first_forward.phase == "forward" and first_forward.positions[0] == (0.0, 0.0, 0.0)
    assert first_forward.caption.startswith("Forward pass: the root goes back to its base and point 1")


def test_fabrik_dls_reach_holds_the_hand_at_the_asked_orientation():
    chain = ikcore.Chain([(0.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 2.0, 0.0), (0.0, 2.5, 0.0)])
    q = ikcore.rotation.from_axis_angle((0.0, 0.0, 1.0), -0.9)
    hand = ikcore.rotation.rotate(q, (0.0, 0.5, 0.0))
    traced = ikcore.trace(chain, (1.0, 1.5, 0.3), "fabrik_dls", orientation=q)
    assert traced.solution == ikcore.solve(chain, (1.0, 1.5, 0.3), "fabrik_dls", orientation=q)
    passes = [s for s in traced.steps if s.phase in ("backward", "forward")]
    assert passes and all(len(s.positions) == 4 for s in passes)
    for step in passes:
        # The wrist's chain has two bones: two moves a pass; the hand rides on its end, turned as asked.
        assert step.joint in (0, 1, 2)
        assert all(abs(a - (b - c)) < 1e-12 for a, b, c in zip(hand, step.positions[3], step.positions[2]))
    finish = next(s for s in traced.steps if s.phase == "setup" and s.detail["what"] == "finish")
    assert finish.iteration == max(s.iteration for s in passes)
    assert "the last joint takes the asked orientation" in finish.caption
    assert all(s.iteration > finish.iteration for s in traced.steps if s.phase == "step")
