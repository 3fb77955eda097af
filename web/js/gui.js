// The control panel (lil-gui), built from what window.ikDemo describes of the current scene and acting only
// through window.ikDemo, as a script would: it names no scene and reaches into nothing else of the page.
//
// It shows what the scene and its method use: damping only under methods that take it, tolerance and
// iterations only under iterative methods (ikDemo.describe().param_methods, from Python's solvers), limit
// overlays only where a chain has limits, a release button only where a target has a motion to go back to.
// A hidden control keeps its value (the scene keeps it, and links carry it). The scene's own parameters
// come first, in a folder its view names ("race"), so that they are in sight when it opens. Values shown are
// always the values in force, whatever changed them (the panel, ikDemo, a link, a refusal), and numbers
// typed into it are checked as links are. A set of names (a "subset" parameter: the playground's rivals) is a
// folder of tick boxes, one a name; untick the last one and a notice says that one at least is needed.
// A scene whose layout changed with a parameter (a new `revision`: other lanes) gets a new panel, which
// keeps the focus on the control that had it, so that a keyboard goes on from there.

import GUI from "lil-gui";
import { paramFromText } from "./params.js";

// The parameters every scene has, with their labels; the rest are the scene's own.
const COMMON = {
  tolerance: "tolerance (share of reach)", max_iterations: "max iterations", damping: "damping",
  constraints: "joint limits", animate: "scripted motion",
};

export class ControlPanel {
  /**
   * @param {object} api window.ikDemo
   * @param {HTMLElement} container where the panel goes
   * @param {{compact: () => boolean}} options compact(): start closed (a small window)
   */
  constructor(api, container, options) {
    this.api = api;
    this.container = container;
    this.options = options;
    this.gui = null;
    this.values = null;     // the object lil-gui's controllers edit
    this.shown = {};        // key -> controller whose visibility follows the method
    this.ticks = {};        // a subset's key -> {choice: ticked}, the object its tick boxes edit
    this.info = null;
    api.on("scene", () => this.build());
    api.on("params", (params) => this.sync(params));
    api.on("overlays", (on) => this.set("overlays", on));
    api.on("gizmo", (mode) => this.set("gizmo", mode));
  }

