"""The two-bone solver's planar path (legs of two hinges about one axis): the general path's pose
to rounding, taken where it applies and only there; the verdict takes its own pose (no forward
kinematics), which is forward kinematics' to rounding and gives the verdict's status."""

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import importlib

import ikcore
from ikcore import Chain, Hinge, skeleton, tracker
from ikcore import rotation as rot
from ikcore.rigs import make_scene
from ikcore.solve import judge, make_problem
from ikcore.solvers import two_bone

ikcore_solve = importlib.import_module("ikcore.solve")  # the module (ikcore.solve is the function)


def _unit(v):
    n = math.sqrt(sum(x * x for x in v))
    return tuple(x / n for x in v)


def _cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def _leg(rng, lengths=None):
    """A random two-hinge leg in the plane normal to a random axis, and that plane's basis."""
    axis = _unit([rng.gauss(0, 1) for _ in range(3)])
    e1 = _unit(_cross(axis, _unit([rng.gauss(0, 1) for _ in range(3)])))
    e2 = _cross(axis, e1)
    root = tuple(rng.uniform(-2, 2) for _ in range(3))

    def at(x, y):
        return tuple(r + x * a + y * b for r, a, b in zip(root, e1, e2))

    l1, l2 = lengths or (rng.uniform(0.2, 1.5), rng.uniform(0.2, 1.5))
    a, c = rng.uniform(-math.pi, math.pi), rng.uniform(-math.pi, math.pi)
    kx, ky = l1 * math.cos(a), l1 * math.sin(a)
    points = [root, at(kx, ky), at(kx + l2 * math.cos(c), ky + l2 * math.sin(c))]
    ranges = []
    for _ in range(2):
        lo = rng.uniform(-180.0, 0.0)
        ranges.append((-180.0, 180.0) if rng.random() < 0.2 else (lo, rng.uniform(lo, 180.0)))
    chain = Chain(points, [Hinge(axis, *r) for r in ranges])
    return chain, axis, at


def _general(problem):
    with pytest.MonkeyPatch.context() as m:
        m.setattr(two_bone, "_plane", lambda chain: None)
        return two_bone.run(problem)


def _same_pose(a, b, reach, tol=1e-10):
    for q, r in zip(a.rotations, b.rotations):
        # q and -q are one rotation.
        assert min(max(abs(x - y) for x, y in zip(q, r)), max(abs(x + y) for x, y in zip(q, r))) <= tol
    assert max(math.dist(p, q) for p, q in zip(a.settled[1], b.settled[1])) <= tol * reach
    assert a.stalled == b.stalled
    assert a.errors == pytest.approx(b.errors, abs=tol * reach)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32 - 1), st.floats(0.0, 1.4), st.floats(-math.pi, math.pi))
def test_planar_pose_is_the_general_one(seed, distance, heading):
    rng = random.Random(seed)
    chain, axis, at = _leg(rng)
    start = [rot.from_axis_angle(axis, rng.uniform(-4.0, 4.0)) for _ in range(2)]
    # Targets from the root out past the reach, poles anywhere in the plane.
    target = at(distance * chain.reach * math.cos(heading), distance * chain.reach * math.sin(heading))
    pole = at(rng.uniform(-2, 2) * chain.reach, rng.uniform(-2, 2) * chain.reach)
    problem = make_problem(chain, target, "two_bone", start, None, None, None, None, pole, {})
    general = _general(problem)
    planar = two_bone._planar(problem, two_bone._plane(chain))
    if planar is None:
        # Only the cases the general path must decide: a target at the root, a pole on the
        # root-target line, or a half turn.
        return
    # On the shell's edges (stretched, folded) the knee angle is sin(alpha) = sqrt(1 - cos^2):
    # a rounding of cos there moves the pose by its square root, on either path.
    l1, l2 = chain.lengths
    d = math.dist(target, chain.points[0])
    edge = min(abs(d - l1 - l2), abs(d - abs(l1 - l2))) <= 1e-6 * chain.reach
    _same_pose(planar, general, chain.reach, 1e-7 if edge else 1e-10)
    assert max(chain.violations(planar.rotations)) <= 1e-12


