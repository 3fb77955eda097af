"""The page's Python: a thin bridge between the three.js page and ikcore.

JavaScript owns the render loop. Once per animation frame it calls
``step(dt)``, which advances the scene, solves it with ikcore and copies the
whole frame into one ``Float64Array`` shared with JavaScript (allocated once;
nothing crosses the bridge per frame but a number each way). Changes from the
page (method, target, parameters) arrive through ``command(name, args_json)``
as JSON text: numbers and names checked against fixed lists, never source code.

The buffer follows the scene contract of :mod:`ikcore.rigs.scene`: sections
``bones`` ``[x0, y0, z0, x1, y1, z1, radius, kind]``, ``joints``
``[x, y, z, radius, qw, qx, qy, qz]``, ``targets`` ``[x, y, z, qw, qx, qy, qz,
radius]`` and ``chains`` ``[status, error, iterations, ms]``, at the offsets
that ``layout()`` gives.
"""

import json
import math
import time
from array import array

import js
from pyodide.ffi import create_proxy

IDENTITY = (1.0, 0.0, 0.0, 0.0)


class ReachingArm:
    """A four-bone arm on a pedestal, solved every frame toward a target on a figure eight.

    Each frame starts from the previous frame's rotations (a warm start), so
    tracking a moving target costs few iterations. ``set_target`` pins the
    target where it is put; ``set_params(animate=True)`` hands it back to its path.
    """

    name = "arm"
    points = [(0.0, 0.0, 0.0), (0.0, 0.9, 0.0), (0.0, 1.6, 0.0), (0.0, 2.1, 0.0), (0.0, 2.4, 0.0)]
    radii = (0.11, 0.09, 0.07, 0.05)

    def __init__(self, ikcore):
        self.ik = ikcore
        self.chain = ikcore.Chain(self.points)
        self.methods = [m for m in ikcore.METHODS if self._accepts(m)]
        self.params = {"method": "fabrik" if "fabrik" in self.methods else self.methods[0],
                       "tolerance": 1e-3, "max_iterations": 50, "animate": True, "speed": 1.0}
        self.rotations = [IDENTITY] * self.chain.size
        self.positions = list(self.chain.points)
        self.target = self.path(0.0)
        self.solution = None
        self.ms = 0.0
        self.frame = 0
        self.time = 0.0

    def _accepts(self, method):
        """Whether ``method`` takes this chain (two_bone, for one, takes two bones only)."""
        try:
            self.ik.solve(self.chain, (0.5, 1.5, 0.5), method=method, max_iterations=1)
        except self.ik.IKError:
            return False
        return True

    @staticmethod
    def path(t):
        """A figure eight in front of the arm, one loop in 8 s, always within reach (at most 2.15 of 2.4)."""
        w = 2.0 * math.pi / 8.0
        return (0.2 + 0.7 * math.sin(w * t), 1.3 + 0.4 * math.sin(2.0 * w * t), 0.6 + 0.3 * math.cos(w * t))

    # -- the scene contract ----------------------------------------------------------------

    def layout(self):
        n = self.chain.size
        sections, offset = {}, 0
        for key, count, stride in (("bones", n, 8), ("joints", n + 1, 8), ("targets", 1, 8), ("chains", 1, 4)):
            sections[key] = {"offset": offset, "count": count, "stride": stride}
            offset += count * stride
        return {"scene": self.name, "size": offset, "sections": sections,
                "kinds": {"bone": 0, "tip": 1, "body": 2, "link": 3},
                "statuses": list(self.ik.STATUSES),
                "chains": [{"name": "arm", "bones": [0, n], "joints": [0, n + 1], "target": "arm",
                            "reach": self.chain.reach}],
                "targets": [{"name": "arm", "draggable": True, "oriented": False, "radius": 0.09}],
                "methods": list(self.methods), "params": dict(self.params),
                "camera": {"position": [3.0, 2.3, 3.6], "target": [0.1, 1.1, 0.3]}}

    def allocate(self):
        return array("d", bytes(8 * self.layout()["size"]))

    def step(self, dt):
        if not (dt >= 0.0 and math.isfinite(dt)):
            raise self.ik.IKError(f"dt must be finite and >= 0, got {dt!r}")
        dt = min(dt, 0.1)
        self.time += dt * self.params["speed"]
        if self.params["animate"]:
            self.target = self.path(self.time)
        p = self.params
        t0 = time.perf_counter()
        sol = self.ik.solve(self.chain, self.target, method=p["method"], start=self.rotations,
                            tolerance=p["tolerance"] * self.chain.reach, max_iterations=p["max_iterations"])
        self.ms = (time.perf_counter() - t0) * 1000.0
        self.solution = sol
        self.rotations = sol.rotations
        self.positions = sol.positions
        self.frame += 1

    def write(self, buf):
        out = []
        put = out.extend
        pts = self.positions
        last = len(pts) - 2
        for i in range(len(pts) - 1):
            put(pts[i])
            put(pts[i + 1])
            put((self.radii[i], 1.0 if i == last else 0.0))
        for i, p in enumerate(pts):
            put(p)
            out.append(self.radii[min(i, len(self.radii) - 1)] * 1.25)
            put(IDENTITY)
        put(self.target)
        put(IDENTITY)
        out.append(0.09)
        sol = self.solution
        if sol is None:
            put((-1.0, 0.0, 0.0, self.ms))
        else:
            put((self.ik.STATUSES.index(sol.status), sol.error, sol.iterations, self.ms))
        buf[0:len(out)] = array("d", out)
        return len(out)

    def set_target(self, name, position):
        if name != "arm":
            raise self.ik.IKError(f"unknown target {name!r}; this scene has 'arm'")
        position = tuple(float(v) for v in position)
        if len(position) != 3 or not all(math.isfinite(v) for v in position):
            raise self.ik.IKError(f"target position must be 3 finite numbers, got {position!r}")
        self.target = position
        self.params["animate"] = False

    def set_params(self, **params):
        new = dict(self.params)
        for key, value in params.items():
            if key == "method":
                if value not in self.methods:
                    raise self.ik.IKError(f"method must be one of {self.methods}, got {value!r}")
            elif key == "animate":
                if not isinstance(value, bool):
                    raise self.ik.IKError(f"animate must be true or false, got {value!r}")
            elif key == "max_iterations":
                if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 10000:
                    raise self.ik.IKError(f"max_iterations must be an integer in [1, 10000], got {value!r}")
            elif key in ("tolerance", "speed"):
                if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.0 < value < 1e3:
                    raise self.ik.IKError(f"{key} must be a number in (0, 1000), got {value!r}")
                value = float(value)
            else:
                raise self.ik.IKError(f"unknown parameter {key!r}; known: {sorted(self.params)}")
            new[key] = value
        self.params = new

    def state(self):
        sol = self.solution
        return {"scene": self.name, "method": self.params["method"], "frame": self.frame, "time": self.time,
                "params": dict(self.params),
                "chains": [{"name": "arm", "status": None if sol is None else sol.status,
                            "error": None if sol is None else sol.error,
                            "iterations": 0 if sol is None else sol.iterations,
                            "effector": list(self.positions[-1]), "target": list(self.target),
                            "ms": self.ms}]}