  /** A new panel for the scene now shown, replacing the previous one. */
  build() {
    const { api } = this;
    const previous = this.info?.scene;
    const info = this.info = api.describe();
    const wasOpen = this.gui ? !this.gui._closed : !this.options.compact();
    const focused = previous === info.scene ? this.focusedPath() : null;
    if (this.gui) this.gui.destroy();
    // lil-gui's stylesheet is linked by index.html: injected <style> elements would need 'unsafe-inline'.
    const gui = this.gui = new GUI({ title: "Controls", injectStyles: false, container: this.container });
    if (!wasOpen) gui.close();
    const p = info.params;
    const values = this.values = {
      ...p, scene: info.scene, damping: p.damping ?? 0.03, overlays: info.overlays, gizmo: info.gizmo,
      quality: info.quality.asked,
      copyLink: () => api.copyLink(), release: () => this.act(() => api.release()),
      pose: () => this.act(() => api.downloadPose()),
      urdf: () => this.act(() => api.pickUrdf()),
    };
    this.shown = {};
    this.ticks = {};
    const guard = (fn) => (value) => this.act(() => fn(value));
    gui.add(values, "copyLink").name("copy link");
    gui.add(values, "scene", info.scenes).name("scene").onChange(guard((v) => api.setScene(v)));
    this.follow("method", gui.add(values, "method", info.methods).name("method")
      .onChange(guard((v) => api.setMethod(v))));

    const own = gui.addFolder(info.folder);
    for (const [key, spec] of Object.entries(info.param_specs)) {
      // A parameter the view has its own control for (the steps scene's step) stays out of the panel.
      if (key === "method" || key in COMMON || spec.panel === false) continue;
      this.follow(key, this.control(own, key, spec, info.labels[key] ?? key.replace(/_/g, " ")));
    }
    if (info.loadsUrdf) this.urdfControls(own, info.urdf);
    own.add(values, "animate").name(info.labels.animate ?? COMMON.animate).onChange(guard((v) => api.set({ animate: v })));
    if (info.targets.some((t) => t.oriented)) {
      own.add(values, "gizmo", ["translate", "rotate"]).name("gizmo (T / R)").onChange(guard((v) => api.setGizmo(v)));
    }
    if (info.targets.some((t) => t.draggable && t.scripted)) own.add(values, "release").name("release dragged targets");

    const solver = gui.addFolder("solver");
    for (const key of ["tolerance", "max_iterations", "damping"]) {
      this.follow(key, this.control(solver, key, info.param_specs[key], COMMON[key]));
    }
    solver.add(values, "constraints").name(COMMON.constraints).onChange(guard((v) => api.set({ constraints: v })));
    if (info.hasLimits) {
      solver.add(values, "overlays").name("show limits (arcs, cones, strokes)").onChange((v) => api.showLimits(v));
    }
    // "auto" says what it chose on this renderer; a change reopens the page on this view's link, and the note
    // under the setting says so (and, on a software renderer, what "high" costs there).
    const auto = `auto (${info.quality.auto})`;
    const quality = gui.add(values, "quality", { [auto]: "auto", high: "high", low: "low" }).name("rendering quality")
      .onChange(guard((v) => api.setQuality(v)));
    const note = document.createElement("div");
    note.className = "gui-note";
    note.id = "quality-note";
    note.textContent = info.quality.software
      ? "This browser draws without a GPU (a software renderer): high draws only 3-6 frames a second here. " +
        "A change reloads the page."
      : "A change reloads the page.";
    quality.domElement.after(note);
    gui.add(values, "pose").name("download pose (JSON)");
    this.showUsed(p.method);
    if (focused) this.focusPath(focused);
  }

  /** Where the focus is in the panel: its control's folder and name, or null. */
  focusedPath() {
    const active = document.activeElement;
    if (!this.gui || !active || !this.gui.domElement.contains(active)) return null;
    const controller = this.gui.controllersRecursive().find((c) => c.domElement.contains(active));
    return controller ? [controller.parent._title, controller._name] : null;
  }

  /** Focus the control of this panel at `path` (from focusedPath), if it has one. */
  focusPath([folder, name]) {
    const controller = this.gui.controllersRecursive().find((c) => c.parent._title === folder && c._name === name);
    controller?.domElement.querySelector("input, select, button")?.focus();
  }

  /**
   * The button that loads a URDF file (or take one dropped on the page), and a note on where the arm shown
   * came from: links carry a shipped arm, never a file.
   */
  urdfControls(folder, urdf) {
    const button = folder.add(this.values, "urdf").name("load URDF file…");
    const note = document.createElement("div");
    note.className = "gui-note";
    note.id = "urdf-note";
    const leaves = urdf ? Object.keys(urdf.leaves) : [];
    note.textContent = urdf
      ? `Arm from the file ${urdf.name} (${urdf.joints.length} joints, ${urdf.base} to ${urdf.tip}). ` +
        (leaves.length > 1 ? `Its tip link ${urdf.tip} was chosen of ${leaves.length} ends: pick another below. ` : "") +
        "A file is not put in links: a link made now opens the default arm."
      : "Or drop a .urdf file on the page. A file is not put in links (they carry a shipped arm only).";
    button.domElement.after(note);
    if (!urdf) return;
    // The tip link: the chain's end, one of the file's ends (leaf links); the one shown included if named.
    this.values.urdf_tip = urdf.tip;
    const tips = leaves.includes(urdf.tip) ? leaves : [urdf.tip, ...leaves];
    const tip = folder.add(this.values, "urdf_tip", tips).name("tip link")
      .onChange((v) => this.act(() => this.api.setUrdfTip(v)));
    tip.domElement.id = "urdf-tip";
    note.after(tip.domElement);
  }

