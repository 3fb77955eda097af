"""The arc a free chain restarts from near full reach (:func:`ikcore.solvers.reach.arc_to`): its tip on
the target, its bones their lengths, found in a handful of chord evaluations."""

import math

from hypothesis import assume, given
from hypothesis import strategies as st

from ikcore import Chain
from ikcore.solvers import reach

lengths = st.lists(st.floats(1e-3, 1e3), min_size=2, max_size=40)
directions = st.tuples(*[st.floats(-1.0, 1.0)] * 3).filter(lambda v: math.hypot(*v) > 1e-3)


def chain_of(bones):
    points, x = [(0.0, 0.0, 0.0)], 0.0
    for length in bones:
        x += length
        points.append((x, 0.0, 0.0))
    return Chain(points)


class Counted:
    """``reach._chord``, its calls counted."""

    def __init__(self):
        self.calls = 0
        self.chord = reach._chord

    def __call__(self, *args):
        self.calls += 1
        return self.chord(*args)


@given(lengths, st.floats(0.9, 1.0), directions)
def test_the_arc_meets_the_target_and_keeps_the_bones(bones, fraction, direction):
    chain = chain_of(bones)
    n = math.hypot(*direction)
    target = tuple(fraction * chain.reach * c / n for c in direction)
    # The current pose bends a little off the line: the side the arc bulges to.
    bent = [(x, 1e-3 * chain.reach * math.sin(i), 0.0) for i, (x, _, _) in enumerate(chain.points)]
    counted = Counted()
    reach._chord = counted
    try:
        points = reach.arc_to(chain, target, bent)
    finally:
        reach._chord = counted.chord
    assume(points is not None)
    assert points[0] == chain.points[0]
    assert math.dist(points[-1], target) <= 1e-12 * chain.reach
    for a, b, length in zip(points, points[1:], chain.lengths):
        assert abs(math.dist(a, b) - length) <= 1e-12 * chain.reach
    # Newton's steps from the small angle's guess, where halving the bracket took 65 evaluations.
    assert counted.calls <= 12


def test_the_angle_search_stops_within_its_bound(monkeypatch):
    # A chord whose length rounding never lets meet d: the search ends after BEND_STEPS steps.
    chord = reach._chord
    calls = []

    def noisy(bones, angle):
        calls.append(angle)
        x, y, dx, dy = chord(bones, angle)
        return x * (1.0 + 1e-9 * (-1) ** len(calls)), y, dx, dy

    monkeypatch.setattr(reach, "_chord", noisy)
    angle = reach._bend([1.0] * 10, 9.5, 0.5 * math.pi)
    assert len(calls) == reach.BEND_STEPS
    assert 0.0 < angle < 0.5 * math.pi
