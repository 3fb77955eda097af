"""A warm start from a verdict reuses that verdict's frames (world rotations and points) instead of
running forward kinematics again: bitwise the same pose where the verdict ran forward kinematics
(hence the same solve), the same to rounding where it took a solver's own points (cone chains)."""

import importlib
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ikcore
from ikcore import rotation as rot
from ikcore.solvers import fabrik
from ikcore.solvers._pose import Pose

from .strategies import chains

_solve = importlib.import_module("ikcore.solve")


def _target(chain, rng, spread=0.8):
    return tuple(c + rng.uniform(-spread, spread) * chain.reach for c in chain.points[0])


@settings(max_examples=60)
@given(chains(max_bones=10), st.integers(0, 2**32 - 1), st.sampled_from(["fabrik", "ccd", "dls"]))
def test_pose_from_frames_is_forward_kinematics(chain, seed, method):
    rng = random.Random(seed)
    first = ikcore.solve(chain, _target(chain, rng)).rotations
    sol = _solve.solve_from_judged(chain, _target(chain, rng), method, first, max_iterations=5)
    if sol.frames is None:
        # FABRIK hands the verdict a free chain's points without world rotations (no frames kept).
        assert method == "fabrik" and not chain.limited
        return
    worlds, points = sol.frames
    problem = _solve.make_problem(chain, _target(chain, rng), method, sol.rotations, None, None, None, None, None,
                                  {}, judged=True, frames=sol.frames)
    cached, plain = Pose.of(problem), Pose(chain, sol.rotations)
    if method == "fabrik" and fabrik._layout(chain)[2] is not None:
        # A cone chain: its verdict took the passes' own points and world rotations.
        for name in Pose.__slots__:
            assert max(abs(a - b) for a, b in zip(getattr(cached, name), getattr(plain, name))) <= 1e-12 * max(
                1.0, chain.reach), name
        return
    assert points == chain._forward(sol.rotations)
    for name in Pose.__slots__:
        assert getattr(cached, name) == getattr(plain, name), name
    assert worlds == chain.world_rotations(sol.rotations)


def _leg():
    sk = ikcore.Skeleton()
    sk.add_node("hip", translation=(0.2, 0.5, -0.1), rotation=rot.from_axis_angle((0.0, 1.0, 0.0), 0.7))
    return sk.add_chain("leg", "hip", [(0.0, 0.0, 0.0), (0.4, 0.3, 0.0), (0.9, -0.2, 0.0)],
                        [ikcore.Hinge(axis=(0.0, 0.0, 1.0), min_deg=-10.0, max_deg=120.0),
                         ikcore.Hinge(axis=(0.0, 0.0, 1.0), min_deg=-150.0, max_deg=0.0)])


@settings(max_examples=60)
@given(st.integers(0, 2**32 - 1), st.sampled_from([None, "across", "in the plane"]))
def test_two_bone_warm_start_from_frames_is_the_plain_solve(seed, pole):
    # Frame to frame (the spider's legs): the same result as from the rotations alone, within the
    # limits, its positions those of forward kinematics (to rounding where a target and a pole in
    # the leg's plane take the planar path, whose verdict keeps its own points).
    rng = random.Random(seed)
    bound = _leg()
    chain = bound.chain
    planar = pole == "in the plane"
    hint = {None: None, "across": (0.3, 1.0, 0.5), "in the plane": (0.3, 1.0, 0.0)}[pole]
    for frame in range(5):
        prev = bound.solution
        target = _target(chain, rng, 0.7)
        if planar:
            # The leg's plane: its rest points' and its hinges' z = 0.
            target = (target[0], target[1], 0.0)
        sol = bound.solve(target, "two_bone", local=True, pole=hint)
        if prev is None:
            continue
        # The first solve was not warm-started from a verdict; every later one keeps its frames.
        assert (prev.frames is not None) == (frame > 1)
        plain = _solve.solve_from_judged(chain, target, "two_bone", prev.rotations, pole=hint)
        assert (sol.rotations, sol.status) == (plain.rotations, plain.status)
        assert max(chain.violations(sol.rotations)) <= 1e-12
        if planar:
            # The start's error from its verdict's points, the plain solve's from forward kinematics.
            assert sol.errors == pytest.approx(plain.errors, rel=0.0, abs=1e-12 * chain.reach)
            for p, f in zip(sol.frames[1], chain.forward(sol.rotations)):
                assert max(abs(a - b) for a, b in zip(p, f)) <= 1e-12 * chain.reach
        else:
            assert sol.errors == plain.errors
            assert sol.frames[1] == chain._forward(sol.rotations)


