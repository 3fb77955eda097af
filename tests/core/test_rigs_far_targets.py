"""Targets placed absurdly far: a billion units away every scene keeps a finite pose frame after frame;
beyond what the solvers take, the placement is refused at once (not by the next frame's solve)."""

import math

import pytest

from ikcore import IKError
from ikcore.rigs import CHAIN_SCENES, make_scene
from ikcore.rigs.scene import MAX_COORDINATE

DRAGGED = {"arm": "target", "tentacles": "target0", "spider": "destination", "race": "target", "robot": "target", "steps": "target",
           "playground": "target", "humanoid": "knob"}


@pytest.mark.parametrize("name", CHAIN_SCENES)
@pytest.mark.parametrize("far", [1e9, -1e9])
def test_far_target_keeps_a_finite_pose(name, far):
    scene = make_scene(name)
    buf = scene.allocate()
    point = (far, 0.5 * far, far)
    if name in ("spider", "humanoid"):
        # The spider walks on its terrain only (and the humanoid to its knob): a destination off it is
        # refused with the bounds.
        with pytest.raises(IKError, match="must lie within"):
            scene.set_target(DRAGGED[name], point)
        return
    scene.set_target(DRAGGED[name], point)
    if name in ("race", "playground"):
        scene.set_params(rate=60)  # the replay of the lanes' solves (every pose of it checked) within 150 frames
    if name == "steps":
        scene.set_params(step=scene.state()["steps"]["count"] - 1)  # the trace's last step: the result
    for _ in range(150):
        scene.step(1 / 60)
        scene.write(buf)
        assert all(math.isfinite(v) for v in buf)
    chain = scene.state()["chains"][0]
    assert chain["status"] == "unreachable"
    assert all(abs(v) < 1e3 for v in chain["effector"])


@pytest.mark.parametrize("name", CHAIN_SCENES)
@pytest.mark.parametrize("value", [MAX_COORDINATE * 10, -1e200])
def test_target_beyond_the_solvers_is_refused_at_once(name, value):
    scene = make_scene(name)
    scene.step(1 / 60)
    before = scene.state()["targets"][DRAGGED[name]]
    with pytest.raises(IKError, match=r"target 'destination'|farther than 1e\+12"):
        scene.set_target(DRAGGED[name], (0.0, 0.0, value))
    assert scene.state()["targets"][DRAGGED[name]] == before
    scene.step(1 / 60)
