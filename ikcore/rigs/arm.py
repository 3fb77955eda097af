"""The reaching arm: shoulder, elbow, wrist, hand.

The arm hangs from a fixed pedestal node; its rest pose points along +x::

    shoulder (0, 1, 0) -- upper arm 0.55 -- elbow -- forearm 0.45 -- wrist -- hand 0.15 -- tip

Joints (limits in the parent bone's frame, see :mod:`ikcore.constraints`):

- shoulder: ball-and-socket, swing within a 100 degree cone, twist +-90 degrees;
- elbow: hinge about +z, 0 to 150 degrees (it bends one way only);
- wrist: ball-and-socket, 70 degree cone, twist +-80 degrees.

Targets: ``target`` (where the hand's tip goes, with the orientation the hand
takes under ``dls`` and ``fabrik_dls``) and ``pole`` (where the elbow points;
used by methods that take a bend hint). By default the target traces a slow
Lissajous curve in front of the arm and its orientation follows the reach
direction with a gentle sway; dragging either target pins it.

A target beyond reach leaves the arm pointing at it, and since every frame
starts from the previous frame's pose the arm holds still there.
"""

import math

from .. import rotation as rot
from ..constraints import BallSocket, Hinge
from ..skeleton import Skeleton
from .paths import Lissajous
from .scene import LINK, Limb, Scene, Target

SHOULDER = (0.0, 1.0, 0.0)
ARM_POINTS = [SHOULDER, (0.55, 1.0, 0.0), (1.0, 1.0, 0.0), (1.15, 1.0, 0.0)]
#: Methods that take the target's orientation.
ORIENTING = ("dls", "fabrik_dls")


class ArmScene(Scene):
    """A three-joint arm reaching for a draggable, oriented target."""

    name = "arm"
    default_method = "fabrik_dls"
    default_max_iterations = 20

    def __init__(self):
        super().__init__()
        self.skeleton = Skeleton()
        self.skeleton.add_node("pedestal")
        joints = [BallSocket(cone_deg=100.0, twist_min_deg=-90.0, twist_max_deg=90.0),
                  Hinge(axis=(0.0, 0.0, 1.0), min_deg=0.0, max_deg=150.0),
                  BallSocket(cone_deg=70.0, twist_min_deg=-80.0, twist_max_deg=80.0)]
        bound = self.skeleton.add_chain("arm", "pedestal", ARM_POINTS, joints,
                                        node_names=["shoulder", "elbow", "wrist", "hand"])
        self.arm = self.add_limb(Limb(bound, [0.06, 0.05, 0.035], [0.08, 0.065, 0.05, 0.03], target="target"))
        self.path = Lissajous(center=(0.55, 1.05, 0.25), amplitude=(0.25, 0.3, 0.3),
                              frequency=(0.11, 0.17, 0.07), phase=(0.0, 0.6, 1.2))
        self.add_target(Target("target", self.path(0.0), orientation=rot.IDENTITY, path=self.path, radius=0.05))
        self.add_target(Target("pole", (0.45, 0.35, 0.35), radius=0.035))
        self._options = self.method_options(self.params["method"])

    def advance(self, dt):
        super().advance(dt)
        target = self.targets["target"]
        if not target.pinned:
            # The hand faces along the reach, swaying a little: an orientation the wrist can meet.
            sx, sy, sz = SHOULDER
            x, y, z = target.position
            face = rot.between((1.0, 0.0, 0.0), (x - sx, y - sy, z - sz))
            t = self.script_time
            sway = rot.multiply(rot.from_axis_angle((0.0, 1.0, 0.0), 0.35 * math.sin(0.5 * t)),
                                rot.from_axis_angle((1.0, 0.0, 0.0), 0.5 * math.sin(0.31 * t)))
            target.orientation = rot.multiply(face, sway)

    def solve(self):
        target = self.targets["target"]
        orientation = target.orientation if self.params["method"] in ORIENTING else None
        self.solve_limb(self.arm, target.position, orientation=orientation,
                        pole=self.targets["pole"].position)

    def extra_bones(self):
        return [((0.0, 0.0, 0.0), self.arm.bound.nodes[0].world_position, 0.09, LINK)]

    def extras(self):
        sol = self.arm.solution
        return {"orientation_error": None if sol is None else sol.orientation_error}

    def camera(self):
        return {"position": [1.6, 1.8, 2.6], "target": [0.5, 0.9, 0.1]}
