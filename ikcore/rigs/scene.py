"""Scenes for the page: the common base, the registry, and the per-frame contract.

The contract
------------
::

    scene = make_scene("spider")          # one of SCENES: arm, tentacles, spider, race, robot, crowd, steps,
                                          # playground, humanoid
    layout = scene.layout()               # once: counts, offsets, static descriptions (again when
                                          # its "revision" changes: the steps scene's chain)
    buf = scene.allocate()                # once: array('d') of layout["size"] floats
    every frame:
        scene.step(dt)                    # advance time, move scripted targets, solve every chain
        scene.write(buf)                  # fill buf in place: nothing is allocated
    on input:
        scene.set_target(name, (x, y, z), orientation=None)
        scene.release(name=None)          # hand a dragged target back to its script
        scene.set_params(method=..., tolerance=..., max_iterations=..., damping=...,
                         constraints=..., animate=..., **scene_specific)
    for the HUD and tests:
        scene.state()                     # {scene, method, frame, time, chains: [...], ...}

``step(dt)`` takes seconds (``dt >= 0``, finite; steps above :data:`MAX_DT` are
cut to it so a tab that slept does not teleport anything). Each chain is solved
once per frame, warm-started from the previous frame's rotations, with the
scene's method, ``max_iterations`` iterations at most, and the tolerance
``tolerance x reach`` (``tolerance`` is relative to each chain's reach). Every
setter validates its input and raises :class:`ikcore.IKError` naming the bad
value; a refused call changes nothing.

The buffer
----------
``layout()["sections"]`` gives each section's ``offset`` (in floats), ``count``
(records) and ``stride`` (floats per record). Coordinates are Y up; a chain's
bone and joint records are in that chain's own frame (the node it hangs from),
whose world pose is the chain's ``frames`` record; everything else is in world
coordinates. :func:`ikcore.rigs.frames.to_world` (and the page's ``frames.js``)
turns the chains' records into the world in place:

``bones``   ``[x0, y0, z0, x1, y1, z1, radius, kind]``: a capsule from the first
            point to the second; ``kind`` is a code of ``layout()["kinds"]``
            (``bone``, ``tip`` for a chain's last bone, ``body``, ``link`` for
            a bone no solver moves). A chain's bones come first (in its
            frame: its ``link`` from the frame's origin to its root, if it
            has one, then its own), then the extra bones (in the world).
``joints``  ``[x, y, z, radius, qw, qx, qy, qz]``: every chain point, root
            first; ``q`` is the rotation of the frame the joint's limits are
            written in (its parent bone's frame; the chain's own frame for the
            root; for a chain's last point, the last bone's frame), to draw
            hinge arcs and cones with the constraint descriptions of
            ``layout()["chains"][k]["constraints"]``.
``targets`` ``[x, y, z, qw, qx, qy, qz, radius]``: in the order of
            ``layout()["targets"]`` (which says which are draggable and which
            carry an orientation; identity otherwise).
``chains``  ``[status, error, iterations, ms, *measures]``: ``status`` indexes
            ``layout()["statuses"]`` (-1 before the first solve); ``ms`` is the
            Python time of that chain when last timed: its solve and what the
            scene did for it since the chain before (a spider leg's aim). Chains
            are timed every ``Scene.timed_every`` frames (see :meth:`Scene.step`).
            Then the scene's own measures of each chain, named by
            ``layout()["chain_measures"]`` (the robot's clearance from its
            obstacle and its smallest joint-limit margin; none elsewhere).
``frames``  ``[x, y, z, qw, qx, qy, qz]``: per chain, the world pose of the
            frame its bone and joint records are written in.

``layout()["chains"]`` says which bone and joint records belong to which chain.
Scenes with ground give ``layout()["terrain"]`` and ``scene.terrain_grid()``. The humanoid adds a
section ``skin`` after ``frames``, the world pose of each bone a skinned mesh follows, described by
``layout()["skin"]`` (:mod:`ikcore.rigs.humanoid_skin`).

For the page's framing and panel, ``layout()`` also gives ``bounds`` (the box,
``{"min": [x, y, z], "max": [x, y, z]}``, that the scene's content keeps within
as it moves: the camera fits it), ``camera`` (a suggested view, whose direction
the framing keeps), ``param_methods`` (see :meth:`Scene.param_methods`) and,
per target, ``scripted`` (whether :meth:`Scene.release` hands it back to a
motion of its own).

Parameters
----------
``layout()["param_specs"]`` describes every parameter :meth:`Scene.set_params`
takes, as plain data: ``{"kind": "choice", "choices": [...]}``, ``{"kind":
"subset", "choices": [...]}`` (a set of the choices, at least one, none twice:
a list, kept as a tuple in the order of ``choices``), ``{"kind": "bool"}``,
``{"kind": "int", "min": a, "max": b}`` or ``{"kind": "float", "min": a,
"max": b, "open_min": bool}`` (``open_min``: ``min`` itself is refused). :func:`check_param` validates with these specs and ``set_params``
uses nothing else, so the page checks its inputs and its links with the very
ranges Python applies.
"""

