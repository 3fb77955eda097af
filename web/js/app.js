// The demo's composition: waits for Python's bridge (boot.js), then puts together the frame loop (loop.js),
// the stage (stage.js), the camera rig (camera.js), the current scene's view (views/, by scene name), the
// drag handles, the HUD, the panel, the links and window.ikDemo (api.js), and says what a frame draws.
//
// Per animation frame (loop.js): one call into Python, step(dt), which solves the whole scene and fills its
// frame buffer; then drawFrame below: toWorld (frames.js) puts each chain's records into the world, the
// scene's view and the limit overlay read the array, three.js renders, the HUD and the address bar follow.
//
// The page's parts share one context, `demo` below: the loop (Python's bridge), the current scene's layout
// and view, the stage and the gizmo. The links (links.js) and window.ikDemo (api.js) read it and act through
// its functions; the panel (gui.js) acts through window.ikDemo alone.

import { createApi } from "./api.js";
import { CameraRig } from "./camera.js";
import { connectParent, embedded, wheelAfterClick } from "./embed.js";
import { toWorld } from "./frames.js";
import { ControlPanel } from "./gui.js";
import { Handles } from "./handles.js";
import { chainStates, Hud, targetPositions } from "./hud.js";
import { Links } from "./links.js";
import { Loop } from "./loop.js";
import { LimitOverlay } from "./parts/overlays.js";
import { parseHash } from "./permalink.js";
import { Stage } from "./stage.js";
import { acceptUrdfFiles } from "./urdf-file.js";
import { viewFor } from "./views/index.js";

const boot = window.ikBoot;
const $ = (id) => document.getElementById(id);
// A reader who asks for less motion gets no scripted motion until they press play (or tick it on).
const reducedMotion = window.matchMedia?.("(prefers-reduced-motion: reduce)");

let noticeTimer = 0;
let resolveReady;
let rejectReady;
const hud = new Hud();
// Where the HUD ends (CSS --hud-bottom): on a narrow window the opened panel starts below it, not over it.
new ResizeObserver(() => {
  const box = $("hud").getBoundingClientRect();
  document.documentElement.style.setProperty("--hud-bottom", `${Math.round(box.height ? box.bottom : 0)}px`);
}).observe($("hud"));

const ready = new Promise((resolve, reject) => {
  resolveReady = resolve;
  rejectReady = reject;
});
// Pages that never ask for `ready` must not see an unhandled rejection; those that do still get it.
ready.catch(() => {});
boot.attached.catch((error) => rejectReady(error));

const loop = new Loop(boot, drawFrame);
// A still scene rests until something may change it (loop.js): anything the reader does wakes it.
loop.still = () => Boolean(demo.view?.still());
for (const type of ["pointerdown", "pointermove", "wheel", "keydown", "resize"]) {
  window.addEventListener(type, () => loop.wake(), { passive: true });
}

const demo = {
  ready, loop,
  scenes: [],
  layout: null,         // the current scene's layout (Python's scene contract); its params are kept current
  get buf() { return loop.buf; },
  get frame() { return loop.frame; },
  stage: null, camera: null, view: null, overlay: null, handles: null,
  limitsShown: false,
  hintDone: false,      // the reader has put a handle on something (or sent a walker): the hint has done its job
  motionAsked: false,   // the reader pressed play (or turned scripted motion on) despite reduced motion
  links: null, api: null, emit: () => {},
  command: (name, args) => loop.command(name, args),
  running: () => loop.running(),
  advance: (frames, dt, renderEvery) => loop.advance(frames, dt, renderEvery),
  note, state, applied, showScene, showLimits, restart, setGizmo, insets,
};
demo.links = new Links(demo);

/** A short plain-text notice for a few seconds (a refused drag or input, what a link left out). */
function note(text, ms = 6000) {
  const element = $("notice");
  element.textContent = text;
  element.hidden = false;
  clearTimeout(noticeTimer);
  noticeTimer = setTimeout(() => { element.hidden = true; }, ms);
}

function state() {
  const { layout, stage } = demo;
  const py = loop.py;
  const buf = py && layout ? loop.buf : null;
  return {
    scene: layout ? layout.scene : null,
    method: layout ? layout.params.method : null,
    frame: loop.frame,
    fps: loop.timing.fps(),
    python_ms: { last: loop.timing.last, median: loop.timing.median() },
    error: loop.errorMessage ?? boot.failed?.message ?? null,
    dt: loop.lastDt,
    paused: loop.paused,
    resting: loop.resting,
    offscreen: loop.offscreen,
    reducedMotion: Boolean(reducedMotion?.matches),
    params: layout ? { ...layout.params } : {},
    selected: demo.handles?.selected?.name ?? null,
    overlays: demo.limitsShown,
    camera: stage ? { position: stage.camera.position.toArray(), target: stage.controls.target.toArray(),
      fov: stage.camera.fov } : null,
    renderer: stage ? stage.describe() : null,
    view: demo.view ? demo.view.describe() : null,
    chains: buf ? chainStates(layout, buf) : [],
    targets: buf ? targetPositions(layout, buf) : {},
    // The step shown, in a scene that shows a solve step by step (the steps scene's view).
    steps: demo.view?.steps ? { ...demo.view.steps } : null,
  };
}

