// The demo: waits for Python's bridge, runs the frame loop, draws, and exposes window.ikDemo.
//
// Per animation frame: one call into Python, step(dt), which solves the whole scene and fills its frame
// buffer, read here through a Float64Array view of it (frameView); toWorld (frames.js) puts each chain's
// records into the world; then the skeleton view reads that array and three.js renders. Everything else (scene,
// method, parameters, targets) goes through command(name, json) when it changes. Python errors stop the
// loop with the failure panel showing the traceback.
//
// The page's parts share one context, `demo` below. This module sets its fields (Python's bridge, the
// current scene and its views, the loop's state); the panel (gui.js), the links (links.js) and
// window.ikDemo (api.js) read them and act through its functions. hud.js keeps the frame's timings.

import { createApi } from "./api.js";
import { connectParent, wheelAfterClick } from "./embed.js";
import { toWorld } from "./frames.js";
import { ControlPanel } from "./gui.js";
import { Handles } from "./handles.js";
import { chainStates, Hud, targetPositions, Timing } from "./hud.js";
import { Links } from "./links.js";
import { LimitOverlay } from "./overlays.js";
import { parseHash } from "./permalink.js";
import { RaceView } from "./race.js";
import { SkeletonView } from "./skeleton.js";
import { Stage } from "./stage.js";

const boot = window.ikBoot;
const $ = (id) => document.getElementById(id);

let race = null;
let lastNow = null;
let lastDt = 0;
let scheduled = false;  // a requestAnimationFrame(loop) is pending
let noticeTimer = 0;
let resolveReady;
let rejectReady;
const follow = { on: false, x: 0, y: 0, z: 0 };
const hud = new Hud();

const ready = new Promise((resolve, reject) => {
  resolveReady = resolve;
  rejectReady = reject;
});
// Pages that never ask for `ready` must not see an unhandled rejection; those that do still get it.
ready.catch(() => {});
boot.attached.catch((error) => rejectReady(error));

const demo = {
  ready,
  py: null,             // {step, command, buffer, info} from Python
  scenes: [],
  layout: null,         // the current scene's layout (Python's scene contract); its params are kept current
  get buf() { return frameView(); },   // the current scene's frame: a Float64Array (see frameView)
  stage: null, view: null, overlay: null, handles: null,   // three.js: the stage, the scene's views, the gizmo
  limitsShown: false,
  frame: 0,             // Python's frame count
  stopped: false,       // by an error, until restart()
  errorMessage: null,
  timing: new Timing(),
  panel: null, links: null, api: null,
  command, note, state, applied, showScene, showLimits, running, restart, advance,
};
demo.panel = new ControlPanel(demo);
demo.links = new Links(demo);

/** The last line of a Python traceback (the exception and its message), or the JS error's message. */
function shortMessage(error) {
  const text = String(error?.message ?? error).trim();
  const lines = text.split("\n");
  return lines[lines.length - 1];
}

/** Throws unless Python is attached and the loop has not stopped on an error. */
function running() {
  if (!demo.py) throw new Error("the demo is not ready yet (await ikDemo.ready)");
  if (demo.stopped) throw new Error(`the demo has stopped: ${demo.errorMessage}`);
}

