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

Targets: ``target``, the flange, with the orientation the hand takes; by default
it wanders slowly in front of the arm, the hand pointing down. ``obstacle``, a
sphere of radius :data:`OBSTACLE_RADIUS`, drifts to and fro across the elbow.
Dragging either pins it. Each chain record carries the ``clearance`` (metres:
the smallest distance from the arm's bones to the obstacle's centre, less its
radius; negative while a bone is inside) and the ``limit_margin`` (the smallest
margin of any joint to an end of its range, as a fraction of the range).
"""

from ..objectives import AvoidSphere, AwayFromLimits, TowardRest
from ..objectives.avoid_sphere import clearance
from ..objectives.away_from_limits import limit_margin
from ..skeleton import Skeleton
from ..solvers import SECONDARY_METHODS
from .panda import panda
from .paths import Lissajous
from .scene import Limb, Scene, Target, box, sampled

#: The obstacle's radius, metres.
OBSTACLE_RADIUS = 0.1
#: How far beyond the obstacle's radius the bones keep (the drawn links' own thickness, and a little air).
OBSTACLE_MARGIN = 0.06
#: The switches of the objectives and their weights' parameters, in the panel's order.
OBJECTIVES = ("avoid_obstacle", "away_from_limits", "toward_rest")
WEIGHT = {"kind": "float", "min": 0.0, "max": 10.0}


class RobotScene(Scene):
    """A Panda-like arm reaching for a 6-D target, an obstacle to avoid (see the module docstring)."""

    name = "robot"
    methods = SECONDARY_METHODS
    default_method = "dls"
    default_max_iterations = 6
    extra_params = {**{name: {"kind": "bool"} for name in OBJECTIVES},
                    **{f"{name}_weight": dict(WEIGHT) for name in OBJECTIVES}}
    chain_measures = ("clearance", "limit_margin")

    def __init__(self):
        super().__init__()
        self.params.update(avoid_obstacle=True, away_from_limits=False, toward_rest=False,
                           avoid_obstacle_weight=1.0, away_from_limits_weight=1.0, toward_rest_weight=0.3)
        chain, ready = panda()
        self.skeleton = Skeleton()
        self.skeleton.add_node("base")
        bound = self.skeleton.add_chain("panda", "base", chain.points, chain.joints,
                                        node_names=[f"joint{i + 1}" for i in range(7)] + ["flange"])
        bound.set_rotations(ready)
        self.arm = self.add_limb(Limb(bound, [0.065, 0.06, 0.055, 0.055, 0.05, 0.045, 0.04],
                                      [0.075, 0.07, 0.065, 0.065, 0.06, 0.055, 0.05, 0.035], target="target"))
        hand = chain.forward(ready)[-1]
        self.path = Lissajous((hand[0] + 0.05, hand[1] - 0.05, hand[2]), (0.08, 0.07, 0.16), (0.05, 0.08, 0.035))
        self.add_target(Target("target", self.path(0.0), orientation=chain.world_rotations(ready)[-1],
                               path=self.path, radius=0.04))
        elbow = chain.forward(ready)[3]
        self.drift = Lissajous((elbow[0] - 0.02, elbow[1] + 0.02, 0.0), (0.04, 0.03, 0.42), (0.03, 0.05, 0.06),
                               (0.0, 0.0, 1.2))
        self.add_target(Target("obstacle", self.drift(0.0), path=self.drift, radius=OBSTACLE_RADIUS))
        self.sphere = AvoidSphere(self.drift(0.0), OBSTACLE_RADIUS, margin=OBSTACLE_MARGIN)
        self._options = self.method_options(self.params["method"])

    def method_options(self, method):
        """The method's options (:meth:`Scene.method_options`) and the objectives switched on."""
        options = super().method_options(method)
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
        return {"orientation_error": None if sol is None else sol.orientation_error,
                "obstacle": {"radius": OBSTACLE_RADIUS, "margin": OBSTACLE_MARGIN}}

    def camera(self):
        return {"position": [1.5, 1.25, 1.9], "target": [0.1, 0.5, 0.0]}

    def bounds(self):
        # The base, the arm in its ready pose, where the hand and the obstacle go (their slowest
        # components have periods of about 30 s): what the reader watches, drawn large. (Not the arm
        # upright, a pose it never takes, which would leave the view's top half empty.)
        chain = self.arm.bound.limited_chain
        points = [(0.0, 0.0, 0.0), *chain.forward(self.arm.bound.rotations), *sampled(self.path, 60.0, 0.25)]
        points += [p for c in sampled(self.drift, 60.0, 0.25) for p in _sphere_box(c)]
        return box(points, 0.05)


def _sphere_box(center):
    """The corners of the box around the obstacle at ``center``."""
    x, y, z = center
    r = OBSTACLE_RADIUS
    return [(x - r, y - r, z - r), (x + r, y + r, z + r)]

