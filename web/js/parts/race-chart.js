// The race's chart (canvas 2D): each lane's error against iteration, its status, iterations and time, and its
// per-joint share of the rotation (CCD turns the joints near the tip most).
//
// Lanes whose methods agree draw the same curve (FABRIK and FABRIK->DLS often do, as do the pseudo-inverse
// and DLS): each lane has a dash pattern of its own and is drawn a couple of pixels off the others, and the
// legend (the table on the right) shows each lane's colour with its dash, so every curve stays visible.
//
// The lanes' curves come from the scene's state, fetched only when a lane's result changes (not per frame);
// each curve is drawn progressively, `rate` iterations per second from the start of the race, the pace at
// which the chains replay their solves.

import { fitCanvas } from "./canvas.js";

// Seven: the race's six methods, or the playground's reader and all six of them.
export const LANE_COLORS = ["#ff9f43", "#5fd38d", "#5b8def", "#c56cf0", "#ff6b6b", "#3dd6d0", "#f2e35e"];
export const LANE_DASHES = [[], [9, 4], [2, 3], [12, 3, 2, 3], [5, 5], [1, 4], [7, 2, 1, 2, 1, 2]];
const LABELS = {
  ccd: "CCD", fabrik: "FABRIK", jacobian_transpose: "J transpose", pseudo_inverse: "pseudo-inverse",
  dls: "DLS", fabrik_dls: "FABRIK→DLS", yours: "your solver",
};

// Where the chart is narrow (a small frame, a phone).
const SHORT = { jacobian_transpose: "J transp.", pseudo_inverse: "pseudo-inv." };

/** A method's name as the race shows it (`short`: in a narrow chart). */
export function laneLabel(method, short = false) {
  return (short && SHORT[method]) || LABELS[method] || method;
}

export class RaceChart {
  /**
   * @param {HTMLElement} panel the #race section (holds a canvas)
   * @param {object} layout the race layout (chains: one per lane, named by method)
   */
  constructor(panel, layout) {
    this.panel = panel;
    this.canvas = panel.querySelector("canvas");
    this.ctx = this.canvas.getContext("2d");
    this.layout = layout;
    this.lanes = null;
    this.rate = 4;
    this.elapsed = 0;
    this.fetchedAt = 0;
    this.drawnUpTo = -1;
    const { chains } = layout.sections;
    this.codes = new Float64Array(chains.count).fill(-2);
    panel.hidden = false;
  }

  dispose() {
    this.panel.hidden = true;
  }

  /** The chart's height on the page (CSS pixels): what the camera leaves free under the lanes. */
  height() {
    return this.panel.getBoundingClientRect().height;
  }

  /**
   * Per frame: whether a lane's result changed since the last look (then the caller hands over a fresh
   * state with `setState`).
   */
  changed(buf) {
    const { chains } = this.layout.sections;
    let changed = false;
    for (let k = 0; k < chains.count; k++) {
      const code = buf[chains.offset + k * chains.stride];
      if (code !== this.codes[k]) changed = true;
      this.codes[k] = code;
    }
    return changed;
  }

  setState(state, now) {
    this.lanes = state.race.lanes;
    this.rate = state.race.rate;
    this.elapsed = state.race.elapsed;
    this.fetchedAt = now;
    this.drawnUpTo = -1;
  }

  /** Redraw the chart when more of the curves is due. */
  draw(now) {
    if (!this.lanes) return;
    const shown = Math.floor((this.elapsed + (now - this.fetchedAt) / 1000) * this.rate);
    let longest = 0;
    for (const lane of this.lanes) longest = Math.max(longest, lane.errors.length);
    const upTo = Math.min(shown, longest);
    if (upTo === this.drawnUpTo) return;
    this.drawnUpTo = upTo;
    this.paint(upTo, longest);
  }

