"""Bad URDFs: each kind is refused with an IKError that says what and where, never another exception."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

import ikcore


def robot(*joints, links=("a", "b", "c")):
    """A URDF text: ``links`` declared, then ``joints`` (XML of <joint> elements)."""
    return "\n".join(['<robot name="r">', *(f'  <link name="{name}"/>' for name in links), *joints, "</robot>"])


def joint(name="j1", kind="revolute", parent="a", child="b", inner=None):
    inner = ('<origin xyz="0 0 1" rpy="0 0 0"/><axis xyz="0 0 1"/>'
             '<limit lower="-1" upper="1" effort="1" velocity="1"/>') if inner is None else inner
    head = f'<joint name="{name}" type="{kind}">' if name is not None else f'<joint type="{kind}">'
    return f'  {head}<parent link="{parent}"/><child link="{child}"/>{inner}</joint>'


LIMIT = '<limit lower="-1" upper="1" effort="1" velocity="1"/>'
GOOD = robot(joint(), joint("j2", parent="b", child="c"))

# (id, source, base, tip, what the message says)
CASES = [
    ("not-xml-not-a-file", "no such robot", "a", "c", "cannot read URDF file"),
    ("missing-file", "/nonexistent/robot.urdf", "a", "c", "cannot read URDF file"),
    ("empty", "", "a", "c", "XML text or the path"),
    ("not-a-string", 42, "a", "c", "XML text or the path"),
    ("malformed", '<robot name="r">\n<link name="a">\n</robot>', "a", "c", "line 3"),
    ("bad-bytes", b'<robot name="\xff\xfe"/>', "a", "c", "not well-formed"),
    ("not-a-robot", '<model name="m"/>', "a", "c", "not <robot>"),
    ("xacro-element", '<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">'
     '<xacro:property name="x" value="1"/></robot>', "a", "c", "xacro"),
    ("xacro-expression", robot(joint(inner='<origin xyz="0 0 ${l}"/><axis xyz="0 0 1"/>' + LIMIT),
                               joint("j2", parent="b", child="c")), "a", "c", "xacro is not supported"),
    ("link-without-name", robot(links=("a", "b", "c")).replace('<link name="c"/>', "<link/>"), "a", "c",
     "no 'name' attribute"),
    ("duplicate-link", robot(links=("a", "b", "b")), "a", "b", "declared twice"),
    ("joint-without-name", robot(joint(name=None)), "a", "b", "no 'name' attribute"),
    ("joint-without-type", robot('  <joint name="j"><parent link="a"/><child link="b"/></joint>'), "a", "b",
     "no 'type' attribute"),
    ("unknown-type", robot(joint(kind="hinge")), "a", "b", "not a URDF joint type"),
    ("no-parent", robot('  <joint name="j" type="fixed"><child link="b"/></joint>'), "a", "b", "no <parent>"),
    ("no-child", robot('  <joint name="j" type="fixed"><parent link="a"/></joint>'), "a", "b", "no <child>"),
    ("parent-without-link", robot('  <joint name="j" type="fixed"><parent/><child link="b"/></joint>'), "a", "b",
     "no 'link' attribute"),
    ("undeclared-parent", robot(joint(parent="x")), "a", "b", "not declared"),
    ("undeclared-child", robot(joint(child="x")), "a", "b", "not declared"),
    ("self-joint", robot(joint(parent="a", child="a")), "a", "b", "to itself"),
    ("two-parents", robot(joint(), joint("j2", parent="a", child="b")), "a", "b", "loop"),
    ("cycle", robot(joint(parent="a", child="b"), joint("j2", parent="b", child="c"),
                    joint("j3", parent="c", child="a")), "a", "c", "loop"),
    ("duplicate-joint", robot(joint(), joint(parent="b", child="c")), "a", "c", "declared before"),
    ("nan-origin", robot(joint(inner='<origin xyz="0 nan 1"/><axis xyz="0 0 1"/>' + LIMIT)), "a", "b", "finite"),
    ("inf-rpy", robot(joint(inner='<origin rpy="0 inf 0"/><axis xyz="0 0 1"/>' + LIMIT)), "a", "b", "finite"),
    ("two-numbers", robot(joint(inner='<origin xyz="0 1"/><axis xyz="0 0 1"/>' + LIMIT)), "a", "b", "3 finite"),
    ("words", robot(joint(inner='<origin xyz="a b c"/><axis xyz="0 0 1"/>' + LIMIT)), "a", "b", "3 finite"),
    ("zero-axis", robot(joint(inner='<origin xyz="0 0 1"/><axis xyz="0 0 0"/>' + LIMIT)), "a", "b", "zero axis"),
    ("nan-axis", robot(joint(inner='<axis xyz="0 NaN 1"/>' + LIMIT)), "a", "b", "finite"),
    ("revolute-without-limit", robot(joint(inner='<axis xyz="0 0 1"/>')), "a", "b", "no <limit>"),
    ("limits-reversed", robot(joint(inner='<limit lower="1" upper="-1" effort="1" velocity="1"/>')), "a", "b",
     "above upper"),
    ("nan-limit", robot(joint(inner='<limit lower="nan" upper="1" effort="1" velocity="1"/>')), "a", "b", "finite"),
    ("two-origins", robot(joint(inner='<origin xyz="0 0 1"/><origin xyz="0 0 2"/>' + LIMIT)), "a", "b",
     "2 <origin> elements"),
    ("mimic", robot(joint(), joint("j2", parent="b", child="c", inner=LIMIT + '<mimic joint="j1"/>')), "a", "c",
     "mimic"),
    ("prismatic-without-limit", robot(joint(kind="prismatic", inner='<axis xyz="0 0 1"/>')), "a", "b", "no <limit>"),
    ("floating", robot(joint(kind="floating", inner="")), "a", "b", "floating"),
    ("planar", robot(joint(kind="planar", inner="")), "a", "b", "planar"),
    ("missing-base", GOOD, "x", "c", "no link 'x'"),
    ("missing-tip", GOOD, "a", "x", "no link 'x'"),
    ("base-not-a-string", GOOD, None, "c", "must be a link name"),
    ("tip-not-under-base", robot(joint(), joint("j2", parent="a", child="c")), "b", "c", "not under base"),
    ("tip-above-base", GOOD, "c", "a", "above it"),
    ("same-links", GOOD, "b", "b", "same link"),
    ("fixed-only", robot(joint(kind="fixed"), joint("j2", kind="fixed", parent="b", child="c")), "a", "c",
     "fixed joints only"),
    ("no-extent", robot(joint(kind="continuous", inner="")), "a", "b", "no extent"),
    ("too-large", robot(joint(inner='<origin xyz="1e200 0 0"/>' + LIMIT), joint("j2", parent="b", child="c")),
     "a", "c", "beyond"),
]


@pytest.mark.parametrize("source, base, tip, says", [case[1:] for case in CASES], ids=[case[0] for case in CASES])
def test_each_bad_urdf_is_refused_with_a_message(source, base, tip, says):
    with pytest.raises(ikcore.IKError) as caught:
        ikcore.Chain.from_urdf(source, base, tip)
    assert says in str(caught.value)


def test_the_cases_are_many_and_the_good_one_loads():
    assert len({case[0] for case in CASES}) >= 30
    chain = ikcore.Chain.from_urdf(GOOD, "a", "c")
    assert chain.joint_names == ("j1", "j2")


def test_an_error_names_the_line_of_the_element():
    text = robot(joint(), joint("j2", parent="b", child="c", inner='<origin xyz="0 0 nan"/>' + LIMIT))
    with pytest.raises(ikcore.IKError, match=r"joint 'j2' <joint> \(line 6\)"):
        ikcore.Chain.from_urdf(text, "a", "c")


@pytest.mark.parametrize("tool, says", [
    ([[1, 0, 0], [0, 1, 0], [0, 0, 1]], "4x4"),
    ([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 1, 1]], "last row"),
    ([[2, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]], "orthonormal"),
    ([[-1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]], "reflection"),
    (((0, 0, 0), (0, 0, 0, 0)), "non-zero quaternion"),
    (((0, 0, math.nan), (1, 0, 0, 0)), "finite"),
])
def test_a_bad_tool_is_refused(tool, says):
    with pytest.raises(ikcore.IKError, match=says):
        ikcore.Chain.from_urdf(GOOD, "a", "c", tool=tool)


# Random damage to a good file: whatever it becomes, it loads or is refused with an IKError.
PIECES = ["<", ">", "/", '"', "=", " ", "nan", "1e999", "-", "0", "joint", "link", "robot", "revolute", "prismatic",
          "&", "<!--", "]]>", "xacro:", "${", "\n", "mimic", "name", "a", "c"]


@given(st.lists(st.tuples(st.integers(0, len(GOOD)), st.integers(0, 4), st.sampled_from(PIECES)), min_size=1,
                max_size=4))
def test_damaged_urdfs_load_or_raise_ikerror(edits):
    text = GOOD
    for at, cut, piece in edits:
        at = min(at, len(text))
        text = text[:at] + piece + text[at + cut:]
    try:
        chain = ikcore.Chain.from_urdf(text, "a", "c")
    except ikcore.IKError:
        return
    assert all(math.isfinite(c) for point in chain.points for c in point)
