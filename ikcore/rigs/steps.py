"""The steps scene: one chain, one target, and its solve shown step by step.

The chain stands on the origin and reaches for a draggable target with the
scene's method; the solve is traced (:func:`ikcore.trace`) whenever the
target or a parameter changes, from the scene's start pose (a gentle curl),
and the chain is drawn in the pose of the step shown: parameter ``step``
(an index into the trace's steps; a link's ``step=5`` opens on step 5). The
page plays the steps (``animate``, at ``rate`` steps a second) or steps
through them; nothing is solved frame by frame.

- ``planar``: a chain of hinges about ``z`` in the ``xy`` plane, seen
  straight on like a figure of a textbook; its target stays in the plane;
  otherwise ball joints in space;
- ``bones``: how many (2 to 8; ``two_bone`` always takes two);
- ``constraints``: the joints' limits (hinges of +-120 degrees, cones of 70),
  off by default: the algorithms as the textbooks first teach them.

A new trace keeps the step shown (the last one when it was shown, or when the
new trace is shorter). :meth:`query` answers ``"trace"`` (per step its error,
phase, iteration and joint: the page's chart) and ``"step"`` (the step shown,
its detail and the pose before it: what the page draws of it).
"""

from .. import rotation as rot
from ..chain import Chain
from ..constraints import BallSocket, Hinge
from ..errors import IKError
from ..skeleton import Skeleton
from ..solvers import METHODS
from ..solvers import method as method_module
from ..trace import trace
from .scene import Limb, Scene, Target

#: The chain's reach, whatever its number of bones.
REACH = 2.0
BONES = 4
#: Steps a second while playing.
RATE = 1.5
#: The largest step index a parameter may name (a trace is checked for its own count).
MAX_STEPS = 1_000_000
#: Each joint's turn in the start pose (radians): a gentle curl toward +x, off the straight line.
CURL = 0.2
PLANAR_TARGET = (1.15, 1.1, 0.0)
SPATIAL_TARGET = (0.95, 1.05, 0.6)
#: Limits, when on: a hinge's range in the planar chain, a ball joint's cone in space (degrees).
HINGE_RANGE = 120.0
CONE = 70.0
Z = (0.0, 0.0, 1.0)


def shape_of(params):
    """What decides the chain: ``(bones, planar)``."""
    return (2 if params["method"] == "two_bone" else params["bones"]), params["planar"]


def chain_of(shape):
    """The rest points and the joints of the chain of ``shape``: bones of one length up the ``y`` axis."""
    bones, planar = shape
    length = REACH / bones
    points = [(0.0, length * i, 0.0) for i in range(bones + 1)]
    joints = [Hinge(Z, -HINGE_RANGE, HINGE_RANGE) if planar else BallSocket(cone_deg=CONE)] * bones
    return points, joints


