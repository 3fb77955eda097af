"""The race: the same chain, the same target, one lane per method.

Six copies of one chain stand in lanes, each solved by its own method: CCD,
FABRIK, Jacobian transpose, pseudo-inverse, DLS and FABRIK then DLS. The lanes
stand in rows of ``columns`` (a parameter: 6, one row, for a wide page; 3, two
rows, for a tall one; the page picks the arrangement its canvas shows largest,
from :meth:`RaceScene.arrangements`), lane 0 at the origin whatever
the arrangement, the others to its right (+x) and in front of it (+z), so a
target placed relative to lane 0 means the same in every arrangement. One
target, placed relative to lane 0 (the draggable one) and copied to every lane.

Each lane keeps within its own box about its root (:data:`LANE_BOX`): the
targets hop within a small part of the chain's reach (:data:`HOPS`), mostly
in the plane the page sees the lane in (x and y), less in depth, so that
the chains, which reach the targets from rest, stay narrow enough for six to
stand side by side and be drawn large.

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

import math

from .. import rotation as rot
from ..constraints import BallSocket
from ..skeleton import Skeleton
from ..solve import METHODS
from ..trace import trace
from .paths import Hops
from .scene import Limb, Scene, Target, box

RACERS = ("ccd", "fabrik", "jacobian_transpose", "pseudo_inverse", "dls", "fabrik_dls")
BONES = 6
BONE_LENGTH = 0.25
REACH = BONES * BONE_LENGTH
RADIUS = 0.05  # the thickest bone's (the first)
TARGET_RADIUS = 0.06
PAUSE = 1.5  # seconds between a race's curves all drawn and the next hop
#: Iterations per second, for drawing the curves and replaying the solves: slow enough to see the lanes
#: race (the fastest methods take 2 to 4 iterations, the Jacobian transpose 7 to 20).
RATE = 4

#: Where the target hops, relative to lane 0's root, in units of the reach: a point of the shell between
#: ``r_min`` and ``r_max`` about ``center_up`` above the root (above a floor tilted by ``min_up``, see
#: :class:`~.paths.Hops`), then drawn in towards the root's vertical: sideways (x) to ``squash[0]`` of
#: its offset, in depth (z) to ``squash[1]``. Its distance from the root is at most ``center_up + r_max``
#: = 1.12 reach (straight up): about one race in thirty is just out of reach; none comes nearer than
#: about 0.4 reach, where a chain folds up and CCD curls it sideways.
HOPS = {"center_up": 0.4, "r_min": 0.45, "r_max": 0.72, "min_up": -0.25, "squash": (0.3, 0.5), "seed": 11}
#: The box about a lane's root that its targets and the poses its chain reaches them in keep within, in
#: units of the reach: ``(low, high)`` corners. The targets' own box follows from :data:`HOPS` (x within
#: +-0.3 x 0.72, y from 0.4 - 0.25 x 0.72 to 1.12, z within +-0.5 x 0.72, widened by the target's
#: radius); the decided poses reach further sideways and in depth (CCD's most: 0.32 and 0.43 of the reach
#: over 300 races, widened by a bone's radius). (On the way there a solve may swing a chain further
#: out for an iteration or two, the Jacobian transpose most: the box holds where the race is decided.)
LANE_BOX = ((-0.355, -0.035, -0.47), (0.355, 1.16, 0.47))
#: The distance between neighbouring lanes of a row (x) and between rows (z), in units of the reach: the
#: lanes' boxes do not overlap, and from the camera of a grid (:meth:`RaceScene.camera`) a row's chains
#: stand above the names of the row in front of it.
LANE = 0.73
ROW = 2.6
#: Lanes a row at first: one row (a wide page; the page then picks what its shape shows largest).
COLUMNS = 6
#: How far in front of a lane's root its name stands (z, in units of the reach): just before its box.
LABEL_AHEAD = LANE_BOX[1][2] + 0.08
#: The camera's height above the horizon, looking at one row of lanes or at a grid of them (degrees):
#: low for one row (the chains upright on the page, their depth seen enough to tell it), higher for rows
#: behind one another, so that each row shows above the one in front of it.
ELEVATION_ROW = 14.0
ELEVATION_GRID = 36.0


def lane_root(k, columns=COLUMNS):
    """Where lane ``k``'s chain stands, ``(x, 0, z)``, with ``columns`` lanes a row: lane 0 at the
    origin, the row going right (+x), the next row in front (+z)."""
    column, row = k % columns, k // columns
    return (column * LANE * REACH, 0.0, row * ROW * REACH)


def lane_box(k, columns=COLUMNS):
    """Lane ``k``'s box (see :data:`LANE_BOX`): ``{"min": [x, y, z], "max": [x, y, z]}``."""
    root = lane_root(k, columns)
    return {"min": [c + REACH * v for c, v in zip(root, LANE_BOX[0])],
            "max": [c + REACH * v for c, v in zip(root, LANE_BOX[1])]}


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
    #: ``columns``: lanes a row (the page sets it for its shape, see :meth:`arrangements`).
    extra_params = {"rate": {"kind": "int", "min": 1, "max": 6000}, "pause": {"kind": "float", "min": 0.0, "max": 60.0},
                    "replay": {"kind": "bool"},
                    "columns": {"kind": "int", "min": 1, "max": len(RACERS), "panel": False}}
    #: Each lane is solved once a race, on a frame of its own: every one is timed.
    timed_every = 1

    def __init__(self):
        super().__init__()
        self.params["rate"] = RATE
        self.params["pause"] = PAUSE
        self.params["replay"] = True
        self.params["columns"] = COLUMNS
        self.skeleton = Skeleton()
        points = [(0.0, BONE_LENGTH * i, 0.0) for i in range(BONES + 1)]
        joints = [BallSocket(cone_deg=75.0)] * BONES
        self.lanes = []
        for k, method in enumerate(RACERS):
            self.skeleton.add_node(f"lane{k}", translation=lane_root(k))
            bound = self.skeleton.add_chain(method, f"lane{k}", points, joints)
            radii = [RADIUS - 0.004 * i for i in range(BONES)]
            limb = self.add_limb(Limb(bound, radii, target="target" if k == 0 else f"target@{method}"))
            x, _, z = lane_root(k)
            self.lanes.append(Lane(method, limb, (x, z)))
        # report() runs for every limb every frame: a lookup, not a walk over the lanes.
        self._lane_of = {lane.limb: lane for lane in self.lanes}
        # About lane 0's root, the origin (see HOPS).
        self.hops = Hops(center=(0.0, HOPS["center_up"] * REACH, 0.0), r_min=HOPS["r_min"] * REACH,
                         r_max=HOPS["r_max"] * REACH, period=1.0, seed=HOPS["seed"], min_up=HOPS["min_up"])
        self.hop = 0
        self.elapsed = 0.0
        self.add_target(Target("target", self._squash(self.hops.point(0)), radius=TARGET_RADIUS))
        for lane in self.lanes[1:]:
            self.add_target(Target(f"target@{lane.method}", self.lane_target(lane), draggable=False,
                                   radius=TARGET_RADIUS))
        self.start_race()

    @staticmethod
    def _squash(p):
        # A hop drawn in towards lane 0's root's vertical (see HOPS): narrow sideways, shallow in depth.
        sx, sz = HOPS["squash"]
        return (sx * p[0], p[1], sz * p[2])

    def _arrange(self):
        """Stand the lanes in rows of ``columns``: each lane's root and target move with it (lane 0's stay
        where they are); the chains keep their poses, in their lanes' frames, and the race goes on."""
        columns = self.params["columns"]
        for k, lane in enumerate(self.lanes):
            x, y, z = lane_root(k, columns)
            self.skeleton.node(f"lane{k}").translation = (x, y, z)
            lane.offset = (x, z)
            self.targets[lane.limb.target].position = self.lane_target(lane)

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
        if old["columns"] != self.params["columns"]:
            self._arrange()
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

    def camera(self, columns=None):
        """From the front and above, looking at the middle of the lanes (see :data:`ELEVATION_ROW`)."""
        columns = self.params["columns"] if columns is None else columns
        box_ = self.bounds(columns)
        target = [(lo + hi) / 2.0 for lo, hi in zip(box_["min"], box_["max"])]
        one_row = columns >= len(self.lanes)
        e = math.radians(ELEVATION_ROW if one_row else ELEVATION_GRID)
        # Only the direction counts: the page puts the camera where the box fits its canvas.
        d = 10.0
        return {"position": [target[0], target[1] + d * math.sin(e), target[2] + d * math.cos(e)],
                "target": target}

    def bounds(self, columns=None):
        """The lanes' boxes (:func:`lane_box`) together: what the race's targets and decided poses keep
        within, with ``columns`` lanes a row (the current arrangement by default)."""
        columns = self.params["columns"] if columns is None else columns
        boxes = [lane_box(k, columns) for k in range(len(self.lanes))]
        return box([b["min"] for b in boxes] + [b["max"] for b in boxes])

    def arrangements(self):
        """What the page arranges the lanes from: for each value of ``columns`` (1 to 6), the lanes'
        ``roots``, the box it frames and the camera it is seen from (the page takes, among those with full
        rows, the one whose box its camera draws largest). The buffer is the same in every arrangement
        (the chains are written in their lanes' frames): the page follows a change of ``columns`` without
        a new layout."""
        return [{"columns": c, "roots": [list(lane_root(k, c)) for k in range(len(self.lanes))],
                 "bounds": self.bounds(c), "camera": self.camera(c)} for c in range(1, len(self.lanes) + 1)]

    def layout(self):
        out = super().layout()
        out["race"] = {"arrangements": self.arrangements(), "label_ahead": LABEL_AHEAD * REACH}
        return out

    def param_methods(self):
        # Every lane solves with its own method, so the scene's method is used by none, and the
        # parameters of any method are used by one of the lanes.
        return {"method": []}

    def scripted(self, target):
        # The lanes' target hops to its next spot when released.
        return target.draggable