import importlib
import time
from array import array

from ..checks import (check_bool, check_choice, check_float, check_int_range, check_point, check_quaternion,
                      check_subset)
from ..errors import IKError
from ..pose import dump_pose, joint_to_json
from ..solution import STATUSES
from ..solvers import METHODS
from ..solvers import method as method_module
from .writer import FRAME_STRIDE, Writer

#: Longest step (seconds) a frame may take.
MAX_DT = 0.1
#: Farthest a placed target may lie from the origin on any axis. The solvers refuse targets beyond
#: 1e150 from a chain's root, but only when the frame solves: a placed target is checked at once, so
#: the refusal reaches whoever placed it (a drag, a link) instead of stopping the animation.
MAX_COORDINATE = 1e12
#: Status codes of the ``chains`` section; ``running`` is a race lane still iterating; ``error``,
#: ``invalid`` and ``timeout`` are the playground's, for the reader's own solver (see
#: :mod:`ikcore.rigs.solver_run`).
STATUS_CODES = STATUSES + ("running", "error", "invalid", "timeout")
_CODE = {status: float(i) for i, status in enumerate(STATUS_CODES)}
KINDS = {"bone": 0, "tip": 1, "body": 2, "link": 3}
BONE, TIP, BODY, LINK = 0, 1, 2, 3
STRIDE = 8
CHAIN_STRIDE = 4


#: The parameters of every scene besides ``method`` (whose choices are the scene's methods).
COMMON_PARAMS = {
    "tolerance": {"kind": "float", "min": 0.0, "max": 0.5, "open_min": True},
    "max_iterations": {"kind": "int", "min": 1, "max": 10000},
    "damping": {"kind": "float", "min": 0.0, "max": 100.0, "open_min": True},
    "constraints": {"kind": "bool"},
    "animate": {"kind": "bool"},
}


def check_param(spec, value, name):
    """Return ``value`` checked against ``spec`` (see the module docstring), as the spec's kind."""
    kind = spec["kind"]
    if kind == "choice":
        return check_choice(value, name, tuple(spec["choices"]))
    if kind == "subset":
        return check_subset(value, name, tuple(spec["choices"]))
    if kind == "bool":
        return check_bool(value, name)
    if kind == "int":
        return check_int_range(value, name, spec["min"], spec["max"])
    value = check_float(value, name)
    low, high = spec["min"], spec["max"]
    if value < low or value > high or (spec.get("open_min", False) and value == low):
        raise IKError(f"{name} must be in {'(' if spec.get('open_min') else '['}{low!r}, {high!r}], got {value!r}")
    return value


class Target:
    """A target the page draws (and may drag): position, optional orientation, script."""

    __slots__ = ("name", "position", "orientation", "path", "spin", "draggable", "radius", "pinned")

    def __init__(self, name, position, orientation=None, path=None, spin=None, draggable=True, radius=0.05):
        self.name = name
        self.position = check_point(position, f"target {name!r} position")
        self.orientation = None if orientation is None else check_quaternion(orientation, f"target {name!r}")
        self.path = path
        self.spin = spin
        self.draggable = draggable
        self.radius = radius
        self.pinned = False

    def follow(self, t):
        """Move along the script, unless pinned by the user."""
        if self.pinned:
            return
        if self.path is not None:
            self.position = self.path(t)
        if self.spin is not None:
            self.orientation = self.spin(t)


