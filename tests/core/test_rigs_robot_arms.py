"""The robot scene's arms: the shipped ones by the ``arm`` parameter, and a reader's URDF file."""

import math

import pytest

from ikcore import IKError
from ikcore.rigs import make_scene, urdf_arm
from ikcore.rigs.robot import y_up
from ikcore.rigs.urdf_arms import urdf_text
from ikcore.rigs.urdf_file import MAX_URDF_CHARS

#: A four-joint arm: pan, lift, elbow, wrist, and a tool link fixed beyond the wrist.
SMALL_ARM = """<robot name="small">
  <link name="base"/> <link name="turret"/> <link name="upper"/> <link name="fore"/> <link name="hand"/>
  <link name="tool"/>
  <joint name="pan" type="revolute"> <parent link="base"/> <child link="turret"/>
    <axis xyz="0 0 1"/> <limit lower="-2.5" upper="2.5" effort="1" velocity="1"/> </joint>
  <joint name="lift" type="revolute"> <parent link="turret"/> <child link="upper"/>
    <origin xyz="0 0 0.1"/> <axis xyz="0 1 0"/> <limit lower="-2" upper="2" effort="1" velocity="1"/> </joint>
  <joint name="elbow" type="revolute"> <parent link="upper"/> <child link="fore"/>
    <origin xyz="0 0 0.4"/> <axis xyz="0 1 0"/> <limit lower="-2.5" upper="2.5" effort="1" velocity="1"/> </joint>
  <joint name="wrist" type="continuous"> <parent link="fore"/> <child link="hand"/>
    <origin xyz="0 0 0.3"/> <axis xyz="0 1 0"/> </joint>
  <joint name="tool_mount" type="fixed"> <parent link="hand"/> <child link="tool"/>
    <origin xyz="0 0 0.1"/> </joint>
</robot>
"""


def run(scene, frames=90):
    buf = scene.allocate()
    for _ in range(frames):
        scene.step(1 / 60)
        assert scene.write(buf) == len(buf) == scene.layout()["size"]
    return buf


def test_the_default_arm_is_the_panda_and_its_layout_unchanged():
    scene = make_scene("robot")
    layout = scene.layout()
    assert scene.params["arm"] == "panda" and layout["revision"] == 0
    assert layout["chains"][0]["name"] == "panda" and len(layout["chains"][0]["constraints"]) == 7
    assert layout["param_specs"]["arm"] == {"kind": "choice", "choices": ["panda", "ur5_like", "scara_like"]}


def test_the_ur5_like_arm_is_the_shipped_urdf_turned_y_up_and_reaches_its_target():
    scene = make_scene("robot")
    scene.set_params(arm="ur5_like")
    layout = scene.layout()
    assert layout["revision"] == 1 and layout["chains"][0]["name"] == "ur5_like"
    assert len(layout["chains"][0]["constraints"]) == 6
    # The drawn rest points are the URDF's, (x, y, z) -> (x, z, -y).
    urdf = urdf_arm("ur5_like")
    rest = scene.arm.bound.chain.points
    for p, q in zip(rest, urdf.points):
        assert p == pytest.approx((q[0], q[2], -q[1]), abs=1e-12)
    run(scene)
    chain = scene.state()["chains"][0]
    assert chain["status"] == "converged" and scene.state()["orientation_error"] < 1e-2
    # And back: the Panda again, one more revision.
    scene.set_params(arm="panda")
    assert scene.layout()["revision"] == 2 and scene.layout()["chains"][0]["name"] == "panda"


def test_a_turned_chain_keeps_each_hinges_angle():
    urdf = urdf_arm("ur5_like")
    turned = y_up(urdf)
    values = [0.3, -1.0, 1.2, -0.4, 0.7, 0.2]
    for p, q in zip(turned.forward(turned.rotations_of(values)), urdf.forward(urdf.rotations_of(values))):
        assert p == pytest.approx((q[0], q[2], -q[1]), abs=1e-12)


def test_an_unknown_arm_is_refused_and_changes_nothing():
    scene = make_scene("robot")
    for arm in ("file", "UR5", "scara"):
        with pytest.raises(IKError, match="arm"):
            scene.set_params(arm=arm)
    assert scene.params["arm"] == "panda" and scene.layout()["revision"] == 0


