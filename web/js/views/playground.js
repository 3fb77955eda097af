// The playground: an editor holding the reader's solver in Python beside the race of it against ikcore's
// methods. The race is the race scene's view (views/race.js: lanes side by side, replayed iteration by
// iteration, the chart of error against iteration with the reader's lane, "yours", first and in its own
// colour); this view adds the editor (parts/code-editor.js), Run, the templates, the result of the reader's
// run (its status, or its error with the line marked) and the code in the link (code-link.js).
//
// The reader's code reaches Python only through Run (the button, or Ctrl/Cmd-Enter in the editor): code that
// arrives in a link is put in the editor with a notice that it came from a link, and waits for Run.
//
// The panel's "ikcore methods racing" (Python's `rivals`) makes other lanes: a new layout, and so a new view
// (app.js). The editor's panel goes over to it whole (handOver): the code, its undo history, the caret, the
// result and the link's notice stay as they were; Python races the new lanes with the code it holds (a
// template, or the code the reader last ran: never code that only sits in the editor).

import { packCode, unpackCode } from "../code-link.js";
import { CodeEditor } from "../parts/code-editor.js";
import { laneLabel } from "../parts/race-chart.js";
import { RaceView } from "./race.js";
import { registerView } from "./registry.js";

const TEMPLATE_LABELS = { ccd: "CCD", fabrik: "FABRIK", jacobian_transpose: "J transpose", empty: "empty" };
// The editor beside the canvas where the window is wider than tall; under it otherwise (a phone held upright).
const SIDE = window.matchMedia("(orientation: landscape)");
const PACK_AFTER_MS = 300;

function describeRun(lanes) {
  const [yours, ...rivals] = lanes;
  const error = yours.errors.length ? yours.errors[yours.errors.length - 1] : null;
  const it = (n) => `${n} iteration${n === 1 ? "" : "s"}`;
  const theirs = rivals.map((lane) => `${laneLabel(lane.method)} ${lane.status === "converged" ? it(lane.iterations) : lane.status}`);
  const against = theirs.length ? ` ikcore: ${theirs.join(", ")}.` : "";
  switch (yours.status) {
    case "converged":
      return `Your solver converged in ${it(yours.iterations)} (error ${error.toExponential(1)}).${against}`;
    case "unreachable":
      return `The target is out of reach: your solver ended ${error.toFixed(3)} from it after ${it(yours.iterations)}.${against}`;
    case "stalled":
      return `Your solver stalled: its error stopped falling (${error.toExponential(1)} after ${it(yours.iterations)}).${against}`;
    case "max_iterations":
      return `Your solver used all ${it(yours.iterations)} and ended ${error.toExponential(1)} from the target.${against}`;
    case "invalid":
      return `Flagged, at ${yours.message}`;
    case "error":
      return yours.line ? `Line ${yours.line}: ${yours.message}` : yours.message;
    case "timeout":
      return yours.message;
    default:
      return "Running…";
  }
}

export class PlaygroundView extends RaceView {
  constructor(context) {
    super(context);
    const { layout } = context;
    this.hint = "Edit the solver, then Run (Ctrl+Enter): it races ikcore's methods. Drag the red ball: all race again.";
    this.labels = { rate: "replay speed (iterations/s)", replay: "replay iteration by iteration",
      rivals: "ikcore methods racing" };
    this.choiceLabels = { rivals: Object.fromEntries(layout.param_specs.rivals.choices.map((m) => [m, laneLabel(m)])) };
    this.folder = "playground";
    this.methodLabel = "your solver vs ikcore";
    this.templates = layout.playground.templates;
    this.maxSource = layout.playground.max_source;
    this.template = layout.params.template;
    this.packTimer = 0;
    this.handedOver = false;
    const carried = context.carried?.playground;
    if (carried) {
      // The view before this one's panel and editor, as the reader left them (see the top of the file).
      Object.assign(this, carried.fields);
      ({ panel: this.panel, editor: this.editor, owner: this.owner } = carried);
      if (carried.packing) this.edited(false);
    } else {
      this.fromLink = false;
      this.editedSinceRun = false;
      this.runAt = null;
      this.packed = null;   // the editor's code for the link (null: it is the template's, unchanged)
      this.result = { status: null, text: "" };
      // The panel's buttons and the editor act on the view that owns them now (the panel outlives a view).
      this.owner = {};
      this.panel = this.buildPanel();
      this.editor = new CodeEditor(this.panel.querySelector(".pg-editor"), {
        onRun: () => this.owner.view.run(), onChange: () => this.owner.view.edited(), label: "Your solver, in Python",
      });
      this.editor.value = this.templates[this.template];
    }
    this.owner.view = this;
    document.documentElement.dataset.playground = SIDE.matches ? "side" : "below";
    this.onOrientation = () => {
      document.documentElement.dataset.playground = SIDE.matches ? "side" : "below";
      this.context.camera.refit(false);
    };
    SIDE.addEventListener("change", this.onOrientation);
    // Each fresh state the chart fetches (a lane's result changed) also tells the reader what their run did.
    const setState = this.chart.setState.bind(this.chart);
    this.chart.setState = (state, now) => {
      setState(state, now);
      this.showResult(state);
    };
  }