class Limb:
    """A bound chain as a scene draws and solves it.

    ``radii`` are its bones' (one for all, or one each), ``joint_radii`` its
    points' (default the bones', the last one twice), ``target`` the name of
    the target it reaches for. ``lead``, a radius, adds a ``link`` bone from
    the origin of the chain's frame to its root (a spider's coxa, from the
    node the leg hangs from to the femur): drawn with the chain, in its frame.
    """

    __slots__ = ("bound", "name", "radii", "joint_radii", "bone_tails", "lead", "target", "solution", "result", "ms",
                 "reach", "tracker")

    def __init__(self, bound, radii, joint_radii=None, target=None, lead=None):
        self.bound = bound
        self.name = bound.name
        n = bound.chain.size
        # Tuples: fixed once made, as the scene's Writer (ikcore.rigs.writer) compiles them into its write.
        self.radii = tuple(float(r) for r in radii) if len(radii) == n else (float(radii[0]),) * n
        self.joint_radii = (*self.radii, self.radii[-1]) if joint_radii is None else tuple(joint_radii)
        # The last two floats of each bone record: radius and kind.
        self.bone_tails = (*((r, float(BONE)) for r in self.radii[:-1]), (self.radii[-1], float(TIP)))
        self.lead = None if lead is None else (float(lead), float(LINK))
        self.target = target
        self.solution = None
        # (status, error, iterations) of the last solve, however it was solved.
        self.result = (None, None, 0)
        self.ms = 0.0
        self.reach = bound.chain.reach
        # Scene.track's Tracker for the scene's current settings (None until made, and after a change).
        self.tracker = None


