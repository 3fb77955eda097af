"""The robot: a Panda-like 7-joint arm holding its hand's pose while it spends its redundancy.

The arm (:mod:`ikcore.rigs.panda`) stands on the ground at the world's origin.
A 6-D task (the flange's position and orientation) leaves a 7-joint arm one
degree of freedom: the elbow can circle about the line from shoulder to wrist
while the hand stays put. The scene spends it on the secondary objectives of
:mod:`ikcore.objectives`, each switched on and weighted by a parameter:

- ``avoid_obstacle`` (``avoid_obstacle_weight``): every bone clear of the
  obstacle sphere (:class:`~ikcore.AvoidSphere`);
- ``away_from_limits`` (``away_from_limits_weight``): the joints away from the
  ends of their ranges (:class:`~ikcore.AwayFromLimits`);
- ``toward_rest`` (``toward_rest_weight``): the joint angles near zero, the
  arm upright (:class:`~ikcore.TowardRest`).

The arm is a parameter, ``arm``: ``panda`` (the default, :func:`ikcore.rigs.panda`),
``ur5_like``, the UR5-like 6-joint arm, or ``scara_like``, the SCARA-like arm whose quill slides,
both shipped as URDF (:func:`ikcore.rigs.urdf_arm`), turned from the URDF's Z up into the scene's
Y up. Changing it builds the arm anew (a new layout :attr:`~ikcore.rigs.Scene.revision`). The
SCARA's quill is a :class:`~ikcore.Slider`: its constraint description (``"type": "slider"``)
gives the range the page draws as a stroke, and the secondary objectives, which take no sliding
joint yet, are left out while it is shown (``objectives_apply`` in the state says so; their
parameters are kept but marked ``"panel": False`` in :meth:`~RobotScene.param_specs`, and the page
neither draws nor picks the obstacle).

Targets: ``target``, the flange, with the orientation the hand takes; by default
it wanders slowly in front of the arm, the hand pointing down. ``obstacle``, a
sphere of radius :data:`OBSTACLE_RADIUS`, drifts to and fro across the elbow.
Dragging either pins it. Each chain record carries the ``clearance`` (metres:
the smallest distance from the arm's bones to the obstacle's centre, less its
radius; negative while a bone is inside) and the ``limit_margin`` (the smallest
margin of any joint to an end of its range, as a fraction of the range).
"""

import math

from ..chain import Chain
from ..constraints import Hinge, Slider
from ..errors import IKError
from ..kinematics import Frames
from ..objectives import AvoidSphere, AwayFromLimits, TowardRest
from ..objectives.avoid_sphere import clearance
from ..objectives.away_from_limits import limit_margin
from ..skeleton import Skeleton
from ..solvers import SECONDARY_METHODS
from .panda import panda, to_y_up
from .paths import Lissajous
from .scene import Limb, Scene, Target, box, sampled
from .urdf_arms import urdf_arm
from .urdf_file import urdf_chain

#: The obstacle's radius, metres.
OBSTACLE_RADIUS = 0.1
#: How far beyond the obstacle's radius the bones keep (the drawn links' own thickness, and a little air).
OBSTACLE_MARGIN = 0.06
#: The switches of the objectives and their weights' parameters, in the panel's order.
OBJECTIVES = ("avoid_obstacle", "away_from_limits", "toward_rest")
WEIGHT = {"kind": "float", "min": 0.0, "max": 10.0}
#: The arms the scene offers (its ``arm`` parameter), the first the default.
ARMS = ("panda", "ur5_like", "scara_like")
#: Per arm: its links' radii and its joints' (metres).
RADII = {"panda": ([0.065, 0.06, 0.055, 0.055, 0.05, 0.045, 0.04], [0.075, 0.07, 0.065, 0.065, 0.06, 0.055, 0.05, 0.035]),
         "ur5_like": ([0.065, 0.06, 0.05, 0.045, 0.045, 0.04], [0.075, 0.07, 0.06, 0.055, 0.055, 0.05, 0.035]),
         "scara_like": ([0.07, 0.06, 0.025, 0.03], [0.08, 0.07, 0.045, 0.035, 0.03])}