/** One frame's drawing, after Python's step: `buf` is the frame, `render` whether three.js draws it. */
function drawFrame(buf, dt, now, render) {
  toWorld(buf, demo.layout);
  demo.view.update(buf, dt, now);
  demo.overlay.update(buf);
  if (render) demo.stage.render();
  hud.update(now, demo.layout, buf, loop.timing, demo.view);
  demo.links.follow(now);
}

// A command's answer written into the frame (a target placed, a step chosen): into the world, as a frame's.
// A new layout (a new buffer) is shown anew instead (applied, below).
loop.onWritten = (answer) => {
  if (demo.layout && (answer.revision ?? 0) === (demo.layout.revision ?? 0)) toWorld(loop.buf, demo.layout);
};

loop.onFirstFrame = () => {
  boot.done();
  $("hud").hidden = false;
  // Framed again with the HUD in place (unless a link placed the camera).
  demo.camera.refit();
  resolveReady(state());
};
loop.onStop = () => { $("failure-restart").hidden = false; };

/** After a stop: a new copy of the current scene, the panel gone, the loop running again. */
function restart() {
  if (!loop.stopped) return state();
  const name = demo.layout.scene;
  const info = JSON.parse(loop.py.command("set_scene", JSON.stringify({ name })));
  $("failure-restart").hidden = true;
  loop.restarted();
  showScene(info);
  return state();
}

/**
 * What of the canvas the camera leaves to the overlays, in CSS pixels: the open panel's column on the right,
 * where it leaves most of the width (the content is framed beside it, not under it: a desktop window, a tablet
 * held upright). A view adds its own (the race's chart).
 */
function insets() {
  const gui = $("gui");
  const rect = gui.getBoundingClientRect();
  const column = window.innerWidth - rect.left + 8;
  const wide = rect.width > 0 && rect.height > 120 && column <= 0.4 * window.innerWidth;
  // The HUD in the top left corner: the content is framed below it (before the first frame it is hidden,
  // and the camera fits again once it shows).
  const hud = $("hud");
  const top = hud.hidden ? 0 : hud.getBoundingClientRect().bottom + 4;
  // The hint at the bottom of the page, while it shows: the content is framed above it. (Once the reader has
  // used it, it goes and the camera stays put: the content then just has more room below.) An embed's frame
  // is too small to give its hint a band of its own: there the hint lies over the ground.
  const hint = $("hint");
  const embedded = "embed" in document.documentElement.dataset;
  const shown = !embedded && !hint.hidden && hint.getClientRects().length > 0;  // (not display: none)
  const bottom = shown ? window.innerHeight - hint.getBoundingClientRect().top + 4 : 0;
  return { top, right: wide ? column : 0, bottom, left: 0 };
}

/**
 * Build the views of the current scene (after loading, after each scene switch, and after a new layout of the
 * same scene: then `carried` is what the view before handed over, see views/base.js).
 */
function showScene(info, carried = null) {
  const { stage } = demo;
  const layout = demo.layout = info.layout;
  loop.takeFrame();
  const buf = loop.buf;
  toWorld(buf, layout);
  if (demo.view) demo.view.dispose();
  if (demo.overlay) demo.overlay.dispose();
  let ground = null;
  if (layout.terrain) {
    const grid = loop.command("terrain", {});
    ground = stage.setTerrain(grid, loop.py.buffer("terrain"));
  } else {
    stage.setTerrain(null);
  }
  const View = viewFor(layout.scene);
  const view = demo.view = new View({ stage, camera: demo.camera, layout, buf, note, insets, api, terrain: ground,
    command: (name, args) => loop.command(name, args), emit: (event, detail) => demo.emit(event, detail), carried });
  demo.overlay = new LimitOverlay(stage.scene, layout);
  demo.overlay.visible = demo.limitsShown;
  demo.handles.attach(view, view.ground);
  loop.timing.resetPython();
  // Reduced motion: each scene opens still, until the reader asks for its motion.
  if (reducedMotion?.matches && !demo.motionAsked && layout.params.animate) {
    layout.params = loop.command("set", { animate: false }).params;
  }
  // The panel first (its size decides the framing on a wide window), the HUD's lines for this scene (its
  // height too), then the view's first frame, the hint (its height too) and the camera.
  demo.emit("scene", layout.scene);
  hud.show(layout, buf, loop.timing, view);
  view.update(buf, 0, performance.now());
  showHint();
  demo.camera.frameScene(view.framing());
}