  buildPanel() {
    const panel = document.createElement("section");
    panel.id = "playground";
    panel.setAttribute("aria-label", "Your solver");
    const options = Object.keys(this.templates).map((name) => `<option value="${name}">${TEMPLATE_LABELS[name] ?? name}</option>`);
    panel.innerHTML = `<div class="pg-bar">` +
      `<button class="pg-run" type="button" title="Run your solver (Ctrl+Enter or ⌘+Enter)">&#9654; Run</button>` +
      `<label class="pg-template" title="Start from a template: its code replaces the editor's">Template <select>${options.join("")}</select></label>` +
      `<button class="pg-hide" type="button" aria-expanded="true">Hide code</button></div>` +
      `<p class="pg-link" role="status" hidden>This code came from a link and has not run. Read it, then press Run.</p>` +
      `<div class="pg-editor"></div>` +
      `<p class="pg-result" role="status" aria-live="polite"></p>` +
      `<pre class="pg-output" hidden></pre>` +
      `<p class="pg-note">Runs in this page only: nothing is sent anywhere. A run has one second.</p>`;
    document.body.append(panel);
    const select = panel.querySelector("select");
    select.value = this.template;
    select.addEventListener("change", () => this.owner.view.chooseTemplate(select.value));
    panel.querySelector(".pg-run").addEventListener("click", () => this.owner.view.run());
    panel.querySelector(".pg-hide").addEventListener("click", () => this.owner.view.toggle());
    return panel;
  }

  /** Run the editor's code: the one way the reader's code reaches Python. */
  run() {
    const source = this.editor.value;
    if (source.length > this.maxSource) {
      this.setResult("error", `The code is ${source.length} characters long; at most ${this.maxSource} run.`);
      return;
    }
    this.fromLink = false;
    this.editedSinceRun = false;
    this.panel.querySelector(".pg-link").hidden = true;
    this.editor.markLine(null);
    this.runAt = performance.now();
    this.setResult("running", "Running…");
    let state;
    try {
      state = this.context.command("run_code", { source });
    } catch (error) {
      this.setResult("error", error.message.replace(/^\w+Error: /, ""));
      return;
    }
    this.chart.setState(state, performance.now());
  }

  chooseTemplate(name) {
    try {
      this.context.api.set({ template: name });
    } catch (error) {
      this.context.note(error.message);
    }
    // Chosen again (the code was changed since): the template's code anew, raced again.
    if (name === this.template && this.editor.value !== this.templates[name]) {
      this.editor.value = this.templates[name];
      this.run();
    }
  }

  toggle(show = this.panel.classList.contains("pg-folded")) {
    this.panel.classList.toggle("pg-folded", !show);
    const button = this.panel.querySelector(".pg-hide");
    button.textContent = show ? "Hide code" : "Show code";
    button.setAttribute("aria-expanded", String(show));
    this.context.camera.refit(false);
  }

  /** The editor's text changed (typing; `typed` false: a pack handed over): the link follows, compressed. */
  edited(typed = true) {
    if (typed) this.editedSinceRun = true;
    clearTimeout(this.packTimer);
    const text = this.editor.value;
    this.packTimer = setTimeout(async () => {
      this.packTimer = 0;
      try {
        this.packed = text === this.templates[this.template] ? null : await packCode(text);
      } catch {
        this.packed = null;
      }
    }, PACK_AFTER_MS);
  }

