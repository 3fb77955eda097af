// The arm: machined links on a pedestal with a base plate; the elbow's hinge drawn as a hub along its axis.

import * as THREE from "three";

import { SceneView } from "./base.js";
import { registerView } from "./registry.js";

// Metal without an environment to reflect reads as black, so "machined" here is a satin finish: a little
// metalness, low roughness, the light colours of anodised aluminium and an orange hand.
const STYLE = {
  profile: "machined",
  // By bone kind: bone, tip (the hand), body, link (the pedestal).
  kinds: [0xd5d9e0, 0xff9f43, 0x8fa3bf, 0x7d8591],
  joint: 0x555d69,
  roughness: 0.32,
  metalness: 0.2,
  hubs: true,
};

/** The pole's own colour: a cool blue, apart from the targets' red and the hand's orange. */
export const POLE_COLOR = 0x4cc9f0;

/** A text label that always faces the camera and is never hidden by the scene (a sprite over everything). */
function label(text, height) {
  const canvas = document.createElement("canvas");
  canvas.width = 256;
  canvas.height = 64;
  const ctx = canvas.getContext("2d");
  ctx.fillStyle = "rgba(20, 23, 29, 0.8)";
  ctx.beginPath();
  ctx.roundRect(2, 2, 252, 60, 14);
  ctx.fill();
  ctx.fillStyle = `#${POLE_COLOR.toString(16).padStart(6, "0")}`;
  ctx.font = "600 34px system-ui, sans-serif";
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  ctx.fillText(text, 128, 34);
  const texture = new THREE.CanvasTexture(canvas);
  texture.colorSpace = THREE.SRGBColorSpace;
  const sprite = new THREE.Sprite(new THREE.SpriteMaterial({ map: texture, depthTest: false, depthWrite: false,
    fog: false, toneMapped: false }));
  sprite.scale.set(4 * height, height, 1);
  sprite.renderOrder = 6;
  sprite.name = "label";
  return sprite;
}

/** `direction` ([x, y, z]) turned by `angle` (radians) about the vertical. */
function turnAboutUp([x, y, z], angle) {
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  return [c * x + s * z, y, -s * x + c * z];
}

/** The elbow's pole: a blue ball with its label, "elbow pole", just above it. */
function poleMesh(target) {
  const ball = new THREE.Mesh(new THREE.SphereGeometry(target.radius, 20, 14),
    new THREE.MeshStandardMaterial({ color: POLE_COLOR, emissive: 0x0b3a4a, roughness: 0.3 }));
  ball.castShadow = true;
  const tag = label("elbow pole", 0.07);
  tag.position.set(0, target.radius + 0.07, 0);
  ball.add(tag);
  return ball;
}

class ArmView extends SceneView {
  constructor(context) {
    super(context);
    this.shortHint = "Click the red ball, then drag its arrows.";  // in an embed
    this.hint = "Click the red ball, then drag its arrows to move the hand (R: turn it, T: move it). " +
      "The blue ball, the elbow pole, is where the elbow points: drag it too.";
    // The pedestal's foot: a turned plate on the ground, under the link from the world's origin.
    const plate = new THREE.Mesh(
      new THREE.CylinderGeometry(0.26, 0.3, 0.05, 40).translate(0, 0.025, 0),
      new THREE.MeshStandardMaterial({ color: 0x404752, roughness: 0.55, metalness: 0.2 }));
    plate.castShadow = true;
    plate.receiveShadow = true;
    this.scene.add(plate);
    this.plate = plate;
  }

  limbStyle() {
    return STYLE;
  }

  /**
   * On a window taller than wide (a phone held upright), the arm is seen from whichever side around it draws
   * it largest: from the front its reach sweeps across the narrow width and leaves the height empty.
   */
  framing() {
    const framing = super.framing();
    const { bounds, direction } = framing;
    let chosen = direction;
    framing.choose = (insets, anew) => {
      if (anew) {
        const { container } = this.stage;
        const free = { w: container.clientWidth - (insets.left ?? 0) - (insets.right ?? 0),
          h: container.clientHeight - (insets.top ?? 0) - (insets.bottom ?? 0) };
        chosen = direction;
        if (free.h > free.w) {
          let best = this.context.camera.distance(bounds, direction, insets);
          for (const degrees of [-30, 30, -55, 55, -90]) {
            const turned = turnAboutUp(direction, THREE.MathUtils.degToRad(degrees));
            const d = this.context.camera.distance(bounds, turned, insets);
            if (d < 0.97 * best) { best = d; chosen = turned; }
          }
        }
      }
      return { bounds, direction: chosen };
    };
    return framing;
  }

  targetStyle() {
    return { mesh: (target) => (target.name === "pole" ? poleMesh(target) : null) };
  }

  describe() {
    const pole = this.targets.mesh("pole");
    const target = this.targets.mesh("target");
    return { ...super.describe(), poleColor: `#${pole.material.color.getHexString()}`,
      targetColor: `#${target.material.color.getHexString()}`,
      poleLabel: pole.getObjectByName("label") ? "elbow pole" : null };
  }

  castShadows(buf) {
    super.castShadows(buf);
    // The plate's own: wider than the pedestal's.
    this.shadows.add(0, 0, 0, 0.45, 0.6, 1);
  }

  dispose() {
    this.targets.mesh("pole")?.getObjectByName("label")?.material.map.dispose();
    super.dispose();
    this.scene.remove(this.plate);
    this.plate.geometry.dispose();
    this.plate.material.dispose();
  }
}

registerView("arm", ArmView);
