"""The arms ikcore ships as URDF files (``ikcore/data``), written for the project from their
published kinematics: a Panda-like 7-joint arm, a UR5-like 6-joint industrial arm and a
SCARA-like arm whose quill slides (a prismatic joint: a :class:`~ikcore.Slider`, which the
Jacobian methods move).

Each loads with :meth:`ikcore.Chain.from_urdf` in its own base frame, Z up, in
metres; :data:`URDF_ARMS` names the file and the links of each.
"""

from importlib import resources

from ..chain import Chain
from ..errors import IKError
from ..hints import Frame

#: Per arm: its file under ``ikcore/data``, its base link and its flange link.
URDF_ARMS = {
    "panda": ("panda.urdf", "panda_link0", "panda_link8"),
    "ur5_like": ("ur5_like.urdf", "base_link", "flange"),
    "scara_like": ("scara_like.urdf", "base_link", "flange"),
}


def urdf_text(name: str) -> str:
    """The URDF text of the shipped arm ``name`` (a key of :data:`URDF_ARMS`)."""
    if name not in URDF_ARMS:
        raise IKError(f"no shipped arm {name!r}; the arms: {', '.join(URDF_ARMS)}")
    return (resources.files("ikcore") / "data" / URDF_ARMS[name][0]).read_text(encoding="utf-8")


def urdf_arm(name: str, tip_link: str | None = None, *, tool: Frame | None = None,
             base: Frame | None = None) -> Chain:
    """The chain of the shipped arm ``name`` from its base link to ``tip_link`` (default its flange),
    with optional ``tool`` and ``base`` frames (see :meth:`ikcore.Chain.from_urdf`).

    Examples
    --------
    >>> from ikcore.rigs import urdf_arm
    >>> panda = urdf_arm("panda")
    >>> panda.size, panda.joint_names[0], [round(c, 3) for c in panda.points[-1]]
    (7, 'panda_joint1', [0.088, -0.0, 0.926])
    >>> urdf_arm("panda", "panda_hand_tcp").size
    7
    """
    text = urdf_text(name)
    _, base_link, flange = URDF_ARMS[name]
    return Chain.from_urdf(text, base_link, flange if tip_link is None else tip_link, tool=tool, base=base)
