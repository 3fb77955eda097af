// The demo: waits for Python's bridge, runs the frame loop, draws, and exposes window.ikDemo.
//
// Per animation frame: one call into Python, step(dt), which solves the whole scene and fills the shared
// Float64Array; then the skeleton view reads that array and three.js renders. Everything else (scene,
// method, parameters, targets) goes through command(name, json) when it changes. Python errors stop the
// loop with the failure panel showing the traceback.

import GUI from "lil-gui";
import { downloadText } from "./download.js";
import { connectParent, wheelAfterClick } from "./embed.js";
import { Handles } from "./handles.js";
import { LimitOverlay } from "./overlays.js";
import { checkParams, paramFromText } from "./params.js";
import { describeIgnored, formatHash, parseHash, resolveLink } from "./permalink.js";
import { RaceView } from "./race.js";
import { SkeletonView } from "./skeleton.js";
import { Stage } from "./stage.js";

const boot = window.ikBoot;
const TIMING_WINDOW = 120;
const $ = (id) => document.getElementById(id);

let py = null;          // {step, command, buffer, info} from Python
let scenes = [];
let layout = null;
let buf = null;         // the current scene's shared Float64Array
let stage = null;
let view = null;
let handles = null;
let race = null;
let overlay = null;
let showLimits = false;
let gui = null;
let guiParams = null;
let frame = 0;
let lastNow = null;
let lastDt = 0;
let stopped = false;
let scheduled = false;  // a requestAnimationFrame(loop) is pending
let errorMessage = null;
let noticeTimer = 0;
let hashAt = 0;
let lastHash = null;
const embedKeys = {};   // a link's embed and origin keys, passed on to the links the page writes
const follow = { on: false, x: 0, y: 0, z: 0 };
const pyTimes = new Float64Array(TIMING_WINDOW);
const sorted = new Float64Array(TIMING_WINDOW);
let pyCount = 0;
let pyLast = 0;
let collector = null;   // {times, count, resolve}: ikDemo.collectTimes in progress
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
  const part = sorted.subarray(0, n);
  part.set(pyTimes.subarray(0, n));
  part.sort();
  return n % 2 ? part[(n - 1) / 2] : 0.5 * (part[n / 2 - 1] + part[n / 2]);
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

/** A short plain-text notice for a few seconds (a refused drag or input, what a link left out). */
function note(text, ms = 6000) {
  const element = $("notice");
  element.textContent = text;
  element.hidden = false;
  clearTimeout(noticeTimer);
  noticeTimer = setTimeout(() => { element.hidden = true; }, ms);
}

function chainStates() {
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
      ms: buf[c + 3],
      effector: [buf[last], buf[last + 1], buf[last + 2]],
      target: t >= 0 ? [buf[to], buf[to + 1], buf[to + 2]] : null,
    };
  });
}

/** Every target's drawn position: {name: [x, y, z]}. */
function targetPositions() {
  const { targets } = layout.sections;
  const out = {};
  layout.targets.forEach((target, i) => {
    const o = targets.offset + i * targets.stride;
    out[target.name] = [buf[o], buf[o + 1], buf[o + 2]];
  });
  return out;
}

function state() {
  return {
    scene: layout ? layout.scene : null,
    method: layout ? layout.params.method : null,
    frame,
    fps: fps(),
    python_ms: { last: pyLast, median: median() },
    error: errorMessage ?? boot.failed?.message ?? null,
    dt: lastDt,
    paused: document.hidden,
    params: layout ? { ...layout.params } : {},
    selected: handles?.selected?.name ?? null,
    overlays: showLimits,
    camera: stage ? { position: stage.camera.position.toArray(), target: stage.controls.target.toArray() } : null,
    chains: py ? chainStates() : [],
    targets: py ? targetPositions() : {},
  };
}

function updateHud(now) {
  if (now - hudAt < 250) return;
  hudAt = now;
  const lines = [
    `${layout.scene} · ${layout.scene === "race" ? "every method" : layout.params.method}`,
    `${fps().toFixed(0)} fps · Python ${pyLast.toFixed(2)} ms (median ${median().toFixed(2)})`,
  ];
  for (const chain of chainStates()) {
    const error = chain.error === null ? "-" : chain.error.toExponential(1);
    lines.push(`${chain.name.padEnd(18)} ${(chain.status ?? "-").padEnd(14)} ${String(chain.iterations).padStart(3)} it  ${error}`);
  }
  $("hud-text").textContent = lines.join("\n");
}

