// The steps scene: one chain, its solve traced step by step in Python (ikcore.trace), one step shown at a time.
// The bar at the bottom (#steps) holds the step's caption, the controls (back, play / pause, forward, a slider
// over the steps) and the error chart (parts/step-chart.js); the step itself is drawn over the chain as the
// method's figure (parts/step-drawing.js).
//
// The step shown is the scene's parameter `step`: every control goes through window.ikDemo (stepTo, set), as
// the panel, a link's `step=` and an embedding page's messages do, so they all reach the same state. Playing is
// the scene's `animate` (the panel's "play"): the view moves to the next step `rate` times a second and stops
// on the last. Python's state after each change names the step shown and the trace it belongs to (a number
// that grows with each new trace); the view fetches the trace's errors once per trace and the step's detail
// once per step (the scene's queries), never per frame.

import { StepChart } from "../parts/step-chart.js";
import { StepDrawing } from "../parts/step-drawing.js";
import { iterations, length, statusWords } from "../hud.js";
import { STYLES } from "../parts/limbs.js";
import { SceneView, besideTopOverlays } from "./base.js";
import { registerView } from "./registry.js";

const $ = (id) => document.getElementById(id);

/**
 * The camera's vertical field of view (degrees): narrower than the page's, so the camera stands farther away
 * and the chain is drawn as a textbook draws it, its near side little larger than its far side. In space the
 * box holds the target in front of the chain's plane: seen through a wide lens its near corners, drawn large,
 * would set the fit and leave the chain itself half the view's height.
 */
const FOV = 12;

class StepsView extends SceneView {
  constructor(context) {
    super(context);
    const { layout, stage } = context;
    this.stageFov = stage.camera.fov;
    stage.camera.fov = FOV;
    stage.camera.updateProjectionMatrix();
    this.hint = "Drag the red ball: the solve is traced again from the same start. ← → step, space plays.";
    this.labels = { animate: "play", rate: "speed (steps/s)", planar: "planar (2D view)", bones: "bones" };
    this.folder = "steps";
    this.planar = Boolean(layout.params.planar);
    this.gizmoAxes = this.planar ? "xy" : "xyz";
    this.bar = $("steps");
    this.bar.hidden = false;
    this.caption = $("steps-caption");
    this.slider = $("steps-slider");
    this.count = $("steps-count");
    this.playButton = $("steps-play");
    this.chart = new StepChart($("steps-chart"));
    // The marks' size from the chain's height (the box's): thick enough to read in a small embed's screenshot.
    this.drawing = new StepDrawing(this.scene, (layout.bounds.max[1] - layout.bounds.min[1]) / 70);
    this.traceId = null;
    this.shown = null;     // {trace, index} of the step drawn
    this.clock = 0;        // playing: the fraction of a step elapsed
    this.listening = new AbortController();
    const { signal } = this.listening;
    const act = (what) => () => {
      try {
        what();
      } catch (error) {
        context.note(error.message);
      }
    };
    $("steps-back").addEventListener("click", act(() => this.move(-1)), { signal });
    $("steps-forward").addEventListener("click", act(() => this.move(1)), { signal });
    this.playButton.addEventListener("click", act(() => this.togglePlay()), { signal });
    this.slider.addEventListener("input", act(() => context.api.stepTo(Number(this.slider.value))), { signal });
    this.applied(context.command("state", {}));
  }

  limbStyle() {
    return STYLES.plain;
  }

  /**
   * The chain and its target, large: the box Python gives (the chain's height and the side it curls to) fits
   * what the overlays leave, with a small margin. The bar covers the bottom of the canvas. The overlays along
   * the top (the HUD at the left, an embed's buttons at the right) become columns beside the chain where the
   * window is wide enough for it, rather than taking height from it.
   */
  framing() {
    const framing = super.framing();
    const insets = framing.insets;
    framing.margin = 0.03;
    // The hint lies over the ground at the left, beside the chain's root: only the bar takes height.
    // The box as drawn is about as wide as tall in the plane, narrower than tall in space.
    framing.insets = () => besideTopOverlays({ ...insets(),
      bottom: window.innerHeight - this.bar.getBoundingClientRect().top + 6 }, this.planar ? 1.05 : 0.8);
    return framing;
  }

