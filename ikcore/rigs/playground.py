"""The playground: the reader's own solver, written in the page, racing ikcore's methods.

The scene holds the reader's code (:attr:`PlaygroundScene.source`): a template of
:mod:`~ikcore.rigs.templates` at first (``template``, a parameter), the reader's own
once the page sends it with :meth:`PlaygroundScene.run_code` (the page does so only when
the reader presses Run: code that arrives in a link is shown, not run). Its lanes stand
as the race's do (:func:`ikcore.rigs.race.lane_root`): lane 0 the reader's solver
(``yours``), then one lane per rival: the ikcore methods of the parameter ``rivals`` (a set
out of :data:`~ikcore.rigs.race.RACERS`), by default CCD, FABRIK and the Jacobian transpose,
the methods the templates write. Other rivals make the lanes anew (a new ``revision`` of the
layout) and race them with the code the scene holds: a template, or code the reader ran (never
code that only sits in the page's editor). The chain is the one
:func:`~ikcore.rigs.solver_race.playground_chain` makes (six bones, no joint limits), the
reader's solver sees it in its lane's own frame (root at the origin, straight up at rest).

A race starts when the code is run and whenever the target moves. Each lane is solved
from rest, one a frame: the reader's by :func:`~ikcore.rigs.solver_run.run_solver` (under
a budget of :data:`~ikcore.rigs.solver_race.BUDGET` seconds; a run that spends it stops
the reader's lane until the code is run again, so that dragging the target does not
freeze the page once a second), ikcore's by :func:`~ikcore.rigs.solver_race.method_run`.
Then the lanes replay their runs iteration by iteration at ``rate`` iterations a second,
as the race scene's do, and ``state()`` gives the curves in the race's shape (so that the
page's race chart draws them) and, under ``playground``, what the reader's code did: its
status, message and line, and what it printed.
"""

import math

from .. import rotation as rot
from ..skeleton import Skeleton
from .race import BONES, RACERS, RADIUS, TARGET_RADIUS, lane_box, lane_root
from .sandbox import Budget, ReaderError, load
from .scene import Limb, Scene, Target, box
from .solver_race import BUDGET, method_run, playground_chain
from .solver_run import Run, run_solver
from .templates import TEMPLATES, source

#: ikcore's methods in the lanes after the reader's at first (``rivals`` chooses them out of RACERS).
RIVALS = ("ccd", "fabrik", "jacobian_transpose")
#: Where the target stands at first, in lane 0's frame: up and out to the side, a bend for every solver.
START_TARGET = (0.45, 0.95, 0.3)
#: Iterations replayed per second.
RATE = 12
#: Longest source text taken (characters).
MAX_SOURCE = 20000


