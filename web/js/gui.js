// The control panel (lil-gui): rebuilt for each scene with the scene's own parameters, kept showing the
// values in force whatever changed them (the panel, ikDemo, a link, a refusal), and checking the numbers
// typed into it as links are checked. Every change goes through window.ikDemo, as a script's would.

import GUI from "lil-gui";
import { paramFromText } from "./params.js";

export class ControlPanel {
  /** `demo`: the page's shared context (see app.js); read when the panel is built and used. */
  constructor(demo) {
    this.demo = demo;
    this.gui = null;
    this.values = null;   // the object lil-gui's controllers edit
  }

  /** A new panel for the current scene (demo.layout), replacing the previous one. */
  build() {
    const demo = this.demo;
    const { api, layout, note } = demo;
    if (this.gui) this.gui.destroy();
    // lil-gui's stylesheet is linked by index.html: injected <style> elements would need 'unsafe-inline'.
    const gui = this.gui = new GUI({ title: "ikcore", injectStyles: false, container: document.getElementById("gui") });
    const p = layout.params;
    const values = this.values = {
      scene: layout.scene, method: p.method, tolerance: p.tolerance, max_iterations: p.max_iterations,
      damping: p.damping ?? 0.03, constraints: p.constraints, animate: p.animate,
      gizmo: "translate", release: () => { demo.command("release", {}); }, pose: () => {
        try {
          api.downloadPose();
        } catch (error) {
          note(error.message);
        }
      },
      speed: p.speed ?? 0.7, wander: p.wander ?? true, overlays: demo.limitsShown, copyLink: () => demo.links.copy(),
      quality: demo.stage.asked,
    };
    // A refused value is not applied: the notice says why and the panel shows the values in force again.
    const guard = (fn) => (value) => {
      try {
        fn(value);
      } catch (error) {
        note(`${error.message}; not applied`);
        demo.applied({ params: demo.layout.params });
      }
    };
    const typed = (controller, key) => this.checkTyped(controller, key);
    gui.add(values, "copyLink").name("copy link");
    gui.add(values, "scene", demo.scenes).name("scene").onChange(guard((v) => api.setScene(v)));
    if (layout.scene !== "race") {
      gui.add(values, "method", layout.methods).name("method").onChange(guard((v) => api.setMethod(v)));
    }
    const solver = gui.addFolder("solver");
    // The race has its lanes under the panel on small screens: folders start closed there.
    if (layout.scene === "race" && window.innerWidth < 1400) solver.close();
    typed(solver.add(values, "tolerance", 1e-5, 1e-2).name("tolerance (× reach)").onFinishChange(guard((v) => api.set({ tolerance: v }))), "tolerance");
    typed(solver.add(values, "max_iterations", 1, 300, 1).name("max iterations").onFinishChange(guard((v) => api.set({ max_iterations: v }))), "max_iterations");
    typed(solver.add(values, "damping", 0.001, 1).name("damping (DLS)").onFinishChange(guard((v) => api.set({ damping: v }))), "damping");
    solver.add(values, "constraints").name("joint limits").onChange(guard((v) => api.set({ constraints: v })));
    solver.add(values, "overlays").name("show limits (arcs, cones)").onChange((v) => api.showLimits(v));
    const scene = gui.addFolder("scene");
    if (layout.scene === "race" && window.innerWidth < 1400) scene.close();
    scene.add(values, "animate").name("scripted motion").onChange(guard((v) => api.set({ animate: v })));
    if (layout.targets.some((t) => t.oriented)) {
      scene.add(values, "gizmo", ["translate", "rotate"]).name("gizmo (T / R)").listen()
        .onChange((v) => demo.handles.setMode(v));
    }
    if ("speed" in p) typed(scene.add(values, "speed", 0, 3).name("walk speed").onFinishChange(guard((v) => api.set({ speed: v }))), "speed");
    if ("wander" in p) scene.add(values, "wander").name("wander").onChange(guard((v) => api.set({ wander: v })));
    if (layout.targets.some((t) => t.draggable) && layout.scene !== "spider") {
      scene.add(values, "release").name("release dragged targets");
    }
    // "auto" says what it chose on this renderer; a change reopens the page on this view's link
    // (ikDemo.setQuality).
    const { stage } = demo;
    const auto = `auto (${stage.resolve("auto")})`;
    gui.add(values, "quality", { [auto]: "auto", high: "high", low: "low" }).name("quality (reloads)")
      .onChange(guard((v) => api.setQuality(v)));
    gui.add(values, "pose").name("download pose (JSON)");
  }

  /**
   * Text typed into a number field is checked against the parameter's spec (the ranges Python applies, as
   * for links) when the field is left: a value outside them, or not a finite number, gets a notice and is
   * not applied. lil-gui would clamp typed text to its slider silently; its own handler never sees it.
   */
  checkTyped(controller, key) {
    const demo = this.demo;
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
      const spec = demo.layout.param_specs[key];
      try {
        demo.api.set({ [key]: paramFromText(spec, input.value.trim(), key) });
      } catch (error) {
        demo.note(`${controller._name}: ${error.message}; not applied`);
        demo.applied({ params: demo.layout.params });
      }
    }, true);
    return controller;
  }

  /** Show `params` (the values in force) in the fields that edit them. */
  sync(params) {
    if (!this.values) return;
    for (const key of Object.keys(this.values)) {
      if (key in params && params[key] !== null) this.values[key] = params[key];
    }
    this.redraw();
  }

  /** Tick or untick "show limits". */
  showOverlays(on) {
    if (!this.values) return;
    this.values.overlays = on;
    this.redraw();
  }

  /** The gizmo mode changed from the keyboard (its field follows by itself: it listens). */
  showGizmo(mode) {
    if (this.values) this.values.gizmo = mode;
  }

  redraw() {
    for (const controller of this.gui.controllersRecursive()) controller.updateDisplay();
  }
}
