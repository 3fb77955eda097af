// The robot: a Panda-like arm of white machined links and dark hinge hubs on a round base, its hand's target
// (translated and turned by the gizmo), and the obstacle: a glassy sphere, blue while every link is clear of it,
// red while one is inside. The HUD reads the arm's clearance and smallest joint-limit margin every frame.

import * as THREE from "three";

import { SceneView } from "./base.js";
import { registerView } from "./registry.js";

// By bone kind: bone (a link), tip (the hand), body, link.
const STYLE = {
  profile: "machined",
  kinds: [0xeef0f3, 0x3d4350, 0x8fa3bf, 0x7d8591],
  joint: 0x2b3038,
  roughness: 0.38,
  metalness: 0.12,
  hubs: true,
};
const CLEAR = new THREE.Color(0x4c9bf0);
const INSIDE = new THREE.Color(0xff4d4d);

/** Whether the layout's arm has a sliding joint (the SCARA's quill). */
function slides(layout) {
  return layout.chains[0].constraints.some((c) => c?.type === "slider");
}

class RobotView extends SceneView {
  constructor(context) {
    super(context);
    const { layout } = context;
    this.shortHint = "Drag the blue sphere onto the elbow.";  // in an embed
    this.hint = "Drag the blue sphere onto the elbow: with avoid obstacle on, the elbow swings away while the " +
      "hand holds its pose. Click the red ball to move the hand (R: turn it, T: move it).";
    this.labels = {
      arm: "arm", avoid_obstacle: "avoid obstacle", avoid_obstacle_weight: "obstacle weight",
      away_from_limits: "away from limits", away_from_limits_weight: "limits weight",
      toward_rest: "toward rest", toward_rest_weight: "rest weight",
    };
    this.folder = "objectives";
    const measures = layout.chain_measures;
    this.measureIndex = { clearance: measures.indexOf("clearance"), margin: measures.indexOf("limit_margin") };
    this.clearanceAt = layout.sections.chains.offset + 4 + this.measureIndex.clearance;
    // An arm whose every joint turns full circle (the UR5-like arm's) has no limit margin to read.
    this.limited = layout.chains[0].constraints.some((c) => c && !(c.type === "hinge" && c.max_deg - c.min_deg >= 360));
    // An arm with a sliding joint (the SCARA's quill): the objectives, which take none yet, are off, their
    // settings out of the panel and the obstacle not drawn (targetStyle).
    this.sliding = slides(layout);
    if (this.sliding) {
      this.shortHint = "Drag the red ball: the quill slides.";
      this.hint = "Click the red ball and move the hand up and down: the quill slides within its stroke (show " +
        "limits draws it). The objectives take no sliding joint yet: they are off for this arm.";
    }
    this.inside = null;
    // The base: a turned plate on the ground under the first joint.
    const base = new THREE.Mesh(new THREE.CylinderGeometry(0.13, 0.16, 0.06, 40).translate(0, 0.03, 0),
      new THREE.MeshStandardMaterial({ color: 0x3a404a, roughness: 0.5, metalness: 0.2 }));
    base.castShadow = true;
    base.receiveShadow = true;
    this.scene.add(base);
    this.base = base;
  }

  limbStyle() {
    return STYLE;
  }

  targetStyle() {
    const sliding = slides(this.layout);
    return {
      // Nothing avoids the obstacle while the objectives are off: it is neither drawn nor picked.
      hidden: (target) => sliding && target.name === "obstacle",
      // The obstacle: a sphere of its own radius, seen through, its colour set every frame (update).
      mesh: (target) => {
        if (target.name !== "obstacle") return null;
        const sphere = new THREE.Mesh(new THREE.SphereGeometry(target.radius, 40, 24),
          new THREE.MeshStandardMaterial({ color: CLEAR, transparent: true, opacity: 0.55, roughness: 0.25,
            metalness: 0.0, depthWrite: false }));
        sphere.castShadow = true;
        return sphere;
      },
    };
  }

  update(buf, dt, now) {
    super.update(buf, dt, now);
    const inside = buf[this.clearanceAt] < 0;
    if (inside !== this.inside) {
      this.inside = inside;
      this.targets.mesh("obstacle").material.color.copy(inside ? INSIDE : CLEAR);
    }
  }

  castShadows(buf) {
    super.castShadows(buf);
    this.shadows.add(0, 0, 0, 0.28, 0.6, 1);
  }

  /** The HUD's line of the arm's measures (values in the order of layout.chain_measures). */
  measureText(values) {
    const clearance = values[this.measureIndex.clearance];
    const margin = values[this.measureIndex.margin];
    // The margin is the nearest joint's distance to its nearer limit, as a share of that joint's range.
    const limits = this.limited ? `limit margin ${(100 * margin).toFixed(1)}% of range` : "every joint turns full circle";
    if (this.sliding) return `${limits} · objectives off: they take no sliding joint yet`;
    return `clearance ${clearance.toFixed(3)} m${clearance < 0 ? " (inside)" : ""} · ${limits}`;
  }

  describe() {
    return { ...super.describe(), obstacleInside: Boolean(this.inside), obstacleShown: this.targets.mesh("obstacle").visible,
      obstacleColor: `#${this.targets.mesh("obstacle").material.color.getHexString()}` };
  }

  dispose() {
    super.dispose();
    this.scene.remove(this.base);
    this.base.geometry.dispose();
    this.base.material.dispose();
  }
}

registerView("robot", RobotView);