#: The Panda's reach (metres): the scale of the hand's and the obstacle's wanderings.
PANDA_REACH = 1.328
#: The UR5-like arm's ready pose (radians): upper arm up, forearm level, the hand pointing down.
UR5_READY = (math.pi, -math.pi / 2, math.pi / 2, -math.pi / 2, -math.pi / 2, 0.0)
#: The SCARA-like arm's ready pose: shoulder and elbow turned (radians), the quill half down (metres).
SCARA_READY = (0.6, -1.3, 0.1, 0.0)


def y_up(chain):
    """A Z-up chain of revolute and prismatic joints (from URDF) turned into the scene's Y up: points
    and axes by ``(x, y, z) -> (x, z, -y)``, a rotation, so each joint's value is unchanged."""
    joints = [Slider(to_y_up(j.axis), j.lower, j.upper) if isinstance(j, Slider) else
              Hinge(to_y_up(j.axis), j.min_deg, j.max_deg) for j in chain.joints]
    return Chain([to_y_up(p) for p in chain.points], joints)


def arm_model(name):
    """The shipped arm ``name`` (one of :data:`ARMS`) as the scene builds it: ``(chain, ready, node
    names, (radii, joint radii), elbow)``, Y up, ``ready`` the ready pose's local rotations, ``elbow``
    the index of the point the obstacle drifts across."""
    if name == "panda":
        chain, ready = panda()
        return chain, ready, [f"joint{i + 1}" for i in range(7)] + ["flange"], RADII[name], 3
    urdf = urdf_arm(name)
    chain = y_up(urdf)
    if name == "scara_like":
        # Its ready pose holds the quill's slide: the whole pose, not rotations alone.
        return chain, chain.pose_at(SCARA_READY), [*urdf.joint_names, "flange"], RADII[name], 2
    return chain, chain.pose_at(UR5_READY).rotations, [*urdf.joint_names, "flange"], RADII[name], 2


def file_model(chain):
    """A reader's URDF ``chain`` (Z up) as :func:`arm_model` gives a shipped arm, and how far in the
    hand's wandering is drawn: a little bent, its links as thick as the Panda's for an arm of its
    reach, thinner toward the tip; a slider half way along its range."""
    chain = y_up(chain)
    n = chain.size
    thick = min(0.065, max(0.005, 0.05 * chain.reach))
    radii = [thick * (1.0 - 0.4 * i / max(1, n - 1)) for i in range(n)]
    joints = [r * 1.15 for r in radii] + [radii[-1] * 0.9]
    # Ready: each joint a little turned (0.35 rad, or its range's middle when that is out of it), off
    # the straight rest pose, where the arm is singular.
    if chain.plan.sliders:
        values = [(j.lower + j.upper) / 2 if isinstance(j, Slider) else _bent(j) for j in chain.joints]
        return chain, chain.pose_at(values), None, (radii, joints), n // 2, 0.15
    return chain, chain.rotations_of([_bent(j) for j in chain.joints]), None, (radii, joints), n // 2, 0.15


def _bent(hinge):
    """A hinge's ready angle: 0.35 rad, or its range's middle when that is out of it."""
    return 0.35 if hinge.min_deg <= math.degrees(0.35) <= hinge.max_deg else \
        math.radians(hinge.min_deg + hinge.max_deg) / 2