def _close(a, b, tol):
    """Quaternions or points ``a`` and ``b`` alike within ``tol`` in every component."""
    return all(max(abs(x - y) for x, y in zip(p, q)) <= tol for p, q in zip(a, b)) and len(a) == len(b)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32 - 1), st.floats(0.0, 1.4), st.floats(-math.pi, math.pi), st.booleans())
def test_planar_pose_is_vouched_for(seed, distance, heading, judged):
    # Outcome.settled's promise, which the verdict takes instead of running the limits and forward
    # kinematics: unit rotations within the limits, their points and world rotations to rounding;
    # and the same status as the full verdict on the rotations alone.
    rng = random.Random(seed)
    chain, axis, at = _leg(rng)
    start = chain.clamp([rot.from_axis_angle(axis, rng.uniform(-4.0, 4.0)) for _ in range(2)])
    target = at(distance * chain.reach * math.cos(heading), distance * chain.reach * math.sin(heading))
    pole = at(rng.uniform(-2, 2) * chain.reach, rng.uniform(-2, 2) * chain.reach)
    # A warm start brings the start's points along (the tip's error before the solve).
    frames = (chain.world_rotations(start), chain._forward(start)) if judged else None
    problem = make_problem(chain, target, "two_bone", start, None, None, None, None, pole, {}, judged=judged,
                           frames=frames)
    outcome = two_bone._planar(problem, two_bone._plane(chain))
    if outcome is None:
        return
    rotations, points, last = outcome.settled
    assert rotations is outcome.rotations
    assert max(abs(math.fsum(c * c for c in q) - 1.0) for q in rotations) <= 1e-12
    assert max(chain.violations(rotations)) <= 1e-12
    assert _close(points, chain.forward(rotations), 1e-12 * chain.reach)
    worlds = chain.world_rotations(rotations)
    assert _close(outcome.worlds, worlds, 1e-12) and _close([last], worlds[-1:], 1e-12)
    # The full verdict: the rotations clamped and through forward kinematics; stalled when the
    # limits kept the tip from the best the bones reach (the shell's distance) past the tolerance.
    error = math.dist(chain._judge(rotations)[1][2], target)
    l1, l2 = chain.lengths
    d = math.dist(target, chain.points[0])
    stalled = error > max(problem.tolerance, max(d - chain.reach, abs(l1 - l2) - d, 0.0) + 1e-9 * chain.reach)
    errors = [math.dist(chain.forward(start)[2], target), error]
    assert outcome.stalled == stalled
    assert outcome.errors == pytest.approx(errors, rel=0.0, abs=1e-12 * chain.reach)
    taken = judge(problem, "two_bone", rotations, 1, outcome.errors, outcome.stalled, outcome.settled)
    full = judge(problem, "two_bone", rotations, 1, errors, stalled)
    assert (taken.status, taken.iterations) == (full.status, full.iterations)
    assert taken.error == pytest.approx(full.error, rel=0.0, abs=1e-12 * chain.reach)
    assert _close(taken.positions, full.positions, 1e-12 * chain.reach)
    assert _close(taken.rotations, full.rotations, 1e-12)


def test_planar_path_is_taken_on_most_legs():
    rng = random.Random(7)
    taken = 0
    for _ in range(200):
        chain, axis, at = _leg(rng)
        start = [rot.from_axis_angle(axis, rng.uniform(-3.0, 3.0)) for _ in range(2)]
        problem = make_problem(chain, at(0.5 * chain.reach, 0.3), "two_bone", start, None, None, None, None,
                               at(0.0, 2.0 * chain.reach), {})
        taken += two_bone._planar(problem, two_bone._plane(chain)) is not None
    assert taken >= 195


