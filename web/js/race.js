// The race panel: a live chart (canvas 2D) of error against iteration for each lane, each lane's iterations,
// time and status, and its per-joint share of the rotation (CCD turns the joints near the tip most).
// Lane names also float under the lanes in 3D (sprites drawn once).
//
// The lanes' curves come from the scene's state, fetched only when a lane's result changes (not per
// frame); each curve is drawn progressively, `rate` iterations per second from the start of the race.

import * as THREE from "three";

export const LANE_COLORS = ["#ff9f43", "#5fd38d", "#5b8def", "#c56cf0", "#ff6b6b", "#3dd6d0"];
const LABELS = {
  ccd: "CCD", fabrik: "FABRIK", jacobian_transpose: "J transpose", pseudo_inverse: "pseudo-inverse",
  dls: "DLS", fabrik_dls: "FABRIK→DLS",
};

function label(method) {
  return LABELS[method] ?? method;
}

export class RaceView {
  /**
   * @param {HTMLElement} panel the #race section (holds a canvas)
   * @param {THREE.Scene} scene for the lane labels
   * @param {object} layout the race layout (chains: one per lane, named by method)
   * @param {Float64Array} buf the frame buffer
   */
  constructor(panel, scene, layout, buf) {
    this.panel = panel;
    this.canvas = panel.querySelector("canvas");
    this.ctx = this.canvas.getContext("2d");
    this.scene = scene;
    this.layout = layout;
    this.lanes = null;
    this.rate = 20;
    this.elapsed = 0;
    this.fetchedAt = 0;
    this.drawnUpTo = -1;
    const { chains } = layout.sections;
    this.codes = new Float64Array(chains.count).fill(-2);
    this.sprites = layout.chains.map((chain, k) => this.sprite(chain, k, buf));
    panel.hidden = false;
  }

  sprite(chain, k, buf) {
    const canvas = document.createElement("canvas");
    canvas.width = 256;
    canvas.height = 64;
    const ctx = canvas.getContext("2d");
    ctx.font = "600 30px system-ui, sans-serif";
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.fillStyle = LANE_COLORS[k % LANE_COLORS.length];
    ctx.fillText(label(chain.name), 128, 32);
    const texture = new THREE.CanvasTexture(canvas);
    texture.colorSpace = THREE.SRGBColorSpace;
    const sprite = new THREE.Sprite(new THREE.SpriteMaterial({ map: texture, depthWrite: false }));
    const { joints } = this.layout.sections;
    const o = joints.offset + chain.joints[0] * joints.stride;
    sprite.position.set(buf[o], buf[o + 1] + 0.1, buf[o + 2] + 0.7);
    sprite.scale.set(1.2, 0.3, 1);
    this.scene.add(sprite);
    return sprite;
  }

  dispose() {
    for (const sprite of this.sprites) {
      this.scene.remove(sprite);
      sprite.material.map.dispose();
      sprite.material.dispose();
    }
    this.panel.hidden = true;
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
    const dpr = Math.min(window.devicePixelRatio || 1, 2);
    const w = canvas.clientWidth;
    const h = canvas.clientHeight;
    if (canvas.width !== Math.round(w * dpr) || canvas.height !== Math.round(h * dpr)) {
      canvas.width = Math.round(w * dpr);
      canvas.height = Math.round(h * dpr);
    }
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, w, h);
    const table = 250;
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
    ctx.font = "11px ui-monospace, Menlo, Consolas, monospace";
    ctx.fillStyle = "#8d96a5";
    ctx.strokeStyle = "rgba(255,255,255,0.08)";
    ctx.lineWidth = 1;
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
      const n = Math.min(lane.errors.length, upTo + 1);
      if (!n) return;
      ctx.strokeStyle = LANE_COLORS[k % LANE_COLORS.length];
      ctx.beginPath();
      ctx.moveTo(x(0), y(lane.errors[0]));
      for (let i = 1; i < n; i++) ctx.lineTo(x(i), y(lane.errors[i]));
      ctx.stroke();
    });
    // The table: method, status, iterations, ms, and the rotation share of each joint, root to tip.
    const tx = w - table;
    const row = (h - 24) / this.lanes.length;
    ctx.textBaseline = "middle";
    this.lanes.forEach((lane, k) => {
      const cy = 18 + row * (k + 0.5);
      const done = lane.errors.length && upTo >= lane.errors.length - 1;
      ctx.fillStyle = LANE_COLORS[k % LANE_COLORS.length];
      ctx.textAlign = "left";
      ctx.fillText(label(lane.method), tx, cy - 6);
      ctx.fillStyle = "#c9ced8";
      const status = done ? lane.status : "running";
      ctx.fillText(`${status} · ${lane.iterations} it · ${lane.ms.toFixed(2)} ms`, tx, cy + 7);
      const shares = lane.shares;
      const bw = 7;
      const bx = w - 12 - shares.length * (bw + 2);
      for (let j = 0; j < shares.length; j++) {
        const bh = Math.max(1, shares[j] * (row - 6));
        ctx.fillStyle = "rgba(255,255,255,0.12)";
        ctx.fillRect(bx + j * (bw + 2), cy - (row - 6) / 2, bw, row - 6);
        ctx.fillStyle = LANE_COLORS[k % LANE_COLORS.length];
        ctx.fillRect(bx + j * (bw + 2), cy + (row - 6) / 2 - bh, bw, bh);
      }
    });
    ctx.fillStyle = "#8d96a5";
    ctx.textAlign = "right";
    ctx.textBaseline = "top";
    ctx.fillText("rotation share, root → tip", w - 12, 4);
  }
}
