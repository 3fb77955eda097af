// The demo: waits for Python's scene, runs the frame loop, draws, and exposes window.ikDemo.
//
// Per animation frame: one call into Python, step(dt), which solves the whole scene and fills the shared
// Float64Array; then the skeleton view reads that array and three.js renders. Python errors stop the loop
// with the failure panel showing the traceback.

import GUI from "lil-gui";
import { SkeletonView } from "./skeleton.js";
import { Stage } from "./stage.js";

const boot = window.ikBoot;
const TIMING_WINDOW = 120;

let py = null;          // {step, command, buffer, info} from Python
let layout = null;
let stage = null;
let view = null;
let frame = 0;
let lastNow = null;
let stopped = false;
let errorMessage = null;
const pyTimes = new Float64Array(TIMING_WINDOW);
const sorted = new Float64Array(TIMING_WINDOW);
let pyCount = 0;
let pyLast = 0;
const frameTimes = new Float64Array(60);
let frameCount = 0;
let hudAt = 0;
let resolveReady;
let rejectReady;

const ready = new Promise((resolve, reject) => {
  resolveReady = resolve;
  rejectReady = reject;
});
// Pages that never ask for `ready` must not see an unhandled rejection; those that do still get it.
ready.catch(() => {});
boot.attached.catch((error) => rejectReady(error));

/** The last line of a Python traceback (the exception and its message), or the JS error's message. */
function shortMessage(error) {
  const text = String(error?.message ?? error).trim();
  const lines = text.split("\n");
  return lines[lines.length - 1];
}

function median() {
  const n = Math.min(pyCount, TIMING_WINDOW);
  if (!n) return 0;
  const view = sorted.subarray(0, n);
  view.set(pyTimes.subarray(0, n));
  view.sort();
  return n % 2 ? view[(n - 1) / 2] : 0.5 * (view[n / 2 - 1] + view[n / 2]);
}

function fps() {
  const n = Math.min(frameCount, frameTimes.length);
  if (n < 2) return 0;
  const newest = frameTimes[(frameCount - 1) % frameTimes.length];
  const oldest = frameTimes[(frameCount - n) % frameTimes.length];
  return newest > oldest ? (1000 * (n - 1)) / (newest - oldest) : 0;
}

function command(name, args) {
  if (!py) throw new Error("the demo is not ready yet (await ikDemo.ready)");
  if (stopped) throw new Error(`the demo has stopped: ${errorMessage}`);
  try {
    return JSON.parse(py.command(name, JSON.stringify(args)));
  } catch (error) {
    throw new Error(shortMessage(error));
  }
}

function chainStates() {
  const buf = py.buffer;
  const { joints, targets, chains } = layout.sections;
  return layout.chains.map((chain, k) => {
    const c = chains.offset + k * chains.stride;
    const code = buf[c];
    const last = joints.offset + (chain.joints[0] + chain.joints[1] - 1) * joints.stride;
    const t = layout.targets.findIndex((target) => target.name === chain.target);
    const to = targets.offset + t * targets.stride;
    return {
      name: chain.name,
      status: code >= 0 ? layout.statuses[code] : null,
      error: code >= 0 ? buf[c + 1] : null,
      iterations: buf[c + 2],
      effector: [buf[last], buf[last + 1], buf[last + 2]],
      target: t >= 0 ? [buf[to], buf[to + 1], buf[to + 2]] : null,
    };
  });
}

function state() {
  return {
    scene: layout ? layout.scene : null,
    method: layout ? layout.params.method : null,
    frame,
    fps: fps(),
    python_ms: { last: pyLast, median: median() },
    error: errorMessage ?? boot.failed?.message ?? null,
    chains: py ? chainStates() : [],
  };
}

function updateHud(now) {
  if (now - hudAt < 250) return;
  hudAt = now;
  const lines = [
    `${layout.scene} · ${layout.params.method}`,
    `${fps().toFixed(0)} fps · Python ${pyLast.toFixed(2)} ms (median ${median().toFixed(2)})`,
  ];
  for (const chain of chainStates()) {
    const error = chain.error === null ? "-" : chain.error.toExponential(1);
    lines.push(`${chain.name}: ${chain.status ?? "-"} · ${chain.iterations} it · error ${error}`);
  }
  document.getElementById("hud-text").textContent = lines.join("\n");
}