/**
 * Stop the loop and say why: a Python exception (with its traceback) or a page error. The failure panel
 * offers to restart the scene (a new one from Python; the runtime itself is unharmed by an exception).
 */
function stop(error) {
  stopped = true;
  errorMessage = shortMessage(error);
  const python = error?.constructor?.name === "PythonError";
  boot.fail("frame", python ? String(error.message) : String(error?.stack ?? error),
    python ? "The animation stopped: Python raised an error" : "The animation stopped: the page raised an error");
  $("failure-restart").hidden = false;
}

/** After a stop: a new copy of the current scene, the panel gone, the loop running again. */
function restart() {
  if (!stopped) return state();
  const name = layout.scene;
  const info = JSON.parse(py.command("set_scene", JSON.stringify({ name })));
  stopped = false;
  errorMessage = null;
  boot.recover();
  $("failure-restart").hidden = true;
  showScene(info);
  lastNow = null;
  schedule();
  return state();
}

function schedule() {
  if (scheduled || stopped || document.hidden) return;
  scheduled = true;
  requestAnimationFrame(loop);
}

function loop(now) {
  scheduled = false;
  // A hidden tab does no work: the loop waits for visibilitychange (browsers also stop animation frames).
  if (stopped || document.hidden) return;
  schedule();
  try {
    frameBody(now);
  } catch (error) {
    stop(error);
  }
}

// Back from hidden: the first frame after the return steps by 0 s, not by the time spent away.
document.addEventListener("visibilitychange", () => {
  lastNow = null;
  if (py && view) schedule();
});

/** The first body bone's start (the spider's body), to keep a walker in view. */
function followBody() {
  const { bones } = layout.sections;
  for (let i = 0; i < bones.count; i++) {
    const o = bones.offset + i * bones.stride;
    if (buf[o + 7] === layout.kinds.body) {
      if (follow.on) stage.pan(buf[o] - follow.x, 0, buf[o + 2] - follow.z);
      follow.on = true;
      follow.x = buf[o];
      follow.z = buf[o + 2];
      return;
    }
  }
}

function frameBody(now) {
  const dt = lastNow === null ? 0 : Math.min((now - lastNow) / 1000, 0.1);
  lastNow = now;
  tick(dt, now, true);
}

/** One frame: Python steps by `dt` seconds; the views read the shared array; three.js renders if `render`. */
function tick(dt, now, render) {
  lastDt = dt;
  const t0 = performance.now();
  frame = py.step(dt);
  pyLast = performance.now() - t0;
  pyTimes[pyCount % TIMING_WINDOW] = pyLast;
  pyCount++;
  if (collector) {
    collector.times.push(pyLast);
    if (collector.times.length >= collector.count) {
      collector.resolve(collector.times);
      collector = null;
    }
  }
  frameTimes[frameCount % frameTimes.length] = now;
  frameCount++;
  view.update(buf);
  overlay.update(buf);
  if (layout.terrain) followBody();
  if (race) {
    // Lane results changed (a lane finished, a race began): fetch the curves once, not every frame.
    if (race.changed(buf)) race.setState(command("state", {}), now);
    race.draw(now);
  }
  if (render) stage.render();
  updateHud(now);
  if (now - hashAt >= 500) {
    hashAt = now;
    writeHash();
  }
  if (frameCount === 1) {
    boot.done();
    $("hud").hidden = false;
    resolveReady(state());
  }
}

/** Build the views of the current scene (after loading, and after each scene switch). */
function showScene(info) {
  layout = info.layout;
  buf = py.buffer();
  if (view) view.dispose();
  if (overlay) overlay.dispose();
  if (race) race.dispose();
  race = null;
  view = new SkeletonView(stage.scene, layout);
  view.update(buf);
  overlay = new LimitOverlay(stage.scene, layout);
  overlay.visible = showLimits;
  let ground = null;
  if (layout.terrain) {
    const grid = command("terrain", {});
    ground = stage.setTerrain(grid, py.buffer("terrain"));
  } else {
    stage.setTerrain(null);
  }
  follow.on = false;
  stage.setView(layout.camera);
  handles.attach(view, ground);
  if (layout.scene === "race") {
    race = new RaceView($("race"), stage.scene, layout, buf);
    // Closer, and the lanes raised on screen above the chart panel.
    stage.camera.position.set(0, 3.4, 8.6);
    stage.controls.target.set(0, 0.1, 0);
  }
  pyCount = 0;
  buildGui();
}

