"""A reader's own URDF for the robot scene: the text checked, and the links its chain runs between.

The page hands over the text of a file the reader dropped or picked
(:meth:`ikcore.rigs.robot.RobotScene.load_urdf`). Unless the reader names them,
the chain runs from the root link (the link that is no joint's child; of
several, the one with the most links below it) down to the leaf link with
the most revolute and continuous joints above it, among the leaves reached
through those joints, prismatic and fixed ones only (a floating or planar
joint makes no chain); of leaves with as many, the one with the fewest
prismatic joints above it, so that a gripper's sliding finger is passed over
for the arm's flange, while a SCARA's quill, on the way to every leaf, stays.
The reader may pick another leaf (:meth:`ikcore.rigs.robot.RobotScene.load_urdf`'s
``tip``): ``leaves`` lists them.
"""

from ..chain import Chain
from ..errors import IKError
from ..urdf.document import parse
from ..urdf.tree import read_tree

#: The longest URDF text the page takes, in characters.
MAX_URDF_CHARS = 1_000_000
HINGES = ("revolute", "continuous")
#: The joints a chain of the scene may run through.
TAKEN = (*HINGES, "prismatic", "fixed")


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
    link reached from the base through hinges, prismatic and fixed joints, with its number of hinges."""
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
    leaves, rank = {}, {}
    for leaf in (link for link in links if link not in parents and link in by_child):
        hinges, sliders, up, taken = 0, 0, leaf, True
        while up in by_child and up != base:
            joint = by_child[up]
            taken = taken and joint.type in TAKEN
            hinges += joint.type in HINGES
            sliders += joint.type == "prismatic"
            up = joint.parent
        if up == base and taken and hinges + sliders:
            leaves[leaf] = hinges
            rank[leaf] = (hinges, -sliders)
    if not leaves:
        raise IKError(f"the URDF has no link below its root link {base!r} reached through revolute, continuous "
                      "or prismatic joints (and fixed ones) only: the robot scene shows serial arms")
    return base, max(rank, key=rank.get), leaves


def urdf_chain(text, base=None, tip=None):
    """The chain of a reader's URDF ``text`` and ``(base, tip, leaves)`` (see :func:`pick_links`; a
    given ``base`` or ``tip`` is used as given). Raises :class:`~ikcore.IKError` for what the scene
    cannot take."""
    data = check_text(text)
    picked_base, picked_tip, leaves = pick_links(data)
    base = picked_base if base is None else base
    tip = picked_tip if tip is None else tip
    return Chain.from_urdf(data, base, tip), (base, tip, leaves)