  paint(upTo, longest) {
    const { canvas, ctx } = this;
    const { w, h } = fitCanvas(canvas, ctx);
    // The table takes the right part; a narrow chart (a phone) keeps it narrower, without the shares.
    const n = this.lanes.length;
    const narrow = w < 560;
    // Rows too short for two lines of text (a short window, a small frame) put a lane's status beside its
    // name: the table is wider then, and leaves out the times.
    const oneLine = (h - 24) / n < 26;
    ctx.font = "11px ui-monospace, Menlo, Consolas, monospace";
    const rows = this.lanes.map((lane) => this.legendRow(lane, upTo, narrow || oneLine));
    // A narrow table is as wide as its longest line (a line's dash, then its text), within 45-60% of the chart.
    let widest = 0;
    for (const r of rows) {
      const lines = oneLine ? [`${r.label} ${r.text}`] : [r.label, r.text];
      for (const line of lines) widest = Math.max(widest, ctx.measureText(line).width);
    }
    const table = narrow ? Math.round(Math.min(Math.max(widest + 32, 0.45 * w), 0.6 * w)) : oneLine ? 300 : 268;
    const left = 44;
    const right = w - table - 12;
    const top = 22;
    const bottom = h - 22;
    // Error on a log scale, from the largest starting error down to 1e-6.
    let maxError = 1e-6;
    for (const lane of this.lanes) if (lane.errors.length) maxError = Math.max(maxError, lane.errors[0]);
    const hi = Math.ceil(Math.log10(maxError));
    const lo = -6;
    const iterations = Math.max(longest - 1, 1);
    const x = (i) => left + ((right - left) * i) / iterations;
    const y = (e) => top + ((bottom - top) * (hi - Math.log10(Math.max(e, 1e-6)))) / (hi - lo);
    ctx.fillStyle = "#8d96a5";
    ctx.strokeStyle = "rgba(255,255,255,0.08)";
    ctx.lineWidth = 1;
    ctx.setLineDash([]);
    ctx.textAlign = "right";
    ctx.textBaseline = "middle";
    for (let e = lo; e <= hi; e += 2) {
      ctx.beginPath();
      ctx.moveTo(left, y(10 ** e));
      ctx.lineTo(right, y(10 ** e));
      ctx.stroke();
      ctx.fillText(`1e${e}`, left - 4, y(10 ** e));
    }
    ctx.textAlign = "left";
    ctx.textBaseline = "top";
    ctx.fillText("error vs iteration", left, 4);
    ctx.textAlign = "right";
    ctx.fillText(`${iterations} it`, right, bottom + 6);
    ctx.lineWidth = 2;
    this.lanes.forEach((lane, k) => {
      const count = Math.min(lane.errors.length, upTo + 1);
      if (!count) return;
      // Two pixels apart, centred on the true curve: coinciding curves show side by side.
      const off = 2 * (k - (n - 1) / 2);
      ctx.strokeStyle = LANE_COLORS[k % LANE_COLORS.length];
      ctx.setLineDash(LANE_DASHES[k % LANE_DASHES.length]);
      ctx.beginPath();
      ctx.moveTo(x(0), y(lane.errors[0]) + off);
      for (let i = 1; i < count; i++) ctx.lineTo(x(i), y(lane.errors[i]) + off);
      ctx.stroke();
    });
    ctx.setLineDash([]);
    // The legend and table: the lane's line, method, status, iterations, ms, and the rotation share of
    // each joint, root to tip.
    const tx = w - table;
    const row = (h - 24) / n;
    ctx.textBaseline = "middle";
    this.lanes.forEach((lane, k) => {
      const cy = 18 + row * (k + 0.5) + (oneLine ? 6 : 0);
      const { label, text } = rows[k];
      const color = LANE_COLORS[k % LANE_COLORS.length];
      ctx.strokeStyle = color;
      ctx.lineWidth = 2;
      ctx.setLineDash(LANE_DASHES[k % LANE_DASHES.length]);
      ctx.beginPath();
      ctx.moveTo(tx, cy - 6);
      ctx.lineTo(tx + 22, cy - 6);
      ctx.stroke();
      ctx.setLineDash([]);
      ctx.fillStyle = color;
      ctx.textAlign = "left";
      ctx.fillText(label, tx + 28, cy - 6);
      ctx.fillStyle = "#c9ced8";
      if (oneLine) ctx.fillText(text, tx + 28 + ctx.measureText(`${label} `).width, cy - 6);
      else ctx.fillText(text, tx + 28, cy + 7);
      if (narrow) return;
      const shares = lane.shares;
      const bw = 7;
      const bx = w - 12 - shares.length * (bw + 2);
      for (let j = 0; j < shares.length; j++) {
        const bh = Math.max(1, shares[j] * (row - 6));
        ctx.fillStyle = "rgba(255,255,255,0.12)";
        ctx.fillRect(bx + j * (bw + 2), cy - (row - 6) / 2, bw, row - 6);
        ctx.fillStyle = color;
        ctx.fillRect(bx + j * (bw + 2), cy + (row - 6) / 2 - bh, bw, bh);
      }
    });
    if (!narrow) {
      ctx.fillStyle = "#8d96a5";
      ctx.textAlign = "right";
      ctx.textBaseline = "top";
      ctx.fillText("rotation share, root → tip", w - 12, 4);
    }
  }

  /** A lane's legend: its name and its status so far (`short`: short names, no time). */
  legendRow(lane, upTo, short) {
    const done = lane.errors.length && upTo >= lane.errors.length - 1;
    const status = done ? lane.status : "running";
    const shownIt = done ? lane.iterations : Math.min(upTo, lane.iterations);
    const text = short ? `${status} · ${shownIt} it` : `${status} · ${shownIt} it · ${lane.ms.toFixed(2)} ms`;
    return { label: laneLabel(lane.method, short), text };
  }
}
