"""The humanoid's body: proportions, joints and limits, on one :class:`ikcore.Skeleton`.

Y up, metres, the character facing +Z at rest (its left on +X, its right on
-X), standing about 1.76 m tall. The pelvis is the skeleton's root; every chain
hangs from a node of the one tree::

    pelvis ──> spine (3 bones, lumbar to chest) ──> neck (neck, head)
      │                    │                 ├──> left_arm  (upper arm, forearm) ──> hand_l
      │                    │                 └──> right_arm (upper arm, forearm) ──> hand_r
      ├──> left_leg  (thigh, shin) ──> foot_l
      └──> right_leg (thigh, shin) ──> foot_r

so turning the pelvis or bending the spine carries every chain below it (the
skeleton's dirty subtrees). The arms hang from the spine's last node (the
chest): the link from the chest to a shoulder is the clavicle, drawn as the
arm's lead. The hands and feet are nodes of their own below a chain's last
node: their rotation is set directly (a grip, a sole on the ground), within the
wrist's and the ankle's limits (:data:`WRIST`, :data:`ANKLE`).

Joints (angles in degrees; limits are written in the parent's frame at rest,
see :mod:`ikcore.constraints`):

========  ==============================================  =========================
joint     limit                                           why
========  ==============================================  =========================
spine     3 x ball, cone 20, twist +-12                   60 degrees of bend in all
neck      ball, cone 30, twist +-35                       neck and head share the
head      ball, cone 30, twist +-35                       look: 60 and 70 in all
shoulder  ball, cone 110, twist +-70                      the arm raised past level
elbow     hinge about -x, 0 to 150                        bends forward only
wrist     ball, cone 35, twist +-75                       a small cone
hip       ball, cone 100, twist +-40                      a stride, a high step
knee      hinge about +x, 0 to 150                        bends forward only
ankle     ball, cone 45, twist +-35                       the sole on a slope
========  ==============================================  =========================

A hinge's positive angle bends its bone forward of the character (elbow) or
the shin back under a forward knee (knee), so "knees bend forward" is a knee
angle >= 0.
"""

import math

from ..transforms import from_columns
from ..constraints import BallSocket, Hinge
from ..skeleton import Skeleton

#: Hip joints, below and beside the pelvis node.
HIP = (0.09, -0.04, 0.0)
THIGH, SHIN = 0.43, 0.42
#: The ankle's height above the sole.
ANKLE_HEIGHT = 0.08
LEG_REACH = THIGH + SHIN
#: The pelvis node above the ground when standing straight.
PELVIS_HEIGHT = -HIP[1] + LEG_REACH + ANKLE_HEIGHT
SPINE_POINTS = ((0.0, 0.08, 0.0), (0.0, 0.22, 0.0), (0.0, 0.35, 0.0), (0.0, 0.48, 0.0))
SPINE_LENGTH = SPINE_POINTS[-1][1] - SPINE_POINTS[0][1]
NECK, HEAD = 0.12, 0.19
NECK_POINTS = ((0.0, 0.0, 0.0), (0.0, NECK, 0.0), (0.0, NECK + HEAD, 0.0))
#: Shoulders in the chest's frame (the spine's last node).
SHOULDER = (0.18, -0.05, 0.0)
UPPER_ARM, FOREARM = 0.29, 0.26
ARM_REACH = UPPER_ARM + FOREARM
#: The hand: from the wrist along its bone, and the palm's centre (what grips) on it.
HAND, PALM = 0.18, 0.08
#: The foot, from the ankle to the toes (in the foot's frame, which is the world's at rest).
TOE = (0.0, -0.06, 0.16)
#: Height of the top of the head above the ground at rest.
HEIGHT = PELVIS_HEIGHT + SPINE_POINTS[-1][1] + NECK_POINTS[-1][1]

SIDES = (("left", "l", 1.0), ("right", "r", -1.0))


def spine_joints():
    return [BallSocket(20.0, -12.0, 12.0) for _ in range(3)]