def test_legs_off_the_plane_take_the_general_path(monkeypatch):
    rng = random.Random(3)
    chain, axis, at = _leg(rng)
    start = [rot.from_axis_angle(axis, 0.3), rot.from_axis_angle(axis, -0.4)]
    off = tuple(p + 0.05 * a for p, a in zip(at(0.4, 0.2), axis))
    pole = at(0.0, 2.0)
    plane = two_bone._plane(chain)
    for target, hint in ((off, pole), (at(0.4, 0.2), tuple(p + 0.05 * a for p, a in zip(pole, axis)))):
        problem = make_problem(chain, target, "two_bone", start, None, None, None, None, hint, {})
        assert two_bone._planar(problem, plane) is None
        _same_pose(two_bone.run(problem), _general(problem), chain.reach)
    # No pole: the start's bend plane decides, on the general path.
    problem = make_problem(chain, at(0.4, 0.2), "two_bone", start, None, None, None, None, None, {})
    calls = []
    monkeypatch.setattr(two_bone, "_planar", lambda *a: calls.append(a))
    two_bone.run(problem)
    assert calls == []


def test_chains_that_are_not_planar_legs_have_no_plane():
    leg = [(0, 0, 0), (1, 0, 0), (1, 1, 0)]
    z = Hinge((0, 0, 1), -90, 90)
    assert two_bone._plane(Chain(leg, [z, z])) is not None
    assert two_bone._plane(Chain(leg, [z, Hinge((1, 0, 0), -90, 90)])) is None
    assert two_bone._plane(Chain(leg, [z, None])) is None
    assert two_bone._plane(Chain(leg, [ikcore.BallSocket(cone_deg=40), z])) is None
    # A bone across the hinges' plane.
    assert two_bone._plane(Chain([(0, 0, 0), (1, 0, 0), (1, 1, 0.5)], [z, z])) is None


def test_a_half_turn_is_left_to_the_general_path():
    chain = Chain([(0, 0, 0), (1, 0, 0), (2, 0, 0)], [Hinge((0, 0, 1)), Hinge((0, 0, 1))])
    # The upper bone points along -x; the target straight ahead along +x, pole above.
    start = [rot.from_axis_angle((0, 0, 1), math.pi), rot.IDENTITY]
    problem = make_problem(chain, (1.9, 0.0, 0.0), "two_bone", start, None, None, None, None, (1.0, 5.0, 0.0), {})
    b0 = two_bone._planar(problem, two_bone._plane(chain))
    # The knee's bend is small: the upper bone turns by nearly a half turn, but not within
    # _HALF_TURN of it; straight ahead it would.
    assert b0 is not None
    problem = make_problem(chain, (2.0 + 1e-3, 0.0, 0.0), "two_bone", start, None, None, None, None,
                           (1.0, 5.0, 0.0), {})
    assert two_bone._planar(problem, two_bone._plane(chain)) is None


def test_the_spider_legs_take_the_planar_path(monkeypatch):
    scene = make_scene("spider")
    results = []
    planar = two_bone._planar_pose

    def spy(*args):
        out = planar(*args)
        results.append(out is not None)
        return out

    monkeypatch.setattr(two_bone, "_planar_pose", spy)
    for frame in range(30):
        scene.step(1 / 60)
        # A warm solve's verdict kept the planar path's own points: forward kinematics' to rounding.
        for limb in scene.limbs:
            sol, chain = limb.solution, limb.bound.chain
            if frame == 0:
                continue
            assert _close(sol.frames[1], chain.forward(sol.rotations), 1e-12 * chain.reach)
            assert _close(sol.frames[0], chain.world_rotations(sol.rotations), 1e-12)
    assert len(results) == 30 * 8 and all(results)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32 - 1), st.floats(0.0, 1.4), st.floats(-math.pi, math.pi), st.booleans(),
       st.sampled_from(["in plane", "target off", "pole off"]))
