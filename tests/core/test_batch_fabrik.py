"""The batched FABRIK kernel (ikcore.solvers.fabrik.batched) held to the per-chain reference.

Per copy: the same status as ikcore.solve, points within 1e-9 of the reach,
iterations within one, rotations unit and consistent with the points. Both
paths are checked: copies the kernel finishes and copies it hands over to the
reference (stalls, restarts, edges of the reach, straight starts, the cap).
"""

import inspect

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import ikcore
from ikcore import batch as batch_module
from ikcore.problem import check_settings
from ikcore.solvers.fabrik import batched, batched_framed

from .strategies import chains, directions, quaternions, targets


@pytest.fixture(autouse=True)
def every_batch_to_the_kernels(monkeypatch):
    """Batches of any size go to the kernels (solve_batch loops solve below MIN_COPIES)."""
    monkeypatch.setattr(batch_module, "MIN_COPIES", {"fabrik": 1, "ccd": 1, "two_bone": 1})


def held(chain, got, sols, turns=1e-6):
    """``got`` (a BatchSolution) against the reference's ``sols``, copy by copy; the rotations within
    ``turns`` of the reference's (one for all, or a list, one per copy; ``None``: any the points and
    the limits allow, where the reference leaves a turn to rounding)."""
    near = 1e-9 * chain.reach
    assert len(got) == len(sols)
    for k, s in enumerate(sols):
        assert got.status[k] == s.status, (k, got.status[k], s)
        assert abs(int(got.iterations[k]) - s.iterations) <= 1, (k, got.iterations[k], s)
        assert np.abs(got.positions[k] - np.array(s.positions)).max() <= near, k
        assert abs(got.error[k] - s.error) <= near, k
        # The rotations are the reference's (to 1e-6: a bone near full stretch tells its turn only to
        # about the square root of the rounding), and the points their forward kinematics.
        assert np.abs(np.linalg.norm(got.rotations[k], axis=1) - 1.0).max() < 1e-12
        within = turns[k] if isinstance(turns, list) else turns
        if within is not None:
            # q and -q are one rotation: a half turn (w near 0) takes either sign by rounding.
            ref = np.array(s.rotations)
            apart = np.minimum(np.abs(got.rotations[k] - ref).max(axis=1), np.abs(got.rotations[k] + ref).max(axis=1))
            assert apart.max() <= within, k
        for q, joint, bone in zip(got.rotations[k], chain.joints, chain.directions):
            assert joint is None or joint.violation(tuple(q), bone) <= 1e-9, k
        fk = np.array(chain.forward([tuple(q) for q in got.rotations[k]]))
        assert np.abs(fk - got.positions[k]).max() <= near, k


def reference(chain, tgts, starts=None, **kw):
    return [ikcore.solve(chain, t, start=None if starts is None else starts[k], **kw) for k, t in enumerate(tgts)]


def paths(chain, tgts, starts=None, **kw):
    """Which copies the kernel finishes (False) and which it hands over (True)."""
    settings = check_settings(chain, "fabrik", **kw)
    frames = None if starts is None else [chain.plan.start(s) for s in starts]
    goals = [tuple(map(float, t)) for t in tgts]
    return batched.solve(settings, goals, np.array(goals), frames).handed


@st.composite
def batches(draw, far=1.4):
    chain = draw(chains(max_bones=8, limits=False))
    tgts = [draw(targets(chain, far=far)) for _ in range(draw(st.integers(1, 8)))]
    starts = None
    if draw(st.booleans()):
        starts = [[draw(quaternions) for _ in range(chain.size)] for _ in tgts]
    return chain, tgts, starts


@given(batches())
def test_each_copy_as_the_reference_gives_it(case):
    chain, tgts, starts = case
    held(chain, ikcore.solve_batch(chain, tgts, starts=starts), reference(chain, tgts, starts))


@given(batches(far=0.95), st.sampled_from([1e-6, 1e-3, 0.05]), st.integers(1, 12))
def test_tolerance_and_cap(case, rel, cap):
    chain, tgts, starts = case
    kw = {"tolerance": rel * chain.reach, "max_iterations": cap}
    held(chain, ikcore.solve_batch(chain, tgts, starts=starts, **kw), reference(chain, tgts, starts, **kw))


def ten_bones():
    return ikcore.Chain([(float(i), 0.0, 0.0) for i in range(11)])


def standard_targets(count, seed=12345 + 10 + 2000):
    rng = np.random.default_rng(seed)
    g = rng.normal(size=(count, 3))
    return (g / np.linalg.norm(g, axis=1)[:, None]) * rng.uniform(0.2, 0.95, size=(count, 1)) * 10.0


def test_both_paths_on_the_standard_batch():
    """Most copies of the benchmark's batch are finished by the kernel; those whose progress stalls
    (the reference restarts them from an arc) are handed over; all agree with the reference."""
    chain = ten_bones()
    tgts = standard_targets(300)
    handed = paths(chain, tgts)
    assert 0 < handed.sum() < 0.2 * len(tgts)
    got = ikcore.solve_batch(chain, tgts)
    sols = reference(chain, tgts.tolist())
    held(chain, got, sols)
    # A copy handed over for its stall is one the reference restarts: more iterations than a window.
    assert min(s.iterations for s, h in zip(sols, handed) if h) > 3
    assert max(int(i) for i, h in zip(got.iterations, handed) if not h) >= 3


