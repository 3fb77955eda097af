"""The race: the same chain, the same target, one lane per method.

Six copies of one chain stand side by side along x (lane ``k`` at ``x = (k -
2.5) * LANE``), each solved by its own method: CCD, FABRIK, Jacobian
transpose, pseudo-inverse, DLS and FABRIK then DLS. One target, placed
relative to lane 0 (the draggable one) and copied to every lane.

A race starts whenever the target moves (a hop, or a drag): every lane goes
back to the rest pose and is solved from there, cold, in one call with the
scene's ``max_iterations`` as the cap (in this scene the cap is per race).
That call's error history (``Solution.errors``: the starting error, then the
error after each iteration) is the lane's curve on the chart, exactly as the
method produced it, and its status, iterations and time are the lane's
result. To keep every frame short, one lane is solved per frame, in lane order,
so a race is decided within six frames; a lane not yet solved this race shows
status ``"running"``. ``state()["race"]`` gives ``elapsed`` (seconds since the
race began) and ``rate`` (iterations per second) so the page can draw each
curve progressively. When every lane is done, the target hops to the next
scripted spot after ``pause`` seconds plus the time the longest curve takes to
draw (unless it was dragged: a dragged target stays).

Per lane the state also gives each joint's share of the total rotation from
rest (``angle(q_i) / sum_j angle(q_j)``): CCD turns the joints nearest the end
effector most, and the shares make that bias visible.
"""

from .. import rotation as rot
from ..constraints import BallSocket
from ..skeleton import Skeleton
from ..solve import METHODS
from .paths import Hops
from .scene import Limb, Scene, Target

RACERS = ("ccd", "fabrik", "jacobian_transpose", "pseudo_inverse", "dls", "fabrik_dls")
LANE = 1.7
BONES = 6
BONE_LENGTH = 0.25
PAUSE = 1.5  # seconds between a race's curves all drawn and the next hop
RATE = 20  # iterations per second, for drawing the curves


class Lane:
    """One method's copy of the chain and its race so far."""

    __slots__ = ("method", "limb", "offset", "errors", "iterations", "status", "ms", "done")

    def __init__(self, method, limb, offset):
        self.method = method
        self.limb = limb
        self.offset = offset
        self.errors = []
        self.iterations = 0
        self.status = None
        self.ms = 0.0
        self.done = False

    def shares(self):
        """Each joint's fraction of the total rotation angle from rest."""
        angles = [rot.angle(q) for q in self.limb.bound.rotations]
        total = sum(angles)
        return [a / total if total > 0.0 else 0.0 for a in angles]


class RaceScene(Scene):
    """Six methods racing to one target on copies of one chain."""

    name = "race"
    methods = METHODS  # accepted for the shared GUI; every lane has its own method
    default_method = "fabrik"
    default_max_iterations = 150
    #: ``rate``: iterations drawn per second; ``pause``: seconds between races.
    extra_params = {"rate": {"kind": "int", "min": 1, "max": 6000}, "pause": {"kind": "float", "min": 0.0, "max": 60.0}}
    #: Each lane is solved once a race, on a frame of its own: every one is timed.
    timed_every = 1

    def __init__(self):
        super().__init__()
        self.params["rate"] = RATE
        self.params["pause"] = PAUSE
        self.skeleton = Skeleton()
        points = [(0.0, BONE_LENGTH * i, 0.0) for i in range(BONES + 1)]
        joints = [BallSocket(cone_deg=75.0)] * BONES
        self.lanes = []
        for k, method in enumerate(RACERS):
            x = (k - 2.5) * LANE
            self.skeleton.add_node(f"lane{k}", translation=(x, 0.0, 0.0))
            bound = self.skeleton.add_chain(method, f"lane{k}", points, joints)
            radii = [0.05 - 0.004 * i for i in range(BONES)]
            limb = self.add_limb(Limb(bound, radii, target="target" if k == 0 else f"target@{method}"))
            self.lanes.append(Lane(method, limb, k * LANE))
        # report() runs for every limb every frame: a lookup, not a walk over the lanes.
        self._lane_of = {lane.limb: lane for lane in self.lanes}
        reach = BONES * BONE_LENGTH
        self.hops = Hops(center=(-2.5 * LANE, 0.15 * reach, 0.0), r_min=0.35 * reach, r_max=0.85 * reach,
                         period=1.0, seed=11, min_up=-0.1)
        self.hop = 0
        self.elapsed = 0.0
        self.add_target(Target("target", self._squash(self.hops.point(0)), radius=0.06))
        for lane in self.lanes[1:]:
            self.add_target(Target(f"target@{lane.method}", self.lane_target(lane), draggable=False,
                                   radius=0.06))
        self.start_race()

    def _squash(self, p):
        # Keep hops mostly in the lane's own plane (x within +-0.35 reach), so lanes do not collide.
        x0 = -2.5 * LANE
        return (x0 + 0.4 * (p[0] - x0), p[1], p[2])

    def lane_target(self, lane):
        x, y, z = self.targets["target"].position
        return (x + lane.offset, y, z)

    def start_race(self):
        """Results cleared, the race on (each lane is solved from rest in turn)."""
        for lane in self.lanes:
            # The lane keeps showing its last pose until it is solved again (no flicker while dragging).
            lane.errors = []
            lane.iterations = 0
            lane.status = "running"
            lane.ms = 0.0
            lane.done = False
            self.targets[lane.limb.target].position = self.lane_target(lane)
        self.elapsed = 0.0

    def place(self, target, position, orientation):
        super().place(target, position, orientation)
        self.start_race()

    def params_changed(self, old):
        keys = ("constraints", "tolerance", "max_iterations", "damping")
        if any(old[k] != self.params[k] for k in keys):
            self.start_race()

    def advance(self, dt):
        self.elapsed += dt
        target = self.targets["target"]
        if not self.done or target.pinned or not self.params["animate"]:
            return
        longest = max(len(lane.errors) for lane in self.lanes)
        if self.elapsed >= longest / self.params["rate"] + self.params["pause"]:
            self.hop += 1
            target.position = self._squash(self.hops.point(self.hop))
            self.start_race()

    @property
    def done(self):
        """Whether every lane has been solved for the current target."""
        return all(lane.done for lane in self.lanes)

    def solve(self):
        # One lane per frame: the first not yet solved, from rest, cold.
        for lane in self.lanes:
            if lane.done:
                continue
            limb = lane.limb
            sol = self.solve_limb(limb, self.targets[limb.target].position, method=lane.method,
                                  max_iterations=self.params["max_iterations"],
                                  start=[rot.IDENTITY] * limb.bound.chain.size)
            lane.errors = list(sol.errors)
            lane.iterations = sol.iterations
            lane.status = sol.status
            lane.ms = limb.ms
            lane.done = True
            return

    def report(self, limb):
        lane = self._lane_of.get(limb)
        if lane is None:
            return super().report(limb)
        return lane.status, (lane.errors[-1] if lane.errors else None), lane.iterations

    def extras(self):
        return {"race": {"hop": self.hop, "done": self.done, "elapsed": self.elapsed, "rate": self.params["rate"],
                         "lanes": [{"method": lane.method, "status": lane.status, "iterations": lane.iterations,
                                    "errors": list(lane.errors), "ms": lane.ms, "shares": lane.shares()}
                                   for lane in self.lanes]}}

    def camera(self):
        return {"position": [0.0, 2.4, 10.5], "target": [0.0, 0.8, 0.0]}