def test_the_warm_solve_is_run_and_the_verdict_to_the_bit(seed, distance, heading, judged, where):
    # two_bone.warm(settings) skips the Problem, the Outcome and judge(): its Solution must be theirs, float
    # for float, or None exactly where the planar steps do not apply (then the usual path runs).
    rng = random.Random(seed)
    chain, axis, at = _leg(rng)
    start = chain.clamp([rot.from_axis_angle(axis, rng.uniform(-4.0, 4.0)) for _ in range(2)])
    target = at(distance * chain.reach * math.cos(heading), distance * chain.reach * math.sin(heading))
    pole = at(rng.uniform(-2, 2) * chain.reach, rng.uniform(-2, 2) * chain.reach)
    nudge = rng.choice([1e-3, 1e-13]) * chain.reach
    if where == "target off":
        target = tuple(p + nudge * a for p, a in zip(target, axis))
    elif where == "pole off":
        pole = tuple(p + nudge * a for p, a in zip(pole, axis))
    frames = None
    if judged:
        # A verdict's own frames (the planar path's points, forward kinematics' to rounding only).
        first = ikcore_solve.solve_from_judged(chain, at(0.5 * chain.reach, 0.1 * chain.reach), "two_bone", start,
                                               pole=pole)
        start, frames = first.rotations, first.frames
    tolerance = rng.choice([1e-9, 1e-3, 0.3]) * chain.reach
    made = ikcore_solve.make_settings(chain, "two_bone", tolerance=tolerance)
    fast = made.warm(target, pole, tuple(start), frames)
    problem = make_problem(chain, target, "two_bone", tuple(start), None, None, None, None, pole, {}, judged=True,
                           frames=frames, settings=made)
    if fast is None:
        assert two_bone._planar(problem, two_bone._plane(chain)) is None
        return
    outcome = two_bone.run(problem)
    usual = judge(problem, "two_bone", outcome.rotations, outcome.iterations, outcome.errors, outcome.stalled,
                  outcome.settled, outcome.worlds, keep_frames=True)
    for name in ("positions", "rotations", "status", "iterations", "error", "orientation_error", "errors", "method",
                 "frames"):
        assert getattr(fast, name) == getattr(usual, name), name


def test_warm_solves_of_planar_legs_take_the_method_s_own_warm_solve(monkeypatch):
    # A bound spider leg solved frame after frame (by its Tracker): from the second solve on, solve_warm
    # hands the request to two_bone's warm solve, which returns the Solution; a chain without the hinges
    # has none.
    scene = make_scene("spider")
    calls = []
    made = ikcore_solve.make_settings

    def spy(*args, **kwargs):
        out = made(*args, **kwargs)
        if out.warm is not None:
            inner = out.warm
            out.warm = lambda *a: calls.append(inner(*a)) or calls[-1]
        return out

    monkeypatch.setattr(skeleton, "_make_settings", spy)
    monkeypatch.setattr(tracker, "make_settings", spy)
    for _ in range(5):
        scene.step(1 / 60)
    assert len(calls) >= 8 * 3 and all(sol is not None for sol in calls)
    assert all(limb.solution is calls[-8 + i] for i, limb in enumerate(scene.limbs))
    # No pole: the start's bend plane decides, which only run's general path does.
    leg = scene.limbs[0].bound
    assert ikcore_solve.make_settings(leg.chain, "two_bone").warm((0.5, -0.3, 0.0), None, tuple(leg.rotations),
                                                                  None) is None
    free = Chain([(0, 0, 0), (1, 0, 0), (1, 1, 0)])
    assert ikcore_solve.make_settings(free, "two_bone").warm is None
    assert ikcore_solve.make_settings(scene.limbs[0].bound.chain, "fabrik").warm is None


def test_the_plane_keeps_the_last_pole_only_as_a_shortcut():
    # A pole found in the plane is kept with its plane coordinates for the next solve with that very pole;
    # any other pole is looked at afresh (off the plane: None), and results equal a plane never used before.
    rng = random.Random(11)
    chain, axis, at = _leg(rng)
    plane = two_bone._plane(chain)
    in_plane = at(0.2, 2.0 * chain.reach)
    off_plane = tuple(p + 1e-3 * a for p, a in zip(at(0.0, 2.0 * chain.reach), axis))
    other = at(-0.3, -2.0 * chain.reach)
    start = chain.clamp([rot.IDENTITY, rot.IDENTITY])
    for pole in (in_plane, in_plane, off_plane, in_plane, other, tuple(in_plane), other, off_plane):
        target = at(rng.uniform(0.2, 0.9) * chain.reach, rng.uniform(-0.5, 0.5) * chain.reach)
        kept = two_bone._planar_pose(plane, chain, target, pole, start)
        fresh = two_bone._planar_pose(two_bone._plane_of(chain), chain, target, pole, start)
        assert kept == fresh
        assert (kept is None) == (pole is off_plane)
