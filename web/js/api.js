// window.ikDemo: the page's automation API (docs/page/automation.md), used by scripts, the tests and
// the benchmarks, by the panel (gui.js goes through nothing else), by the links (so that their changes take
// the same checks), and by an embedding page's messages (embed.js wraps its setters to report changes).
// Arguments are checked here; the work is the demo's (app.js) and Python's, which checks names and ranges
// again. on(event, listener) tells the panel (or any script) what changed: "scene" (a new scene is shown),
// "params" (the parameters in force), "overlays", "selected" (the gizmo's target, or null), "gizmo" (its mode),
// "step" (the step shown of a solve shown step by step: {index, count, iteration, phase, joint, caption}).

import { downloadText } from "./download.js";
import { checkParams } from "./params.js";
import { QUALITIES } from "./permalink.js";

const EVENTS = ["scene", "params", "overlays", "selected", "gizmo", "step"];

function checkPoint(values, what, n) {
  if (!Array.isArray(values) || values.length !== n || !values.every(Number.isFinite)) {
    throw new Error(`${what} takes ${n === 3 ? "three" : "four"} finite numbers`);
  }
}

/** The longest URDF text the page takes (as Python's ikcore.rigs.urdf_file.MAX_URDF_CHARS). */
export const MAX_URDF_CHARS = 1_000_000;

