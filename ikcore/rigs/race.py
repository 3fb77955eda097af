"""The race: the same chain, the same target, one lane per method.

Six copies of one chain stand side by side along x (lane ``k`` at ``x = (k -
2.5) * LANE``), each solved by its own method: CCD, FABRIK, Jacobian
transpose, pseudo-inverse, DLS and FABRIK then DLS. One target, placed
relative to lane 0 (the draggable one) and copied to every lane.

A race starts from the rest pose in every lane, the moment the target moves.
Iterations tick at ``rate`` per second (default 15, slow enough to watch):
on a tick every lane still racing runs one more iteration, warm-started from
where it stopped, so the page shows the chains converging at their own pace,
and the error after each iteration accumulates into a history per lane (the
chart of error against iteration). A lane stops when it
converges, stalls or has used ``max_iterations`` iterations in all (in this
scene the cap is per race, not per frame); its status is ``"running"`` until
then. When every lane has stopped, the target hops to the next scripted spot
after a short pause (unless it was dragged: a dragged target stays).

Per lane the state also gives each joint's share of the total rotation from
rest (``angle(q_i) / sum_j angle(q_j)``): CCD turns the joints nearest the end
effector most, and the shares make that bias visible.
"""

from .. import rotation as rot
from ..checks import check_float, check_int_range
from ..constraints import BallSocket
from ..errors import IKError
from ..skeleton import Skeleton
from ..solve import METHODS
from .paths import Hops
from .scene import Limb, Scene, Target

RACERS = ("ccd", "fabrik", "jacobian_transpose", "pseudo_inverse", "dls", "fabrik_dls")
LANE = 1.7
BONES = 6
BONE_LENGTH = 0.25
PAUSE = 1.2  # seconds between the end of a race and the next hop
RATE = 15  # iterations per second


def _check_pause(value, name):
    value = check_float(value, name)
    if not 0.0 <= value <= 60.0:
        raise IKError(f"{name} must be in [0, 60] seconds, got {value!r}")
    return value


class Lane:
    """One method's copy of the chain and its race so far."""

    __slots__ = ("method", "limb", "offset", "errors", "iterations", "status", "ms", "total_ms", "done")

    def __init__(self, method, limb, offset):
        self.method = method
        self.limb = limb
        self.offset = offset
        self.errors = []
        self.iterations = 0
        self.status = None
        self.ms = 0.0
        self.total_ms = 0.0
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
    extra_params = {"rate": lambda v, n: check_int_range(v, n, 1, 6000), "pause": _check_pause}

    def __init__(self):
        super().__init__()
        self.params["rate"] = RATE
        self.ticks = 0.0
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
            self.lanes.append(Lane(method, limb, x - (-2.5 * LANE)))
        reach = BONES * BONE_LENGTH
        self.hops = Hops(center=(-2.5 * LANE, 0.15 * reach, 0.0), r_min=0.35 * reach, r_max=0.85 * reach,
                         period=1.0, seed=11, min_up=-0.1)
        self.hop = 0
        self.pause_left = 0.0
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
        """Every lane back to rest, histories cleared, the race on."""
        for lane in self.lanes:
            lane.limb.bound.reset()
            lane.limb.solution = None
            lane.errors = []
            lane.iterations = 0
            lane.status = "running"
            lane.ms = lane.total_ms = 0.0
            lane.done = False
            self.targets[lane.limb.target].position = self.lane_target(lane)
        self.pause_left = self.params["pause"]
        self.ticks = 0.0

    def place(self, target, position, orientation):
        super().place(target, position, orientation)
        self.start_race()

    def release(self, name=None):
        super().release(name)
        self.pause_left = 0.0

    def params_changed(self, old):
        keys = ("constraints", "tolerance", "max_iterations", "damping")
        if any(old[k] != self.params[k] for k in keys):
            self.start_race()

    def advance(self, dt):
        if not all(lane.done for lane in self.lanes):
            self.ticks += dt * self.params["rate"]
            return
        self.pause_left -= dt
        target = self.targets["target"]
        if self.pause_left <= 0.0 and not target.pinned and self.params["animate"]:
            self.hop += 1
            target.position = self._squash(self.hops.point(self.hop))
            self.start_race()

    def solve(self):
        cap = self.params["max_iterations"]
        per_frame = int(self.ticks)
        self.ticks -= per_frame
        for lane in self.lanes:
            if lane.done or per_frame == 0:
                continue
            limb = lane.limb
            if not lane.errors:
                lane.errors.append(_distance(limb.bound.effector(), self.targets[limb.target].position))
            sol = self.solve_limb(limb, self.targets[limb.target].position, method=lane.method,
                                  max_iterations=min(per_frame, cap - lane.iterations))
            lane.errors.extend(sol.errors[1:])
            lane.iterations += sol.iterations
            lane.ms = limb.ms
            lane.total_ms += limb.ms
            if sol.converged or sol.status == "stalled" or lane.iterations >= cap:
                lane.done = True
                lane.status = sol.status
            elif sol.iterations == 0:
                # Nothing left to do this race (e.g. an unreachable target already pointed at).
                lane.done = True
                lane.status = sol.status

    def report(self, limb):
        # A lane's whole race so far, not just this frame's call.
        for lane in self.lanes:
            if lane.limb is limb:
                return lane.status, (lane.errors[-1] if lane.errors else None), lane.iterations
        return super().report(limb)

    def extras(self):
        return {"race": {"hop": self.hop, "done": all(lane.done for lane in self.lanes),
                         "lanes": [{"method": lane.method, "status": lane.status, "iterations": lane.iterations,
                                    "errors": list(lane.errors), "ms": lane.ms, "total_ms": lane.total_ms,
                                    "shares": lane.shares()} for lane in self.lanes]}}

    def camera(self):
        return {"position": [0.0, 2.2, 7.5], "target": [0.0, 0.8, 0.0]}


def _distance(a, b):
    return ((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2 + (a[2] - b[2]) ** 2) ** 0.5