class Bridge:
    """What JavaScript calls: ``step`` every frame, ``command`` on changes."""

    def __init__(self, scene):
        self.scene = scene
        self.buf = scene.allocate()
        self.js_buf = js.Float64Array.new(len(self.buf))

    def step(self, dt):
        """Advance and solve the scene, copy the frame into the shared array; return the frame number."""
        self.scene.step(dt)
        self.scene.write(self.buf)
        self.js_buf.assign(self.buf)
        return self.scene.frame

    def command(self, name, args_json):
        """Apply one named change; return the scene's state as JSON text."""
        args = json.loads(args_json)
        if name == "set_method":
            self.scene.set_params(method=args["method"])
        elif name == "set_target":
            self.scene.set_target(args["name"], args["position"])
        elif name == "set":
            self.scene.set_params(**args)
        elif name != "state":
            raise ValueError(f"unknown command {name!r}")
        return json.dumps(self.scene.state())


def main():
    boot = js.window.ikBoot
    boot.stage("packages")
    try:
        import ikcore
    except ImportError as exc:
        # The wheel did not arrive (404, or refused by the integrity check): the page finds out which.
        boot.packageFailed("ikcore", f"The ikcore package could not be imported ({exc}).")
        return
    boot.stage("scene")
    bridge = Bridge(ReachingArm(ikcore))
    # Two proxies, made once and kept for the page's life: nothing is created per frame.
    boot.attach(create_proxy(bridge.step), create_proxy(bridge.command), bridge.js_buf,
                json.dumps({"layout": bridge.scene.layout(), "scenes": [bridge.scene.name],
                            "version": ikcore.__version__}))


try:
    main()
except Exception as exc:
    import traceback

    js.window.ikBoot.fail(None, "".join(traceback.format_exception(exc)))
