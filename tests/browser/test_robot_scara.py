"""The SCARA-like arm in the page: offered by the robot scene's arm choice and by a link, its quill sliding
within its stroke as the hand's target moves, the stroke drawn with the limits, the objectives said to be off
(the obstacle not drawn, their settings out of the panel);
a dropped URDF with a prismatic joint shown, and another tip link of a file picked in the panel and by
ikDemo.setUrdfTip."""

import pytest

from ikcore.rigs.urdf_arms import urdf_text
from tests.browser.test_robot_arms import chain_size, changed_pixels, image, notice, open_link, pick
from tests.core.test_rigs_robot_arms import SMALL_ARM

#: The small arm with a gripper finger sliding off its hand: a second end, through a prismatic joint.
GRIPPER = SMALL_ARM.replace("</robot>", """<link name="finger"/>
  <joint name="finger_joint" type="prismatic"> <parent link="hand"/> <child link="finger"/>
    <origin xyz="0 0 0.05"/> <axis xyz="1 0 0"/> <limit lower="0" upper="0.04" effort="1" velocity="1"/> </joint>
</robot>""")


def green(picture):
    """How many pixels are the stroke's green (0x06d6a0, drawn about (100, 190, 170) over the scene) rather than
    the scene's greys, blues, whites and the hinge arcs' yellow."""
    return sum(1 for r, g, b in picture.get_flattened_data() if g > 150 and g > r + 60 and g > b + 10)


def slide(page):
    """The quill's displacement (metres) in the page's pose."""
    return page.evaluate("ikDemo.pose()")["chains"][0]["slides"][2]


def test_the_scara_slides_its_quill_within_its_stroke_and_draws_it(demo, site_server):
    page = open_link(demo, site_server, "scene=robot&arm=scara_like&animate=0")
    described = page.evaluate("ikDemo.describe()")
    assert described["params"]["arm"] == "scara_like" and "scara_like" in described["param_specs"]["arm"]["choices"]
    assert chain_size(page) == 4
    quill = page.evaluate("ikDemo.pose()")["chains"][0]["joints"][2]
    assert quill["type"] == "slider" and (quill["lower"], quill["upper"]) == (0.0, 0.21)
    # Four joints: the hand's target is a point, the gizmo moves it (the tool point's target).
    assert {t["name"]: t["oriented"] for t in described["targets"]}["target"] is False
    page.evaluate("ikDemo.select('target')")
    assert demo.wait_frames(1)["selected"] == "target"
    page.evaluate("ikDemo.deselect()")
    hud = page.text_content("#hud-measures")
    assert "objectives off" in hud and "limit margin" in hud, hud
    assert "the quill slides within its stroke" in page.text_content("#hint-text")
    # Nothing avoids the obstacle while the objectives are off: it is neither drawn nor picked, and their
    # settings are out of the panel (kept all the same: links carry them).
    assert demo.wait_frames(1)["view"]["obstacleShown"] is False
    panel = page.text_content("#gui")
    assert "avoid obstacle" not in panel and "rest weight" not in panel and "joint limits" in panel
    page.mouse.click(*page.evaluate("ikDemo.screenPosition('obstacle')"))
    assert demo.wait_frames(1)["selected"] != "obstacle"

    # The hand's target lowered, then raised: the quill slides down, then up, within its stroke, the target met.
    state = page.evaluate("ikDemo.state()")
    hand = state["targets"]["target"]
    slides = []
    for dy in (-0.04, 0.02, 0.08):
        page.evaluate("p => ikDemo.setTarget('target', p)", [hand[0], hand[1] + dy, hand[2]])
        page.evaluate("ikDemo.advance(30, 1 / 60, 0)")
        after = demo.wait_frames(2)
        assert after["chains"][0]["status"] == "converged", after["chains"][0]
        slides.append(slide(page))
    assert all(0.0 <= s <= 0.21 for s in slides)
    # The quill slides down as far as the hand goes down (Y up).
    assert slides[0] - slides[1] == pytest.approx(0.06, abs=1e-3) and slides[1] - slides[2] == pytest.approx(0.06, abs=1e-3)

    # The stroke: green lines drawn with the limits, none without.
    page.evaluate("ikDemo.showLimits(false)")
    demo.wait_frames(2)
    off = image(demo)
    page.evaluate("ikDemo.showLimits(true)")
    demo.wait_frames(2)
    on = image(demo)
    assert green(off) < 20 and green(on) > 40, (green(off), green(on))
    # Back to the Panda from the panel's choice: its objectives apply again.
    page.evaluate("ikDemo.set({arm: 'panda'})")
    demo.wait_frames(3)
    assert chain_size(page) == 7 and "objectives off" not in page.text_content("#hud-measures")
    assert demo.wait_frames(1)["view"]["obstacleShown"] is True
    assert "avoid obstacle" in page.text_content("#gui") and "rest weight" in page.text_content("#gui")
    assert not demo.problems()


def test_a_dropped_urdf_with_a_prismatic_joint_is_shown_and_another_tip_picked(demo, site_server):
    page = open_link(demo, site_server, "scene=robot&animate=0")
    before = image(demo)
    pick(page, "gripper.urdf", GRIPPER)
    text = notice(demo, "gripper.urdf: 4 joints")
    assert "chosen of 2 ends" in text and "links do not carry it" in text
    demo.wait_frames(3)
    urdf = page.evaluate("ikDemo.describe().urdf")
    assert urdf["tip"] == "tool" and set(urdf["leaves"]) == {"tool", "finger"}
    assert changed_pixels(before, image(demo)) > 2000
    note = page.text_content("#urdf-note")
    assert "tip link tool was chosen of 2 ends" in note and "not put in links" in note
    # The panel's tip link: the finger, through its prismatic joint.
    options = page.evaluate("[...document.querySelectorAll('#urdf-tip select option')].map((o) => o.textContent)")
    assert set(options) == {"tool", "finger"}
    # As a reader's choice in the panel's select (lil-gui draws it under its own display).
    page.evaluate("""() => { const select = document.querySelector('#urdf-tip select');
        select.value = 'finger'; select.dispatchEvent(new Event('change')); }""")
    demo.wait_frames(3)
    assert page.evaluate("ikDemo.describe().urdf.tip") == "finger" and chain_size(page) == 5
    assert page.evaluate("ikDemo.pose()")["chains"][0]["joints"][4]["type"] == "slider"
    page.evaluate("ikDemo.advance(30, 1 / 60, 0)")
    assert demo.wait_frames(2)["chains"][0]["status"] == "converged"
    # By the API: back to the tool; a link that is none refused, the arm kept.
    page.evaluate("ikDemo.setUrdfTip('tool')")
    demo.wait_frames(2)
    assert chain_size(page) == 4 and page.evaluate("document.querySelector('#urdf-tip select').value") == "tool"
    with pytest.raises(Exception, match="nowhere"):
        page.evaluate("ikDemo.setUrdfTip('nowhere')")
    assert chain_size(page) == 4
    # The SCARA's own file, dropped: its quill slides in the page.
    pick(page, "scara.urdf", urdf_text("scara_like"))
    notice(demo, "scara.urdf: 4 joints")
    demo.wait_frames(3)
    assert page.evaluate("ikDemo.pose()")["chains"][0]["joints"][2]["type"] == "slider"
    page.evaluate("ikDemo.advance(30, 1 / 60, 0)")
    assert demo.wait_frames(2)["chains"][0]["status"] == "converged"
    assert not demo.problems()
