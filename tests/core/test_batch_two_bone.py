"""The batched two_bone kernel for legs (ikcore.solvers.two_bone.batched) held to the per-chain reference.

Legs of every kind the kernel takes (a hinge knee under a free, hinge or
twist-free cone hip, about any axes), with poles or without, from the rest or
from given starts: per copy the same status as ikcore.solve, points within
1e-9 of the reach, the same iterations, rotations unit and consistent with the
points. Both paths are checked: copies the kernel finishes and copies it hands
over (the ranges' ends weighed, a target on the root).
"""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import ikcore
from ikcore import batch
from ikcore.problem import check_settings
from ikcore.solvers.two_bone import batched

from .strategies import directions, quaternions, targets
from .test_batch_fabrik import every_batch_to_the_kernels, held  # noqa: F401 (a fixture for every test)

degrees = st.floats(-200.0, 200.0, allow_nan=False)


@st.composite
def legs(draw):
    """A two-bone leg of a kind the kernel takes."""
    root = draw(st.tuples(*[st.floats(-1.0, 1.0)] * 3))
    points = [root]
    for _ in range(2):
        d, length = draw(directions), draw(st.floats(0.1, 2.0))
        points.append(tuple(p + length * c for p, c in zip(points[-1], d)))
    lo, hi = sorted((draw(degrees), draw(degrees)))
    # (A knee hinged about its own bone turns nothing: its angle is rounding's, in the reference too.)
    lower = [b - a for a, b in zip(points[1], points[2])]
    axis = draw(directions.filter(lambda a: abs(sum(x * y for x, y in zip(a, lower))) < 0.999 * math.hypot(*lower)))
    knee = ikcore.Hinge(axis, lo, hi)
    kind = draw(st.sampled_from(["free", "hinge", "cone"]))
    if kind == "free":
        hip = None
    elif kind == "hinge":
        lo, hi = sorted((draw(degrees), draw(degrees)))
        hip = ikcore.Hinge(draw(directions), lo, hi)
    else:
        hip = ikcore.BallSocket(draw(st.floats(0.0, 180.0)))
    chain = ikcore.Chain(points, [hip, knee])
    assert batched.applies(chain)
    return chain


@st.composite
def cases(draw):
    chain = draw(legs())
    count = draw(st.integers(1, 8))
    tgts = [draw(targets(chain, far=1.3)) for _ in range(count)]
    poles = draw(st.sampled_from(["none", "one", "each"]))
    if poles == "one":
        poles = draw(targets(chain, far=2.0))
    elif poles == "each":
        poles = [draw(targets(chain, far=2.0)) for _ in range(count)]
    else:
        poles = None
    starts = [[draw(quaternions) for _ in range(2)] for _ in range(count)] if draw(st.booleans()) else None
    return chain, tgts, poles, starts


def reference(chain, tgts, poles, starts):
    each = poles if isinstance(poles, list) else [poles] * len(tgts)
    return [ikcore.solve(chain, t, "two_bone", pole=p, start=None if starts is None else starts[k])
            for k, (t, p) in enumerate(zip(tgts, each))]


@given(cases())
def test_each_copy_as_the_reference_gives_it(case):
    chain, tgts, poles, starts = case
    got = ikcore.solve_batch(chain, tgts, "two_bone", poles=poles, starts=starts)
    sols = reference(chain, tgts, poles, starts)
    # A straight leg (the knee on the line from the root to the tip) may turn about that line as it
    # likes: the reference's turn is rounding's there.
    turns = [1e-6 if bent(chain, s.positions) else None for s in sols]
    held(chain, got, sols, turns)
    assert list(got.iterations) == [s.iterations for s in sols]


def bent(chain, points):
    """Whether the knee lies off the line from the root to the tip by more than 1e-6 of the reach."""
    root, knee, tip = (np.array(p) for p in points)
    line = tip - root
    off = knee - root
    if np.linalg.norm(line) > 1e-6 * chain.reach:
        off = off - (off @ line) / (line @ line) * line
    return np.linalg.norm(off) > 1e-6 * chain.reach