/** The ikDemo object over `demo`, the page's shared context (see app.js). */
export function createApi(demo) {
  const listeners = new Map(EVENTS.map((name) => [name, new Set()]));
  // The page tells the listeners of `event`; a listener's error is reported in a notice, not thrown.
  demo.emit = (event, detail) => {
    for (const listener of listeners.get(event)) {
      try {
        listener(detail);
      } catch (error) {
        demo.note(`${event} listener failed: ${error.message}`);
      }
    }
  };
  return {
    ready: demo.ready,
    /**
     * Call `listener(detail)` after each `event` (one of "scene", "params", "overlays", "selected",
     * "gizmo", "step"); returns a function that stops it.
     */
    on(event, listener) {
      const set = listeners.get(event);
      if (!set) throw new Error(`unknown event ${JSON.stringify(event)}; events: ${EVENTS.join(", ")}`);
      if (typeof listener !== "function") throw new Error("on(event, listener) takes a function");
      set.add(listener);
      return () => set.delete(listener);
    },
    /**
     * What the current scene offers the panel: {scene, scenes, methods, params, param_specs, param_methods
     * (which methods use a parameter; a parameter not listed is used by all), targets: [{name, draggable,
     * oriented, scripted}], hasLimits, labels, choiceLabels and folder (the view's names for the scene's own
     * parameters and a subset's choices),
     * overlays, gizmo, quality: {asked, auto}, loadsUrdf, urdf}.
     */
    describe() {
      demo.running();
      const { layout, view, stage } = demo;
      return {
        scene: layout.scene, scenes: demo.scenes.slice(), methods: layout.methods.slice(),
        params: { ...layout.params }, param_specs: structuredClone(layout.param_specs),
        param_methods: structuredClone(layout.param_methods ?? {}),
        targets: layout.targets.map(({ name, draggable, oriented, scripted }) => ({ name, draggable, oriented, scripted })),
        hasLimits: layout.chains.some((chain) => chain.constraints.some((c) => c && !(c.type === "ball" && c.cone_deg >= 179.9))),
        labels: { ...view.labels }, choiceLabels: structuredClone(view.choiceLabels ?? {}), folder: view.folder, overlays: demo.limitsShown,
        gizmo: demo.handles.mode ?? "translate",
        quality: { asked: stage.asked, auto: stage.resolve("auto"), software: stage.software },
        // Whether the scene takes a reader's URDF file, and the file its arm came from ({name, base, tip, joints}).
        loadsUrdf: layout.scene === "robot", urdf: layout.urdf ? structuredClone(layout.urdf) : null,
      };
    },
    get scenes() { return demo.scenes.slice(); },
    get methods() { return demo.layout ? demo.layout.methods.slice() : []; },
    /** Switch scene by name (one of `scenes`), optionally built with options (e.g. {count: 12} tentacles). */
    setScene(name, options) {
      const { scenes } = demo;
      if (!scenes.includes(name)) throw new Error(`unknown scene ${JSON.stringify(name)}; scenes: ${scenes.join(", ")}`);
      demo.showScene(demo.command("set_scene", options === undefined ? { name } : { name, options }));
      return demo.state();
    },
    /** Solve with another method (one of `methods`). */
    setMethod(name) {
      if (!this.methods.includes(name)) throw new Error(`unknown method ${JSON.stringify(name)}; methods: ${this.methods.join(", ")}`);
      demo.applied(demo.command("set", { method: name }));
      return demo.state();
    },
    /** Change parameters: {method, tolerance, max_iterations, damping, constraints, animate, ...scene's own}. */
    set(params) {
      if (params === null || typeof params !== "object" || Array.isArray(params)) throw new Error("set() takes an object of parameters");
      // Checked here with the specs Python applies (as links are): a refused call changes nothing.
      const { values, errors } = checkParams(demo.layout.param_specs, params, demo.layout.scene);
      if (errors.length) throw new Error(errors.join("; "));
      demo.applied(demo.command("set", values));
      return demo.state();
    },
    /**
     * Show step `index` of the solve a scene shows step by step (the steps scene; a link's `step=`): an integer
     * from 0 to the trace's count less one (`state().steps.count`).
     */
    stepTo(index) {
      demo.running();
      const { layout } = demo;
      if (!Object.hasOwn(layout.param_specs, "step")) {
        throw new Error(`scene ${JSON.stringify(layout.scene)} shows no steps (the steps scene does: setScene("steps"))`);
      }
      if (!Number.isInteger(index)) throw new Error(`stepTo(index) takes a step number (an integer), got ${String(index)}`);
      const { values, errors } = checkParams(layout.param_specs, { step: index }, layout.scene);
      if (errors.length) throw new Error(errors.join("; "));
      demo.applied(demo.command("set", values));
      return demo.state();
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
      demo.applied(demo.command("set_target", args));
      return demo.state();
    },
    /** Hand the named target (or every target) back to its script. */
    release(name) {
      demo.applied(demo.command("release", name === undefined || name === null ? {} : { name: String(name) }));
      return demo.state();
    },
    /**
     * Show the arm of a URDF file's `text` (`name`: the file's name) in the robot scene (switching to it): from the root link to the deepest leaf reached through hinges, unless `links` names them
     * ({base, tip}). A file the scene cannot take (malformed, a prismatic joint, over MAX_URDF_CHARS) throws
     * an Error with the reason, and the scene shown before stays. Links do not carry the file.
     */
    loadUrdf(text, name = "file.urdf", links = {}) {
      if (typeof text !== "string") throw new Error("loadUrdf(text) takes the file's text, a string");
      if (text.length > MAX_URDF_CHARS) {
        throw new Error(`${name} is ${text.length.toLocaleString("en")} characters long; the page takes URDF files ` +
          `of at most ${MAX_URDF_CHARS.toLocaleString("en")} characters`);
      }
      const args = { text, name: String(name), base: links.base ?? null, tip: links.tip ?? null };
      // From another scene, Python answers with the robot scene's layout (a refusal changes nothing).
      const result = demo.command("load_urdf", args);
      if (result.layout) demo.showScene(result);
      else demo.applied(result);
      return demo.state();
    },
    /** Open the file dialog for a URDF file (the panel's button; the file is read as a drop is). */
    pickUrdf() {
      document.getElementById("urdf-file").click();
    },
    /**
     * The current pose, in ikcore's format (ikcore.pose; ikcore.load_pose reads it): scene, method and per
     * chain its rest points, limits, local rotations (w, x, y, z), positions, frame and world positions.
     */
    pose() {
      return demo.command("pose", {});
    },
    /** Save pose() as a JSON file (ikcore-pose-<scene>-<frame>.json); returns the file name. */
    downloadPose() {
      const pose = this.pose();
      const name = `ikcore-pose-${pose.scene}-${demo.frame}.json`;
      downloadText(name, JSON.stringify(pose, null, 1) + "\n");
      return name;
    },
    /** Draw the joint limits (hinge arcs, cones) or not. */
    showLimits(on) {
      demo.showLimits(on);
      return demo.state();
    },
    /** Put the drag gizmo on a draggable target (clicking a target does the same); null takes it away. */
    select(name) {
      if (name === null) demo.handles.deselect();
      else demo.handles.select(String(name));
      return demo.state();
    },
    /** Take the drag gizmo away (Esc, or a click on empty space, does the same). */
    deselect() {
      demo.handles.deselect();
      return demo.state();
    },
    /** The gizmo's mode: "translate", or "rotate" (turns a target that takes an orientation). */
    setGizmo(mode) {
      if (mode !== "translate" && mode !== "rotate") throw new Error('the gizmo mode is "translate" or "rotate"');
      demo.setGizmo(mode);
      return demo.state();
    },
    /** Scripted motion on (the play button of a page opened with reduced motion asked for). */
    play() {
      this.set({ animate: true });
      return demo.state();
    },
    /** A short plain-text notice on the page for a few seconds. */
    note(text) {
      demo.note(String(text));
    },
    /** Copy link() to the clipboard, or show it selected in a field where the browser does not allow that. */
    copyLink() {
      return demo.links.copy();
    },
    /**
     * Where target `name`, or a world point [x, y, z], is drawn on the page, in CSS pixels (client coordinates):
     * [x, y].
     */
    screenPosition(name) {
      let p;
      if (Array.isArray(name)) {
        checkPoint(name, "screenPosition([x, y, z])", 3);
        p = demo.stage.camera.position.clone().fromArray(name);
      } else {
        const mesh = demo.view?.targetMesh(String(name));
        if (!mesh) throw new Error(`no target ${JSON.stringify(name)}`);
        p = mesh.position.clone();
      }
      demo.stage.camera.updateMatrixWorld();
      p.project(demo.stage.camera);
      const rect = demo.stage.renderer.domElement.getBoundingClientRect();
      return [rect.left + ((p.x + 1) / 2) * rect.width, rect.top + ((1 - p.y) / 2) * rect.height];
    },
    /** The Python time (ms) of each of the next `count` frames, as a promise of an array (for benchmarks). */
    collectTimes(count) {
      const n = Math.floor(Number(count));
      if (!(n >= 1)) throw new Error("collectTimes(count) takes a frame count >= 1");
      return demo.loop.timing.collect(n);
    },
    /**
     * For benchmarks: the page's one call into Python a frame, made `calls` times back to back and timed as a
     * whole: ms per call. The scene's frames (not drawn, but the last), or with `empty` empty frames, the same
     * call on a scene with nothing in it: what every frame of the page costs before a scene does anything.
     */
    timeFrames(calls, empty = false) {
      const n = Math.floor(Number(calls));
      if (!(n >= 1 && n <= 1e6)) throw new Error("timeFrames(calls) takes 1 to 1e6 calls");
      return demo.loop.timeCalls(n, Boolean(empty));
    },
    /**
     * For benchmarks: the current scene's own baseline, timed now in the page's Python: `{what, ms}` (a crowd's
     * bare two-bone maths for its legs, another scene's forward pass of its chains; ikcore.rigs.baselines), the
     * least of 5 batches of `calls` calls (by default as many as take 20 ms).
     */
    baseline(calls) {
      return demo.command("baseline", calls === undefined ? {} : { calls });
    },
    /**
     * Fault injection, for tests of the failure path: the next frame's Python call raises
     * RuntimeError(message), which stops the animation with the failure panel.
     */
    injectFault(message = "fault injected by ikDemo.injectFault") {
      demo.command("fail_next_frame", { message: String(message) });
    },
    /**
     * Fault injection, for tests of the frame view: Python allocates and frees `megabytes` MB, which grows
     * the runtime's memory (it never shrinks) and so empties every view of it; the page takes its view of
     * the frame again when it next reads it. Returns the runtime's memory size in bytes, before and after.
     */
    growMemory(megabytes) {
      const before = demo.command("health", {}).wasm_bytes;
      demo.command("grow_memory", { megabytes });
      return { before, after: demo.command("health", {}).wasm_bytes };
    },
    /** After the animation stopped on an error: a new copy of the scene, and the loop runs again. */
    restart: demo.restart,
    /**
     * Run `frames` frames now, synchronously, each stepping `dt` seconds: the same frame body as the
     * animation loop (Python's step, the views, the race chart, the HUD) on a clock of its own, rendered
     * with three.js every `renderEvery`-th frame (1: all; 0: none, the animation loop still renders
     * between calls). For soak and fault tests. Returns
     * `{frames, frame, python_ms: {median, max}, nonfinite}`, where `nonfinite` counts the frames whose shared
     * array held a NaN or an infinity.
     */
    advance(frames, dt = 1 / 60, renderEvery = 1) {
      demo.running();
      if (!Number.isInteger(frames) || frames < 1 || frames > 1e6) throw new Error("advance() takes 1 to 1e6 frames");
      if (!Number.isFinite(dt) || dt < 0 || dt > 0.1) throw new Error("advance()'s dt must be in [0, 0.1] seconds");
      if (!Number.isInteger(renderEvery) || renderEvery < 0) throw new Error("advance()'s renderEvery must be >= 0");
      return demo.advance(frames, dt, renderEvery);
    },
    /**
     * Counts for leak checks: Python's (after a collection; wasm memory, objects, live PyProxies, JS values
     * Python holds) and three.js's (geometries, textures, shader programs in the renderer).
     */
    health() {
      const info = demo.stage.renderer.info;
      return { python: demo.command("health", {}),
        three: { geometries: info.memory.geometries, textures: info.memory.textures, programs: info.programs.length } };
    },
    /**
     * Draw with `quality` ("auto", "high" or "low"; see docs/page/quality.md): the renderer is made when the page
     * opens, so the page reloads on this view's link with that quality (nothing happens when it is the one
     * asked already).
     */
    setQuality(quality) {
      if (!QUALITIES.includes(quality)) {
        throw new Error(`quality must be one of ${QUALITIES.join(", ")}, got ${JSON.stringify(quality)}`);
      }
      if (quality !== demo.stage.asked) demo.links.reopen(quality);
      return demo.state();
    },
    /** A link to this view: the page's address with its state in the hash (see docs/page/links.md). */
    link() {
      return demo.links.url();
    },
    /** Apply a link's hash ("#v=1&..."), as opening it would: returns {ignored}. */
    applyLink(hash) {
      return demo.links.apply(String(hash));
    },
    state: demo.state,
  };
}