class Scene:
    """The common base of the page's scenes (the contract is in the module docstring).

    A subclass builds ``self.skeleton``, adds :class:`Limb` records with
    :meth:`add_limb` and :class:`Target` records with :meth:`add_target`, and
    overrides :meth:`advance` (move things) and :meth:`solve` (solve the
    chains); :meth:`extra_bones` and :meth:`extras` add scene-specific drawing
    and state.

    Examples
    --------
    >>> from ikcore.rigs import Scene, make_scene
    >>> scene = make_scene("arm")
    >>> isinstance(scene, Scene), scene.name
    (True, 'arm')
    >>> buf = scene.allocate()
    >>> scene.step(1 / 60)
    >>> scene.write(buf) == len(buf) == scene.layout()["size"]
    True
    """

    name = "scene"
    #: Methods this scene can solve with.
    methods = tuple(m for m in METHODS if m != "two_bone")
    default_method = "fabrik"
    default_max_iterations = 10
    default_constraints = True
    #: Scene-specific parameters: ``{name: spec}`` (see :func:`check_param`), values live in ``self.params``.
    extra_params = {}
    #: Construction options :func:`make_scene` takes: ``{name: check}`` (keyword arguments of the class).
    options = {}
    #: The chains are timed on one frame in this many, the first frame among them (see :meth:`step`).
    timed_every = 8
    #: Counts the changes of the layout: a scene whose parameters change its chains (the steps scene's)
    #: makes a new layout, and the page a new buffer and view for it (see :meth:`layout`).
    revision = 0
    #: Names of the scene's own measures of each chain, written after each chain's record and given in
    #: :meth:`state` (see :meth:`measures`).
    chain_measures = ()

    def __init__(self):
        self.time = 0.0
        self.script_time = 0.0
        self.frame = 0
        self.limbs = []
        self.targets = {}
        self.params = {"method": self.default_method, "tolerance": 1e-3,
                       "max_iterations": self.default_max_iterations, "damping": None,
                       "constraints": self.default_constraints, "animate": True}
        self._options = {}
        self._extra_bone_count = 0
        # write()'s compiled Writer: made on first use, dropped when the limbs or targets change.
        self._writer = None
        # Within step(): the clock reading the next chain's time counts from (see solve_limb), False
        # on a frame whose chains are not timed; None outside step().
        self._lap = None

    # -- building ------------------------------------------------------------------------------

    def add_limb(self, limb):
        limb.bound.constrained = self.params["constraints"]
        self.limbs.append(limb)
        self._writer = None
        return limb

    def add_target(self, target):
        self.targets[target.name] = target
        self._writer = None
        return target

    # -- input ---------------------------------------------------------------------------------

    def set_target(self, name, position, orientation=None):
        """Place target ``name`` (pins it: its script stops until :meth:`release`)."""
        target = self._draggable(name)
        position = check_point(position, f"target {name!r} position")
        if max(abs(c) for c in position) > MAX_COORDINATE:
            raise IKError(f"target {name!r} position {position!r} lies farther than {MAX_COORDINATE:g} "
                          "from the origin")
        if orientation is not None:
            if target.orientation is None:
                raise IKError(f"target {name!r} takes no orientation")
            orientation = check_quaternion(orientation, f"target {name!r} orientation")
        self.place(target, position, orientation)

    def place(self, target, position, orientation):
        """Apply a validated :meth:`set_target` (scenes react to their own targets here)."""
        target.position = position
        if orientation is not None:
            target.orientation = orientation
        target.pinned = True

    def held(self, target):
        """Whether ``target`` stays where it is (pinned, or its script stopped) rather than moving by itself."""
        return target.pinned or not self.params["animate"]

    def release(self, name=None):
        """Hand target ``name`` (or every target) back to its script."""
        for target in (self.targets.values() if name is None else [self._draggable(name)]):
            target.pinned = False

    def _draggable(self, name):
        target = self.targets.get(name) if isinstance(name, str) else None
        if target is None or not target.draggable:
            names = ", ".join(t.name for t in self.targets.values() if t.draggable)
            raise IKError(f"scene {self.name!r} has no draggable target {name!r} (it has: {names})")
        return target

    def set_params(self, **params):
        """Change parameters; all are validated before any is applied.

        Parameters
        ----------
        method : str
            One of ``self.methods``.
        tolerance : float
            Relative to each chain's reach, in ``(0, 0.5]``.
        max_iterations : int
            Per chain per frame, in ``[1, 10000]``.
        damping : float
            Passed to methods that take a ``damping`` option, in ``(0, 100]``.
        constraints : bool
            Whether joint limits are applied.
        animate : bool
            Whether scripted targets move.
        **scene_specific
            See the scene's ``extra_params``.
        """
        self.apply_params(self.checked_params(params))

    def checked_params(self, params):
        """The parameters :meth:`set_params` would set for ``params`` (all of them, checked); raises
        :class:`ikcore.IKError` naming a bad one."""
        specs = self.param_specs()
        new = dict(self.params)
        for key, value in params.items():
            if value is None:
                continue
            spec = specs.get(key)
            if spec is None:
                raise IKError(f"scene {self.name!r} has no parameter {key!r} (it has: {', '.join(specs)})")
            new[key] = check_param(spec, value, key)
        return new

    def apply_params(self, new):
        """Set the parameters ``new`` (from :meth:`checked_params`)."""
        old = self.params
        self.params = new
        self._options = self.method_options(new["method"])
        for limb in self.limbs:
            limb.tracker = None
            if new["constraints"] != old["constraints"]:
                limb.bound.constrained = new["constraints"]
        self.params_changed(old)

    def param_specs(self):
        """Every parameter :meth:`set_params` takes: ``{name: spec}`` (new dicts, JSON-ready)."""
        specs = {"method": {"kind": "choice", "choices": list(self.methods)}}
        for key, spec in (*COMMON_PARAMS.items(), *self.extra_params.items()):
            specs[key] = dict(spec)
        return specs

    def params_changed(self, old):
        """React to a parameter change (``old`` holds the previous values)."""

    def param_methods(self):
        """Which of the scene's methods use each parameter that some of them ignore: ``{name: [method]}``.

        ``damping`` is read only by methods that take a ``damping`` option;
        ``tolerance`` and ``max_iterations`` only by iterative methods (an
        analytic one, with ``MAX_ITERATIONS == 1``, solves in one step). A
        parameter every method uses is not listed. The page shows a
        parameter's control only while the scene's method is among those
        listed; its value is kept (and goes into links) all the same.
        """
        modules = {m: method_module(m) for m in self.methods}
        uses = {"damping": [m for m, module in modules.items() if "damping" in module.OPTIONS]}
        iterative = [m for m, module in modules.items() if module.MAX_ITERATIONS > 1]
        uses["tolerance"] = uses["max_iterations"] = iterative
        return {key: list(methods) for key, methods in uses.items() if len(methods) < len(self.methods)}

    def method_options(self, method):
        """Options to pass for ``method``: damping where the method takes it."""
        opts = {}
        if self.params["damping"] is not None and "damping" in method_module(method).OPTIONS:
            opts["damping"] = self.params["damping"]
        return opts

    @property
    def method(self):
        return self.params["method"]

    # -- the frame -----------------------------------------------------------------------------

    def step(self, dt):
        """Advance by ``dt`` seconds: scripts, motion, then one solve per chain."""
        dt = check_float(dt, "dt")
        if dt < 0.0:
            raise IKError(f"dt must be >= 0, got {dt!r}")
        dt = min(dt, MAX_DT)
        self.time += dt
        if self.params["animate"]:
            self.script_time += dt
        self.frame += 1
        self.advance(dt)
        # Chains are timed on one frame in timed_every (the race, whose lanes race on time: every
        # frame), one clock reading a chain: each chain's time runs from the end of the one before, so
        # its own preparation, such as a spider leg's aim, counts as its own.
        self._lap = time.perf_counter() if (self.frame - 1) % self.timed_every == 0 else False
        try:
            self.solve()
        finally:
            self._lap = None

    def advance(self, dt):
        """Move scripted targets (and anything else that moves by itself)."""
        t = self.script_time
        for target in self.targets.values():
            target.follow(t)

    def solve(self):
        """Solve every limb for its target."""
        for limb in self.limbs:
            self.track(limb, self.targets[limb.target].position)

    def solve_limb(self, limb, target, orientation=None, pole=None, local=False, method=None, max_iterations=None,
                   start=None):
        """Solve one limb with the scene's parameters (warm-started unless ``start``); time it (within
        :meth:`step`, on its timed frames, from the end of the chain before)."""
        lap = self._lap
        t0 = time.perf_counter() if lap is None else lap
        method = method or self.params["method"]
        options = self._options if method == self.params["method"] else self.method_options(method)
        sol = limb.bound.solve(target, method, orientation=orientation, pole=pole, local=local, start=start,
                               tolerance=self.params["tolerance"] * limb.reach,
                               max_iterations=max_iterations or self.params["max_iterations"], **options)
        return self._solved(limb, sol, lap, t0)

    def track(self, limb, target, orientation=None, pole=None, local=False):
        """:meth:`solve_limb` with the scene's own method and settings, through a
        :class:`~ikcore.BoundTracker` kept on the limb (made again when the pole, ``local`` or
        the scene's parameters change): what a scene calls for each chain every frame."""
        lap = self._lap
        t0 = time.perf_counter() if lap is None else lap
        tracker = limb.tracker
        if tracker is None or tracker.pole != pole or tracker.local is not local:
            tracker = limb.tracker = limb.bound.tracker(
                self.params["method"], pole=pole, local=local, tolerance=self.params["tolerance"] * limb.reach,
                max_iterations=self.params["max_iterations"], **self._options)
        return self._solved(limb, tracker(target, orientation), lap, t0)

    def _solved(self, limb, sol, lap, t0):
        # The chain's time and its solution.
        self._timed(limb, lap, t0)
        limb.solution = sol
        limb.result = (sol.status, sol.error, sol.iterations)
        return sol

    def _timed(self, limb, lap, t0):
        """``limb.ms``: the chain's time from ``t0`` (the lap, within step(); none on a frame not timed,
        ``lap`` False), the lap moved on to now."""
        if lap is not False:
            t1 = time.perf_counter()
            limb.ms = (t1 - t0) * 1000.0
            if lap is not None:
                self._lap = t1

    # -- output --------------------------------------------------------------------------------

    def extra_bones(self):
        """Bones drawn besides the chains: a list of ``(p0, p1, radius, kind)``."""
        return []

    def layout(self):
        """What the page allocates once: section offsets and counts, static descriptions."""
        bone = joint = 0
        chains = []
        for limb in self.limbs:
            n = limb.bound.chain.size
            drawn = n + (limb.lead is not None)
            chains.append({"name": limb.name, "bones": [bone, drawn], "joints": [joint, n + 1],
                           "target": limb.target, "reach": limb.reach,
                           "constraints": _descriptions(limb.bound.limited_chain)})
            bone += drawn
            joint += n + 1
        self._extra_bone_count = len(self.extra_bones())
        bones = bone + self._extra_bone_count
        targets = len(self.targets)
        sections = {}
        offset = 0
        for key, count, stride in (("bones", bones, STRIDE), ("joints", joint, STRIDE),
                                   ("targets", targets, STRIDE),
                                   ("chains", len(self.limbs), CHAIN_STRIDE + len(self.chain_measures)),
                                   ("frames", len(self.limbs), FRAME_STRIDE)):
            sections[key] = {"offset": offset, "count": count, "stride": stride}
            offset += count * stride
        return {"scene": self.name, "revision": self.revision, "size": offset, "sections": sections,
                "kinds": dict(KINDS), "statuses": list(STATUS_CODES), "chains": chains,
                "chain_measures": list(self.chain_measures),
                "targets": [{"name": t.name, "draggable": t.draggable, "oriented": t.orientation is not None,
                             "radius": t.radius, "scripted": self.scripted(t)} for t in self.targets.values()],
                "methods": list(self.methods), "params": self.get_params(), "param_specs": self.param_specs(),
                "param_methods": self.param_methods(), "terrain": self.terrain_info(),
                "camera": self.camera(), "bounds": self.bounds()}

    def allocate(self):
        """A zeroed ``array('d')`` the size of :meth:`layout`'s buffer."""
        return array("d", bytes(8 * self.layout()["size"]))

    def camera(self):
        """A suggested camera: ``{"position": [x, y, z], "target": [x, y, z]}``."""
        return {"position": [3.0, 2.5, 4.0], "target": [0.0, 1.0, 0.0]}

    def bounds(self):
        """The box the scene's content keeps within, ``{"min": [x, y, z], "max": [x, y, z]}``: here the
        chains' points and the targets as they are now, widened by the thickest bone. Scenes whose
        content travels override it with the box of its whole motion."""
        points = [p for limb in self.limbs for p in limb.bound.world_points()]
        points += [t.position for t in self.targets.values()]
        pad = max((r for limb in self.limbs for r in limb.radii), default=0.0)
        return box(points, pad)

    def scripted(self, target):
        """Whether ``target`` has a motion of its own that :meth:`release` hands it back to."""
        return target.path is not None or target.spin is not None

    def terrain_info(self):
        """``None``, or the terrain's ``{"half", "resolution"}`` for :meth:`terrain_grid`."""
        return None

    def get_params(self):
        return dict(self.params)

    def write(self, buf):
        """Fill ``buf`` (from :meth:`allocate`) with this frame's bones, joints, targets and chains.

        Every float of every record is written, static ones too, in place:
        ``buf`` keeps its size and memory, so a view the page holds on it stays
        valid. One ``struct`` call writes them all, from a function compiled
        for this layout by a :class:`~ikcore.rigs.writer.Writer` (that module
        says why); it is made again when the limbs, the targets or the number
        of extra bones change. Returns the number of floats written.
        """
        extras = self.extra_bones()
        results = []
        put = results.extend
        for limb in self.limbs:
            status, error, iterations = self.report(limb)
            put((_CODE.get(status, -1.0), error or 0.0, iterations, limb.ms))
            if self.chain_measures:
                put(self.measures(limb))
        flat = []
        for p, q, radius, kind in extras:
            flat += p
            flat += q
            flat.append(radius)
            flat.append(kind)
        writer = self._writer
        if writer is None or writer.extra_count != len(extras):
            writer = self._writer = Writer(self.limbs, list(self.targets.values()), len(extras),
                                           CHAIN_STRIDE + len(self.chain_measures))
        writer.write(buf, flat, results)
        return writer.size

    def report(self, limb):
        """``(status, error, iterations)`` shown for ``limb``: its last solve's (``None`` values before one)."""
        return limb.result

    def measures(self, limb):
        """The scene's own measures of ``limb`` now, finite floats in the order of
        :attr:`chain_measures`."""
        return ()

    def state(self):
        """A JSON-ready summary: scene, method, frame, time, params and per chain its result."""
        chains = []
        for limb in self.limbs:
            status, error, iterations = self.report(limb)
            target = self.limb_target(limb)
            chains.append({"name": limb.name, "status": status, "error": error, "iterations": iterations,
                           "effector": list(limb.bound.effector()),
                           "target": None if target is None else list(target),
                           "ms": limb.ms, **dict(zip(self.chain_measures, self.measures(limb)))})
        out = {"scene": self.name, "revision": self.revision, "method": self.params["method"], "frame": self.frame,
               "time": self.time,
               "params": self.get_params(), "chains": chains,
               "targets": {t.name: {"position": list(t.position),
                                    "orientation": None if t.orientation is None else list(t.orientation),
                                    "pinned": t.pinned, "held": self.held(t)} for t in self.targets.values()}}
        out.update(self.extras())
        return out

    def query(self, name):
        """A JSON-ready answer to a question of the page that :meth:`state` leaves out, being too large
        to send every time it is asked (the steps scene's whole trace). Raises :class:`ikcore.IKError`
        for a question the scene does not answer."""
        raise IKError(f"scene {self.name!r} answers no query {name!r}")

    def limb_target(self, limb):
        """The world point ``limb`` was last asked to reach."""
        if limb.target is not None and limb.target in self.targets:
            return self.targets[limb.target].position
        return None

    def extras(self):
        """Scene-specific additions to :meth:`state`."""
        return {}

    def pose(self):
        """The current pose as a JSON-ready dict (see :mod:`ikcore.pose`): per chain its rest points,
        limits, local rotations and positions in its parent's frame, and that frame's world pose with
        the points in the world (what the page draws)."""
        self.skeleton.update()
        return dump_pose(self.name, self.params["method"],
                         [(limb.name, limb.bound.chain,
                           limb.bound.rotations if limb.bound.slides is None else limb.bound.frames(),
                           limb.bound.parent_transform())
                          for limb in self.limbs])


