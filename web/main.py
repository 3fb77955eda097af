"""The page's Python: a thin bridge between the three.js page and the scenes of :mod:`ikcore.rigs`.

JavaScript owns the render loop. Once per animation frame it calls ``step(dt)``,
which advances the current scene (:func:`ikcore.rigs.make_scene`), solves it
and writes the whole frame into the scene's ``array('d')`` (allocated once per
scene). JavaScript reads that array where it lies, in the runtime's memory,
through a ``Float64Array`` view of it (``buffer()`` hands the array over, the
page takes the view with ``getBuffer``): nothing is copied and nothing crosses
the bridge per frame but a number each way. Changes from the page arrive
through ``command(name, args_json)`` as JSON text: numbers and names that the
scene checks against fixed lists. One command carries source code: ``run_code``,
sent only by the playground's Run button (the reader's own click), hands the
editor's text to the playground scene, which runs it under a time budget
(:mod:`ikcore.rigs.sandbox`); code that arrives in a link is shown in the editor,
never sent here until the reader presses Run. ``load_urdf`` carries the text of a
URDF file the reader dropped on the page or picked, which the robot scene reads
(:meth:`ikcore.rigs.robot.RobotScene.load_urdf`): parsed as XML, never run. Every command answers with
JSON text (``pose`` with the current pose in :mod:`ikcore.pose`'s format, what
the page's "Download pose" saves; ``query`` with what the scene answers to a
named question, such as the steps scene's trace; ``layout`` with the layout,
asked for again when a change of parameters changed it: its ``revision``).

The buffer's layout is the scene contract of :mod:`ikcore.rigs.scene`. This file
knows nothing of any scene: switching scenes makes a new one by name and a new
array, whose view JavaScript takes once with ``buffer()`` (and again should the
runtime's memory grow, which leaves the old view empty).

Fault injection (for the page's tests): the command ``fail_next_frame`` makes
the next ``step`` raise a ``RuntimeError`` with the given message, so the page's
handling of a Python error in a frame can be checked on the real site; the
command ``grow_memory`` allocates (and frees) that many megabytes, which grows
the runtime's memory as Python's own allocations can at any time, so the page's
taking its frame view again can be checked too.

Baselines (for the speed tests and benchmarks, which state a frame's time as a
multiple of work timed in this same runtime): ``step(dt, True)`` is an empty
frame, the same call on a scene with nothing in it
(:class:`ikcore.rigs.baselines.EmptyScene`), which the page times against its
scenes' frames; the command ``baseline`` times the current scene's own baseline
(:func:`ikcore.rigs.baselines.baseline`: a crowd's bare legs, another scene's
forward pass) here in the page's Python.

Leak checks (for the soak tests): the command ``health`` collects garbage and
answers with counts that only grow when something leaks (see :func:`health`).
"""

import gc
import json

import js
from pyodide.ffi import create_proxy


