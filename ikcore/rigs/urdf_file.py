"""A reader's own URDF for the robot scene: the text checked, and the links its chain runs between.

The page hands over the text of a file the reader dropped or picked
(:meth:`ikcore.rigs.robot.RobotScene.load_urdf`). Unless the reader names them,
the chain runs from the root link (the link that is no joint's child; of
several, the one with the most links below it) down to the leaf link with
the most revolute and continuous joints above it, among the leaves reached
through those joints and fixed ones only: the robot scene draws and solves
hinges, and a skeleton's chains take no sliding joint yet, so a prismatic
gripper finger is passed over for the arm's flange.
"""

from ..chain import Chain
from ..errors import IKError
from ..urdf.document import parse
from ..urdf.tree import read_tree

#: The longest URDF text the page takes, in characters.
MAX_URDF_CHARS = 1_000_000
HINGES = ("revolute", "continuous")


def check_text(text):
    """``text`` as UTF-8 bytes, refused unless a string of at most :data:`MAX_URDF_CHARS`
    characters (bytes, so that no text is ever taken for a file's path)."""
    if not isinstance(text, str):
        raise IKError(f"a URDF file's text must be a string, got {type(text).__name__}")
    if len(text) > MAX_URDF_CHARS:
        raise IKError(f"the URDF file is {len(text):,} characters long; the page takes files of at most "
                      f"{MAX_URDF_CHARS:,} characters")
    if not text.strip():
        raise IKError("the URDF file is empty")
    return text.encode("utf-8")


def pick_links(data):
    """``(base, tip, leaves)`` for the URDF ``data`` (see the module docstring); ``leaves``: every leaf
    link reached from the base through hinges and fixed joints, with its number of hinges."""
    links, by_child = read_tree(parse(data))
    roots = [link for link in links if link not in by_child]
    below = {link: 0 for link in links}
    for link in by_child:
        up = link
        while up in by_child:
            up = by_child[up].parent
            below[up] += 1
    base = max(roots, key=lambda link: below[link])
    parents = {joint.parent for joint in by_child.values()}
    leaves = {}
    for leaf in (link for link in links if link not in parents and link in by_child):
        hinges, up, taken = 0, leaf, True
        while up in by_child and up != base:
            joint = by_child[up]
            taken = taken and joint.type in (*HINGES, "fixed")
            hinges += joint.type in HINGES
            up = joint.parent
        if up == base and taken and hinges:
            leaves[leaf] = hinges
    if not leaves:
        raise IKError(f"the URDF has no link below its root link {base!r} reached through revolute or "
                      "continuous joints only: the robot scene shows hinged arms (a prismatic joint cannot "
                      "be shown there yet)")
    return base, max(leaves, key=leaves.get), leaves


def urdf_chain(text, base=None, tip=None):
    """The chain of a reader's URDF ``text`` and ``(base, tip, leaves)`` (see :func:`pick_links`; a
    given ``base`` or ``tip`` is used as given). Raises :class:`~ikcore.IKError` for what the scene
    cannot take."""
    data = check_text(text)
    picked_base, picked_tip, leaves = pick_links(data)
    base = picked_base if base is None else base
    tip = picked_tip if tip is None else tip
    chain = Chain.from_urdf(data, base, tip)
    if chain.plan.sliders:
        raise IKError(f"the chain from {base!r} to {tip!r} has a prismatic joint "
                      f"({chain.joint_names[chain.plan.sliders[0]]!r}): the robot scene cannot show a sliding "
                      "joint yet")
    return chain, (base, tip, leaves)
