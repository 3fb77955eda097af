"""Trackers: BoundChain.solve with its settings checked once, the same Solution and pose call for call."""

import math
import random

import pytest

import ikcore
from ikcore import Hinge, Skeleton
from ikcore.rigs import make_scene

FIELDS = ("positions", "rotations", "status", "iterations", "error", "orientation_error", "errors", "method")


def _leg(joints=True):
    """A leg hanging from a turned, moved hip node; two hinges about the hip's z axis (or none)."""
    sk = Skeleton()
    hip = sk.add_node("hip", translation=(0.3, 1.0, -0.2), rotation=ikcore.rotation.from_axis_angle((0, 1, 0), 0.7))
    limits = [Hinge((0, 0, 1), -75, 45), Hinge((0, 0, 1), -55, 80)] if joints else None
    return sk, sk.add_chain("leg", hip, [(0.18, 0.0, 0.0), (0.6, 0.35, 0.0), (1.1, -0.3, 0.0)], limits)


def _targets(rng, n, spread=1.2):
    return [(rng.uniform(0.0, spread), rng.uniform(-spread, spread), rng.choice([0.0, rng.uniform(-0.3, 0.3)]))
            for _ in range(n)]


def _same(a, b):
    for name in FIELDS:
        assert getattr(a, name) == getattr(b, name), name


@pytest.mark.parametrize("method", ["two_bone", "fabrik", "ccd", "dls"])
@pytest.mark.parametrize("local", [True, False])
def test_a_tracker_is_bound_solve_call_for_call(method, local):
    rng = random.Random(method + str(local))
    _, mine = _leg()
    _, theirs = _leg()
    pole = (0.45, 1.5, 0.0)
    track = mine.tracker(method, pole=pole, local=local, tolerance=1e-4, max_iterations=8)
    for i, target in enumerate(_targets(rng, 60)):
        if i == 30:
            # A pose set from outside: the next call starts from it, as solve() does.
            for bound in (mine, theirs):
                bound.set_rotations([ikcore.rotation.from_axis_angle((0, 0, 1), 0.2)] * 2)
        a = track(target)
        b = theirs.solve(target, method, pole=pole, local=local, tolerance=1e-4, max_iterations=8)
        _same(a, b)
        assert mine.solution is a
        assert mine.rotations == theirs.rotations
        assert mine.local_frames() == theirs.local_frames()
        assert mine.world_points() == theirs.world_points()


def test_a_tracker_follows_the_chain_s_limits_switched_off_and_on():
    _, mine = _leg()
    _, theirs = _leg()
    track = mine.tracker("two_bone", pole=(0.45, 1.5, 0.0), local=True)
    rng = random.Random(5)
    for i, target in enumerate(_targets(rng, 40)):
        if i % 10 == 5:
            mine.constrained = theirs.constrained = not mine.constrained
        _same(track(target), theirs.solve(target, "two_bone", pole=(0.45, 1.5, 0.0), local=True))
        assert max(mine.limited_chain.violations(mine.rotations)) <= (1e-12 if mine.constrained else math.inf)


def test_a_tracker_checks_its_settings_when_made_and_each_target_when_called():
    _, bound = _leg()
    for bad, name in (({"method": "nope"}, "method"), ({"pole": (math.nan, 0, 0)}, "pole"),
                      ({"tolerance": -1.0}, "tolerance"), ({"max_iterations": 0}, "max_iterations"),
                      ({"damping": 0.1}, "damping"), ({"local": 1}, "local")):
        args = {"method": "fabrik", **bad}
        with pytest.raises(ikcore.IKError, match=name):
            bound.tracker(**args)
    arm = Skeleton().add_chain("arm", None, [(0, 0, 0), (1, 0, 0), (2, 0, 0), (3, 0, 0)])
    with pytest.raises(ikcore.IKError, match="2 bones"):
        arm.tracker("two_bone")
    track = bound.tracker("two_bone", pole=(0.45, 1.5, 0.0), local=True)
    track((0.8, -0.4, 0.0))
    before = (bound.rotations, bound.solution)
    for bad in ((math.nan, 0.0, 0.0), (1e200, 0.0, 0.0), (1.0, 2.0), "abc", (True, 0.0, 0.0)):
        with pytest.raises(ikcore.IKError, match="target"):
            track(bad)
        assert (bound.rotations, bound.solution) == before
    # Ints are points too: made floats, on the checked path.
    assert track((1, 0, 0)).status in ikcore.STATUSES


def test_scenes_make_their_trackers_again_when_their_settings_change():
    scene = make_scene("tentacles")
    for _ in range(3):
        scene.step(1 / 60)
    first = [limb.tracker for limb in scene.limbs]
    assert all(t is not None and t.method == "fabrik" for t in first)
    scene.step(1 / 60)
    assert [limb.tracker for limb in scene.limbs] == first  # kept while nothing changes
    scene.set_params(method="ccd", tolerance=0.01)
    scene.step(1 / 60)
    assert all(limb.solution.method == "ccd" and limb.tracker.method == "ccd" for limb in scene.limbs)
    assert all(limb.tracker.settings.tolerance == 0.01 * limb.reach for limb in scene.limbs)
    scene.set_params(constraints=False)
    scene.step(1 / 60)
    assert all(not limb.bound.constrained and limb.solution is limb.bound.solution for limb in scene.limbs)

def test_a_tracker_swaps_its_chain_s_limits_off_and_on():
    """Off, a Tracker solves as one made on the chain without limits; back on, it starts from its pose
    clamped into them and solves as one made on the chain with them, from that pose."""
    _, bound = _leg()
    chain = bound.limited_chain
    track = ikcore.Tracker(chain, "fabrik", tolerance=1e-4)
    assert track.constrained
    targets = _targets(random.Random(11), 12)
    free = ikcore.Tracker(chain.free(), "fabrik", tolerance=1e-4)
    track.constrained = False
    assert not track.constrained and track.settings.chain.size == chain.size and not track.settings.chain.limited
    for target in targets:
        _same(track(target), free(target))
    # A pose outside the limits (the last free solve's, most likely): clamped on the way back.
    outside = max(chain.violations(track.frames.rotations))
    track.constrained = True
    assert max(chain.violations(track.frames.rotations)) <= 1e-12
    limited = ikcore.Tracker(chain, "fabrik", tolerance=1e-4, start=chain.clamp(free.frames.rotations))
    for target in targets:
        _same(track(target), limited(target))
        assert max(chain.violations(track.frames.rotations)) <= 1e-12
    assert outside > 1e-3, "the free solves never left the limits: the clamp went untested"
    with pytest.raises(ikcore.IKError, match="constrained"):
        track.constrained = 1


def test_a_bound_chain_s_solve_goes_on_with_one_tracker_while_its_request_is_the_same():
    """Repeated solve() calls with the same method, pole and options are those of one tracker (the
    null-space state kept between them), and a changed request starts a new one."""
    _, mine = _leg(joints=False)
    _, theirs = _leg(joints=False)
    options = {"tolerance": 1e-4, "max_iterations": 40, "secondary": [ikcore.TowardRest(0.5)]}
    track = theirs.tracker("dls", local=True, **options)
    rng = random.Random(3)
    for target in _targets(rng, 20):
        _same(mine.solve(target, "dls", local=True, **options), track(target))
    first = mine._tracked[1]
    mine.solve((0.5, 0.2, 0.0), "dls", local=True, **options)
    assert mine._tracked[1] is first
    mine.solve((0.5, 0.2, 0.0), "pseudo_inverse", local=True, **options)
    assert mine._tracked[1] is not first
