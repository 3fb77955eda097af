// The humanoid: a character on uneven ground reaching for a door's knob. Its body is one skinned mesh
// (parts/mannequin.js) posed from the scene's skin section; the door stands where the layout puts it, its
// knob the draggable `knob` target (a brass ball carrying the grip's axes); where the character looks and
// its hips' height are the `look` and `pelvis` targets (a red ball, a red ring round the hips); what the
// chains themselves reach for (the ankles, the chest, the head, the wrists) is where the body is, and not
// drawn. Soft contact shadows under the feet, the hands and the hips. The framing fits the character and the
// door, seen from the reaching hand's side.

import * as THREE from "three";

import { Mannequin } from "../parts/mannequin.js";
import { SceneView, besideTopOverlays } from "./base.js";
import { registerView } from "./registry.js";

const _v = new THREE.Vector3();
const _p = new THREE.Vector3();
const _q = new THREE.Quaternion();
const WOOD = 0x7a5234;
const FRAME = 0xc9c2b4;
const BRASS = 0xd9a63e;

class HumanoidView extends SceneView {
  constructor(context) {
    super(context);
    const { layout, buf } = context;
    this.shortHint = "Click the door's brass knob, then drag it.";  // in an embed
    this.hint = "Click the door's brass knob and drag its arrows: the character walks up and reaches for it " +
      "(R: turn the grip). The red ball sets where it looks, the red ring how low its hips go.";
    this.labels = { leg_method: "legs' method", neck_method: "neck's method", reach: "reach for the knob" };
    this.chainNoun = "limb";
    const software = !context.stage.high;
    this.body = this.part(new Mannequin(this.scene, layout, buf,
      software ? { radial: 12, rings: 6, caps: 2, flat: true } : { radial: 20, rings: 9, caps: 3 }));
    this.door = this.buildDoor(layout.door);
    this.scene.add(this.door);
    // The skin bones that stand on the ground or may touch it: a shadow under each, every frame.
    const bones = layout.skin.bones;
    this.grounded = [];
    bones.forEach((bone, i) => {
      if (/foot|hand/.test(bone.name)) this.grounded.push(i, bone.radius, bone.length);
    });
    this.pelvis = Math.max(this.body.find("pelvis"), 0);
    // The hand that reaches for the knob: the one on the knob's side (the character's left is its pelvis
    // frame's +x, its front +z).
    const p = layout.sections.skin.offset + this.pelvis * layout.sections.skin.stride;
    _q.set(buf[p + 4], buf[p + 5], buf[p + 6], buf[p + 3]);
    this.left = new THREE.Vector3(1, 0, 0).applyQuaternion(_q).setY(0).normalize();
    this.front = new THREE.Vector3(0, 0, 1).applyQuaternion(_q).setY(0).normalize();
    this.knobSide = _v.fromArray(layout.door.knob).sub(_p.set(buf[p], buf[p + 1], buf[p + 2])).dot(this.left) < 0
      ? -1 : 1;
    this.side = this.knobSide < 0 ? "right" : "left";
    this.hand = Math.max(this.body.find("hand", this.side), 0);
  }