function buildGui() {
  if (gui) gui.destroy();
  // lil-gui's stylesheet is linked by index.html: injected <style> elements would need 'unsafe-inline'.
  gui = new GUI({ title: "ikcore", injectStyles: false, container: $("gui") });
  const p = layout.params;
  guiParams = {
    scene: layout.scene, method: p.method, tolerance: p.tolerance, max_iterations: p.max_iterations,
    damping: p.damping ?? 0.03, constraints: p.constraints, animate: p.animate,
    gizmo: "translate", release: () => { command("release", {}); }, pose: () => {
      try {
        api.downloadPose();
      } catch (error) {
        note(error.message);
      }
    },
    speed: p.speed ?? 0.7, wander: p.wander ?? true, overlays: showLimits, copyLink,
  };
  // A refused value is not applied: the notice says why and the panel shows the values in force again.
  const guard = (fn) => (value) => {
    try {
      fn(value);
    } catch (error) {
      note(`${error.message}; not applied`);
      applied({ params: layout.params });
    }
  };
  gui.add(guiParams, "copyLink").name("copy link");
  gui.add(guiParams, "scene", scenes).name("scene").onChange(guard((v) => api.setScene(v)));
  if (layout.scene !== "race") {
    gui.add(guiParams, "method", layout.methods).name("method").onChange(guard((v) => api.setMethod(v)));
  }
  const solver = gui.addFolder("solver");
  // The race has its lanes under the panel on small screens: folders start closed there.
  if (layout.scene === "race" && window.innerWidth < 1400) solver.close();
  checkTyped(solver.add(guiParams, "tolerance", 1e-5, 1e-2).name("tolerance (× reach)").onFinishChange(guard((v) => api.set({ tolerance: v }))), "tolerance");
  checkTyped(solver.add(guiParams, "max_iterations", 1, 300, 1).name("max iterations").onFinishChange(guard((v) => api.set({ max_iterations: v }))), "max_iterations");
  checkTyped(solver.add(guiParams, "damping", 0.001, 1).name("damping (DLS)").onFinishChange(guard((v) => api.set({ damping: v }))), "damping");
  solver.add(guiParams, "constraints").name("joint limits").onChange(guard((v) => api.set({ constraints: v })));
  solver.add(guiParams, "overlays").name("show limits (arcs, cones)").onChange((v) => api.showLimits(v));
  const scene = gui.addFolder("scene");
  if (layout.scene === "race" && window.innerWidth < 1400) scene.close();
  scene.add(guiParams, "animate").name("scripted motion").onChange(guard((v) => api.set({ animate: v })));
  if (layout.targets.some((t) => t.oriented)) {
    scene.add(guiParams, "gizmo", ["translate", "rotate"]).name("gizmo (T / R)").listen()
      .onChange((v) => handles.setMode(v));
  }
  if ("speed" in p) checkTyped(scene.add(guiParams, "speed", 0, 3).name("walk speed").onFinishChange(guard((v) => api.set({ speed: v }))), "speed");
  if ("wander" in p) scene.add(guiParams, "wander").name("wander").onChange(guard((v) => api.set({ wander: v })));
  if (layout.targets.some((t) => t.draggable) && layout.scene !== "spider") {
    scene.add(guiParams, "release").name("release dragged targets");
  }
  gui.add(guiParams, "pose").name("download pose (JSON)");
}

/**
 * Text typed into a number field is checked against the parameter's spec (the ranges Python applies, as
 * for links) when the field is left: a value outside them, or not a finite number, gets a notice and is
 * not applied. lil-gui would clamp typed text to its slider silently; its own handler never sees it.
 */
function checkTyped(controller, key) {
  const input = controller.$input;
  let typed = false;
  // Capture on the row: runs before lil-gui's listeners on the field itself, and stops them.
  controller.domElement.addEventListener("input", (event) => {
    if (event.target !== input) return;
    typed = true;
    event.stopPropagation();
  }, true);
  controller.domElement.addEventListener("blur", (event) => {
    if (event.target !== input || !typed) return;
    typed = false;
    const spec = layout.param_specs[key];
    try {
      api.set({ [key]: paramFromText(spec, input.value.trim(), key) });
    } catch (error) {
      note(`${controller._name}: ${error.message}; not applied`);
      applied({ params: layout.params });
    }
  }, true);
  return controller;
}

