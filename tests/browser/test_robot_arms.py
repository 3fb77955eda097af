"""The robot scene's arms in the page: a link to the shipped UR5-like arm, a reader's URDF file picked with
the panel's file input or dropped on the page (drawn, its chain the file's joints), a file the scene cannot
take refused in the notice with the arm before left in place, and links that never carry a file. (The
SCARA-like arm and files with prismatic joints: test_robot_scara.py.)"""

import pytest

from tests.core.test_rigs_robot_arms import SMALL_ARM


def changed_pixels(a, b):
    """How many pixels differ clearly between two images of the canvas."""
    return sum(1 for p, q in zip(a.get_flattened_data(), b.get_flattened_data()) if sum(abs(x - y) for x, y in zip(p, q)) > 60)


def image(demo):
    """The canvas without the notice floating over it."""
    demo.page.evaluate("document.getElementById('notice').hidden = true")
    return demo.canvas_image()


def chain_size(page):
    """The number of joints of the arm drawn (its chain in the page's layout, through the pose)."""
    return len(page.evaluate("ikDemo.pose()")["chains"][0]["rotations"])


def open_link(demo, site_server, fragment):
    demo.open(f"{site_server}#{fragment}")
    demo.wait_ready()
    demo.wait_frames(3)
    return demo.page


def test_a_link_to_the_ur5_like_arm_shows_it(demo, site_server):
    page = open_link(demo, site_server, "scene=robot&arm=ur5_like&animate=0")
    state = page.evaluate("ikDemo.state()")
    assert state["scene"] == "robot" and state["params"]["arm"] == "ur5_like"
    assert state["chains"][0]["name"] == "ur5_like" and chain_size(page) == 6
    assert page.evaluate("ikDemo.describe().param_specs.arm.choices") == ["panda", "ur5_like", "scara_like"]
    # Every joint of it turns full circle: no limit margin to read.
    assert page.text_content("#hud-measures").endswith("every joint turns full circle")
    ur5 = image(demo)
    # The panel's choice rebuilds the drawing without a reload: the Panda's seven joints, other pixels.
    page.evaluate("ikDemo.set({arm: 'panda'})")
    demo.wait_frames(3)
    assert page.evaluate("ikDemo.state()")["chains"][0]["name"] == "panda" and chain_size(page) == 7
    assert changed_pixels(ur5, image(demo)) > 2000
    assert "arm=panda" in page.evaluate("ikDemo.link()")
    assert "limit margin" in page.text_content("#hud-measures")
    assert not demo.problems()


def pick(page, name, text):
    page.set_input_files("#urdf-file", files=[{"name": name, "mimeType": "text/xml", "buffer": text.encode()}])


def notice(demo, fragment):
    return demo.wait_until(f"(() => {{ const n = document.getElementById('notice');"
                           f" return !n.hidden && n.textContent.includes({fragment!r}) && n.textContent; }})()",
                           timeout=30_000)


def test_a_picked_urdf_file_is_drawn_and_a_bad_one_refused_with_the_arm_before_kept(demo, site_server):
    page = open_link(demo, site_server, "scene=robot&arm=ur5_like&animate=0")
    before = image(demo)
    pick(page, "small.urdf", SMALL_ARM)
    notice(demo, "small.urdf: 4 joints")
    demo.wait_frames(3)
    described = page.evaluate("ikDemo.describe()")
    assert described["params"]["arm"] == "file" and described["urdf"]["tip"] == "tool"
    assert described["urdf"]["joints"] == ["pan", "lift", "elbow", "wrist"] and chain_size(page) == 4
    assert page.evaluate("ikDemo.state()")["chains"][0]["status"] == "converged"
    assert changed_pixels(before, image(demo)) > 2000
    assert "Arm from the file small.urdf" in page.text_content("#urdf-note")
    # The link does not carry the file: no arm=file, and it opens the default arm.
    link = page.evaluate("ikDemo.link()")
    assert "arm=" not in link and "scene=robot" in link

    # A bad file: refused in the notice, in the parser's words; the arm before stays.
    effector = page.evaluate("ikDemo.state()")["chains"][0]["effector"]
    pick(page, "broken.urdf", SMALL_ARM.replace("</robot>", ""))
    text = notice(demo, "broken.urdf was not loaded")
    assert "not well-formed XML" in text and "line" in text
    demo.wait_frames(3)
    assert page.evaluate("ikDemo.describe().urdf.name") == "small.urdf" and chain_size(page) == 4
    assert page.evaluate("ikDemo.state()")["chains"][0]["effector"] == pytest.approx(effector, abs=1e-6)
    # A planar joint on the only way to an end: no serial chain, refused, saying why.
    pick(page, "planar.urdf", SMALL_ARM.replace('"wrist" type="continuous"', '"wrist" type="planar"'))
    assert "serial arms" in notice(demo, "planar.urdf was not loaded")
    assert chain_size(page) == 4
    # Too large: refused before Python sees it.
    pick(page, "huge.urdf", "<robot>" + " " * 1_000_001 + "</robot>")
    assert "at most 1,000,000 characters" in notice(demo, "huge.urdf was not loaded")
    assert chain_size(page) == 4
    assert not demo.problems()


def test_a_file_dropped_on_another_scene_opens_the_robot_scene_and_a_bad_one_leaves_the_scene(demo, site_server):
    page = open_link(demo, site_server, "scene=arm")
    drop = """([name, text]) => {
        const data = new DataTransfer();
        data.items.add(new File([text], name, { type: "text/xml" }));
        document.getElementById('viewport').dispatchEvent(
          new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
    }"""
    page.evaluate(drop, ["bad.urdf", "<robot name='r'><link name='a'/></robot>"])
    assert "no link below its root link 'a'" in notice(demo, "bad.urdf was not loaded")
    assert page.evaluate("ikDemo.state()")["scene"] == "arm"
    page.evaluate(drop, ["small.urdf", SMALL_ARM])
    notice(demo, "small.urdf: 4 joints")
    assert page.evaluate("ikDemo.state()")["scene"] == "robot" and chain_size(page) == 4
    assert not demo.problems()