def handed(chain, tgts, poles):
    settings = check_settings(chain, "two_bone")
    goals = np.array(tgts, dtype=float)
    rows = None if poles is None else np.array(poles, dtype=float).reshape(-1, 3) * np.ones((len(tgts), 1))
    return batched.solve(settings, tgts, goals, rows, [chain.plan.rest] * len(tgts)).handed


def human_leg():
    return ikcore.Chain([(0.0, 0.0, 0.0), (0.0, -0.45, 0.0), (0.0, -0.87, 0.0)],
                        [ikcore.BallSocket(100.0), ikcore.Hinge((1.0, 0.0, 0.0), 0.0, 150.0)])


def test_both_paths():
    """Within the limits the kernel finishes a copy; where both sides miss the triangle (the knee's
    range too short for it, a target too near) or the target sits on the root, the reference does."""
    chain = human_leg()
    pole = (0.0, -0.45, 1.0)
    tgts = [(0.0, -0.6, 0.3), (0.2, -0.7, 0.1), (0.0, -0.05, 0.0), (0.0, 0.0, 0.0), (0.0, -3.0, 0.0)]
    assert handed(chain, tgts, pole).tolist() == [False, False, True, True, False]
    got = ikcore.solve_batch(chain, tgts, "two_bone", poles=pole)
    held(chain, got, reference(chain, tgts, pole, None))
    assert got.status == ["converged", "converged", "stalled", "unreachable", "unreachable"]


def test_many_legs_like_the_benchmark():
    """The benchmark's legs: targets the tips of random poses within the limits, a pole in front."""
    from tests.bench.legs_block import BALL_POLE, ball_leg
    from tests.bench.legs_block import targets as tips
    chain = ball_leg()
    tgts = tips(chain, 300)
    assert handed(chain, tgts, BALL_POLE).sum() <= 3
    got = ikcore.solve_batch(chain, tgts, "two_bone", poles=BALL_POLE)
    held(chain, got, reference(chain, tgts, BALL_POLE, None))
    assert all(got.converged)


@pytest.mark.parametrize("use_numpy", [True, False])
def test_other_legs_loop_solve(monkeypatch, use_numpy):
    """Legs the kernel does not take (a ball knee) and legs without numpy: the loop of solve."""
    if not use_numpy:
        monkeypatch.setattr(batch, "np", None)
    chain = ikcore.Chain([(0, 0, 0), (1, 0, 0), (2, 0, 0)], [None, ikcore.BallSocket(90.0)])
    assert not batched.applies(chain)
    for leg in (chain, human_leg()):
        tgts = [(1.0, 1.0, 0.0), (0.3, -0.5, 0.2)]
        got = ikcore.solve_batch(leg, tgts, "two_bone", poles=(0.0, 0.0, 1.0))
        sols = reference(leg, tgts, (0.0, 0.0, 1.0), None)
        assert got.status == [s.status for s in sols]
        assert np.allclose(np.array(got.positions, dtype=float), [s.positions for s in sols], atol=0.0)


def test_a_leg_of_two_hinges_about_crossed_axes():
    """A leg that swings about z at the hip and bends about x at the knee (not planar): every target
    the tip of a pose within the limits, finished by the kernel as the reference finishes it."""
    from tests.bench.legs_block import targets as tips
    chain = ikcore.Chain([(0, 0, 0), (0, -1, 0), (0, -2, 0)],
                         [ikcore.Hinge((0, 0, 1), -90, 90), ikcore.Hinge((1, 0, 0), -170, 170)])
    tgts = tips(chain, 100)
    for pole in ((0.0, -1.0, 2.0), (0.0, -1.0, -2.0)):
        assert not handed(chain, tgts, pole).any()
        got = ikcore.solve_batch(chain, tgts, "two_bone", poles=pole)
        held(chain, got, reference(chain, tgts, pole, None))
        assert all(got.converged)