  /**
   * The character and the door, seen from the side of the reaching hand and a little behind, so that the arm
   * reaches across the view to the knob: what must fit is every skin bone's ends (as the character stands
   * when the scene opens) and the door's corners.
   */
  framing() {
    const { door } = this.layout;
    const points = [];
    this.layout.skin.bones.forEach((bone, i) => {
      points.push(this.body.pointOf(i, 0), this.body.pointOf(i, 1));
    });
    const [w, h] = door.size;
    this.door.updateMatrixWorld(true);
    const frame = this.door.children[0];
    for (const x of [-0.5, 0.5]) {
      for (const y of [-0.5, 0.5]) points.push(frame.localToWorld(_v.set(x * w, y * h, 0)).toArray());
    }
    const { left, front, knobSide: side } = this;
    // Directions from the side to behind it: the one that draws the two largest for the canvas's shape; from
    // well behind (the character and the door then stand one before the other) only on a canvas taller than
    // wide, a phone held upright: elsewhere the reaching arm stays in sight.
    const directions = [30, 15, 45, 60].map((degrees) => {
      const a = THREE.MathUtils.degToRad(degrees);
      const d = [0, 2].map((k) => side * Math.cos(a) * left.getComponent(k) - Math.sin(a) * front.getComponent(k));
      return [d[0], 0.4, d[1]];
    });
    const min = [0, 1, 2].map((k) => Math.min(...points.map((q) => q[k])));
    const max = [0, 1, 2].map((k) => Math.max(...points.map((q) => q[k])));
    const bounds = { min, max, points, pad: 0.08 };
    let chosen = directions[0];
    return {
      bounds, direction: chosen, margin: 0.04,
      // The HUD's lines at the top left beside the figure or above it: whichever leaves it drawn larger.
      insets: () => {
        const below = this.context.insets();
        const beside = besideTopOverlays(below, 0.6);
        const camera = this.context.camera;
        return camera.distance(bounds, directions[0], beside) < camera.distance(bounds, directions[0], below)
          ? beside : below;
      },
      choose: (insets, anew) => {
        if (anew) {
          const camera = this.context.camera;
          // The first direction (the reaching arm seen across the view) unless another fits the box at
          // least a quarter nearer (a tenth on a canvas taller than wide, which is narrow for the side view).
          const { clientWidth, clientHeight } = this.stage.container;
          const portrait = clientHeight > clientWidth;
          let best = (portrait ? 0.9 : 0.75) * camera.distance(bounds, chosen = directions[0], insets);
          for (const direction of directions.slice(1, portrait ? 4 : 3)) {
            const d = camera.distance(bounds, direction, insets);
            if (d < best) {
              best = d;
              chosen = direction;
            }
          }
        }
        return { bounds, direction: chosen };
      },
    };
  }

  /** No rigid limbs: the body is the skinned mesh. */
  limbStyle() {
    return null;
  }

  /** Every chain gets its line in the HUD on a window wide enough; a phone's sums them up. */
  get hudEach() {
    return window.innerWidth >= 600 ? 6 : 4;
  }

  targetStyle() {
    return {
      mesh: (target) => this.drawTarget(target),
      hidden: (target) => !target.draggable,
    };
  }

  /**
   * A target's own mesh: the knob a brass ball the size of the door's knob, with the grip's axes; the pelvis
   * (only its height is taken) a ring round the hips. Each with a wider invisible shape to click.
   */
  drawTarget(target) {
    const pick = (geometry) => new THREE.Mesh(geometry, new THREE.MeshBasicMaterial({ visible: false }));
    if (target.name === "knob") {
      const radius = this.layout.door.knob_radius;
      const knob = new THREE.Mesh(new THREE.SphereGeometry(radius, 24, 16),
        new THREE.MeshStandardMaterial({ color: BRASS, metalness: 0.7, roughness: 0.3, emissive: 0x3a2400 }));
      knob.castShadow = true;
      knob.add(new THREE.AxesHelper(4 * radius));
      knob.add(pick(new THREE.SphereGeometry(Math.max(2.5 * radius, 0.07), 12, 8)));
      return knob;
    }
    if (target.name === "pelvis") {
      const ring = new THREE.Mesh(new THREE.TorusGeometry(0.24, 0.007, 6, 48).rotateX(Math.PI / 2),
        new THREE.MeshStandardMaterial({ color: 0xff5e57, emissive: 0x7a1a12, roughness: 0.3 }));
      ring.add(pick(new THREE.TorusGeometry(0.24, 0.05, 6, 24).rotateX(Math.PI / 2)));
      return ring;
    }
    return null;
  }