def _tentacle(bones, cone, base, lean):
    points = [(0.0, 0.0, 0.0)]
    for i in range(bones):
        points.append((0.0, points[-1][1] + 0.14 * (1.0 - 0.45 * i / bones), 0.0))
    chain = ikcore.Chain(points, [ikcore.BallSocket(cone_deg=base)] + [ikcore.BallSocket(cone_deg=cone)] * (bones - 1))
    return chain, [rot.from_axis_angle((0.0, 0.0, 1.0), lean)] * bones


@settings(max_examples=40)
@given(st.integers(2, 24), st.floats(5.0, 60.0), st.floats(10.0, 170.0), st.floats(-0.2, 0.2),
       st.integers(0, 2**32 - 1))
def test_cone_chain_verdict_from_its_own_points(bones, cone, base, lean, seed):
    # A cone chain's verdict takes the points its rotations were built from (no forward kinematics):
    # they are forward kinematics' own to rounding, the rotations unit and within every cone, and a
    # warm start tracks from them frame to frame.
    rng = random.Random(seed)
    chain, start = _tentacle(bones, cone, base, lean)
    start = chain.clamp(start)
    frames = None
    target = _target(chain, rng, 0.9)
    for frame in range(25):
        # Jumps and tracking steps: norms and bends must not drift frame to frame.
        if frame % 5 == 0:
            target = _target(chain, rng, 0.9)
        else:
            target = tuple(c + rng.uniform(-0.02, 0.02) * chain.reach for c in target)
        if frames is None:
            sol = ikcore.solve(chain, target, "fabrik", start=start, max_iterations=3)
        else:
            sol = _solve.solve_from_judged(chain, target, "fabrik", start, frames=frames, max_iterations=3)
        for p, f in zip(sol.positions, chain.forward(sol.rotations)):
            assert max(abs(a - b) for a, b in zip(p, f)) <= 1e-12 * chain.reach
        assert max(abs(sum(c * c for c in q) - 1.0) for q in sol.rotations) <= 1e-12
        assert max(chain.violations(sol.rotations)) <= 1e-12
        if sol.frames is not None:
            assert max(abs(sum(c * c for c in q) - 1.0) for q in sol.frames[0]) <= 1e-12
        start, frames = sol.rotations, sol.frames


@pytest.mark.parametrize("seed", range(6))
def test_cone_warm_start_from_kept_points_is_the_warm_start_from_their_copy(seed):
    # A cone chain's warm start from the very points its last solve settled on takes the lists
    # they were zipped from (Passes.kept) instead of transposing the tuples: the same solve,
    # bitwise, as from an equal copy of those points, and the kept lists are never written to.
    rng = random.Random(seed)
    chain, start = _tentacle(12, 25.0, 120.0, 0.05)
    start = chain.clamp(start)
    # Tracking from the start's tip, as a tentacle does: the bends stay clear of the rims.
    target = chain.forward(start)[-1]
    sol = ikcore.solve(chain, target, "fabrik", start=start)
    reused = 0
    for _ in range(40):
        target = tuple(c + rng.uniform(-0.02, 0.02) * chain.reach for c in target)
        if sol.frames is None:
            sol = _solve.solve_from_judged(chain, target, "fabrik", sol.rotations)
            continue
        frames = sol.frames
        kept = fabrik._layout(chain)[2].kept
        if kept is not None and kept[0] is frames[1]:
            reused += 1
            lists = [list(c) for c in kept[1:]]
        fast = _solve.solve_from_judged(chain, target, "fabrik", sol.rotations, frames=frames)
        if kept is not None and kept[0] is frames[1]:
            assert [list(c) for c in kept[1:]] == lists
        # Last, so that the next frame starts from the points it settled on (it keeps them).
        copied = (frames[0], [tuple(p) for p in frames[1]])
        plain = _solve.solve_from_judged(chain, target, "fabrik", sol.rotations, frames=copied)
        assert fast.positions == plain.positions and fast.rotations == plain.rotations
        assert (fast.iterations, fast.status, fast.errors) == (plain.iterations, plain.status, plain.errors)
        sol = plain
    assert reused >= 20
