"""The race: the same chain, the same target, one lane per method.

Six copies of one chain stand in two rows of three (:func:`lane_root`: the
first three lanes behind, along x, the other three in front of them), each
solved by its own method: CCD, FABRIK, Jacobian transpose, pseudo-inverse, DLS
and FABRIK then DLS. Three lanes to a row leave each one a third of the
page's width, where six in a line would draw them half as large. One target,
placed relative to lane 0 (the draggable one) and copied to every lane.

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

The replay (``replay``, on by default) shows the race at that pace in the
chains too (a race the scene starts by itself only while ``animate`` is on): ``elapsed x rate`` seconds into a race, each lane is drawn in its
pose after that many iterations (its final pose once it has no more), and
reports ``running`` with that iteration's error until then. A lane's pose
after ``k`` iterations is that of its own solve: the same solve traced
(:func:`ikcore.trace`, once a race, when the replay first needs it; not timed,
and not the lane's result), whose :meth:`~ikcore.trace.Trace.poses` give the
pose after each iteration, with the curve's ``k``-th error.

Per lane the state also gives each joint's share of the total rotation from
rest (``angle(q_i) / sum_j angle(q_j)``): CCD turns the joints nearest the end
effector most, and the shares make that bias visible.
"""

from .. import rotation as rot
from ..constraints import BallSocket
from ..skeleton import Skeleton
from ..solve import METHODS
from ..trace import trace
from .paths import Hops
from .scene import Limb, Scene, Target, box

RACERS = ("ccd", "fabrik", "jacobian_transpose", "pseudo_inverse", "dls", "fabrik_dls")
#: Lanes a row, the distance between neighbouring lanes of a row (x) and between the rows (z): the targets
#: stay within 0.35 of the reach of their lane's root on x and within 0.85 of it on z (see RaceScene._squash).
COLUMNS = 3
LANE = 2.0
ROW = 3.2
BONES = 6
BONE_LENGTH = 0.25
PAUSE = 1.5  # seconds between a race's curves all drawn and the next hop
#: Iterations per second, for drawing the curves and replaying the solves: slow enough to see the lanes
#: race (the fastest methods take 2 to 4 iterations, the Jacobian transpose 7 to 13).
RATE = 4


def lane_root(k):
    """Where lane ``k``'s chain stands: ``(x, 0, z)``, row by row from the back."""
    column, row = k % COLUMNS, k // COLUMNS
    return ((column - 1) * LANE, 0.0, (row - 0.5) * ROW)