function command(name, args) {
  running();
  try {
    return JSON.parse(demo.py.command(name, JSON.stringify(args)));
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

function state() {
  const { py, layout, buf, stage, timing } = demo;
  return {
    scene: layout ? layout.scene : null,
    method: layout ? layout.params.method : null,
    frame: demo.frame,
    fps: timing.fps(),
    python_ms: { last: timing.last, median: timing.median() },
    error: demo.errorMessage ?? boot.failed?.message ?? null,
    dt: lastDt,
    paused: document.hidden,
    params: layout ? { ...layout.params } : {},
    selected: demo.handles?.selected?.name ?? null,
    overlays: demo.limitsShown,
    camera: stage ? { position: stage.camera.position.toArray(), target: stage.controls.target.toArray() } : null,
    renderer: stage ? stage.describe() : null,
    chains: py ? chainStates(layout, buf) : [],
    targets: py ? targetPositions(layout, buf) : {},
  };
}

/**
 * Stop the loop and say why: a Python exception (with its traceback) or a page error. The failure panel
 * offers to restart the scene (a new one from Python; the runtime itself is unharmed by an exception).
 */
function stop(error) {
  demo.stopped = true;
  demo.errorMessage = shortMessage(error);
  const python = error?.constructor?.name === "PythonError";
  boot.fail("frame", python ? String(error.message) : String(error?.stack ?? error),
    python ? "The animation stopped: Python raised an error" : "The animation stopped: the page raised an error");
  $("failure-restart").hidden = false;
}

/** After a stop: a new copy of the current scene, the panel gone, the loop running again. */
function restart() {
  if (!demo.stopped) return state();
  const name = demo.layout.scene;
  const info = JSON.parse(demo.py.command("set_scene", JSON.stringify({ name })));
  demo.stopped = false;
  demo.errorMessage = null;
  boot.recover();
  $("failure-restart").hidden = true;
  showScene(info);
  lastNow = null;
  schedule();
  return state();
}

function schedule() {
  if (scheduled || demo.stopped || document.hidden) return;
  scheduled = true;
  requestAnimationFrame(loop);
}

function loop(now) {
  scheduled = false;
  // A hidden tab does no work: the loop waits for visibilitychange (browsers also stop animation frames).
  if (demo.stopped || document.hidden) return;
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
  if (demo.py && demo.view) schedule();
});

/** The first body bone's start (the spider's body), to keep a walker in view. */
function followBody() {
  const { layout, buf } = demo;
  const { bones } = layout.sections;
  for (let i = 0; i < bones.count; i++) {
    const o = bones.offset + i * bones.stride;
    if (buf[o + 7] === layout.kinds.body) {
      if (follow.on) demo.stage.pan(buf[o] - follow.x, 0, buf[o + 2] - follow.z);
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
  const { timing } = demo;
  lastDt = dt;
  const t0 = performance.now();
  demo.frame = demo.py.step(dt);
  timing.addPython(performance.now() - t0);
  const buf = demo.buf;  // after the step: it may have grown the runtime's memory (see frameView)
  toWorld(buf, demo.layout);
  timing.addFrame(now);
  demo.view.update(buf);
  demo.overlay.update(buf);
  if (demo.layout.terrain) followBody();
  if (race) {
    // Lane results changed (a lane finished, a race began): fetch the curves once, not every frame.
    if (race.changed(buf)) race.setState(command("state", {}), now);
    race.draw(now);
  }
  if (render) demo.stage.render();
  hud.update(now, demo.layout, buf, timing);
  demo.links.follow(now);
  if (timing.frames === 1) {
    boot.done();
    $("hud").hidden = false;
    resolveReady(state());
  }
}

/** ikDemo.advance, its arguments checked: `frames` frames now, on a clock of their own. */
function advance(frames, dt, renderEvery) {
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
    times[i] = demo.timing.last;
    const buf = demo.buf;
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
  return { frames, frame: demo.frame, python_ms: { median: times[frames >> 1], max: times[frames - 1] }, nonfinite };
}

// The current scene's frame, read where Python writes it: a Float64Array view of its array('d') in the
// runtime's memory (Pyodide's getBuffer), so no frame is copied across the bridge. Growing that memory
// (Python allocating) leaves every view of it empty; the view is then taken again.
const frame = { pybuf: null, view: null };

/** Take a view of the current scene's buffer (after a scene switch, or once the old view is empty). */
function takeFrame() {
  const proxy = demo.py.buffer();
  let pybuf;
  try {
    pybuf = proxy.getBuffer("f64");
  } finally {
    proxy.destroy();
  }
  if (frame.pybuf) frame.pybuf.release();
  frame.pybuf = pybuf;
  frame.view = pybuf.data;
  return frame.view;
}

/** The frame view, taken again if the memory under it grew (a scene's buffer is never empty). */
function frameView() {
  const view = frame.view;
  return view === null || view.length > 0 ? view : takeFrame();
}

/** Build the views of the current scene (after loading, and after each scene switch). */
function showScene(info) {
  const { py, stage } = demo;
  const layout = demo.layout = info.layout;
  takeFrame();
  const buf = demo.buf;
  toWorld(buf, layout);
  if (demo.view) demo.view.dispose();
  if (demo.overlay) demo.overlay.dispose();
  if (race) race.dispose();
  race = null;
  const view = demo.view = new SkeletonView(stage.scene, layout);
  view.update(buf);
  demo.overlay = new LimitOverlay(stage.scene, layout);
  demo.overlay.visible = demo.limitsShown;
  let ground = null;
  if (layout.terrain) {
    const grid = command("terrain", {});
    ground = stage.setTerrain(grid, py.buffer("terrain"));
  } else {
    stage.setTerrain(null);
  }
  follow.on = false;
  stage.setView(layout.camera);
  demo.handles.attach(view, ground);
  if (layout.scene === "race") {
    race = new RaceView($("race"), stage.scene, layout, buf);
    // Closer, and the lanes raised on screen above the chart panel.
    stage.camera.position.set(0, 3.4, 8.6);
    stage.controls.target.set(0, 0.1, 0);
  }
  demo.timing.resetPython();
  demo.panel.build();
}

/** A command's result ({params}, the values in force) becomes the scene's parameters and the panel's. */
function applied(result) {
  demo.layout.params = result.params;
  demo.panel.sync(result.params);
  return result;
}

function showLimits(on) {
  demo.limitsShown = Boolean(on);
  if (demo.overlay) demo.overlay.visible = demo.limitsShown;
  demo.panel.showOverlays(demo.limitsShown);
}

const api = createApi(demo);
demo.api = api;
window.ikDemo = api;
connectParent(api, { note });
demo.links.listen();

// Keys that steer a walker: a destination ahead, or turned left or right of its heading.
const STEER = {
  arrowup: [1, 0], w: [1, 0], arrowleft: [1, 0.7], a: [1, 0.7], arrowright: [1, -0.7], d: [1, -0.7],
  arrowdown: [0, 0], s: [0, 0],
};

window.addEventListener("keydown", (event) => {
  const { handles } = demo;
  if (!handles || demo.stopped || event.target !== document.body) return;
  const key = event.key.toLowerCase();
  if (key in STEER && demo.layout.scene === "spider") {
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
    demo.panel.showGizmo(handles.gizmo.mode);
  }
});

boot.attached.then((py) => {
  demo.py = py;
  demo.scenes = py.info.scenes;
  // The one link key needed before the renderer exists; the rest of the link applies below.
  const { quality } = parseHash(location.hash).state;
  const stage = demo.stage = new Stage($("viewport"), py.info.layout.camera, quality ?? "auto");
  wheelAfterClick(stage.controls, stage.renderer.domElement);
  demo.handles = new Handles(stage, {
    moved(name, position, orientation) {
      try {
        api.setTarget(name, position, orientation);
      } catch (error) {
        note(error.message);
      }
    },
    dropped() {},
    clickedGround(point) {
      const target = demo.layout.targets.find((t) => t.name === "destination");
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
  if (location.hash.length > 1) demo.links.apply(location.hash);
  schedule();
}).catch((error) => {
  if (!boot.failed) boot.fail("scene", String(error?.stack ?? error));
});
