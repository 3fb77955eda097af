// What each frame reports: Python's time per frame and the frame rate over the last frames, each chain's
// solve read from the shared array, and the HUD that shows them (ikDemo.state returns the same numbers).
//
// Recording a frame allocates nothing (fixed ring buffers, a median sorted in a preallocated copy); the
// HUD's text is built only when it is redrawn, four times a second.

const TIMING_WINDOW = 120;
const HUD_EVERY_MS = 250;

export class Timing {
  constructor() {
    this.pyTimes = new Float64Array(TIMING_WINDOW);
    this.sorted = new Float64Array(TIMING_WINDOW);
    this.pyCount = 0;
    this.last = 0;           // the last frame's Python time (ms)
    this.collector = null;   // {times, count, resolve}: ikDemo.collectTimes in progress
    this.frameTimes = new Float64Array(60);
    this.frames = 0;         // frames recorded since the page loaded
  }

  /** One frame's Python time (ms); a collection in progress gets it too, and resolves when complete. */
  addPython(ms) {
    this.last = ms;
    this.pyTimes[this.pyCount % TIMING_WINDOW] = ms;
    this.pyCount++;
    const collector = this.collector;
    if (collector) {
      collector.times.push(ms);
      if (collector.times.length >= collector.count) {
        collector.resolve(collector.times);
        this.collector = null;
      }
    }
  }

  /** A frame drawn at `now` (ms), for the frame rate. */
  addFrame(now) {
    this.frameTimes[this.frames % this.frameTimes.length] = now;
    this.frames++;
  }

  /** Forget the Python times (a new scene: its median starts afresh). */
  resetPython() {
    this.pyCount = 0;
  }

  /** The median Python time (ms) over the last frames. */
  median() {
    const n = Math.min(this.pyCount, TIMING_WINDOW);
    if (!n) return 0;
    const part = this.sorted.subarray(0, n);
    part.set(this.pyTimes.subarray(0, n));
    part.sort();
    return n % 2 ? part[(n - 1) / 2] : 0.5 * (part[n / 2 - 1] + part[n / 2]);
  }

  fps() {
    const n = Math.min(this.frames, this.frameTimes.length);
    if (n < 2) return 0;
    const newest = this.frameTimes[(this.frames - 1) % this.frameTimes.length];
    const oldest = this.frameTimes[(this.frames - n) % this.frameTimes.length];
    return newest > oldest ? (1000 * (n - 1)) / (newest - oldest) : 0;
  }

  /** The Python times of the next `count` frames, as a promise; one in progress resolves with what it has. */
  collect(count) {
    if (this.collector) this.collector.resolve(this.collector.times);
    return new Promise((resolve) => { this.collector = { times: [], count, resolve }; });
  }
}

/**
 * Each chain's solve in the shared array `buf`: status, error, iterations, time, effector and target, and the
 * scene's own measures of it by name (layout.chain_measures: the robot's clearance and limit_margin).
 */
export function chainStates(layout, buf) {
  const { joints, targets, chains } = layout.sections;
  const measures = layout.chain_measures ?? [];
  return layout.chains.map((chain, k) => {
    const c = chains.offset + k * chains.stride;
    const code = buf[c];
    const last = joints.offset + (chain.joints[0] + chain.joints[1] - 1) * joints.stride;
    const t = layout.targets.findIndex((target) => target.name === chain.target);
    const to = targets.offset + t * targets.stride;
    const state = {
      name: chain.name,
      status: code >= 0 ? layout.statuses[code] : null,
      error: code >= 0 ? buf[c + 1] : null,
      iterations: buf[c + 2],
      ms: buf[c + 3],
      effector: [buf[last], buf[last + 1], buf[last + 2]],
      target: t >= 0 ? [buf[to], buf[to + 1], buf[to + 2]] : null,
    };
    measures.forEach((name, i) => { state[name] = buf[c + 4 + i]; });
    return state;
  });
}

/** Every target's drawn position: {name: [x, y, z]}. */
export function targetPositions(layout, buf) {
  const { targets } = layout.sections;
  const out = {};
  layout.targets.forEach((target, i) => {
    const o = targets.offset + i * targets.stride;
    out[target.name] = [buf[o], buf[o + 1], buf[o + 2]];
  });
  return out;
}

/** What a solve's status means, in a reader's words (the race's lanes still iterating: "running"). */
export const STATUS_WORDS = {
  converged: "reached",
  unreachable: "out of reach",
  max_iterations: "still reaching",
  stalled: "stopped short",
  running: "still reaching",
};

/** A status in words ("waiting" before the first solve). */
export function statusWords(status) {
  return status === null || status === undefined ? "waiting" : STATUS_WORDS[status] ?? status;
}