class Bridge:
    """What JavaScript calls: ``step`` every frame, ``command`` on changes, ``buffer`` after a switch."""

    def __init__(self, rigs, name):
        self.rigs = rigs
        self.fault = None
        self.js_terrain = None
        self.empty = None
        self.load(name)

    def load(self, name, options=None):
        """Make scene ``name`` current (built with ``options``), with its own buffer."""
        if options is not None and not isinstance(options, dict):
            raise ValueError("scene options must be a JSON object")
        self.take(self.rigs.make_scene(name, **(options or {})))

    def take(self, scene):
        """Make ``scene`` current, with its own buffer."""
        self.scene = scene
        self.buf = scene.allocate()
        self.scene.write(self.buf)
        self.revision = scene.revision

    def refit(self):
        """The buffer written again after a change, so that the page reads the scene as it now is (a
        target placed, a step chosen) before the next frame; a new buffer when the scene's layout
        changed with its parameters (the steps scene's chain): the page then asks for the ``layout``
        and takes its view of the new buffer."""
        if self.scene.revision != self.revision:
            self.buf = self.scene.allocate()
            self.revision = self.scene.revision
        self.scene.write(self.buf)

    def step(self, dt, empty=False):
        """Advance and solve the scene, write the frame into its buffer; return the frame number.
        With ``empty``, an empty frame instead: the same for a scene with nothing in it, the current
        scene left alone (see the module docstring)."""
        if empty:
            if self.empty is None:
                from ikcore.rigs.baselines import EmptyScene
                scene = EmptyScene()
                self.empty = (scene, scene.allocate())
            scene, buf = self.empty
            scene.step(dt)
            scene.write(buf)
            return self.scene.frame
        if self.fault is not None:
            message, self.fault = self.fault, None
            raise RuntimeError(message)
        self.scene.step(dt)
        self.scene.write(self.buf)
        return self.scene.frame

    def buffer(self, which="frame"):
        """The current scene's buffer, an ``array('d')`` (a new one after each ``set_scene``; the page
        reads it through ``getBuffer``), or with ``which="terrain"`` the ``Float64Array`` of the
        heights of the last ``terrain`` command."""
        return self.js_terrain if which == "terrain" else self.buf

    def info(self):
        """The current scene's layout and the scene names."""
        return {"layout": self.scene.layout(), "scenes": list(self.rigs.SCENES)}

    def load_urdf(self, args):
        """Show the arm of a URDF file's text (``args``: ``text``, ``name``, ``base``, ``tip``) in the robot
        scene, a new one when another scene is shown (then returns True: the page takes its layout). The
        scene checks the text (its size too) and refuses what it cannot take, and then nothing changed."""
        scene = self.scene if self.scene.name == "robot" else self.rigs.make_scene("robot")
        scene.load_urdf(args.get("text"), args.get("name"), args.get("base"), args.get("tip"))
        if scene is self.scene:
            return False
        self.take(scene)
        return True

    def command(self, name, args_json):
        """Apply one named change; return the scene's state (or layout, or terrain) as JSON text."""
        args = json.loads(args_json)
        if not isinstance(args, dict):
            raise ValueError("command arguments must be a JSON object")
        if name == "set_scene":
            self.load(args.get("name"), args.get("options"))
            return json.dumps(self.info())
        if name == "layout":
            return json.dumps(self.info())
        if name == "load_urdf" and self.load_urdf(args):
            return json.dumps(self.info())
        if name == "state":
            return json.dumps(self.scene.state())
        if name == "query":
            # A question the state leaves out (the steps scene's trace); the scene checks the name.
            return json.dumps(self.scene.query(args.get("name")))
        if name == "terrain":
            grid = self.scene.terrain_grid()
            self.js_terrain = js.Float64Array.new(len(grid["heights"]))
            self.js_terrain.assign(grid["heights"])
            return json.dumps({"half": grid["half"], "resolution": grid["resolution"], "step": grid["step"]})
        if name == "baseline":
            from ikcore.rigs.baselines import baseline, seconds_per_call
            what, call = baseline(self.scene)
            calls = args.get("calls")
            if calls is not None and (type(calls) is not int or not 1 <= calls <= 100_000):
                raise ValueError(f"baseline takes calls, an integer in [1, 100000], got {calls!r}")
            return json.dumps({"what": what, "ms": 1e3 * seconds_per_call(call, calls)})
        if name == "pose":
            # The format is ikcore's (ikcore.pose): ikcore.load_pose reads the downloaded file back.
            return json.dumps(self.scene.pose())
        if name == "set_target":
            self.scene.set_target(args.get("name"), args.get("position"), args.get("orientation"))
        elif name == "steer":
            steer = getattr(self.scene, "steer", None)
            if steer is None:
                raise ValueError(f"scene {self.scene.name!r} cannot be steered")
            steer(args.get("forward", 1.0), args.get("turn", 0.0))
        elif name == "run_code":
            run_code = getattr(self.scene, "run_code", None)
            if run_code is None:
                raise ValueError(f"scene {self.scene.name!r} runs no code")
            run_code(args.get("source"))
        elif name == "load_urdf":
            pass  # loaded above, into the robot scene shown
        elif name == "set_urdf_tip":
            set_urdf_tip = getattr(self.scene, "set_urdf_tip", None)
            if set_urdf_tip is None:
                raise ValueError(f"scene {self.scene.name!r} shows no URDF file")
            set_urdf_tip(args.get("tip"))
        elif name == "release":
            self.scene.release(args.get("name"))
        elif name == "set":
            self.scene.set_params(**args)
        elif name == "health":
            return json.dumps(health())
        elif name == "fail_next_frame":
            self.fault = str(args.get("message", "fault injected by ikDemo.injectFault"))
        elif name == "grow_memory":
            megabytes = args.get("megabytes")
            if type(megabytes) is not int or not 1 <= megabytes <= 512:
                raise ValueError(f"grow_memory takes megabytes, an integer in [1, 512], got {megabytes!r}")
            bytearray(megabytes << 20)
        else:
            raise ValueError(f"unknown command {name!r}")
        self.refit()
        state = self.scene.state()
        # The buffer holds the scene as it now is (refit wrote it): the page puts its chains into the
        # world again before anything reads it.
        state["written"] = True
        return json.dumps(state)


def health():
    """Counts that grow only when something leaks, after a garbage collection.

    ``wasm_bytes``: the WebAssembly memory of the runtime (it never shrinks: a
    high-water mark of Python's heap); ``python_objects``: the objects the
    collector tracks (``sys.getallocatedblocks()`` says 0 in Pyodide);
    ``js_refs``: JavaScript values held from Python (Pyodide's hiwire table);
    ``pyproxies``: PyProxies handed to JavaScript and not destroyed since the
    first ``health`` call (Pyodide's allocation tracing, switched on then).
    """
    import pyodide_js

    module = pyodide_js._module
    if not getattr(health, "tracing", False):
        module.enable_pyproxy_allocation_tracing()
        health.tracing = True
    gc.collect()
    return {"wasm_bytes": module.HEAPU8.length, "python_objects": len(gc.get_objects()),
            "js_refs": module._hiwire_num_refs(),
            "pyproxies": module.pyproxy_alloc_map.size}


def main():
    boot = js.window.ikBoot
    boot.stage("packages")
    try:
        import ikcore
        from ikcore import rigs
    except ImportError as exc:
        # The wheel did not arrive (404, or refused by the integrity check): the page finds out which.
        boot.packageFailed("ikcore", f"The ikcore package could not be imported ({exc}).")
        return
    boot.stage("scene")
    bridge = Bridge(rigs, "arm")
    # Proxies made once and kept for the page's life: nothing is created per frame.
    info = bridge.info()
    info["version"] = ikcore.__version__
    boot.attach(create_proxy(bridge.step), create_proxy(bridge.command), create_proxy(bridge.buffer),
                json.dumps(info))


try:
    main()
except Exception as exc:
    import traceback

    js.window.ikBoot.fail(None, "".join(traceback.format_exception(exc)))