def test_a_urdf_file_builds_its_chain_from_the_root_to_the_deepest_leaf():
    scene = make_scene("robot")
    scene.load_urdf(SMALL_ARM, "two.urdf")
    layout = scene.layout()
    assert scene.params["arm"] == "file" and layout["revision"] == 1
    assert len(layout["chains"][0]["constraints"]) == 4
    assert "file" in layout["param_specs"]["arm"]["choices"]
    urdf = scene.state()["urdf"]
    assert urdf["name"] == "two.urdf" and (urdf["base"], urdf["tip"]) == ("base", "tool")
    assert urdf["joints"] == ["pan", "lift", "elbow", "wrist"]
    buf = run(scene)
    assert all(math.isfinite(v) for v in buf)
    assert scene.state()["chains"][0]["status"] == "converged"
    # A shipped arm again: the file is forgotten.
    scene.set_params(arm="ur5_like")
    assert scene.state()["urdf"] is None and "file" not in scene.layout()["param_specs"]["arm"]["choices"]


def test_a_shipped_urdf_loads_as_a_file_too():
    scene = make_scene("robot")
    scene.load_urdf(urdf_text("panda"), "panda.urdf")
    assert scene.state()["urdf"]["base"] == "panda_link0" and scene.arm.bound.chain.size == 7
    run(scene, 30)


@pytest.mark.parametrize("text, message", [
    ("<robot name='r'><link name='a'/>", "not well-formed"),
    ("   ", "empty"),
    ("not xml at all", "not well-formed"),
    (SMALL_ARM.replace('type="continuous"', 'type="planar"'), "serial arms"),
    (SMALL_ARM.replace('type="continuous"', 'type="spinning"'), "spinning"),
    ("<robot name='r'><link name='a'/></robot>", "no link below"),
    ("<" + "x" * MAX_URDF_CHARS + ">", "at most 1,000,000"),
])
def test_a_file_the_scene_cannot_take_is_refused_and_the_scene_stays(text, message):
    scene = make_scene("robot")
    scene.set_params(arm="ur5_like")
    run(scene, 5)
    before = (scene.layout(), scene.params["arm"], scene.arm, scene.state()["urdf"])
    with pytest.raises(IKError, match=message):
        scene.load_urdf(text, "bad.urdf")
    assert (scene.layout(), scene.params["arm"], scene.arm, scene.state()["urdf"]) == before
    run(scene, 5)


def test_a_text_that_is_a_path_is_never_opened(tmp_path):
    path = tmp_path / "arm.urdf"
    path.write_text(SMALL_ARM)
    with pytest.raises(IKError, match="not well-formed"):
        make_scene("robot").load_urdf(str(path))


def test_the_reader_may_name_the_links():
    scene = make_scene("robot")
    scene.load_urdf(SMALL_ARM, "two.urdf", base="base", tip="fore")
    assert scene.arm.bound.chain.size == 3 and scene.state()["urdf"]["tip"] == "fore"
    with pytest.raises(IKError, match="nowhere"):
        scene.load_urdf(SMALL_ARM, "two.urdf", tip="nowhere")
    assert scene.arm.bound.chain.size == 3


def test_the_scara_like_arm_slides_its_quill_within_its_stroke():
    """The SCARA: its quill a Slider turned Y up, each frame's slide within [0, 0.21] m, the hand's target met,
    the objectives (which take no slider) left out and the state saying so."""
    scene = make_scene("robot")
    scene.set_params(arm="scara_like")
    layout = scene.layout()
    assert layout["chains"][0]["name"] == "scara_like"
    quill = layout["chains"][0]["constraints"][2]
    assert quill["type"] == "slider" and (quill["lower"], quill["upper"]) == (0.0, 0.21)
    assert quill["axis"] == pytest.approx([0.0, -1.0, 0.0], abs=1e-12)  # down, Y up
    assert "secondary" not in scene.method_options("dls") and scene.state()["objectives_apply"] is False
    assert scene.targets["target"].orientation is None  # four joints: a point target
    # Their parameters are kept, out of the panel.
    specs = layout["param_specs"]
    assert all(specs[n]["panel"] is False and specs[n + "_weight"]["panel"] is False
               for n in ("avoid_obstacle", "away_from_limits", "toward_rest"))
    slides = []
    buf = scene.allocate()
    for _ in range(240):
        scene.step(1 / 60)
        scene.write(buf)
        assert scene.state()["chains"][0]["status"] == "converged"
        slides.append(scene.arm.bound.slides[2])
    assert all(0.0 <= s <= 0.21 for s in slides)
    assert max(slides) - min(slides) > 0.02  # the quill follows the hand up and down
    # Back to the Panda: the objectives again.
    scene.set_params(arm="panda")
    assert scene.state()["objectives_apply"] is True and "secondary" in scene.method_options("dls")
    assert "panel" not in scene.layout()["param_specs"]["avoid_obstacle"]


