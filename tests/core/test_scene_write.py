"""Scene.write against the buffer contract, float for float.

``write`` runs a function compiled for the scene's layout (ikcore.rigs.writer);
these tests rebuild every record the plain way, from the contract in
ikcore.rigs.scene, and want the very same bits: in a fresh buffer full of
garbage, on a second write of the same frame, in a new buffer from
``allocate()``, and after changes to the layout (a limb or a target added, the
number of extra bones changing) that the compiled function must not outlive.
"""

import math
from array import array

import pytest

from ikcore import rotation as rot
from ikcore.rigs import CHAIN_SCENES, make_scene
from ikcore.rigs import writer as writer_module
from ikcore.rigs.scene import KINDS, STATUS_CODES, Limb, Scene, Target
from ikcore.skeleton import Skeleton

DT = 1.0 / 60.0


def expected(scene):
    """The buffer's floats, record by record, straight from the contract: each chain's bones and
    joints in its own frame (its pose's ``local_frames``), whose world pose ends the buffer."""
    out = []
    for limb in scene.limbs:
        points = limb.bound.local_frames()[1]
        if limb.lead is not None:
            out += [0.0, 0.0, 0.0, *points[0], limb.lead[0], KINDS["link"]]
        last = len(points) - 2
        for i, (a, b) in enumerate(zip(points, points[1:])):
            kind = KINDS["tip"] if i == last else KINDS["bone"]
            out += [*a, *b, limb.radii[i], kind]
    for p, q, radius, kind in scene.extra_bones():
        out += [*p, *q, radius, kind]
    for limb in scene.limbs:
        worlds, points = limb.bound.local_frames()
        for i, (point, radius) in enumerate(zip(points, limb.joint_radii)):
            # The root's limits are written in the chain's own frame, the others' in their parent bone's.
            frame = rot.IDENTITY if i == 0 else worlds[i - 1]
            out += [*point, radius, *frame]
    for target in scene.targets.values():
        out += [*target.position, *(target.orientation or rot.IDENTITY), target.radius]
    for limb in scene.limbs:
        status, error, iterations = scene.report(limb)
        code = STATUS_CODES.index(status) if status in STATUS_CODES else -1
        out += [code, error or 0.0, iterations, limb.ms, *scene.measures(limb)]
    for limb in scene.limbs:
        position, rotation = limb.bound.parent_transform()
        out += [*position, *rotation]
    # The humanoid's skin section: each skin bone's node seen through its rest frame.
    for _, _, _, _, node, rest in getattr(scene, "skin", ()):
        out += [*node.world_position, *rot.multiply(node.world_rotation, rest)]
    return array("d", out).tobytes()


def garbage(size):
    """A buffer of NaNs: a float write() skips shows up."""
    return array("d", [math.nan]) * size


def check(scene, buf):
    written = scene.write(buf)
    want = expected(scene)
    assert written * 8 == len(want)
    assert buf.tobytes()[:len(want)] == want


@pytest.mark.parametrize("name", sorted(CHAIN_SCENES))
def test_every_float_of_every_frame(name):
    scene = make_scene(name)
    size = scene.layout()["size"]
    buf = garbage(size)
    check(scene, buf)  # before the first step: unsolved chains
    other = next(m for m in scene.methods if m != scene.params["method"])
    changes = [{"constraints": False}, {"method": other}, {"constraints": True}, {"animate": False}]
    for frame in range(40):
        scene.step(DT)
        if frame % 10 == 5:
            scene.set_params(**changes[frame // 10])
        check(scene, buf)
        # A second write of the same frame, with the timings changed under it.
        for limb in scene.limbs:
            limb.ms = 0.0
        check(scene, buf)
    # A new buffer (a scene switch back, another view) is whole after one write.
    fresh = scene.allocate()
    fresh[:] = garbage(len(fresh))
    check(scene, fresh)
    assert fresh.tobytes() == buf.tobytes()


def test_tentacle_crowds_and_counts():
    # Past writer.MAX_LOCALS chain nodes the compiled write reads its nodes from a tuple instead of locals.
    for count in (1, 3, writer_module.MAX_LOCALS // 21 + 1):
        scene = make_scene("tentacles", count=count)
        buf = garbage(scene.layout()["size"])
        for _ in range(3):
            scene.step(DT)
            check(scene, buf)


class Little(Scene):
    """One chain hanging from the world (no parent node), with as many extra bones as asked."""

    name = "little"

    def __init__(self, radii=(0.05, 0.04)):
        super().__init__()
        self.skeleton = Skeleton()
        bound = self.skeleton.add_chain("arm", None, [(0.0, 0.0, 0.0), (0.0, 0.5, 0.0), (0.3, 0.8, 0.0)])
        self.add_limb(Limb(bound, list(radii), target="goal"))
        self.add_target(Target("goal", (0.4, 0.4, 0.1)))
        self.extra = 1

    def extra_bones(self):
        tip = self.limbs[0].bound.nodes[-1].world_position
        return [((0.0, 0.0, 0.0), tip, 0.01 * (k + 1), KINDS["link"]) for k in range(self.extra)]


def test_layout_changes_make_a_new_write():
    scene = Little()
    scene.step(DT)
    check(scene, garbage(scene.layout()["size"]))
    # More extra bones: a longer buffer, every record in its new place.
    scene.extra = 3
    check(scene, garbage(scene.layout()["size"]))
    scene.extra = 0
    check(scene, garbage(scene.layout()["size"]))
    # A target and a limb added after writes.
    scene.add_target(Target("flag", (1.0, 2.0, 3.0), orientation=rot.IDENTITY, radius=0.2))
    check(scene, garbage(scene.layout()["size"]))
    bound = scene.skeleton.add_chain("second", "arm.1", [(0.0, 0.0, 0.0), (0.2, 0.0, 0.0)])
    scene.add_limb(Limb(bound, [0.03], [0.07, 0.02], target="flag"))
    scene.step(DT)
    check(scene, garbage(scene.layout()["size"]))


def test_radii_are_fixed_and_exact():
    # Radii are compiled into the write: kept as tuples, and any float, even one without a literal, comes out exact.
    scene = Little(radii=(1.0 / 3.0, math.inf))
    limb = scene.limbs[0]
    assert isinstance(limb.radii, tuple) and isinstance(limb.joint_radii, tuple)
    assert isinstance(limb.bone_tails, tuple)
    scene.step(DT)
    check(scene, garbage(scene.layout()["size"]))
