"""URDF in: the serial chain of joints between two links of a URDF robot, as an ikcore chain.

:func:`read_urdf` reads plain URDF with :mod:`xml.etree`'s parser (pure Python,
so it runs in the page too): revolute, continuous and fixed joints, their
origins, axes and limits, and prismatic joints as :class:`~ikcore.Slider` s
(which only the Jacobian methods move). It refuses, with an
:class:`~ikcore.IKError` that names the element and its line, whatever it cannot
take: text that is not well-formed XML, a missing link or attribute, a number
that is not finite, an unknown joint type, a floating or planar joint on the
path, a loop, a mimic joint, a tip that is not under the base. xacro is out of
scope (expand it first with ``xacro``) and refused as such.
:meth:`ikcore.Chain.from_urdf` makes the chain (:mod:`.points` tells how).
"""

import math

from ..constraints import Hinge, Slider
from ..transforms import apply, check_frame, times, to_quaternion
from .document import parse
from .points import Hinges, place
from .tree import path

__all__ = ["Robot", "read_urdf"]


class Robot:
    """What :meth:`ikcore.Chain.from_urdf` builds a chain from.

    Attributes
    ----------
    points : list of (x, y, z)
        Rest points in the base link's frame: each moving joint's, then the tip's (the tool point's).
    joints : list of Hinge or Slider
        One per moving joint (a Slider for a prismatic one), its axis in the base frame at rest,
        its URDF limits.
    names : tuple of str
        The moving joints' names, base first (fixed joints omitted).
    tip_rotation : (w, x, y, z)
        The tip (or tool) frame's rotation at rest, in the base frame.
    """

    __slots__ = ("points", "joints", "names", "tip_rotation")

    def __init__(self, points, joints, names, tip_rotation):
        self.points = points
        self.joints = joints
        self.names = names
        self.tip_rotation = tip_rotation


def read_urdf(source, base_link, tip_link, tool=None, base=None):
    """The :class:`Robot` of the joints from ``base_link`` down to ``tip_link`` of a URDF (XML text
    or the path of a file); ``tool``: the tool frame in the tip link's frame (a 4x4 homogeneous
    matrix, or ``(position, quaternion (w, x, y, z))``), ``None`` for the tip link's own frame;
    ``base``: the base link's frame in the chain's frame (the same forms), ``None`` for the base link's
    own frame.

    With a ``base`` ``(B, b)``, every rest point ``p`` becomes ``b + B p``, every axis ``a`` becomes
    ``B a`` and the tip's rotation ``T`` becomes ``B T``: the whole chain is turned and moved as one,
    so each joint's value is unchanged (a hinge's angle about its turned axis is the angle about
    the axis before), and poses are given in the chain's frame."""
    tool = None if tool is None else check_frame(tool, "tool")
    base = None if base is None else check_frame(base, "base")
    document = parse(source)
    hinges = Hinges(path(document, base_link, tip_link), tool)
    points = place(hinges.points + [hinges.tip[1]], hinges.axes, hinges.slides)
    axes, tip = hinges.axes, hinges.tip[0]
    if base is not None:
        B, b = base
        points = [tuple(c + d for c, d in zip(b, apply(B, p))) for p in points]
        axes = [apply(B, a) for a in axes]
        tip = times(B, tip)
    joints = [Slider(axis, *limits) if kind == "prismatic" else
              Hinge(axis, -180.0, 180.0) if limits is None else
              Hinge(axis, math.degrees(limits[0]), math.degrees(limits[1]))
              for kind, axis, limits in zip(hinges.types, axes, hinges.limits)]
    return Robot(points, joints, tuple(hinges.names), to_quaternion(tip))