def _descriptions(chain):
    """A chain's constraint descriptions for the layout (:func:`ikcore.pose.joint_to_json`); a
    slider's also gives ``offset``, its bone's rest vector, in the frame its axis is in: its bone's
    end runs from ``offset + lower axis`` to ``offset + upper axis`` from the joint, the stroke the
    page draws."""
    out = [joint_to_json(j) for j in chain.joints]
    for j in chain.plan.sliders:
        out[j]["offset"] = list(chain.offsets[j])
    return out


def box(points, pad=0.0):
    """``{"min": [x, y, z], "max": [x, y, z]}`` around ``points``, widened by ``pad`` on every side."""
    return {"min": [min(p[i] for p in points) - pad for i in range(3)],
            "max": [max(p[i] for p in points) + pad for i in range(3)]}


def sampled(path, seconds, step):
    """The points of a scripted ``path`` every ``step`` seconds over ``[0, seconds]`` (for :func:`box`)."""
    return [path(k * step) for k in range(int(seconds / step) + 1)]


def _factory(module, cls):
    def scene_class():
        return getattr(importlib.import_module(f"{__package__}.{module}"), cls)

    def make(**options):
        return scene_class()(**options)
    make.scene_class = scene_class
    make.__name__ = f"make_{module}"
    make.__doc__ = f"A new :class:`ikcore.rigs.{module}.{cls}`."
    return make