  /** The scene's state after a command (or the first): the step shown, the trace it is of. */
  applied(state) {
    const steps = state.steps;
    if (!steps) return;
    const { command } = this.context;
    const fresh = steps.trace !== this.traceId;
    if (fresh) {
      this.traceId = steps.trace;
      this.trace = command("query", { name: "trace" });
      this.chart.setTrace(this.trace);
    }
    const { index, count, iteration, phase, joint, caption } = steps;
    this.error = steps.error;
    const changed = fresh || this.shown?.index !== index;
    this.steps = { index, count, iteration, phase, joint, caption };
    this.playing = Boolean(state.params.animate);
    this.playButton.textContent = this.playing ? "Pause" : "Play";
    this.playButton.setAttribute("aria-label", this.playing ? "Pause" : "Play");
    if (!changed) return;
    this.shown = { trace: steps.trace, index };
    this.drawing.show(command("query", { name: "step" }), state.method);
    this.caption.textContent = caption;
    this.slider.max = String(count - 1);
    this.slider.value = String(index);
    this.count.textContent = `${index} / ${count - 1}`;
    this.chart.draw(index);
    this.context.emit("step", { ...this.steps });
  }

  /**
   * The HUD's lines: the step shown and whether it plays, where the effector is at it, and how the whole
   * solve ends (the status of a step before the last is no status of the solve: it is said as the step's).
   */
  hudLines() {
    const { index, count, iteration } = this.steps;
    const { status, iterations: total } = this.trace.solution;
    const last = index === count - 1;
    return [
      `step ${index} of ${count - 1} · ${this.playing ? "playing" : "paused"}`,
      `${last ? "result" : `iteration ${iteration}`}: effector ${length(this.error)} from the target`,
      `the whole solve: ${statusWords(status)} after ${iterations(total)}`,
    ];
  }

  /** One step back (-1) or forward (+1), within the trace. */
  move(by) {
    const { index, count } = this.steps;
    const next = Math.min(Math.max(index + by, 0), count - 1);
    if (next !== index) this.context.api.stepTo(next);
  }

  /** Play from the step shown (from the start when the last is shown), or pause. */
  togglePlay() {
    const { api } = this.context;
    if (this.playing) {
      api.set({ animate: false });
      return;
    }
    if (this.steps.index >= this.steps.count - 1) api.stepTo(0);
    this.clock = 0;
    api.set({ animate: true });
  }

  /** Paused on a step, nothing moves: the loop rests until a control, a key or a drag. */
  still() {
    return !this.playing;
  }

  update(buf, dt, now) {
    super.update(buf, dt, now);
    if (!this.playing) return;
    this.clock += dt * this.layout.params.rate;
    if (this.clock < 1) return;
    this.clock -= Math.floor(this.clock);
    const { api } = this.context;
    try {
      if (this.steps.index >= this.steps.count - 1) api.set({ animate: false });
      else api.stepTo(this.steps.index + 1);
    } catch (error) {
      this.context.note(error.message);
    }
  }

  keydown(key) {
    try {
      if (key === "arrowleft" || key === "arrowright") this.move(key === "arrowleft" ? -1 : 1);
      else if (key === " ") this.togglePlay();
      else return false;
    } catch (error) {
      this.context.note(error.message);
    }
    return true;
  }

  describe() {
    return { ...super.describe(), planar: this.planar, drawing: this.drawing.describe(),
      bar: { hidden: this.bar.hidden, slider: { max: Number(this.slider.max), value: Number(this.slider.value) },
        count: this.count.textContent, caption: this.caption.textContent } };
  }

  dispose() {
    super.dispose();
    this.stage.camera.fov = this.stageFov;
    this.stage.camera.updateProjectionMatrix();
    this.listening.abort();
    this.drawing.dispose();
    this.bar.hidden = true;
  }
}

registerView("steps", StepsView);