def neck_joints():
    return [BallSocket(30.0, -35.0, 35.0), BallSocket(30.0, -35.0, 35.0)]


def arm_joints():
    return [BallSocket(110.0, -70.0, 70.0), Hinge((-1.0, 0.0, 0.0), 0.0, 150.0)]


def leg_joints():
    return [BallSocket(100.0, -40.0, 40.0), Hinge((1.0, 0.0, 0.0), 0.0, 150.0)]


#: The wrist and the ankle: the hand's and the foot's rotation below the chain's last bone.
WRIST = BallSocket(35.0, -75.0, 75.0)
WRIST_BONE = (0.0, -1.0, 0.0)
ANKLE = BallSocket(45.0, -35.0, 35.0)
_toe = math.hypot(*TOE)
ANKLE_BONE = (TOE[0] / _toe, TOE[1] / _toe, TOE[2] / _toe)


def arm_points(side):
    sx, sy, sz = SHOULDER
    x = side * sx
    return ((x, sy, sz), (x, sy - UPPER_ARM, sz), (x, sy - UPPER_ARM - FOREARM, sz))


def leg_points(side):
    hx, hy, hz = HIP
    x = side * hx
    return ((x, hy, hz), (x, hy - THIGH, hz), (x, hy - LEG_REACH, hz))


class Body:
    """The skeleton and its named parts (see the module docstring).

    Attributes
    ----------
    skeleton : Skeleton
    pelvis : Node
        The root: its translation and rotation place the whole body.
    spine, neck : BoundChain
    legs, arms : dict of side -> BoundChain
        ``"left"`` and ``"right"``.
    hands, feet : dict of side -> Node
        Below the arms' and legs' last nodes.
    chest : Node
        The spine's last node: the arms and the neck hang from it.
    """

    def __init__(self):
        self.skeleton = sk = Skeleton()
        self.pelvis = sk.add_node("pelvis", None, (0.0, PELVIS_HEIGHT, 0.0))
        self.legs, self.arms, self.hands, self.feet = {}, {}, {}, {}
        for side, s, sign in SIDES:
            leg = sk.add_chain(f"{side}_leg", self.pelvis, leg_points(sign), leg_joints(),
                               [f"thigh_{s}", f"shin_{s}", f"ankle_{s}"])
            self.legs[side] = leg
            self.feet[side] = sk.add_node(f"foot_{s}", leg.nodes[-1])
        self.spine = sk.add_chain("spine", self.pelvis, SPINE_POINTS, spine_joints(),
                                  ["spine_1", "spine_2", "spine_3", "chest"])
        self.chest = self.spine.nodes[-1]
        self.neck = sk.add_chain("neck", self.chest, NECK_POINTS, neck_joints(), ["neck", "head", "head_top"])
        for side, s, sign in SIDES:
            arm = sk.add_chain(f"{side}_arm", self.chest, arm_points(sign), arm_joints(),
                               [f"upper_arm_{s}", f"forearm_{s}", f"wrist_{s}"])
            self.arms[side] = arm
            self.hands[side] = sk.add_node(f"hand_{s}", arm.nodes[-1])


def facing(heading):
    """The horizontal unit vector ``(x, z)`` a heading faces: ``(sin h, cos h)``."""
    return math.sin(heading), math.cos(heading)


def frame_rotation(along, front):
    """The rotation whose +Y is ``along`` and whose +Z is ``front`` made square to it (both unit,
    not parallel): the rest frame of a skin bone (see :mod:`ikcore.rigs.humanoid_skin`)."""
    ax, ay, az = along
    fx, fy, fz = front
    d = fx * ax + fy * ay + fz * az
    zx, zy, zz = fx - d * ax, fy - d * ay, fz - d * az
    n = math.sqrt(zx * zx + zy * zy + zz * zz)
    zx, zy, zz = zx / n, zy / n, zz / n
    # X = Y x Z completes a right-handed frame.
    return from_columns((ay * zz - az * zy, az * zx - ax * zz, ax * zy - ay * zx), (ax, ay, az), (zx, zy, zz))
