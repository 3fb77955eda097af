"""Tentacles: long tapered chains on a swaying crown, following moving targets.

``count`` tentacles of ``bones`` bones stand on a ring of a ``crown`` node that
turns and bobs slowly, so their roots move: each chain lives in the crown's
frame (see :mod:`ikcore.skeleton`) and its root follows. The bones shorten and
thin towards the tip. Each joint is a ball-and-socket whose cone keeps the
curve smooth (no kinks) while the whole tentacle can still curl.

Each target traces its own Lissajous curve, kept within the tentacle's reach
whatever the crown does; every target can be dragged (and released back to
its path).

DLS is the default method: warm-started from the previous frame it needs one
iteration per frame to follow, and, being a least-squares step, it spreads
the bending over all the joints, so the tentacles stay smoothly curved (no
joint bends more than about 20 degrees on these paths) without any limits.
The joint cones (40 degrees) are there for the other methods, and are off by
default: FABRIK, free, folds a long chain into sharp kinks where the target
comes near the root, and CCD curls the tip; with the cones on both keep
their shape.
"""

import math

from .. import rotation as rot
from ..constraints import BallSocket
from ..skeleton import Skeleton
from .paths import Lissajous
from .scene import Limb, Scene, Target

RING = 0.45


class TentacleScene(Scene):
    """Tentacles following scripted (and draggable) targets.

    Parameters
    ----------
    count : int
        Number of tentacles (>= 1).
    bones : int
        Bones per tentacle (>= 2).
    """

    name = "tentacles"
    default_method = "dls"
    default_max_iterations = 12
    default_constraints = False

    def __init__(self, count=4, bones=20):
        super().__init__()
        self.skeleton = Skeleton()
        self.crown = self.skeleton.add_node("crown")
        self.count = count
        for k in range(count):
            a = 2.0 * math.pi * (k + 0.5) / count
            cx, cz = math.cos(a), -math.sin(a)
            root = (RING * cx, 0.0, RING * cz)
            points = [root]
            y = 0.0
            lengths = [0.14 * (1.0 - 0.45 * i / bones) for i in range(bones)]
            for length in lengths:
                y += length
                points.append((root[0], y, root[2]))
            joints = [BallSocket(cone_deg=40.0)] * bones
            bound = self.skeleton.add_chain(f"tentacle{k}", "crown", points, joints)
            radii = [0.075 * (1.0 - 0.8 * (i + 0.5) / bones) for i in range(bones)]
            limb = self.add_limb(Limb(bound, radii, target=f"target{k}"))
            reach = limb.reach
            # A curve around a point above and outside the root: within 0.35 .. 0.85 of the reach
            # from the root wherever the crown turns (0.6 +- 0.21 of the reach, plus the sway).
            center = (root[0] + 0.25 * reach * cx, 0.55 * reach, root[2] + 0.25 * reach * cz)
            path = Lissajous(center=center, amplitude=(0.13 * reach, 0.1 * reach, 0.13 * reach),
                             frequency=(0.17 + 0.013 * k, 0.23 + 0.011 * k, 0.13 + 0.017 * k),
                             phase=(1.3 * k, 0.7 * k, 2.1 * k + 0.5))
            self.add_target(Target(f"target{k}", path(0.0), path=path, radius=0.06))

    def advance(self, dt):
        t = self.script_time
        # The crown sways about Y and bobs: the roots move, the chains follow in its frame.
        self.crown._set((0.0, 0.06 * math.sin(0.4 * t), 0.0),
                        rot.from_axis_angle((0.0, 1.0, 0.0), 0.25 * math.sin(0.23 * t)))
        super().advance(dt)

    def camera(self):
        return {"position": [3.2, 2.4, 3.6], "target": [0.0, 1.0, 0.0]}