function applied(result) {
  layout.params = result.params;
  if (guiParams) {
    for (const key of Object.keys(guiParams)) {
      if (key in result.params && result.params[key] !== null) guiParams[key] = result.params[key];
    }
    for (const controller of gui.controllersRecursive()) controller.updateDisplay();
  }
  return result;
}

function checkPoint(values, what, n) {
  if (!Array.isArray(values) || values.length !== n || !values.every(Number.isFinite)) {
    throw new Error(`${what} takes ${n === 3 ? "three" : "four"} finite numbers`);
  }
}

/** What a link stores of the page now (see permalink.js for the format). */
function linkState() {
  const now = command("state", {});
  const params = {};
  for (const key of Object.keys(layout.param_specs)) {
    if (now.params[key] !== null && now.params[key] !== undefined) params[key] = now.params[key];
  }
  // Targets that stay where they are (pinned, or their script stopped); moving ones follow their script.
  const targets = {};
  for (const target of layout.targets) {
    const held = now.targets[target.name];
    if (!target.draggable || !held?.held) continue;
    targets[target.name] = target.oriented && held.orientation ? [...held.position, ...held.orientation] : held.position;
  }
  return {
    scene: layout.scene, params, overlays: showLimits, targets,
    camera: [...stage.camera.position.toArray(), ...stage.controls.target.toArray()], ...embedKeys,
  };
}

/** The address bar follows the page (replaceState: no history entries), at most every 500 ms. */
function writeHash() {
  const hash = formatHash(linkState());
  if (hash === lastHash) return;
  lastHash = hash;
  try {
    history.replaceState(history.state, "", `#${hash}`);
  } catch (error) {
    note(`The address bar could not be updated: ${error.message}`);
  }
}

/**
 * Apply a link's hash: a scene named in it starts fresh, then its parameters, overlays, targets and
 * camera apply; what is malformed, unknown or out of range is left out and named in a notice.
 * Returns {ignored} (plain-text descriptions).
 */
function applyLink(hash) {
  const { state: link, ignored } = parseHash(hash, { scenes });
  for (const key of ["embed", "origin"]) {
    if (link[key] !== undefined) embedKeys[key] = link[key];
  }
  if (link.scene) showScene(command("set_scene", { name: link.scene }));
  const { params, targets, ignored: unfit } = resolveLink(link, layout);
  ignored.push(...unfit);
  if (Object.keys(params).length) {
    try {
      applied(command("set", params));
    } catch (error) {
      ignored.push(`parameters (${error.message})`);
    }
  }
  if (link.overlays !== undefined) api.showLimits(link.overlays);
  for (const { name, position, orientation } of targets) {
    try {
      api.setTarget(name, position, orientation);
    } catch (error) {
      ignored.push(`t.${name} (${error.message.replace(/^\w+Error: /, "")})`);
    }
  }
  if (link.camera) stage.setView({ position: link.camera.slice(0, 3), target: link.camera.slice(3) });
  lastHash = null;
  if (ignored.length) note(describeIgnored(ignored), 12000);
  return { ignored };
}

/** The "copy link" button: to the clipboard where the browser allows it, else shown selected in a field. */
async function copyLink() {
  const url = api.link();
  try {
    if (!navigator.clipboard?.writeText) throw new Error("no clipboard");
    await navigator.clipboard.writeText(url);
    note("Link copied to the clipboard.", 3000);
  } catch {
    const field = $("share-link");
    field.value = url;
    $("share").hidden = false;
    field.focus();
    field.select();
  }
}