class RobotScene(Scene):
    """A Panda-like arm reaching for a 6-D target, an obstacle to avoid (see the module docstring)."""

    name = "robot"
    methods = SECONDARY_METHODS
    default_method = "dls"
    default_max_iterations = 6
    extra_params = {"arm": {"kind": "choice", "choices": list(ARMS)},
                    **{name: {"kind": "bool"} for name in OBJECTIVES},
                    **{f"{name}_weight": dict(WEIGHT) for name in OBJECTIVES}}
    chain_measures = ("clearance", "limit_margin")

    def __init__(self):
        super().__init__()
        self.params.update(arm=ARMS[0], avoid_obstacle=True, away_from_limits=False, toward_rest=False,
                           avoid_obstacle_weight=1.0, away_from_limits_weight=1.0, toward_rest_weight=0.3)
        self.urdf = None
        # The text of the file shown (for another tip link of it), None for a shipped arm.
        self._urdf_text = None
        self.build(ARMS[0], *arm_model(ARMS[0]))
        self._options = self.method_options(self.params["method"])

    def build(self, name, chain, ready, nodes, radii, elbow, inward=0.0):
        """Build the skeleton, the limb (chain ``name``) and the targets for an arm (see
        :func:`arm_model`; ``ready``: rotations, or for an arm with a slider a pose, Frames)."""
        self.skeleton = Skeleton()
        self.skeleton.add_node("base")
        bound = self.skeleton.add_chain(name, "base", chain.points, chain.joints, node_names=nodes)
        if isinstance(ready, Frames):
            bound.take_frames(ready)
        else:
            bound.set_rotations(ready)
        bound.constrained = self.params["constraints"]
        self.limbs = []
        self.targets = {}
        self.arm = self.add_limb(Limb(bound, *radii, target="target"))
        points = ready.points if isinstance(ready, Frames) else chain.forward(ready)
        # A file's arm stands at rest, straight: its hand's wandering is drawn in toward the base, where
        # the hand can reach.
        hand = [c * (1.0 - inward) for c in points[-1]]
        # The hand's and the obstacle's wanderings, for an arm the Panda's size, scaled to this one's.
        k = chain.reach / PANDA_REACH
        self.path = Lissajous((hand[0] + 0.05 * k, hand[1] - 0.05 * k, hand[2]), (0.08 * k, 0.07 * k, 0.16 * k),
                              (0.05, 0.08, 0.035))
        # An arm of fewer than six joints cannot hold a hand's full pose: its target is a point.
        turn = chain.world_rotations(ready)[-1] if chain.size >= 6 else None
        self.add_target(Target("target", self.path(0.0), orientation=turn, path=self.path, radius=0.04))
        self.drift = Lissajous((points[elbow][0] - 0.02 * k, points[elbow][1] + 0.02 * k, 0.0),
                               (0.04 * k, 0.03 * k, 0.42 * k), (0.03, 0.05, 0.06), (0.0, 0.0, 1.2))
        self.add_target(Target("obstacle", self.drift(0.0), path=self.drift, radius=OBSTACLE_RADIUS))
        self.sphere = AvoidSphere(self.drift(0.0), OBSTACLE_RADIUS, margin=OBSTACLE_MARGIN)
        self._options = self.method_options(self.params["method"])

    def load_urdf(self, text, name="file.urdf", base=None, tip=None):
        """Show the arm of a reader's URDF ``text`` (from a file named ``name``), from link ``base`` to
        link ``tip`` (chosen by :func:`~ikcore.rigs.urdf_file.pick_links` when not given); the ``arm``
        parameter becomes ``"file"``. A file the scene cannot take raises :class:`~ikcore.IKError` and
        changes nothing."""
        name = name if isinstance(name, str) and name else "file.urdf"
        chain, (base, tip, leaves) = urdf_chain(text, base, tip)
        model = file_model(chain)
        self.params["arm"] = "file"
        self.urdf = {"name": name[:200], "base": base, "tip": tip, "joints": list(chain.joint_names),
                     "leaves": leaves}
        self._urdf_text = text
        self.build("file", *model)
        self.revision += 1

    def set_urdf_tip(self, tip):
        """Run the file's chain down to link ``tip`` instead (one of ``urdf["leaves"]``, or any link below
        its base): the arm built anew from the same file. Refused with :class:`~ikcore.IKError`, changing
        nothing, while no file's arm is shown or for a link that makes no chain."""
        if self.urdf is None or self.params["arm"] != "file":
            raise IKError("no URDF file is shown: load one first (drop it on the page)")
        if not isinstance(tip, str) or not tip:
            raise IKError(f"the tip link must be a link's name, got {tip!r:.60}")
        self.load_urdf(self._urdf_text, self.urdf["name"], self.urdf["base"], tip)

    def checked_params(self, params):
        """As :meth:`Scene.checked_params`; ``arm="file"`` only while a file's arm is shown (it comes
        from :meth:`load_urdf`, never from a parameter)."""
        if params.get("arm") == "file" and self.params["arm"] != "file":
            raise IKError("arm 'file' is a URDF file loaded into the page; the shipped arms: " + ", ".join(ARMS))
        return super().checked_params(params)

    def layout(self):
        """:meth:`Scene.layout`, and ``urdf``: the file the arm came from (``None`` for a shipped arm)."""
        return {**super().layout(), "urdf": self.urdf}

    def param_specs(self):
        specs = super().param_specs()
        if self.urdf is not None and self.params["arm"] == "file":
            specs["arm"] = {"kind": "choice", "choices": [*ARMS, "file"]}
        if not self.objectives_apply:
            # Kept and set as ever (links carry them), but out of the panel while they serve nothing.
            for name in OBJECTIVES:
                specs[name]["panel"] = specs[name + "_weight"]["panel"] = False
        return specs

    def params_changed(self, old):
        """A new arm: built anew, a new layout."""
        if self.params["arm"] != old["arm"]:
            self.urdf = self._urdf_text = None
            self.build(self.params["arm"], *arm_model(self.params["arm"]))
            self.revision += 1

    def method_options(self, method):
        """The method's options (:meth:`Scene.method_options`) and the objectives switched on."""
        options = super().method_options(method)
        if not self.objectives_apply:
            return options
        p = self.params
        secondary = []
        if p["avoid_obstacle"]:
            self.sphere.weight = p["avoid_obstacle_weight"]
            secondary.append(self.sphere)
        if p["away_from_limits"]:
            secondary.append(AwayFromLimits(p["away_from_limits_weight"]))
        if p["toward_rest"]:
            secondary.append(TowardRest(p["toward_rest_weight"]))
        if secondary:
            options["secondary"] = secondary
        return options

    @property
    def objectives_apply(self):
        """Whether the secondary objectives serve the arm shown: not while it has a sliding joint,
        which they do not take yet."""
        return not self.arm.bound.chain.plan.sliders

    def solve(self):
        target = self.targets["target"]
        # The base node is the world's origin, unturned: the targets and the obstacle are in the arm's
        # own frame already.
        self.sphere.center = self.targets["obstacle"].position
        self.track(self.arm, target.position, target.orientation, local=True)

    def measures(self, limb):
        frames = limb.bound.frames()
        margin = limit_margin(limb.bound.limited_chain, frames)
        return (clearance(frames.points, self.targets["obstacle"].position, OBSTACLE_RADIUS),
                0.0 if margin is None else margin)

    def extras(self):
        sol = self.arm.solution
        return {"orientation_error": None if sol is None else sol.orientation_error, "urdf": self.urdf,
                "obstacle": {"radius": OBSTACLE_RADIUS, "margin": OBSTACLE_MARGIN},
                "objectives_apply": self.objectives_apply}

    def camera(self):
        return {"position": [1.5, 1.25, 1.9], "target": [0.1, 0.5, 0.0]}

    def bounds(self):
        # The base, the arm in its ready pose, where the hand and the obstacle go (their slowest
        # components have periods of about 30 s): what the reader watches, drawn large. (Not the arm
        # upright, a pose it never takes, which would leave the view's top half empty.)
        chain = self.arm.bound.limited_chain
        posed = chain.forward(self.arm.bound.rotations) if self.arm.bound.slides is None else self.arm.bound.frames().points
        points = [(0.0, 0.0, 0.0), *posed, *sampled(self.path, 60.0, 0.25)]
        points += [p for c in sampled(self.drift, 60.0, 0.25) for p in _sphere_box(c)]
        return box(points, 0.05)


def _sphere_box(center):
    """The corners of the box around the obstacle at ``center``."""
    x, y, z = center
    r = OBSTACLE_RADIUS
    return [(x - r, y - r, z - r), (x + r, y + r, z + r)]