def test_the_stroke_the_page_draws_holds_the_quills_end():
    """What the overlay computes from the buffer: joint record 2, turned by its limits' frame, plus
    offset + s axis, is joint record 3, for the slide s of the frame; the stroke's ends bound it."""
    from ikcore.rotation import rotate
    scene = make_scene("robot")
    scene.set_params(arm="scara_like")
    layout = scene.layout()
    joints = layout["sections"]["joints"]
    quill = layout["chains"][0]["constraints"][2]
    buf = scene.allocate()
    for _ in range(60):
        scene.step(1 / 60)
        scene.write(buf)
        o, n = joints["offset"] + 2 * joints["stride"], joints["offset"] + 3 * joints["stride"]
        p2, p3, q = buf[o:o + 3], buf[n:n + 3], tuple(buf[o + 4:o + 8])
        s = scene.arm.bound.slides[2]
        along = rotate(q, [c + s * a for c, a in zip(quill["offset"], quill["axis"])])
        assert math.dist([a + b for a, b in zip(p2, along)], p3) <= 1e-9


def test_a_dropped_urdf_with_a_prismatic_joint_loads_and_a_sliding_finger_is_passed_over():
    scene = make_scene("robot")
    scene.load_urdf(urdf_text("scara_like"), "scara.urdf")
    assert scene.state()["urdf"]["joints"] == ["shoulder_joint", "elbow_joint", "quill_joint", "wrist_joint"]
    assert scene.arm.bound.chain.plan.sliders == (2,)
    run(scene, 60)
    assert scene.state()["chains"][0]["status"] == "converged"
    finger = SMALL_ARM.replace("</robot>", """<link name="finger"/>
  <joint name="finger_joint" type="prismatic"> <parent link="hand"/> <child link="finger"/>
    <origin xyz="0 0 0.05"/> <axis xyz="1 0 0"/> <limit lower="0" upper="0.04" effort="1" velocity="1"/> </joint>
</robot>""")
    scene.load_urdf(finger, "gripper.urdf")
    urdf = scene.state()["urdf"]
    assert urdf["tip"] == "tool" and set(urdf["leaves"]) == {"tool", "finger"}
    scene.load_urdf(finger, "gripper.urdf", tip="finger")
    assert scene.arm.bound.chain.plan.sliders == (4,)
    run(scene, 30)


def test_the_reader_may_pick_another_tip_link_of_the_file_shown():
    finger = SMALL_ARM.replace("</robot>", """<link name="finger"/>
  <joint name="finger_joint" type="prismatic"> <parent link="hand"/> <child link="finger"/>
    <origin xyz="0 0 0.05"/> <axis xyz="1 0 0"/> <limit lower="0" upper="0.04" effort="1" velocity="1"/> </joint>
</robot>""")
    scene = make_scene("robot")
    with pytest.raises(IKError, match="no URDF file is shown"):
        scene.set_urdf_tip("finger")
    scene.load_urdf(finger, "gripper.urdf")
    revision = scene.layout()["revision"]
    scene.set_urdf_tip("finger")
    assert scene.state()["urdf"]["tip"] == "finger" and scene.state()["urdf"]["name"] == "gripper.urdf"
    assert scene.layout()["revision"] == revision + 1 and scene.arm.bound.chain.size == 5
    run(scene, 30)
    scene.set_urdf_tip("fore")  # any link below the base
    assert scene.arm.bound.chain.size == 3
    for tip, says in (("nowhere", "nowhere"), (None, "link.s name"), ("base", "no joint between")):
        with pytest.raises(IKError, match=says):
            scene.set_urdf_tip(tip)
        assert scene.state()["urdf"]["tip"] == "fore" and scene.arm.bound.chain.size == 3
    # A shipped arm: the file is forgotten, and so is its tip.
    scene.set_params(arm="panda")
    with pytest.raises(IKError, match="no URDF file is shown"):
        scene.set_urdf_tip("finger")
