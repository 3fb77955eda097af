"""What the layout tells the page besides the buffer: the box to frame (bounds), which methods use which
parameter (param_methods), and which targets go back to a motion of their own (scripted)."""

import pytest

from ikcore.rigs import SCENES, make_scene
from ikcore.rigs.scene import Scene
from ikcore.solvers import method as solver_module

DT = 1.0 / 60.0


def inside(bounds, point):
    return all(lo <= v <= hi for lo, v, hi in zip(bounds["min"], point, bounds["max"]))


@pytest.mark.parametrize("name", list(SCENES))
def test_the_bounds_hold_the_scene_as_it_starts(name):
    scene = make_scene(name)
    bounds = scene.layout()["bounds"]
    assert all(lo < hi for lo, hi in zip(bounds["min"], bounds["max"]))
    for limb in scene.limbs:
        assert all(inside(bounds, p) for p in limb.bound.world_points()), limb.name
    for target in scene.targets.values():
        if name != "spider" or target.name != "destination":  # the spider walks off to it
            assert inside(bounds, target.position), target.name


@pytest.mark.parametrize("name", ["arm", "tentacles"])
def test_the_bounds_hold_a_scene_that_stays_put_as_it_moves(name):
    scene = make_scene(name)
    bounds = scene.layout()["bounds"]
    for _ in range(1200):
        scene.step(DT)
        for limb in scene.limbs:
            assert all(inside(bounds, p) for p in limb.bound.world_points()), limb.name
        assert all(inside(bounds, t.position) for t in scene.targets.values())


def test_the_base_bounds_hold_the_chains_and_targets():
    scene = make_scene("arm")
    bounds = Scene.bounds(scene)
    points = [p for limb in scene.limbs for p in limb.bound.world_points()]
    assert all(inside(bounds, p) for p in points + [t.position for t in scene.targets.values()])


@pytest.mark.parametrize("name", list(SCENES))
def test_param_methods_name_the_methods_that_read_a_parameter(name):
    scene = make_scene(name)
    uses = scene.layout()["param_methods"]
    assert set(uses) <= set(scene.param_specs())
    if name in ("race", "playground"):
        return  # each lane has its method: test_rigs_race, test_playground
    for key, methods in uses.items():
        assert set(methods) < set(scene.methods), key  # listed only when some method ignores it
        for method in scene.methods:
            module = solver_module(method)
            used = "damping" in module.OPTIONS if key == "damping" else module.MAX_ITERATIONS > 1
            assert (method in methods) == used, (key, method)
    if "two_bone" in scene.methods:
        assert {"tolerance", "max_iterations", "damping"} <= set(uses)


def test_scripted_targets_are_those_with_a_motion_to_go_back_to():
    flags = {name: {t["name"]: t["scripted"] for t in make_scene(name).layout()["targets"]} for name in SCENES}
    assert flags["arm"] == {"target": True, "pole": False}
    assert all(flags["tentacles"].values())
    assert not any(flags["spider"].values())
