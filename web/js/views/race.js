// The race: one lane per method, each chain in its lane's colour with its name under it, and the chart of
// error against iteration below the lanes (parts/race-chart.js). The lanes stand in one row or in rows of
// three or two (Python's `columns`): when the camera fits anew (the race shown, the window resized) the view
// takes the arrangement whose box (the lanes' boxes, from Python, and their names) the camera can come
// nearest to in the canvas above the chart, i.e. draws largest; then the camera fits that box.

import * as THREE from "three";

import { LANE_COLORS, laneLabel, RaceChart } from "../parts/race-chart.js";
import { SceneView } from "./base.js";
import { registerView } from "./registry.js";

/**
 * The camera's vertical field of view for the race (degrees; the stage's is 45): a longer lens, from further
 * away, so that the front of a lane's box (the names, a chain reaching forward) is drawn little larger than its
 * back and the row of lanes fills the width of the page with the chains themselves.
 */
const FOV = 30;

const STYLE = {
  profile: "machined",
  kinds: [0xc7ccd4, 0xff9f43, 0x8fa3bf, 0x59606b],
  chainColors: LANE_COLORS,
  joint: 0x2f343c,
  roughness: 0.4,
  metalness: 0.35,
  hubs: false,
};

export class RaceView extends SceneView {
  constructor(context) {
    super(context);
    const { layout, buf, stage } = context;
    this.stageFov = stage.camera.fov;
    stage.camera.fov = FOV;
    stage.camera.updateProjectionMatrix();
    this.hint = "Click the red ball by the CCD lane and drag it: every lane races to it again, from rest.";
    this.labels = { rate: "replay speed (iterations/s)", pause: "pause between races (s)",
      replay: "replay iteration by iteration" };
    this.folder = "race";
    this.methodLabel = "every method";
    this.chainNoun = "lane";
    // The chart's legend gives each lane's status, iterations and time: the HUD need not repeat them.
    this.hudChains = false;
    this.chart = new RaceChart(document.getElementById("race"), layout);
    // {columns, roots, bounds, camera} for each number of lanes a row (Python's RaceScene.arrangements).
    this.arrangements = layout.race.arrangements;
    this.labelAhead = layout.race.label_ahead;
    this.columns = layout.params.columns;
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
    this.placeLabel(sprite, chain, buf);
    sprite.material.depthTest = false;
    sprite.renderOrder = 3;
    sprite.scale.set(1.0, 0.25, 1);
    this.scene.add(sprite);
    return sprite;
  }

  /**
   * A lane's name: in front of its lane's box, at its root (from the frame's joints: it follows the lane when
   * the lanes are arranged anew), drawn over whatever stands before it (a front lane's chain reaching back).
   */
  placeLabel(sprite, chain, buf) {
    const { joints } = this.layout.sections;
    const o = joints.offset + chain.joints[0] * joints.stride;
    sprite.position.set(buf[o], buf[o + 1] + 0.1, buf[o + 2] + this.labelAhead);
  }

  /**
   * What the camera fits for `columns` lanes a row: the lanes' boxes, grown to hold their names (in front of
   * the boxes: half a label to each side), so that the front row's names are not framed off under the chart;
   * seen from that arrangement's camera.
   */
  framingFor(columns) {
    const arrangement = this.arrangements.find((a) => a.columns === columns);
    const min = [...arrangement.bounds.min];
    const max = [...arrangement.bounds.max];
    const [sx, sy] = [this.sprites[0].scale.x / 2, this.sprites[0].scale.y / 2];
    for (const [x, y, z] of arrangement.roots) {
      const label = [[x - sx, y + 0.1 - sy, z + this.labelAhead], [x + sx, y + 0.1 + sy, z + this.labelAhead]];
      for (let i = 0; i < 3; i++) {
        min[i] = Math.min(min[i], label[0][i]);
        max[i] = Math.max(max[i], label[1][i]);
      }
    }
    const { position, target } = arrangement.camera;
    return { bounds: { min, max }, direction: position.map((v, i) => v - target[i]) };
  }

  /**
   * The arrangement to fit: anew, the one with full rows that the camera draws largest in the free region
   * (`insets`), which Python is then told of; otherwise the one in force.
   */
  choose(insets, anew) {
    if (anew) {
      const lanes = this.sprites.length;
      let best = null;
      for (const { columns } of this.arrangements) {
        if (lanes % columns !== 0) continue;
        const { bounds, direction } = this.framingFor(columns);
        const d = this.context.camera.distance(bounds, direction, insets);
        if (!best || d < best.d) best = { columns, d };
      }
      if (best.columns !== this.columns) {
        this.columns = best.columns;
        this.context.api.set({ columns: best.columns });
      }
    }
    return this.framingFor(this.columns);
  }

  framing() {
    const framing = super.framing();
    const insets = framing.insets;
    // Above the chart, which floats over the bottom of the canvas.
    framing.insets = () => {
      const own = insets();
      return { ...own, bottom: Math.max(own.bottom ?? 0, this.chart.height() + 8) };
    };
    // The box is the lanes' own (their targets, decided poses and names): a thin margin is enough.
    return { ...framing, ...this.framingFor(this.columns), choose: (own, anew) => this.choose(own, anew),
      margin: 0.03 };
  }

  /** A command changed the scene: lanes arranged anew (a link, ikDemo.set) are framed anew. */
  applied(state) {
    if (state.params.columns !== this.columns) {
      this.columns = state.params.columns;
      this.context.camera.refit(false);
    }
  }

  update(buf, dt, now) {
    super.update(buf, dt, now);
    this.layout.chains.forEach((chain, k) => this.placeLabel(this.sprites[k], chain, buf));
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
    this.stage.camera.fov = this.stageFov;
    this.stage.camera.updateProjectionMatrix();
    this.chart.dispose();
    for (const sprite of this.sprites) {
      this.scene.remove(sprite);
      sprite.material.map.dispose();
      sprite.material.dispose();
    }
  }
}

registerView("race", RaceView);
