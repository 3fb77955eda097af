// The steps scene's error chart (canvas 2D): the effector's distance to the target after each step of the trace,
// on a log scale, bright up to the step shown and faint after it, the tolerance as a dashed line and the step
// shown as a dot. Drawn when the trace or the step shown changes, not per frame.

import { fitCanvas } from "./canvas.js";

const FLOOR = 1e-7;

export class StepChart {
  /** @param {HTMLCanvasElement} canvas */
  constructor(canvas) {
    this.canvas = canvas;
    this.ctx = canvas.getContext("2d");
    this.trace = null;
  }

  /** The trace's errors and tolerance (the scene's "trace" query). */
  setTrace(trace) {
    this.trace = trace;
  }

  draw(index) {
    const { canvas, ctx, trace } = this;
    const { w, h } = fitCanvas(canvas, ctx);
    if (!trace || !trace.errors.length || w < 8 || h < 8) return;
    const { errors, tolerance } = trace;
    const hi = Math.log10(Math.max(FLOOR * 10, ...errors));
    const lo = Math.log10(Math.max(FLOOR, Math.min(tolerance / 10, ...errors.map((e) => Math.max(e, FLOOR)))));
    const pad = 3;
    const x = (i) => pad + ((w - 2 * pad) * i) / Math.max(errors.length - 1, 1);
    const y = (e) => pad + ((h - 2 * pad) * (hi - Math.log10(Math.max(e, FLOOR)))) / Math.max(hi - lo, 1e-9);
    // The tolerance: where the solve stops.
    ctx.strokeStyle = "rgba(95, 211, 141, 0.7)";
    ctx.lineWidth = 1;
    ctx.setLineDash([3, 3]);
    ctx.beginPath();
    ctx.moveTo(0, y(tolerance));
    ctx.lineTo(w, y(tolerance));
    ctx.stroke();
    ctx.setLineDash([]);
    const line = (from, to, style) => {
      ctx.strokeStyle = style;
      ctx.lineWidth = 1.5;
      ctx.beginPath();
      ctx.moveTo(x(from), y(errors[from]));
      for (let i = from + 1; i <= to; i++) ctx.lineTo(x(i), y(errors[i]));
      ctx.stroke();
    };
    line(index, errors.length - 1, "rgba(255, 255, 255, 0.2)");
    line(0, index, "#ff9f43");
    ctx.fillStyle = "#ffffff";
    ctx.beginPath();
    ctx.arc(x(index), y(errors[index]), 2.5, 0, 2 * Math.PI);
    ctx.fill();
  }
}
