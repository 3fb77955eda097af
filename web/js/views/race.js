// The race: one lane per method, each chain in its lane's colour with its name under it, and the chart of
// error against iteration below the lanes (parts/race-chart.js). The camera fits the lanes to the width of
// the canvas above the chart.

import * as THREE from "three";

import { LANE_COLORS, laneLabel, RaceChart } from "../parts/race-chart.js";
import { SceneView } from "./base.js";
import { registerView } from "./registry.js";

const STYLE = {
  profile: "machined",
  kinds: [0xc7ccd4, 0xff9f43, 0x8fa3bf, 0x59606b],
  chainColors: LANE_COLORS,
  joint: 0x2f343c,
  roughness: 0.4,
  metalness: 0.35,
  hubs: false,
};

class RaceView extends SceneView {
  constructor(context) {
    super(context);
    const { layout, buf } = context;
    this.hint = "Click the red ball by the CCD lane and drag it: every lane races to it again, from rest.";
    this.labels = { rate: "replay speed (iterations/s)", pause: "pause between races (s)",
      replay: "replay iteration by iteration" };
    this.folder = "race";
    this.methodLabel = "every method";
    this.chainNoun = "lane";
    // The chart's legend gives each lane's status, iterations and time: the HUD need not repeat them.
    this.hudChains = false;
    this.chart = new RaceChart(document.getElementById("race"), layout);
    this.sprites = layout.chains.map((chain, k) => this.sprite(chain, k, buf));
  }

  limbStyle() {
    return STYLE;
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
    ctx.fillText(laneLabel(chain.name), 128, 32);
    const texture = new THREE.CanvasTexture(canvas);
    texture.colorSpace = THREE.SRGBColorSpace;
    const sprite = new THREE.Sprite(new THREE.SpriteMaterial({ map: texture, depthWrite: false, fog: false }));
    const { joints } = this.layout.sections;
    const o = joints.offset + chain.joints[0] * joints.stride;
    // In front of the lane's part of the floor (its targets come within 0.85 of the reach of its root), drawn
    // over whatever stands before it (a front lane's chain reaching back).
    sprite.position.set(buf[o], buf[o + 1] + 0.1, buf[o + 2] + 1.45);
    sprite.material.depthTest = false;
    sprite.renderOrder = 3;
    sprite.scale.set(1.0, 0.25, 1);
    this.scene.add(sprite);
    return sprite;
  }

  framing() {
    const framing = super.framing();
    // The lanes' names stand in front of their lanes, outside the box of the chains and targets: the box
    // grows to hold them (half a label to each side), so that the front row's names are not framed off
    // under the chart.
    const min = [...framing.bounds.min];
    const max = [...framing.bounds.max];
    for (const sprite of this.sprites) {
      const { x, y, z } = sprite.position;
      const half = [sprite.scale.x / 2, sprite.scale.y / 2, 0];
      [x, y, z].forEach((v, i) => {
        min[i] = Math.min(min[i], v - half[i]);
        max[i] = Math.max(max[i], v + half[i]);
      });
    }
    framing.bounds = { min, max };
    const insets = framing.insets;
    // Above the chart, which floats over the bottom of the canvas.
    framing.insets = () => {
      const own = insets();
      return { ...own, bottom: Math.max(own.bottom ?? 0, this.chart.height() + 8) };
    };
    return framing;
  }

  update(buf, dt, now) {
    super.update(buf, dt, now);
    // Lane results changed (a lane finished its replay, a race began): fetch the curves once, not every frame.
    if (this.chart.changed(buf)) this.chart.setState(this.context.command("state", {}), now);
    this.chart.draw(now);
  }

  /** Also where each lane's name is on the page: [left, top, right, bottom] in CSS pixels (tests). */
  describe() {
    const { camera, renderer } = this.stage;
    const rect = renderer.domElement.getBoundingClientRect();
    camera.updateMatrixWorld();
    const corner = new THREE.Vector3();
    const labels = this.sprites.map((sprite) => {
      const box = [Infinity, Infinity, -Infinity, -Infinity];
      for (const [dx, dy] of [[-0.5, -0.5], [0.5, -0.5], [-0.5, 0.5], [0.5, 0.5]]) {
        // A sprite faces the camera: its corners lie along the camera's right and up.
        corner.set(dx * sprite.scale.x, dy * sprite.scale.y, 0).applyQuaternion(camera.quaternion)
          .add(sprite.position).project(camera);
        const x = rect.left + ((corner.x + 1) / 2) * rect.width;
        const y = rect.top + ((1 - corner.y) / 2) * rect.height;
        box[0] = Math.min(box[0], x); box[1] = Math.min(box[1], y);
        box[2] = Math.max(box[2], x); box[3] = Math.max(box[3], y);
      }
      return box;
    });
    return { ...super.describe(), labels };
  }

  dispose() {
    super.dispose();
    this.chart.dispose();
    for (const sprite of this.sprites) {
      this.scene.remove(sprite);
      sprite.material.map.dispose();
      sprite.material.dispose();
    }
  }
}

registerView("race", RaceView);