  /**
   * The door at rest: its leaf (width along the door's x from the hinge, towards the knob; height up from
   * the hinge's foot; thickness), a frame round it and the knob's rose and spindle on the leaf.
   */
  buildDoor(door) {
    const [w, h, t] = door.size;
    const group = new THREE.Group();
    group.name = "door";
    group.position.fromArray(door.hinge);
    group.rotation.y = door.yaw;
    group.updateMatrixWorld();
    // The knob in the door's own frame says on which side of the hinge the leaf lies, and which face it is on.
    const knob = group.worldToLocal(new THREE.Vector3().fromArray(door.knob));
    const side = knob.x < 0 ? -1 : 1;
    const material = (color, roughness) => new THREE.MeshStandardMaterial({ color, roughness, metalness: 0.05 });
    const add = (geometry, mat, x, y, z) => {
      const mesh = new THREE.Mesh(geometry, mat);
      mesh.position.set(x, y, z);
      mesh.castShadow = true;
      mesh.receiveShadow = true;
      group.add(mesh);
      return mesh;
    };
    add(new THREE.BoxGeometry(w, h, t), material(WOOD, 0.7), side * w / 2, h / 2, 0);
    // Two sunk panels on each face, so that the leaf reads as a door from any side.
    const panel = material(0x6b4529, 0.75);
    for (const face of [-1, 1]) {
      for (const [y, ph] of [[0.3 * h, 0.36 * h], [0.72 * h, 0.34 * h]]) {
        add(new THREE.BoxGeometry(0.7 * w, ph, 0.004), panel, side * w / 2, y, face * (t / 2 + 0.001));
      }
    }
    const post = 0.07;
    const frame = material(FRAME, 0.55);
    for (const x of [-post / 2, w + post / 2]) {
      add(new THREE.BoxGeometry(post, h + post, 2 * t), frame, side * x, (h + post) / 2, 0);
    }
    add(new THREE.BoxGeometry(w + 2 * post, post, 2 * t), frame, side * w / 2, h + post / 2, 0);
    // The rose on the knob's face and the spindle out to the knob at rest.
    const brass = new THREE.MeshStandardMaterial({ color: BRASS, metalness: 0.7, roughness: 0.35 });
    const face = knob.z < 0 ? -1 : 1;
    const reach = Math.max(Math.abs(knob.z) - t / 2, 0.01);
    const r = door.knob_radius;
    add(new THREE.CylinderGeometry(1.3 * r, 1.3 * r, 0.012, 24).rotateX(Math.PI / 2), brass, knob.x, knob.y,
      face * (t / 2 + 0.006));
    add(new THREE.CylinderGeometry(0.3 * r, 0.3 * r, reach, 12).rotateX(Math.PI / 2), brass, knob.x, knob.y,
      face * (t / 2 + reach / 2));
    return group;
  }

  castShadows(buf) {
    const { offset, stride } = this.layout.sections.skin;
    const g = this.grounded;
    for (let k = 0; k < g.length; k += 3) {
      const o = offset + g[k] * stride;
      // Under the bone's middle: its start plus half its length along the frame's +y (q applied to (0, l/2, 0)).
      const qw = buf[o + 3], qx = buf[o + 4], qy = buf[o + 5], qz = buf[o + 6];
      const half = 0.5 * g[k + 2];
      const x = buf[o] + half * 2 * (qx * qy - qw * qz);
      const y = buf[o + 1] + half * (1 - 2 * (qx * qx + qz * qz));
      const z = buf[o + 2] + half * 2 * (qy * qz + qw * qx);
      this.shadows.add(x, y - g[k + 1], z, Math.max(2.2 * g[k + 1], 0.08), 0.6, 0.5);
    }
    const p = offset + this.pelvis * stride;
    this.shadows.add(buf[p], buf[p + 1] - 0.9, buf[p + 2], 0.34, 0.35, 1.2);
    const door = this.layout.door;
    this.shadows.add(door.hinge[0], door.hinge[1], door.hinge[2], 0.12, 0.4, 1);
  }

  /**
   * For tests: the skinned body (bones, vertices) and where its bones put a few points, read back from the
   * mesh's bones: the pelvis, the middle of the reaching hand (`hand`) and of its forearm, thigh, shin and
   * foot, the middle of the torso (`chest`), the top of the head.
   */
  describe() {
    const body = this.body;
    const { mesh } = body;
    const at = (word, along, side = null) => body.pointOf(Math.max(body.find(word, side), 0), along);
    const side = this.side;
    return { ...super.describe(), door: this.door.children.length, skinned: [{ name: mesh.name,
      bones: mesh.skeleton.bones.length, skinned: mesh.isSkinnedMesh, vertices: body.vertices,
      pelvis: body.pointOf(this.pelvis), hand: body.pointOf(this.hand, 0.5), forearm: at("forearm", 0.5, side),
      thigh: at("thigh", 0.5, side), shin: at("shin", 0.5, side), chest: at("spine_2", 0.5), head: at("head", 1),
      foot: at("foot", 0.5, side) }] };
  }

  dispose() {
    super.dispose();
    this.scene.remove(this.door);
    this.door.traverse((o) => {
      o.geometry?.dispose();
      o.material?.dispose();
    });
  }
}

registerView("humanoid", HumanoidView);