  /**
   * Before other lanes replace this view (app.js): the panel and the editor, and what this view knows of them,
   * for the next view to take over. Until Python's new race tells, the result says that it runs again.
   */
  handOver() {
    this.handedOver = true;
    const packing = this.packTimer !== 0;
    clearTimeout(this.packTimer);
    if (this.result.status) this.setResult("running", "Running…");
    const { fromLink, editedSinceRun, runAt, packed, result, loads } = this;
    return { playground: { panel: this.panel, editor: this.editor, owner: this.owner, packing,
      fields: { fromLink, editedSinceRun, runAt, packed, result, loads } } };
  }

  /** What the link keeps of the playground (links.js): the code, when it is not the template's. */
  linkKeys() {
    return this.packed ? { code: this.packed } : {};
  }

  /** A link's code (links.js): shown in the editor, with a notice that it came from a link; not run. */
  applyLinkCode(packed) {
    return unpackCode(packed, this.maxSource).then((text) => {
      this.editor.value = text;
      this.packed = packed;
      this.fromLink = true;
      this.panel.querySelector(".pg-link").hidden = false;
      this.toggle(true);
      this.context.note("This code came from a link: it has not run. Read it, then press Run.", 10000);
    }).catch((error) => {
      this.context.note(`The code in the link could not be read: ${error.message}.`, 10000);
    });
  }

  applied(state) {
    super.applied(state);
    const template = state.params.template;
    if (template !== this.template) {
      // A new template: its code in the editor (Python runs it: the page's own code, not the reader's).
      this.template = template;
      this.panel.querySelector("select").value = template;
      this.editor.value = this.templates[template];
      this.packed = null;
      this.fromLink = false;
      this.panel.querySelector(".pg-link").hidden = true;
    }
  }

  setResult(status, text) {
    // `ms`: from the reader's Run to this result (the page's own clock; tests read it).
    this.result = { status, text, ms: this.runAt === null ? null : performance.now() - this.runAt };
    const element = this.panel.querySelector(".pg-result");
    element.textContent = text;
    element.dataset.status = status ?? "";
  }

  showResult(state) {
    const play = state.playground;
    const lanes = state.race.lanes;
    if (!play) return;
    this.loads = play.runs;  // how many times Python took code (a template's or the reader's): tests
    if (!lanes[0].errors.length) return;
    this.setResult(lanes[0].status, describeRun(lanes));
    // The line marked is a line of the code that ran: not again once the reader has changed the code.
    const bad = ["error", "invalid", "timeout"].includes(lanes[0].status);
    if (!this.editedSinceRun) this.editor.markLine(bad ? lanes[0].line : null);
    const output = this.panel.querySelector(".pg-output");
    output.textContent = play.output;
    output.hidden = !play.output;
  }

  framing() {
    const framing = super.framing();
    const insets = framing.insets;
    // Beside the editor (or above it, and above the chart over it).
    framing.insets = () => {
      // Above the chart where it stands (an embed lifts it above its own buttons).
      const chart = this.chart.panel.getBoundingClientRect();
      const own = { ...insets() };
      own.bottom = Math.max(own.bottom ?? 0, window.innerHeight - chart.top + 4);
      if (this.panel.classList.contains("pg-folded")) return own;
      const rect = this.panel.getBoundingClientRect();
      if (SIDE.matches) return { ...own, left: Math.max(own.left ?? 0, rect.right + 4) };
      return { ...own, bottom: Math.max(own.bottom, window.innerHeight - Math.min(rect.top, chart.top) + 4) };
    };
    return framing;
  }

  describe() {
    return { ...super.describe(), playground: { template: this.template, fromLink: this.fromLink, code: this.editor.value,
      loads: this.loads ?? null,
      markedLine: this.editor.markedLine, result: { ...this.result }, packed: this.packed,
      folded: this.panel.classList.contains("pg-folded") } };
  }

  dispose() {
    super.dispose();
    clearTimeout(this.packTimer);
    SIDE.removeEventListener("change", this.onOrientation);
    if (this.handedOver) return;
    delete document.documentElement.dataset.playground;
    this.editor.dispose();
    this.panel.remove();
  }
}

registerView("playground", PlaygroundView);
