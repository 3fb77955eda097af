"""Planar legs tracked together (ikcore.solvers.two_bone.leg_tracker.LegTracker) are Trackers, leg by
leg: frame after frame, the same status and points within 1e-9 of the reach as one ikcore.Tracker per
leg; its lists resize in place; the limits switch off and on as a Tracker's do."""

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ikcore
from ikcore import Chain, Hinge
from ikcore.rigs import make_scene
from ikcore.solvers.two_bone.leg_tracker import LegTracker

from .test_two_bone_planar import leg


def _place(legs, k, point):
    for column, c in zip(legs.targets, point):
        column[k] = c


def _drift(rng, chain, at, count, frames):
    """Per frame, ``count`` targets that wander a little from where they were (some beyond reach)."""
    r = chain.reach / math.dist(at(0, 0), at(1, 0))
    spots = [[rng.uniform(-1.2, 1.2) * r, rng.uniform(-1.2, 1.2) * r, rng.uniform(-0.2, 0.2) * r] for _ in range(count)]
    for _ in range(frames):
        for spot in spots:
            for i in range(3):
                spot[i] += rng.uniform(-0.1, 0.1) * r
        yield [at(*spot) for spot in spots]


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.booleans())
def test_legs_tracked_together_are_a_tracker_each(seed, with_pole):
    rng = random.Random(seed)
    chain, at = leg(rng)
    pole = at(0.3, 2.0, 0.1) if with_pole else None
    legs = LegTracker(chain, pole=pole)
    legs.resize(5)
    trackers = [ikcore.Tracker(chain, "two_bone", pole=pole) for _ in range(5)]
    tolerance = 1e-3 * chain.reach
    for targets in _drift(rng, chain, at, 5, 12):
        for k, target in enumerate(targets):
            _place(legs, k, target)
        met = legs.solve(tolerance)
        sols = [track(t) for track, t in zip(trackers, targets)]
        assert met == sum(s.converged for s in sols)
        for k, s in enumerate(sols):
            assert ikcore.STATUSES[legs.results.status[k]] == s.status
            got = legs.frames(k).points
            assert max(math.dist(a, b) for a, b in zip(got, s.positions)) <= 1e-9 * chain.reach, k


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_targets_given_in_the_legs_plane_are_solved_as_in_its_frame(seed):
    """A caller that hands its targets over in the leg's plane coordinates (the crowd) gets what the
    same targets in the leg's frame get: the same statuses, the same angles and tips (up to the
    rounding of the change of frame)."""
    rng = random.Random(seed)
    chain, at = leg(rng)
    pole = at(0.3, 2.0, 0.1)
    framed, planar = LegTracker(chain, pole=pole), LegTracker(chain, pole=pole, in_plane=True)
    framed.resize(6)
    planar.resize(6)
    assert [list(c) for c in planar.targets] == [[0.0] * 6] * 3  # new legs' targets on the root
    tolerance = 1e-3 * chain.reach
    for targets in _drift(rng, chain, at, 6, 10):
        for k, target in enumerate(targets):
            _place(framed, k, target)
            _place(planar, k, planar.kernel.in_plane(target))
        assert framed.solve(tolerance) == planar.solve(tolerance)
        assert framed.results.status == planar.results.status
        for k in range(6):
            assert framed.angles[0][k] == pytest.approx(planar.angles[0][k], abs=1e-9)
            assert framed.angles[1][k] == pytest.approx(planar.angles[1][k], abs=1e-9)
            assert math.dist(framed.frames(k).points[-1], planar.frames(k).points[-1]) <= 1e-9 * chain.reach


def test_the_lists_resize_in_place_keeping_the_first_legs():
    chain, at = leg(random.Random(4))
    legs = LegTracker(chain, pole=at(0.0, 2.0))
    hips, knees = legs.angles
    legs.resize(3)
    rest = (hips[0], knees[0])
    assert rest == tuple(j.range.clamp(0.0) for j in chain.joints)
    for k in range(3):
        _place(legs, k, at(0.4 + 0.1 * k, 0.6))
    legs.solve(1e-6)
    kept = (hips[:2], knees[:2])
    legs.resize(2)
    legs.resize(6)
    assert legs.angles[0] is hips and len(hips) == 6 and (hips[:2], knees[:2]) == kept
    assert (hips[2:], knees[2:]) == ([rest[0]] * 4, [rest[1]] * 4)
    assert [len(c) for c in (*legs.targets, *legs.poles, legs.results.errors)] == [6] * 7
    assert legs.poles[1][5] == at(0.0, 2.0)[1]


def test_the_limits_switch_off_and_on_as_a_tracker_s_do():
    joints = [Hinge((0, 0, 1), -60, 30), Hinge((0, 0, 1), 0, 120)]
    chain = Chain([(0, 0, 0), (1, 0, 0), (2, 0, 0)], joints)
    legs = LegTracker(chain)
    legs.resize(1)
    _place(legs, 0, (-0.5, -1.2, 0.0))  # behind the hip: out of its range
    legs.solve(1e-9)
    assert legs.results.status == [ikcore.STATUSES.index("stalled")]
    legs.constrained = False
    assert legs.solve(1e-9) == 1
    free_hip = legs.angles[0][0]
    assert not -math.radians(60) <= free_hip <= math.radians(30)
    legs.constrained = True
    assert legs.angles[0][0] == pytest.approx(-math.radians(60) if free_hip < 0 else math.radians(30))
    assert math.radians(0) <= legs.angles[1][0] <= math.radians(120)
    with pytest.raises(ikcore.IKError, match="constrained"):
        legs.constrained = "yes"


def test_only_planar_legs_are_tracked_and_a_count_is_checked():
    for chain in (Chain([(0, 0, 0), (1, 0, 0), (2, 0, 0)]),
                  Chain([(0, 0, 0), (1, 0, 0), (2, 0, 0), (3, 0, 0)], [Hinge((0, 0, 1))] * 3), "leg"):
        with pytest.raises(ikcore.IKError, match="planar leg"):
            LegTracker(chain)
    legs = LegTracker(Chain([(0, 0, 0), (1, 0, 0), (2, 0, 0)], [Hinge((0, 0, 1))] * 2))
    for bad in (-1, 2.0, None):
        with pytest.raises(ikcore.IKError, match="count"):
            legs.resize(bad)


@pytest.mark.parametrize("name", ["spider", "crowd"])
def test_the_spider_and_the_crowd_track_their_legs_with_one(name):
    scene = make_scene(name)
    tracked = scene._legs_tracked if name == "spider" else scene.legs.tracked
    assert isinstance(tracked, LegTracker)
    for _ in range(5):
        scene.step(1 / 60)
    assert tracked.count == (8 if name == "spider" else scene.legs.count) and tracked.results.status.count(0) > 0