def test_copies_handed_over_for_the_edges_and_straight_starts():
    chain = ten_bones()
    tgts = [(30.0, 0.0, 0.0), (0.0, 10.0, 0.0), (0.0, 9.99999, 0.0), (5.0, 0.0, 0.0), (-4.0, 0.0, 0.0),
            (3.0, 4.0, 1.0), (10.0, 0.0, 0.0)]
    handed = paths(chain, tgts)
    # Beyond the reach, at it, within the tolerance of it, on the rest's line (twice): handed over; the
    # fifth-last copy (off the line) and the last (met at the start) stay.
    assert handed.tolist() == [True, True, True, True, True, False, False]
    held(chain, ikcore.solve_batch(chain, tgts), reference(chain, tgts))


def test_met_starts_come_back_as_they_are():
    chain = ten_bones()
    first = ikcore.solve_batch(chain, standard_targets(20))
    again = ikcore.solve_batch(chain, first.positions[:, -1], starts=first.rotations)
    assert (again.iterations == 0).all() and all(again.converged)
    assert np.abs(again.rotations - first.rotations).max() <= 1e-15


@st.composite
def cone_batches(draw):
    """Chains of twist-free cones about a straight rest line (tentacles, ropes), some joints free."""
    n = draw(st.integers(2, 8))
    d = draw(directions)
    root = tuple(draw(st.floats(-1.0, 1.0)) for _ in range(3))
    points, at = [root], 0.0
    for _ in range(n):
        at += draw(st.floats(0.1, 2.0))
        points.append(tuple(r + at * c for r, c in zip(root, d)))
    joints = [draw(st.one_of(st.none(), st.floats(0.0, 180.0).map(ikcore.BallSocket))) for _ in range(n)]
    chain = ikcore.Chain(points, joints)
    tgts = [draw(targets(chain, far=1.1)) for _ in range(draw(st.integers(1, 8)))]
    return chain, tgts


@given(cone_batches())
def test_cone_chains_as_the_reference_gives_them(case):
    chain, tgts = case
    assert batched.applies(chain)
    held(chain, ikcore.solve_batch(chain, tgts), reference(chain, tgts))


def test_a_tentacle_takes_both_paths():
    """A tentacle of twelve 40 degree cones: the kernel finishes most copies; the copies whose progress
    stalls (the reference restarts them from a perturbed pose) or that meet their target with a bone
    on its rim are handed over; all agree with the reference."""
    chain = ikcore.Chain([(0.0, 0.0, float(i)) for i in range(13)], [ikcore.BallSocket(40.0)] * 12)
    rng = np.random.default_rng(7)
    g = rng.normal(size=(200, 3))
    tgts = g / np.linalg.norm(g, axis=1)[:, None] * rng.uniform(0.3, 0.95, size=(200, 1)) * 12.0
    handed = paths(chain, tgts)
    assert 0 < handed.sum() < len(tgts) - 20
    held(chain, ikcore.solve_batch(chain, tgts), reference(chain, tgts.tolist()))


@st.composite
def hinge_batches(draw):
    """Chains of hinges about any axes (or one axis, with targets in its plane), some from given starts."""
    chain = draw(chains(min_bones=1, max_bones=6, limits=False))
    planar = draw(st.booleans())
    axis = draw(directions)
    joints = []
    for _ in range(chain.size):
        lo, hi = sorted((draw(st.floats(-200.0, 200.0)), draw(st.floats(-200.0, 200.0))))
        joints.append(ikcore.Hinge(axis if planar else draw(directions), lo, hi))
    chain = ikcore.Chain(chain.points, joints)
    tgts = [draw(targets(chain, far=1.1)) for _ in range(draw(st.integers(1, 6)))]
    starts = [[draw(quaternions) for _ in range(chain.size)] for _ in tgts] if draw(st.booleans()) else None
    return chain, tgts, starts


@given(hinge_batches())
def test_hinge_chains_as_the_reference_gives_them(case):
    chain, tgts, starts = case
    assert batched_framed.applies(chain)
    held(chain, ikcore.solve_batch(chain, tgts, starts=starts), reference(chain, tgts, starts))


def test_a_planar_arm_of_hinges_takes_both_paths():
    """Five hinges about z, targets in their plane: the kernel finishes the copies its passes bring
    to the target at a good pace; those that slow down (the reference hands them to damped least
    squares) are handed over; all agree with the reference."""
    chain = ikcore.Chain([(float(i), 0.0, 0.0) for i in range(6)], [ikcore.Hinge((0, 0, 1), -120, 120)] * 5)
    rng = np.random.default_rng(3)
    a, r = rng.uniform(0.0, 2.0 * np.pi, 200), rng.uniform(0.2, 0.95, 200) * 5.0
    tgts = np.stack([r * np.cos(a), r * np.sin(a), 0.0 * a], axis=1)
    settings = check_settings(chain, "fabrik")
    handed = batched_framed.solve(settings, [tuple(t) for t in tgts.tolist()], tgts, None).handed
    assert 20 < handed.sum() < len(tgts) - 20
    held(chain, ikcore.solve_batch(chain, tgts), reference(chain, tgts.tolist()))


def test_the_watch_keeps_the_reference_rate():
    from ikcore.solvers import loop
    assert batched.RATE == inspect.signature(loop.iterate).parameters["rate"].default