  /** A controller for parameter `key` of `spec` in `folder`, applied through ikDemo.set. */
  control(folder, key, spec, label) {
    const { values, api } = this;
    const apply = (v) => this.act(() => api.set({ [key]: v }));
    if (spec.kind === "bool") return folder.add(values, key).name(label).onChange(apply);
    if (spec.kind === "choice") return folder.add(values, key, spec.choices).name(label).onChange(apply);
    if (spec.kind === "subset") return this.subset(folder, key, spec, label);
    // Sliders over the ranges a reader would use; any value of the spec's range can be typed (and is checked).
    const ranges = { tolerance: [1e-5, 1e-2], max_iterations: [1, 300], damping: [0.001, 1], rate: [1, 60] };
    const [lo, hi] = ranges[key] ?? [spec.min, spec.max];
    const controller = folder.add(values, key, lo, hi, spec.kind === "int" ? 1 : undefined).name(label)
      .onFinishChange(apply);
    return this.checkTyped(controller, key);
  }

  /** A subset parameter `key`: a folder of tick boxes, one per choice, applied through ikDemo.set. */
  subset(folder, key, spec, label) {
    const own = folder.addFolder(label);
    const ticks = this.ticks[key] = {};
    const names = this.info.choiceLabels[key] ?? {};
    for (const choice of spec.choices) {
      ticks[choice] = this.values[key].includes(choice);
      own.add(ticks, choice).name(names[choice] ?? choice)
        .onChange(() => this.act(() => this.api.set({ [key]: spec.choices.filter((c) => ticks[c]) })));
    }
    return own;
  }

  /** Make `controller` (for parameter `key`) one whose visibility follows the method (param_methods). */
  follow(key, controller) {
    this.shown[key] = controller;
    return controller;
  }

  /** Show each following controller only if the method `method` uses its parameter. */
  showUsed(method) {
    const uses = this.info.param_methods;
    for (const [key, controller] of Object.entries(this.shown)) {
      controller.show(!(key in uses) || uses[key].includes(method));
    }
  }

  /** Run `fn`; a refusal is not applied: a notice says why and the panel shows the values in force again. */
  act(fn) {
    try {
      return fn();
    } catch (error) {
      this.api.note(`${error.message}; not applied`);
      this.sync(this.api.describe().params);
      return null;
    }
  }

  /**
   * Text typed into a number field is checked against the parameter's spec (the ranges Python applies, as
   * for links) when the field is left: a value outside them, or not a finite number, gets a notice and is
   * not applied. lil-gui would clamp typed text to its slider silently; its own handler never sees it.
   */
  checkTyped(controller, key) {
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
      const spec = this.info.param_specs[key];
      try {
        this.api.set({ [key]: paramFromText(spec, input.value.trim(), key) });
      } catch (error) {
        this.api.note(`${controller._name}: ${error.message}; not applied`);
        this.sync(this.api.describe().params);
      }
    }, true);
    return controller;
  }

  /** Show `params` (the values in force) in the fields that edit them, and the controls the method uses. */
  sync(params) {
    if (!this.values) return;
    for (const key of Object.keys(this.values)) {
      if (key in params && params[key] !== null) this.values[key] = params[key];
    }
    for (const [key, ticks] of Object.entries(this.ticks)) {
      for (const choice of Object.keys(ticks)) ticks[choice] = params[key].includes(choice);
    }
    this.showUsed(params.method);
    this.redraw();
  }

  /** One value shown (the overlays' tick, the gizmo's mode). */
  set(key, value) {
    if (!this.values) return;
    this.values[key] = value;
    this.redraw();
  }

  redraw() {
    for (const controller of this.gui.controllersRecursive()) controller.updateDisplay();
  }
}