const api = {
  ready,
  get scenes() { return scenes.slice(); },
  get methods() { return layout ? layout.methods.slice() : []; },
  /** Switch scene by name (one of `scenes`), optionally built with options (e.g. {count: 12} tentacles). */
  setScene(name, options) {
    if (!scenes.includes(name)) throw new Error(`unknown scene ${JSON.stringify(name)}; scenes: ${scenes.join(", ")}`);
    showScene(command("set_scene", options === undefined ? { name } : { name, options }));
    return state();
  },
  /** Solve with another method (one of `methods`). */
  setMethod(name) {
    if (!this.methods.includes(name)) throw new Error(`unknown method ${JSON.stringify(name)}; methods: ${this.methods.join(", ")}`);
    applied(command("set", { method: name }));
    return state();
  },
  /** Change parameters: {method, tolerance, max_iterations, damping, constraints, animate, ...scene's own}. */
  set(params) {
    if (params === null || typeof params !== "object" || Array.isArray(params)) throw new Error("set() takes an object of parameters");
    // Checked here with the specs Python applies (as links are): a refused call changes nothing.
    const { values, errors } = checkParams(layout.param_specs, params, layout.scene);
    if (errors.length) throw new Error(errors.join("; "));
    applied(command("set", values));
    return state();
  },
  /**
   * Pin the named target at [x, y, z] (and, for an oriented target, optionally the orientation [w, x, y, z]).
   * It stops following its script until released (the GUI's "release" button).
   */
  setTarget(name, position, orientation) {
    checkPoint(position, "setTarget(name, [x, y, z])", 3);
    const args = { name: String(name), position };
    if (orientation !== undefined && orientation !== null) {
      checkPoint(orientation, "setTarget's orientation [w, x, y, z]", 4);
      args.orientation = orientation;
    }
    applied(command("set_target", args));
    return state();
  },
  /** Hand the named target (or every target) back to its script. */
  release(name) {
    applied(command("release", name === undefined || name === null ? {} : { name: String(name) }));
    return state();
  },
  /**
   * The current pose, in ikcore's format (ikcore.pose; ikcore.load_pose reads it): scene, method and per
   * chain its rest points, limits, local rotations (w, x, y, z), positions, frame and world positions.
   */
  pose() {
    return command("pose", {});
  },
  /** Save pose() as a JSON file (ikcore-pose-<scene>-<frame>.json); returns the file name. */
  downloadPose() {
    const pose = this.pose();
    const name = `ikcore-pose-${pose.scene}-${frame}.json`;
    downloadText(name, JSON.stringify(pose, null, 1) + "\n");
    return name;
  },
  /** Draw the joint limits (hinge arcs, cones) or not. */
  showLimits(on) {
    showLimits = Boolean(on);
    if (overlay) overlay.visible = showLimits;
    if (guiParams) {
      guiParams.overlays = showLimits;
      for (const controller of gui.controllersRecursive()) controller.updateDisplay();
    }
    return state();
  },
  /** Put the drag gizmo on a draggable target (clicking a target does the same). */
  select(name) {
    handles.select(String(name));
    return state();
  },
  /** Where target `name` is drawn on the page, in CSS pixels (client coordinates): [x, y]. */
  screenPosition(name) {
    const mesh = view?.targetMesh(String(name));
    if (!mesh) throw new Error(`no target ${JSON.stringify(name)}`);
    const p = mesh.position.clone().project(stage.camera);
    const rect = stage.renderer.domElement.getBoundingClientRect();
    return [rect.left + ((p.x + 1) / 2) * rect.width, rect.top + ((1 - p.y) / 2) * rect.height];
  },
  /**
   * Fault injection, for tests of the failure path: the next frame's Python call raises
   * RuntimeError(message), which stops the animation with the failure panel.
   */
  /** The Python time (ms) of each of the next `count` frames, as a promise of an array (for benchmarks). */
  collectTimes(count) {
    const n = Math.floor(Number(count));
    if (!(n >= 1)) throw new Error("collectTimes(count) takes a frame count >= 1");
    if (collector) collector.resolve(collector.times);
    return new Promise((resolve) => { collector = { times: [], count: n, resolve }; });
  },
  injectFault(message = "fault injected by ikDemo.injectFault") {
    command("fail_next_frame", { message: String(message) });
  },
  /** After the animation stopped on an error: a new copy of the scene, and the loop runs again. */
  restart,
  /**
   * Run `frames` frames now, synchronously, each stepping `dt` seconds: the same frame body as the
   * animation loop (Python's step, the views, the race chart, the HUD) on a clock of its own, rendered
   * with three.js every `renderEvery`-th frame (1: all; 0: none, the animation loop still renders
   * between calls). For soak and fault tests. Returns
   * `{frames, frame, python_ms: {median, max}, nonfinite}`, where `nonfinite` counts the frames whose shared
   * array held a NaN or an infinity.
   */
  advance(frames, dt = 1 / 60, renderEvery = 1) {
    if (!py) throw new Error("the demo is not ready yet (await ikDemo.ready)");
    if (stopped) throw new Error(`the demo has stopped: ${errorMessage}`);
    if (!Number.isInteger(frames) || frames < 1 || frames > 1e6) throw new Error("advance() takes 1 to 1e6 frames");
    if (!Number.isFinite(dt) || dt < 0 || dt > 0.1) throw new Error("advance()'s dt must be in [0, 0.1] seconds");
    if (!Number.isInteger(renderEvery) || renderEvery < 0) throw new Error("advance()'s renderEvery must be >= 0");
    const times = new Float64Array(frames);
    let nonfinite = 0;
    let now = performance.now();
    for (let i = 0; i < frames; i++) {
      try {
        tick(dt, now, renderEvery > 0 && (i + 1) % renderEvery === 0);
      } catch (error) {
        stop(error);
        throw new Error(shortMessage(error));
      }
      times[i] = pyLast;
      for (let k = 0; k < buf.length; k++) {
        if (!Number.isFinite(buf[k])) {
          nonfinite++;
          break;
        }
      }
      now += dt * 1000;
    }
    // The animation loop carries on from here without a jump.
    lastNow = null;
    times.sort();
    return { frames, frame, python_ms: { median: times[frames >> 1], max: times[frames - 1] }, nonfinite };
  },
  /**
   * Counts for leak checks: Python's (after a collection; wasm memory, objects, live PyProxies, JS values
   * Python holds) and three.js's (geometries, textures, shader programs in the renderer).
   */
  health() {
    const info = stage.renderer.info;
    return { python: command("health", {}),
      three: { geometries: info.memory.geometries, textures: info.memory.textures, programs: info.programs.length } };
  },
  /** A link to this view: the page's address with its state in the hash (see the README's "Share"). */
  link() {
    return `${location.href.split("#")[0]}#${formatHash(linkState())}`;
  },
  /** Apply a link's hash ("#v=1&..."), as opening it would: returns {ignored}. */
  applyLink(hash) {
    return applyLink(String(hash));
  },
  state,
};
window.ikDemo = api;
connectParent(api, { note });