/**
 * A command's result (the scene's state: {params}, the values in force) becomes the scene's parameters and the
 * panel's, and the view hears of it. A scene whose chains changed with its parameters (the steps scene's, the
 * playground's lanes: a new `revision`) is shown anew: its layout, its buffer and a view for them, which takes
 * over what the view before hands over (the playground's editor, with the reader's code).
 */
function applied(result) {
  if ((result.revision ?? 0) !== (demo.layout.revision ?? 0)) {
    showScene(loop.command("layout", {}), demo.view.handOver?.() ?? null);
    // The new view may have set parameters as it was framed (the race's arrangement of its lanes): the state
    // after them, not `result`, is the one in force.
    result = loop.command("state", {});
  }
  const was = demo.layout.params.animate;
  demo.layout.params = result.params;
  if (result.params.animate && !was) demo.motionAsked = true;
  showHint();
  demo.view.applied(result);
  demo.emit("params", { ...result.params });
  return result;
}

function showLimits(on) {
  demo.limitsShown = Boolean(on);
  if (demo.overlay) demo.overlay.visible = demo.limitsShown;
  demo.emit("overlays", demo.limitsShown);
}

function setGizmo(mode) {
  demo.handles.setMode(mode);
  demo.emit("gizmo", mode);
}

/**
 * The hint line: how to interact with this scene, until the reader has done so once; with
 * reduced motion and the scene still, a play button.
 */
function showHint() {
  const hint = $("hint");
  const still = reducedMotion?.matches && !demo.layout.params.animate && !demo.motionAsked;
  // An embed's frame is small: its hint is the view's short one, a line or two beside the frame's buttons.
  const embedded = "embed" in document.documentElement.dataset;
  $("hint-text").textContent = (embedded ? demo.view?.shortHint : null) ?? demo.view?.hint ?? "";
  $("play").hidden = !still;
  hint.hidden = demo.hintDone && !still;
}

const api = createApi(demo);
demo.api = api;
window.ikDemo = api;
connectParent(api, { note });
acceptUrdfFiles(api, note);
demo.links.listen();

window.addEventListener("keydown", (event) => {
  const { handles } = demo;
  if (!handles || loop.stopped || event.target !== document.body) return;
  const key = event.key.toLowerCase();
  if (key === "escape") {
    handles.deselect();
    return;
  }
  if (demo.view.keydown(key)) {
    event.preventDefault();
    return;
  }
  if (key === "r" || key === "t") setGizmo(key === "r" ? "rotate" : "translate");
});

boot.attached.then((py) => {
  loop.attach(py);
  demo.scenes = py.info.scenes;
  // The one link key needed before the renderer exists; the rest of the link applies below.
  const { quality } = parseHash(location.hash).state;
  const stage = demo.stage = new Stage($("viewport"), py.info.layout.camera, quality ?? "auto");
  demo.camera = new CameraRig(stage);
  wheelAfterClick(stage.controls, stage.renderer.domElement);
  // The panel starts closed where it would cover much of a small window (in an embed it opens on demand).
  new ControlPanel(api, $("gui"), { compact: () => !embedded && (window.innerWidth < 700 || window.innerHeight < 560) });
  demo.handles = new Handles(stage, {
    moved(name, position, orientation) {
      try {
        api.setTarget(name, position, orientation);
      } catch (error) {
        note(error.message);
      }
    },
    selected(name) {
      if (name !== null && !demo.hintDone) {
        demo.hintDone = true;
        showHint();
      }
      demo.emit("selected", name);
    },
    clickedGround(point) {
      try {
        demo.view.clickedGround(point);
      } catch (error) {
        note(error.message);
      }
      // A walker sent somewhere: the hint (how to send it) has done its job too.
      if (!demo.hintDone && demo.view.ground) {
        demo.hintDone = true;
        showHint();
      }
    },
  });
  $("play").addEventListener("click", () => {
    try {
      api.play();
    } catch (error) {
      note(error.message);
    }
  });
  showScene(py.info);
  loop.watchVisibility($("viewport"));
  $("failure-restart").addEventListener("click", () => {
    try {
      restart();
    } catch (error) {
      $("failure-text").textContent += `\n\nThe scene could not be restarted: ${error.message}`;
    }
  });
  $("share-close").addEventListener("click", () => { $("share").hidden = true; });
  if (location.hash.length > 1) demo.links.apply(location.hash);
  loop.schedule();
}).catch((error) => {
  if (!boot.failed) boot.fail("scene", String(error?.stack ?? error));
});
