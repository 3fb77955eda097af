"""ikpy, the peer library, on the standard chains (installed for the benchmark only).

A free ball joint becomes two revolute joints at the same point, about z then y
(the twist about the bone moves no point, so a position target needs two degrees
of freedom per joint; a third would only slow ikpy down). Chain: a fixed origin
link, then per bone ``i`` a z link carrying the previous bone's offset and a y
link, and a fixed tip link carrying the last bone. All angles start at 0: the
straight rest pose along +x, as ikcore's cold solves. ikpy's own defaults stand
(scipy least squares, its own stopping rule).
"""

import importlib.util
import warnings

import numpy as np


def ikpy_version():
    """The installed ikpy's version, or None (imported only when asked: it pulls in scipy and sympy)."""
    if importlib.util.find_spec("ikpy") is None:
        return None
    import ikpy
    return getattr(ikpy, "__version__", "?")


def _link(name, offset, axis=None):
    from ikpy.link import URDFLink
    kind = {} if axis is not None else {"joint_type": "fixed"}
    return URDFLink(name=name, origin_translation=list(offset), origin_orientation=[0.0, 0.0, 0.0],
                    rotation=None if axis is None else list(axis), **kind)


def ikpy_chain(points):
    """An ikpy chain equivalent to a free ikcore chain on rest ``points``."""
    from ikpy.chain import Chain as IkpyChain
    from ikpy.link import OriginLink
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        links = [OriginLink()]
        previous = (0.0, 0.0, 0.0)
        for i in range(len(points) - 1):
            links.append(_link(f"j{i}z", previous, (0.0, 0.0, 1.0)))
            links.append(_link(f"j{i}y", (0.0, 0.0, 0.0), (0.0, 1.0, 0.0)))
            a, b = points[i], points[i + 1]
            previous = (b[0] - a[0], b[1] - a[1], b[2] - a[2])
        links.append(_link("tip", previous))
        mask = [False] + [True] * (2 * (len(points) - 1)) + [False]
        return IkpyChain(links, active_links_mask=mask)


class IkpySolver:
    """Solve position targets with ikpy from the rest pose; report the effector error."""

    def __init__(self, points):
        self.chain = ikpy_chain(points)
        self.root = np.array(points[0], dtype=float)

    def solve(self, target):
        """``|effector - target|`` after ikpy's solve from rest."""
        t = np.asarray(target, dtype=float)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            angles = self.chain.inverse_kinematics(target_position=t)
            effector = self.chain.forward_kinematics(angles)[:3, 3]
        return float(np.linalg.norm(effector - t))