#: The page's scenes: name -> a function returning a new scene (modules load on first use).
SCENES = {"arm": _factory("arm", "ArmScene"), "tentacles": _factory("tentacle", "TentacleScene"),
          "spider": _factory("spider", "SpiderScene"), "race": _factory("race", "RaceScene"),
          "robot": _factory("robot", "RobotScene"), "crowd": _factory("crowd", "CrowdScene"),
          "steps": _factory("steps", "StepsScene"), "playground": _factory("playground", "PlaygroundScene"),
          "humanoid": _factory("humanoid", "HumanoidScene")}
#: The scenes drawn from the chains, bones, joints and targets of the contract above; the crowd
#: writes columns of its own instead (:mod:`ikcore.rigs.crowd`).
CHAIN_SCENES = tuple(name for name in SCENES if name != "crowd")


def make_scene(name, **options):
    """A new scene by name (one of :data:`SCENES`), with its construction ``options``.

    ``options`` are the keyword arguments the scene's class lists in its
    ``options`` (``{name: check}``), e.g. ``make_scene("tentacles", count=12)``;
    each is validated, and an option the scene does not take is refused.

    Examples
    --------
    >>> from ikcore.rigs import make_scene
    >>> scene = make_scene("arm")
    >>> scene.step(1 / 60)
    >>> scene.state()["scene"], scene.state()["frame"]
    ('arm', 1)
    >>> make_scene("arm", count=3)
    Traceback (most recent call last):
        ...
    ikcore.errors.IKError: scene 'arm' takes no option 'count' (it takes: none)
    """
    make = SCENES[check_choice(name, "scene", tuple(SCENES))]
    if not options:
        return make()
    takes = make.scene_class().options
    checked = {}
    for key, value in options.items():
        if key not in takes:
            names = ", ".join(takes) or "none"
            raise IKError(f"scene {name!r} takes no option {key!r} (it takes: {names})")
        checked[key] = takes[key](value, key)
    return make(**checked)