/** A length in the scenes' unit, the metre, with the unit that reads best: "1.20 m", "3.4 cm", "0.7 mm". */
export function length(metres) {
  if (metres === null || metres === undefined || !Number.isFinite(metres)) return "-";
  const m = Math.abs(metres);
  if (m < 1e-9) return "0 mm";
  if (m >= 1) return `${metres.toFixed(2)} m`;
  if (m >= 0.01) return `${(metres * 100).toFixed(1)} cm`;
  if (m >= 0.001) return `${(metres * 1000).toFixed(1)} mm`;
  if (m >= 1e-6) return `${(metres * 1e6).toFixed(0)} µm`;
  return "under 1 µm";
}

/** "1 iteration", "12 iterations". */
export function iterations(n) {
  return `${n} iteration${n === 1 ? "" : "s"}`;
}

/**
 * The HUD: scene and method, frame rate and Python time, then the chains. Up to four chains (as many as the
 * view's hudEach) get a line each; more (the spider's legs, the race's lanes) get one line that sums them up
 * ("8 legs: 8 reached; largest error 0.2 mm"), with a line per chain on demand (the HUD's "per leg" button).
 */
export class Hud {
  constructor() {
    this.drawnAt = 0;
    this.text = document.getElementById("hud-text");
    this.measured = document.getElementById("hud-measures");
    this.values = [];        // the first chain's measures, read every frame (reused)
    this.more = document.getElementById("hud-more");
    this.details = false;
    this.more.addEventListener("click", () => {
      this.details = !this.details;
      this.more.setAttribute("aria-expanded", String(this.details));
      this.drawnAt = 0;
    });
  }

  /** Redraw now (a new scene: its lines, before its first frame). */
  show(layout, buf, timing, view) {
    this.drawnAt = -Infinity;
    this.update(performance.now(), layout, buf, timing, view);
  }

  /**
   * Redraw, unless the last redraw was less than HUD_EVERY_MS ago; the scene's own measures of its first chain
   * (layout.chain_measures, in the words of view.measureText) every frame. `view`: the scene's (views/base.js).
   */
  update(now, layout, buf, timing, view) {
    this.measure(layout, buf, view);
    if (now - this.drawnAt < HUD_EVERY_MS) return;
    this.drawnAt = now;
    const lines = [
      `${layout.scene} · ${view.methodLabel ?? layout.params.method}`,
      `${timing.fps().toFixed(0)} fps · Python ${timing.median().toFixed(2)} ms a frame`,
    ];
    if (view.hudLines) {
      // A view that sums its scene up itself (the crowd, whose legs are no chains of the contract).
      this.more.hidden = true;
      this.text.textContent = lines.concat(view.hudLines(buf, timing)).join("\n");
      return;
    }
    const chains = chainStates(layout, buf);
    const few = chains.length <= view.hudEach;
    // A view that shows its chains' results itself (the race's chart) keeps the HUD to its first lines.
    this.more.hidden = few || !view.hudChains;
    if (!view.hudChains) {
      this.text.textContent = lines.join("\n");
      return;
    }
    if (!few) {
      const noun = view.chainNoun;
      this.more.textContent = this.details ? `hide ${noun}s` : `per ${noun}`;
      const counts = new Map();
      let worst = null;
      for (const chain of chains) {
        const words = statusWords(chain.status);
        counts.set(words, (counts.get(words) ?? 0) + 1);
        if (chain.error !== null && (worst === null || chain.error > worst)) worst = chain.error;
      }
      const statuses = [...counts].map(([words, n]) => `${n} ${words}`).join(", ");
      lines.push(`${chains.length} ${noun}s: ${statuses}; largest error ${length(worst)}`);
    }
    if (few || this.details) {
      // Columns as wide as this scene's chains need: names, statuses in words, iterations.
      const width = (f) => Math.max(...chains.map((chain) => f(chain).length));
      const [names, words, counts] = [(c) => c.name, (c) => statusWords(c.status), (c) => iterations(c.iterations)]
        .map((f) => [f, width(f)]);
      for (const chain of chains) {
        lines.push(`${names[0](chain).padEnd(names[1])}  ${words[0](chain).padEnd(words[1])} · ` +
          `${counts[0](chain).padStart(counts[1])} · error ${length(chain.error)}`);
      }
    }
    this.text.textContent = lines.join("\n");
  }

  /** The first chain's measures line, every frame: written only when its text changes. */
  measure(layout, buf, view) {
    const names = layout.chain_measures ?? [];
    const shown = names.length > 0 && layout.chains.length > 0 && Boolean(view.measureText);
    this.measured.hidden = !shown;
    if (!shown) return;
    const { chains } = layout.sections;
    const values = this.values;
    values.length = names.length;
    for (let i = 0; i < names.length; i++) values[i] = buf[chains.offset + 4 + i];
    const text = view.measureText(values);
    if (this.measured.textContent !== text) this.measured.textContent = text;
  }
}