class Lane:
    """One method's copy of the chain and its race so far."""

    __slots__ = ("method", "limb", "offset", "errors", "iterations", "status", "ms", "done", "final", "shown",
                 "poses")

    def __init__(self, method, limb, offset):
        self.method = method
        self.limb = limb
        self.offset = offset
        self.errors = []
        self.iterations = 0
        self.status = None
        self.ms = 0.0
        self.done = False
        self.final = None  # the rotations the lane's solve ended with
        self.shown = -1  # the iteration whose pose the lane is drawn in (-1: none of this race yet)
        self.poses = None  # the points after each iteration, in the lane's frame (traced when first needed)

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
    #: ``replay``: draw each lane's pose iteration by iteration at ``rate``.
    extra_params = {"rate": {"kind": "int", "min": 1, "max": 6000}, "pause": {"kind": "float", "min": 0.0, "max": 60.0},
                    "replay": {"kind": "bool"}}
    #: Each lane is solved once a race, on a frame of its own: every one is timed.
    timed_every = 1

    def __init__(self):
        super().__init__()
        self.params["rate"] = RATE
        self.params["pause"] = PAUSE
        self.params["replay"] = True
        self.skeleton = Skeleton()
        points = [(0.0, BONE_LENGTH * i, 0.0) for i in range(BONES + 1)]
        joints = [BallSocket(cone_deg=75.0)] * BONES
        self.lanes = []
        for k, method in enumerate(RACERS):
            self.skeleton.add_node(f"lane{k}", translation=lane_root(k))
            bound = self.skeleton.add_chain(method, f"lane{k}", points, joints)
            radii = [0.05 - 0.004 * i for i in range(BONES)]
            limb = self.add_limb(Limb(bound, radii, target="target" if k == 0 else f"target@{method}"))
            x, _, z = lane_root(k)
            x0, _, z0 = lane_root(0)
            self.lanes.append(Lane(method, limb, (x - x0, z - z0)))
        # report() runs for every limb every frame: a lookup, not a walk over the lanes.
        self._lane_of = {lane.limb: lane for lane in self.lanes}
        reach = BONES * BONE_LENGTH
        x0, _, z0 = lane_root(0)
        self.hops = Hops(center=(x0, 0.15 * reach, z0), r_min=0.35 * reach, r_max=0.85 * reach,
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
        x0 = lane_root(0)[0]
        return (x0 + 0.4 * (p[0] - x0), p[1], p[2])

    def lane_target(self, lane):
        x, y, z = self.targets["target"].position
        dx, dz = lane.offset
        return (x + dx, y, z + dz)

    def start_race(self):
        """Results cleared, the race on (each lane is solved from rest in turn)."""
        for lane in self.lanes:
            # The lane keeps showing its last pose until it is solved again (no flicker while dragging).
            lane.errors = []
            lane.iterations = 0
            lane.status = "running"
            lane.ms = 0.0
            lane.done = False
            lane.final = None
            lane.shown = -1
            lane.poses = None
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

    @property
    def replayed(self):
        """Whether every lane is solved and drawn in its final pose (the replay, if on, is over)."""
        return all(lane.done and lane.shown == lane.iterations for lane in self.lanes)

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
            lane.final = list(limb.bound.rotations)
            lane.shown = sol.iterations
            lane.done = True
            break
        self._replay()

    def due(self, lane):
        """The iteration whose pose ``lane`` is to be drawn in now: where the replay has got to.

        A race the scene starts by itself (the first, a hop) is scripted motion: with ``animate`` off it
        is shown decided, not replayed; a race the user starts (placing the target) is replayed.
        """
        if not self.params["replay"] or not (self.params["animate"] or self.targets["target"].pinned):
            return lane.iterations
        return min(lane.iterations, int(self.elapsed * self.params["rate"]))

    def _replay(self):
        # Each solved lane in the pose of the iteration due, when that changed since the last frame.
        for lane in self.lanes:
            if not lane.done:
                continue
            k = self.due(lane)
            if k == lane.shown:
                continue
            bound = lane.limb.bound
            if k == lane.iterations:
                bound.set_rotations(lane.final)
            elif k == 0:
                bound.set_rotations([rot.IDENTITY] * bound.chain.size)
            else:
                if lane.poses is None:
                    lane.poses = self._traced(lane)
                bound.take_points(lane.poses[k])
            lane.shown = k

    def _traced(self, lane):
        """The points after each iteration of ``lane``'s solve, in its frame: the solve traced (neither
        timed nor the lane's result, which it equals)."""
        bound = lane.limb.bound
        target = bound.to_local(self.targets[lane.limb.target].position)
        return trace(bound.chain, target, lane.method, start=[rot.IDENTITY] * bound.chain.size,
                     max_iterations=self.params["max_iterations"], tolerance=self.params["tolerance"] * lane.limb.reach,
                     **self.method_options(lane.method)).poses()

    def report(self, limb):
        lane = self._lane_of.get(limb)
        if lane is None:
            return super().report(limb)
        if lane.done and lane.shown < lane.iterations:
            return "running", lane.errors[lane.shown], lane.shown
        return lane.status, (lane.errors[-1] if lane.errors else None), lane.iterations

    def extras(self):
        return {"race": {"hop": self.hop, "done": self.done, "elapsed": self.elapsed, "rate": self.params["rate"],
                         "replay": self.params["replay"],
                         "lanes": [{"method": lane.method, "status": lane.status, "iterations": lane.iterations,
                                    "shown": lane.shown, "errors": list(lane.errors), "ms": lane.ms,
                                    "shares": lane.shares()}
                                   for lane in self.lanes]}}

    def camera(self):
        # From the front and above: the back row shows above the front one.
        return {"position": [0.0, 6.0, 8.5], "target": [0.0, 0.4, 0.0]}

    def bounds(self):
        # The box of the hops (see __init__ and _squash) copied to each lane, and the lanes' chains in the
        # poses they reach for them: up to 0.6 of their reach sideways and a little below their roots. (On
        # the way there a solve may swing a chain further out for an iteration or two: CCD, the Jacobian
        # transpose; the camera frames where the race is decided.)
        reach = BONES * BONE_LENGTH
        r = self.hops.r_max
        low = min(self.hops.center[1] + self.hops.min_up * r, -0.1 * reach)
        points = []
        for k in range(len(self.lanes)):
            x, _, z = lane_root(k)
            points += [(x - 0.6 * reach, low, z - r), (x + 0.6 * reach, max(reach, self.hops.center[1] + r), z + r)]
        return box(points, 0.1)

    def param_methods(self):
        # Every lane solves with its own method, so the scene's method is used by none, and the
        # parameters of any method are used by one of the lanes.
        return {"method": []}

    def scripted(self, target):
        # The lanes' target hops to its next spot when released.
        return target.draggable
