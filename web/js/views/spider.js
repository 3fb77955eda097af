// The spider: chitin legs (spindle segments), a two-part body, feet shadows on the terrain; its destination
// a ring on the ground; the camera follows its body; arrow keys or WASD steer it.

import * as THREE from "three";

import { SceneView } from "./base.js";
import { registerView } from "./registry.js";

const STYLE = {
  profile: "organic",
  // By bone kind: bone (femur), tip (tibia), body, link (coxa).
  kinds: [0x4a3226, 0x6e4a33, 0x3b2a22, 0x3a281f],
  body: 0x3f2c23,
  joint: 0x24170f,
  roughness: 0.5,
  metalness: 0.08,
  hubs: false,
};

// Keys that steer a walker: a destination ahead, or turned left or right of its heading; down stops.
const STEER = {
  arrowup: [1, 0], w: [1, 0], arrowleft: [1, 0.7], a: [1, 0.7], arrowright: [1, -0.7], d: [1, -0.7],
  arrowdown: [0, 0], s: [0, 0],
};

class SpiderView extends SceneView {
  constructor(context) {
    super(context);
    this.shortHint = "Click the ground to send the spider there.";  // in an embed
    this.hint = "Click the ground to send the spider there, or steer it with the arrow keys (or WASD).";
    this.labels = { speed: "walk speed", wander: "wander" };
    this.chainNoun = "leg";
    this.body = -1;  // the first body bone's record, found on the first update
    this.ground = context.terrain;
  }

  /** A click on the terrain: walk there. */
  clickedGround(point) {
    this.context.api.setTarget("destination", point);
  }

  limbStyle() {
    return STYLE;
  }

  targetStyle() {
    return {
      // The destination lies on the ground: a flat ring there, not a ball in the air.
      mesh: (target) => {
        if (target.name !== "destination") return null;
        const ring = new THREE.Mesh(new THREE.RingGeometry(0.16, 0.24, 40).rotateX(-Math.PI / 2).translate(0, 0.02, 0),
          new THREE.MeshBasicMaterial({ color: 0xff5e57, transparent: true, opacity: 0.9, depthWrite: false }));
        // A larger invisible disc to click on.
        const pick = new THREE.Mesh(new THREE.CircleGeometry(0.3, 16).rotateX(-Math.PI / 2),
          new THREE.MeshBasicMaterial({ visible: false }));
        ring.add(pick);
        return ring;
      },
      // The feet's targets are where the feet are: drawn by the feet themselves.
      hidden: (target) => !target.draggable,
    };
  }

  update(buf, dt, now) {
    super.update(buf, dt, now);
    // The camera keeps the body where it is on screen.
    const { bones } = this.layout.sections;
    if (this.body < 0) {
      for (let i = 0; i < bones.count; i++) {
        if (buf[bones.offset + i * bones.stride + 7] === this.layout.kinds.body) {
          this.body = i;
          break;
        }
      }
    }
    if (this.body >= 0) {
      const o = bones.offset + this.body * bones.stride;
      this.context.camera.follow(buf[o], buf[o + 2]);
    }
  }

  keydown(key) {
    if (!(key in STEER)) return false;
    const [forward, turn] = STEER[key];
    try {
      this.context.command("steer", { forward, turn });
    } catch (error) {
      this.context.note(error.message);
    }
    return true;
  }
}

registerView("spider", SpiderView);