class PlaygroundScene(Scene):
    """The reader's solver (lane 0) racing ikcore's methods (the other lanes)."""

    name = "playground"
    default_method = "fabrik"
    default_max_iterations = 200
    default_constraints = False
    #: ``columns``: lanes a row, up to one row of every lane ``rivals`` can give (a value above the
    #: number of lanes stands them in one row, as that number does).
    extra_params = {"rate": {"kind": "int", "min": 1, "max": 6000}, "replay": {"kind": "bool"},
                    "template": {"kind": "choice", "choices": list(TEMPLATES), "panel": False},
                    "rivals": {"kind": "subset", "choices": list(RACERS)},
                    "columns": {"kind": "int", "min": 1, "max": 1 + len(RACERS), "panel": False}}
    timed_every = 1

    def __init__(self):
        super().__init__()
        self.params.update(rate=RATE, replay=True, template=TEMPLATES[0], rivals=RIVALS, columns=1 + len(RIVALS))
        self.chain = playground_chain()
        self.add_target(Target("target", START_TARGET, radius=TARGET_RADIUS))
        self._build_lanes()
        self.elapsed = 0.0
        self.output = []
        self.runs_of_code = 0
        self.load(source(self.params["template"]))

    def _build_lanes(self):
        """The lanes of ``rivals`` after the reader's, each with its chain and (but lane 0) its target;
        the reader's target keeps its place."""
        self.names = ("yours", *self.params["rivals"])
        self.skeleton = Skeleton()
        self.limbs, self.lanes = [], []
        self.targets = {"target": self.targets["target"]}
        for k, name in enumerate(self.names):
            self.skeleton.add_node(f"lane{k}", translation=lane_root(k, self.params["columns"]))
            bound = self.skeleton.add_chain(name, f"lane{k}", self.chain.points)
            radii = [RADIUS - 0.004 * i for i in range(BONES)]
            self.lanes.append(self.add_limb(Limb(bound, radii, target="target" if k == 0 else f"target@{name}")))
        for k, name in enumerate(self.names[1:], 1):
            self.add_target(Target(f"target@{name}", self.lane_target(k), draggable=False, radius=TARGET_RADIUS))
        self.runs = [None] * len(self.lanes)

    # -- the reader's code ------------------------------------------------------------------------

    def load(self, text):
        """Take ``text`` as the reader's code: compile it and run its top level (within the budget),
        then race. A mistake there is the reader's lane's result (status ``error`` or ``timeout``)."""
        self.source = text
        self.runs_of_code += 1
        self.output = []
        self.function = None
        self.load_error = None
        self.halted = None  # (message, line) of a run that ran out of time
        try:
            self.function = load(text, Budget(BUDGET), output=self.output)
        except ReaderError as exc:
            self.load_error = exc
        self.start_race()

    def run_code(self, text):
        """Run the reader's code ``text`` (what the page's Run sends): a new race, the reader's lane
        decided at once (so that the page tells the reader what their code did as soon as it is known;
        ikcore's lanes follow, one a frame)."""
        if not isinstance(text, str):
            raise ReaderError("syntax", f"the code must be text, got {type(text).__name__}")
        if len(text) > MAX_SOURCE:
            raise ReaderError("syntax", f"the code is {len(text)} characters long; at most {MAX_SOURCE} run")
        self.load(text)
        self.runs[0] = self._race(0)

    def params_changed(self, old):
        if old["rivals"] != self.params["rivals"]:
            # Other lanes: a new layout, which the page asks for (and draws) anew.
            self._build_lanes()
            self.revision += 1
        if old["template"] != self.params["template"]:
            self.load(source(self.params["template"]))
        elif old["rivals"] != self.params["rivals"]:
            self.start_race()
        elif old["columns"] != self.params["columns"]:
            self._arrange()
        elif any(old[k] != self.params[k] for k in ("tolerance", "max_iterations")):
            self.start_race()

    # -- the race --------------------------------------------------------------------------------

    def lane_target(self, k):
        """The target in lane ``k``'s place (lane 0's, moved by its root)."""
        x, y, z = self.targets["target"].position
        rx, _, rz = lane_root(k, self.params["columns"])
        return (x + rx, y, z + rz)

    def _arrange(self):
        for k, limb in enumerate(self.lanes):
            self.skeleton.node(f"lane{k}").translation = lane_root(k, self.params["columns"])
            if k:
                self.targets[limb.target].position = self.lane_target(k)

    def start_race(self):
        self.runs = [None] * len(self.lanes)
        self.elapsed = 0.0
        for k, limb in enumerate(self.lanes[1:], 1):
            self.targets[limb.target].position = self.lane_target(k)

    def place(self, target, position, orientation):
        super().place(target, position, orientation)
        self.start_race()

    def advance(self, dt):
        self.elapsed += dt

    @property
    def done(self):
        return all(run is not None for run in self.runs)

    def solve(self):
        for k, run in enumerate(self.runs):
            if run is None:
                self.runs[k] = self._race(k)
                break
        self._replay()

    def _race(self, k):
        # Lane k's run from rest, toward the target in lane 0's frame (every lane's own frame is alike).
        target = self.targets["target"].position
        tolerance = self.params["tolerance"] * self.chain.reach
        cap = self.params["max_iterations"]
        if k:
            run = method_run(self.chain, target, self.names[k], tolerance=tolerance, max_iterations=cap, poses=True)
        elif self.load_error is not None:
            error = self.load_error
            run = Run("yours", "timeout" if error.kind == "timeout" else "error", [self._rest_error()], 0,
                      [list(self.chain.points)], error.message, error.line)
        elif self.halted:
            message, line = self.halted
            run = Run("yours", "timeout", [self._rest_error()], 0, [list(self.chain.points)],
                      f"{message} Not run again until you press Run.", line)
        else:
            run = run_solver(self.function, self.chain, target, tolerance=tolerance, max_iterations=cap,
                             budget=Budget(BUDGET))
            if run.status == "timeout":
                self.halted = (run.message, run.line)
        self.lanes[k].ms = run.ms
        return run

    def _rest_error(self):
        return math.dist(self.chain.points[-1], self.targets["target"].position)

    def shown(self, run):
        """The iteration of ``run`` drawn now: where the replay has got to."""
        if not self.params["replay"]:
            return run.iterations
        return min(run.iterations, int(self.elapsed * self.params["rate"]))

    def _replay(self):
        for limb, run in zip(self.lanes, self.runs):
            if run is not None and run.poses:
                limb.bound.take_points(run.poses[min(self.shown(run), len(run.poses) - 1)])

    def report(self, limb):
        run = self.runs[self.lanes.index(limb)] if limb in self.lanes else None
        if run is None:
            return "running", None, 0
        k = self.shown(run)
        if k < run.iterations:
            return "running", run.errors[k], k
        return run.status, run.errors[-1], run.iterations

    def extras(self):
        lanes = []
        for limb, run in zip(self.lanes, self.runs):
            angles = [rot.angle(q) for q in limb.bound.rotations]
            total = sum(angles)
            lanes.append({"method": limb.name, "status": "running" if run is None else run.status,
                          "iterations": 0 if run is None else run.iterations,
                          "shown": -1 if run is None else self.shown(run),
                          "errors": [] if run is None else list(run.errors), "ms": limb.ms,
                          "shares": [a / total if total > 0.0 else 0.0 for a in angles],
                          "message": None if run is None else run.message,
                          "line": None if run is None else run.line})
        yours = self.runs[0]
        return {"race": {"hop": self.runs_of_code, "done": self.done, "elapsed": self.elapsed,
                         "rate": self.params["rate"], "replay": self.params["replay"], "lanes": lanes},
                "playground": {"runs": self.runs_of_code, "template": self.params["template"],
                               "status": None if yours is None else yours.status,
                               "message": None if yours is None else yours.message,
                               "line": None if yours is None else yours.line,
                               "output": "".join(self.output)}}

    # -- the page's framing (as the race's) ------------------------------------------------------

    def camera(self, columns=None):
        columns = self.params["columns"] if columns is None else columns
        b = self.bounds(columns)
        target = [(lo + hi) / 2.0 for lo, hi in zip(b["min"], b["max"])]
        up = 0.25 if columns >= len(self.lanes) else 0.6
        return {"position": [target[0], target[1] + 10.0 * up, target[2] + 10.0], "target": target}

    def bounds(self, columns=None):
        columns = self.params["columns"] if columns is None else columns
        boxes = [lane_box(k, columns) for k in range(len(self.lanes))]
        return box([b["min"] for b in boxes] + [b["max"] for b in boxes])

    def arrangements(self):
        """As :meth:`ikcore.rigs.race.RaceScene.arrangements`: per number of lanes a row (every value
        ``columns`` takes), the roots, the box and the camera."""
        top = self.extra_params["columns"]["max"]
        return [{"columns": c, "roots": [list(lane_root(k, c)) for k in range(len(self.lanes))],
                 "bounds": self.bounds(c), "camera": self.camera(c)} for c in range(1, top + 1)]

    def layout(self):
        out = super().layout()
        out["race"] = {"arrangements": self.arrangements(), "label_ahead": 0.55 * self.chain.reach}
        out["playground"] = {"templates": {name: source(name) for name in TEMPLATES}, "budget": BUDGET,
                             "max_source": MAX_SOURCE}
        return out

    def param_methods(self):
        return {"method": []}

    def scripted(self, target):
        return False
