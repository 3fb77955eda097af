"""Scene construction options: make_scene(name, **options), for crowds."""

import pytest

import ikcore
from ikcore.rigs import make_scene


def test_tentacle_count_builds_a_crowd():
    scene = make_scene("tentacles", count=7)
    layout = scene.layout()
    assert len(layout["chains"]) == 7 and len(scene.targets) == 7
    buf = scene.allocate()
    scene.step(1 / 60)
    assert scene.write(buf) == layout["size"]
    assert all(limb.solution is not None for limb in scene.limbs)


@pytest.mark.parametrize("name, options, message", [
    ("tentacles", {"count": 0}, "count"),
    ("tentacles", {"count": 2.5}, "count"),
    ("tentacles", {"bones": 3}, "takes no option 'bones'"),
    ("spider", {"count": 2}, "takes no option 'count'"),
])
def test_bad_scene_options_are_refused(name, options, message):
    with pytest.raises(ikcore.IKError, match=message):
        make_scene(name, **options)