class StepsScene(Scene):
    """One chain and its solve, step by step (see the module docstring)."""

    name = "steps"
    methods = METHODS
    default_method = "fabrik"
    default_max_iterations = 50
    default_constraints = False
    extra_params = {
        "planar": {"kind": "bool"},
        "bones": {"kind": "int", "min": 2, "max": 8},
        "rate": {"kind": "float", "min": 0.25, "max": 30.0},
        # The page has its own controls for the step shown; the panel leaves it out.
        "step": {"kind": "int", "min": 0, "max": MAX_STEPS, "panel": False},
    }

    def __init__(self):
        super().__init__()
        self.params.update(planar=False, bones=BONES, rate=RATE, step=0, animate=False)
        self.add_target(Target("target", SPATIAL_TARGET, radius=0.06))
        self.shape = None
        self.trace = None
        self._chains = {}  # (shape, constraints) -> the Chain traced
        self.traces = 0  # how many traces so far: the page fetches a trace's steps once
        self._options = self.method_options(self.params["method"])
        self._take(self.params, self._traced(self.params, SPATIAL_TARGET), 0)

    # -- the chain -----------------------------------------------------------------------------

    def _build(self, shape):
        """A new skeleton holding the chain of ``shape``; the layout changes with it."""
        bones = shape[0]
        self.skeleton = Skeleton()
        self.skeleton.add_node("base")
        bound = self.skeleton.add_chain("chain", "base", *chain_of(shape))
        self.limbs = []
        radii = [0.06 - 0.025 * i / max(1, bones - 1) for i in range(bones)]
        self.limb = self.add_limb(Limb(bound, radii, target="target"))
        self.shape = shape
        self.revision += 1

    @staticmethod
    def start_rotations(shape):
        """The start pose: each joint turned by :data:`CURL` about ``z`` (toward ``+x``)."""
        return [rot.from_axis_angle(Z, -CURL)] * shape[0]

    def _traced(self, params, target):
        """The trace of the chain of ``params`` to ``target`` from the start pose (nothing changes)."""
        shape = shape_of(params)
        key = (shape, params["constraints"])
        chain = self._chains.get(key)
        if chain is None:
            points, joints = chain_of(shape)
            chain = self._chains[key] = Chain(points, joints if params["constraints"] else None)
        damping = params["damping"]
        options = {} if damping is None or "damping" not in method_module(params["method"]).OPTIONS else \
            {"damping": damping}
        return trace(chain, target, params["method"], start=self.start_rotations(shape),
                     tolerance=params["tolerance"] * REACH, max_iterations=params["max_iterations"], **options)

    def _take(self, params, traced, index):
        shape = shape_of(params)
        if shape != self.shape:
            self._build(shape)
        self.trace = traced
        self.traces += 1
        self.params["step"] = index
        self.show(index)

    def show(self, index):
        """Draw the chain in the pose of step ``index``."""
        self.params["step"] = index
        self.limb.bound.take_points(self.trace.steps[index].positions)

    # -- input ---------------------------------------------------------------------------------

    def set_params(self, **params):
        """As :meth:`Scene.set_params`, and ``step`` is checked against the trace of the new
        parameters: a step it does not have refuses the whole call."""
        new = self.checked_params(params)
        old_trace = self.trace
        keys = ("method", "tolerance", "max_iterations", "damping", "constraints", "planar", "bones")
        target = self._in_plane(new, self.targets["target"].position)
        retrace = any(new[k] != self.params[k] for k in keys) or target != self.targets["target"].position
        traced = self._traced(new, target) if retrace else old_trace
        asked = params.get("step") is not None
        index = new["step"] if asked else self._index(traced, old_trace, self.params["step"])
        if index >= len(traced.steps):
            raise IKError(f"step must be in [0, {len(traced.steps) - 1}] (the trace has {len(traced.steps)} steps), "
                          f"got {index}")
        self.apply_params(new)
        self.targets["target"].position = target
        if retrace:
            self._take(new, traced, index)
        else:
            self.show(index)

    def place(self, target, position, orientation):
        position = self._in_plane(self.params, position)
        traced = self._traced(self.params, position)
        super().place(target, position, orientation)
        self._take(self.params, traced, self._index(traced, self.trace, self.params["step"]))

    @staticmethod
    def _in_plane(params, position):
        """A planar chain's target stays in its plane."""
        return (position[0], position[1], 0.0) if params["planar"] else position

    @staticmethod
    def _index(traced, old, index):
        """The step a new trace shows: the one shown before, or the last when the last was shown or
        the new trace is shorter."""
        last = len(traced.steps) - 1
        return last if old is None or index >= len(old.steps) - 1 else min(index, last)

    def held(self, target):
        # The target never moves by itself: links keep it.
        return True

    def scripted(self, target):
        return False

    def param_methods(self):
        uses = super().param_methods()
        uses["bones"] = [m for m in self.methods if m != "two_bone"]
        return uses

    # -- the frame -----------------------------------------------------------------------------

    def solve(self):
        """Nothing to solve each frame: the trace is made when something changes."""

    def report(self, limb):
        steps = self.trace.steps
        step = steps[self.params["step"]]
        status = self.trace.solution.status if step is steps[-1] else "running"
        return status, step.error, step.iteration

    # -- what the page reads -------------------------------------------------------------------

    def extras(self):
        steps = self.trace.steps
        index = self.params["step"]
        step = steps[index]
        return {"steps": {"index": index, "count": len(steps), "iteration": step.iteration, "phase": step.phase,
                          "joint": step.joint, "caption": step.caption, "error": step.error,
                          "status": self.trace.solution.status, "trace": self.traces},
                "planar": self.params["planar"]}

    def query(self, name):
        if name == "trace":
            steps = self.trace.steps
            return {"trace": self.traces, "count": len(steps), "errors": [s.error for s in steps],
                    "phases": [s.phase for s in steps], "iterations": [s.iteration for s in steps],
                    "joints": [s.joint for s in steps], "tolerance": self.params["tolerance"] * REACH,
                    "solution": {"status": self.trace.solution.status, "iterations": self.trace.solution.iterations}}
        if name == "step":
            index = self.params["step"]
            step = self.trace.steps[index].as_dict()
            before = self.trace.steps[max(index - 1, 0)].positions
            return {"trace": self.traces, "index": index, **step, "before": [list(p) for p in before],
                    "target": list(self.targets["target"].position)}
        return super().query(name)

    def camera(self):
        if self.params["planar"]:
            return {"position": [0.0, 0.9, 6.0], "target": [0.0, 0.9, 0.0]}
        # At the chain's mid-height, a few degrees above it: the chain stands tall in the view, and the
        # box's depth (the target lies in front of the chain's plane) adds little to its height on screen.
        return {"position": [2.0, 1.25, 4.0], "target": [0.4, 0.95, 0.3]}

    def bounds(self):
        # What the camera frames: the chain and its target, drawn large. The start pose curls toward +x
        # and the targets a reader tries lie in front of it, so the box holds the chain's height, the
        # side it curls to and a little of the other (a step may swing a bone there): not the whole
        # sphere of its reach, which would draw the chain a quarter of the view's height. In space the
        # box is as shallow as the opening traces allow: its depth, seen in perspective, draws its near
        # corners larger than the chain and takes height from it.
        if self.params["planar"]:
            return {"min": [-0.2 * REACH, 0.0, -0.05], "max": [0.85 * REACH, 1.02 * REACH, 0.05]}
        return {"min": [-0.2 * REACH, 0.0, -0.025 * REACH], "max": [0.62 * REACH, 1.02 * REACH, 0.41 * REACH]}