window.addEventListener("hashchange", (event) => {
  if (!py || stopped) return;
  try {
    // The URL of the change itself: the page may have rewritten the address bar since (writeHash).
    applyLink(new URL(event.newURL).hash);
  } catch (error) {
    note(`The link could not be applied: ${error.message}`);
  }
});

// Keys that steer a walker: a destination ahead, or turned left or right of its heading.
const STEER = {
  arrowup: [1, 0], w: [1, 0], arrowleft: [1, 0.7], a: [1, 0.7], arrowright: [1, -0.7], d: [1, -0.7],
  arrowdown: [0, 0], s: [0, 0],
};

window.addEventListener("keydown", (event) => {
  if (!handles || stopped || event.target !== document.body) return;
  const key = event.key.toLowerCase();
  if (key in STEER && layout.scene === "spider") {
    const [forward, turn] = STEER[key];
    try {
      command("steer", { forward, turn });
    } catch (error) {
      note(error.message);
    }
    event.preventDefault();
    return;
  }
  if (key === "r" || key === "t") {
    handles.setMode(key === "r" ? "rotate" : "translate");
    if (guiParams) guiParams.gizmo = handles.gizmo.mode;
  }
});

boot.attached.then((attached) => {
  py = attached;
  scenes = py.info.scenes;
  stage = new Stage($("viewport"), py.info.layout.camera);
  wheelAfterClick(stage.controls, stage.renderer.domElement);
  handles = new Handles(stage, {
    moved(name, position, orientation) {
      try {
        api.setTarget(name, position, orientation);
      } catch (error) {
        note(error.message);
      }
    },
    dropped() {},
    clickedGround(point) {
      const target = layout.targets.find((t) => t.name === "destination");
      if (!target) return;
      try {
        api.setTarget("destination", point);
      } catch (error) {
        note(error.message);
      }
    },
  });
  showScene(py.info);
  $("failure-restart").addEventListener("click", () => {
    try {
      restart();
    } catch (error) {
      $("failure-text").textContent += `\n\nThe scene could not be restarted: ${shortMessage(error)}`;
    }
  });
  $("share-close").addEventListener("click", () => { $("share").hidden = true; });
  if (location.hash.length > 1) applyLink(location.hash);
  schedule();
}).catch((error) => {
  if (!boot.failed) boot.fail("scene", String(error?.stack ?? error));
});