/** Stop the loop for good and say why: a Python exception (with its traceback) or a page error. */
function stop(error) {
  stopped = true;
  errorMessage = shortMessage(error);
  const python = error?.constructor?.name === "PythonError";
  boot.fail("frame", python ? String(error.message) : String(error?.stack ?? error),
    python ? "The animation stopped: Python raised an error" : "The animation stopped: the page raised an error");
}

function loop(now) {
  if (stopped) return;
  requestAnimationFrame(loop);
  try {
    frameBody(now);
  } catch (error) {
    stop(error);
  }
}

function frameBody(now) {
  const dt = lastNow === null ? 0 : Math.min((now - lastNow) / 1000, 0.1);
  lastNow = now;
  const t0 = performance.now();
  frame = py.step(dt);
  pyLast = performance.now() - t0;
  pyTimes[pyCount % TIMING_WINDOW] = pyLast;
  pyCount++;
  frameTimes[frameCount % frameTimes.length] = now;
  frameCount++;
  view.update(py.buffer);
  stage.render();
  updateHud(now);
  if (frameCount === 1) {
    boot.done();
    document.getElementById("hud").hidden = false;
    resolveReady(state());
  }
}

function buildGui() {
  // lil-gui's stylesheet is linked by index.html: injected <style> elements would need 'unsafe-inline'.
  const gui = new GUI({ title: "ikcore", injectStyles: false });
  const params = { ...layout.params };
  gui.add(params, "method", layout.methods).name("method").onChange((value) => api.setMethod(value));
  gui.add(params, "animate").name("follow path").listen().onChange((value) => api.set({ animate: value }));
  gui.add(params, "tolerance", 1e-5, 1e-2).name("tolerance (× reach)").onFinishChange((v) => api.set({ tolerance: v }));
  gui.add(params, "max_iterations", 1, 500, 1).name("max iterations").onFinishChange((v) => api.set({ max_iterations: v }));
  return params;
}

let guiParams = null;

function applied(result) {
  layout.params = result.params;
  if (guiParams) Object.assign(guiParams, result.params);
  return result;
}

const api = {
  ready,
  get scenes() { return py ? py.info.scenes.slice() : []; },
  get methods() { return layout ? layout.methods.slice() : []; },
  /** Switch scene by name (one of `scenes`). */
  setScene(name) {
    if (!this.scenes.includes(name)) throw new Error(`unknown scene ${JSON.stringify(name)}; scenes: ${this.scenes.join(", ")}`);
    return state();
  },
  /** Solve with another method (one of `methods`). */
  setMethod(name) {
    if (!this.methods.includes(name)) throw new Error(`unknown method ${JSON.stringify(name)}; methods: ${this.methods.join(", ")}`);
    applied(command("set_method", { method: name }));
    return state();
  },
  /** Change parameters: {method, tolerance, max_iterations, animate, speed}. */
  set(params) {
    if (params === null || typeof params !== "object") throw new Error("set() takes an object of parameters");
    applied(command("set", params));
    return state();
  },
  /** Pin the named target at [x, y, z] (it stops following its path until set({animate: true})). */
  setTarget(name, position) {
    if (!Array.isArray(position) || position.length !== 3 || !position.every(Number.isFinite)) {
      throw new Error("setTarget(name, [x, y, z]) takes three finite numbers");
    }
    applied(command("set_target", { name: String(name), position }));
    return state();
  },
  state,
};
window.ikDemo = api;

boot.attached.then((attached) => {
  py = attached;
  layout = py.info.layout;
  stage = new Stage(document.getElementById("viewport"), layout.camera);
  view = new SkeletonView(stage.scene, layout);
  guiParams = buildGui();
  requestAnimationFrame(loop);
}).catch((error) => {
  if (!boot.failed) boot.fail("scene", String(error?.stack ?? error));
});
