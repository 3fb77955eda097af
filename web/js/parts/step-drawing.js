// One step of a traced solve, drawn as the algorithm's own figure (the steps scene). What is drawn comes from
// the step's `detail` (ikcore.Step), its pose and the pose before it (the scene's "step" query):
//   ccd       at the joint turned: the vector to the effector before the turn, the vector to the target, and
//             the arc of the turn between them (about the step's axis, by its angle: a clamp shows as a short arc);
//   fabrik    the point moved, a ghost of where it was, and the line it was snapped along (from its neighbour
//             through its old place), for both passes; fabrik_dls draws its reach's steps the same way;
//   jacobian  every column z_j x (p_end - p_j) as an arrow at its joint, and the error vector at the effector,
//             on a ghost of the pose they were computed at (the Jacobian transpose, the pseudo-inverse, DLS, and
//             fabrik_dls's finish);
//   two_bone  the triangle root - knee - target and its sides.
// Everything is drawn over the chain (no depth test) in flat, unlit colours, so it reads at any angle and a
// test can find it in the pixels. The meshes are made per step (a step changes a few times a second at most)
// and disposed with the next.

import * as THREE from "three";

export const COLORS = {
  effector: 0xff9f43,  // ccd: to the effector
  target: 0x3dd6d0,    // ccd: to the target
  arc: 0xffe066,       // ccd: the turn
  moved: 0x5fd38d,     // fabrik: the point moved
  ghost: 0xb8c0cc,     // fabrik: where it was
  line: 0xf5f7fa,      // fabrik: the line it was snapped along
  column: 0x5b8def,    // jacobian: the columns
  error: 0xff6b6b,     // jacobian: the error vector
  triangle: 0xc56cf0,  // two_bone: the triangle
};

const _up = new THREE.Vector3(0, 1, 0);
const _a = new THREE.Vector3();
const _b = new THREE.Vector3();

export class StepDrawing {
  /**
   * @param {THREE.Scene} scene
   * @param {number} scale the size of the drawing's marks (a rod's radius; the chain's height over 70)
   */
  constructor(scene, scale) {
    this.scene = scene;
    this.scale = scale;
    this.group = new THREE.Group();
    this.group.renderOrder = 4;
    scene.add(this.group);
    this.cylinder = new THREE.CylinderGeometry(1, 1, 1, 10, 1).translate(0, 0.5, 0);
    this.cone = new THREE.ConeGeometry(1, 1, 14).translate(0, -0.5, 0);
    this.sphere = new THREE.SphereGeometry(1, 18, 12);
    this.materials = new Map();
    this.kind = null;
    this.parts = {};
  }

  material(color, opacity = 1) {
    const key = `${color}/${opacity}`;
    let material = this.materials.get(key);
    if (!material) {
      // Unlit, untouched by fog and tone mapping: the colours on screen are the ones above.
      material = new THREE.MeshBasicMaterial({ color, transparent: opacity < 1, opacity, depthTest: false,
        depthWrite: false, fog: false, toneMapped: false });
      this.materials.set(key, material);
    }
    return material;
  }

  mesh(geometry, color, opacity) {
    const mesh = new THREE.Mesh(geometry, this.material(color, opacity));
    mesh.renderOrder = 4;
    this.group.add(mesh);
    return mesh;
  }

  /** A rod from `a` to `b` (arrays or vectors), `width` times the mark size thick. */
  rod(a, b, color, width = 1, opacity = 1) {
    _a.fromArray(Array.isArray(a) ? a : a.toArray());
    _b.fromArray(Array.isArray(b) ? b : b.toArray()).sub(_a);
    const length = _b.length();
    if (length < 1e-9) return null;
    const mesh = this.mesh(this.cylinder, color, opacity);
    mesh.position.copy(_a);
    mesh.quaternion.setFromUnitVectors(_up, _b.divideScalar(length));
    mesh.scale.set(width * this.scale, length, width * this.scale);
    return mesh;
  }

  /** An arrow from `a` along `vector`: a rod and a cone for its head. */
  arrow(a, vector, color) {
    const v = new THREE.Vector3().fromArray(vector);
    const length = v.length();
    if (length < 1e-9) return;
    const head = Math.min(5 * this.scale, 0.45 * length);
    const end = new THREE.Vector3().fromArray(a).addScaledVector(v, 1 - head / length);
    this.rod(a, end, color, 0.8);
    const cone = this.mesh(this.cone, color);
    cone.position.fromArray(a).add(v);
    cone.quaternion.setFromUnitVectors(_up, v.normalize());
    cone.scale.set(2.2 * this.scale, head, 2.2 * this.scale);
  }

  ball(p, color, size = 2.2, opacity = 1) {
    const mesh = this.mesh(this.sphere, color, opacity);
    mesh.position.fromArray(p);
    mesh.scale.setScalar(size * this.scale);
  }

  clear() {
    for (const child of [...this.group.children]) this.group.remove(child);
    this.kind = null;
    this.parts = {};
  }

  /** Draw `step` (the scene's "step" query: phase, detail, positions, before, target) for method `method`. */
  show(step, method) {
    this.clear();
    const { detail } = step;
    if (detail && "to_effector" in detail) this.ccd(step);
    else if (detail && "moved" in detail) this.fabrik(step);
    else if (detail && "columns" in detail) this.jacobian(step);
    else if (detail && "sides" in detail) this.twoBone(step);
    this.method = method;
  }

  ccd({ joint, before, target, detail }) {
    const pivot = new THREE.Vector3().fromArray(before[joint]);
    const effector = before[before.length - 1];
    // The two vectors the seed's figure draws: joint -> effector (before the turn), joint -> target.
    this.rod(pivot.toArray(), effector, COLORS.effector, 0.9);
    this.rod(pivot.toArray(), target, COLORS.target, 0.9);
    // The arc of the turn, at a radius short of both: to_effector turned about the axis by the angle.
    const radius = 0.45 * Math.min(pivot.distanceTo(_a.fromArray(effector)), pivot.distanceTo(_b.fromArray(target)));
    const axis = new THREE.Vector3().fromArray(detail.axis ?? [0, 0, 1]).normalize();
    const from = new THREE.Vector3().fromArray(detail.to_effector);
    const angle = THREE.MathUtils.degToRad(detail.angle_deg);
    const n = Math.max(2, Math.ceil(Math.abs(detail.angle_deg) / 4));
    let last = pivot.clone().addScaledVector(from, radius);
    const q = new THREE.Quaternion();
    for (let i = 1; i <= n; i++) {
      q.setFromAxisAngle(axis, (angle * i) / n);
      const next = pivot.clone().addScaledVector(from.clone().applyQuaternion(q), radius);
      this.rod(last, next, COLORS.arc, 1.1);
      last = next;
    }
    this.ball(pivot.toArray(), COLORS.arc, 1.8);
    this.kind = "ccd";
    this.parts = { vectors: 2, arc_segments: n, joint, clamped: Boolean(detail.clamped) };
  }

  fabrik({ positions, before, detail }) {
    const { moved, toward } = detail;
    const ghost = before[moved];
    const now = positions[moved];
    // The line the point was snapped along: from its neighbour (where the pass put it) through its old place,
    // a little beyond both.
    if (toward !== null && toward !== undefined) {
      const from = new THREE.Vector3().fromArray(positions[toward]);
      const dir = new THREE.Vector3().fromArray(ghost).sub(from);
      const far = dir.length() < 1e-9 ? new THREE.Vector3().fromArray(now).sub(from) : dir;
      const unit = far.clone().normalize();
      const reach = Math.max(far.length(), detail.length) * 1.15;
      this.rod(from.clone().addScaledVector(unit, -0.1 * reach), from.clone().addScaledVector(unit, reach),
        COLORS.line, 0.6, 0.85);
    }
    this.ball(ghost, COLORS.ghost, 2.6, 0.45);
    this.ball(now, COLORS.moved, 2.8);
    this.kind = "fabrik";
    this.parts = { moved, toward, ghost: 1, line: toward !== null && toward !== undefined ? 1 : 0 };
  }

  jacobian({ before, detail }) {
    // The columns at the joints of the pose the step started from (what they were computed at), scaled so the
    // longest is a third of the chain's reach: their directions and relative sizes are what the figure shows.
    const { columns } = detail;
    // The pose they were computed at, as a ghost: the chain is drawn in the pose after the step.
    for (let i = 1; i < before.length; i++) this.rod(before[i - 1], before[i], COLORS.ghost, 0.6, 0.4);
    const longest = Math.max(1e-9, ...columns.map((c) => Math.hypot(...c)));
    const k = (20 * this.scale) / longest;
    columns.forEach((column, j) => this.arrow(before[j], column.map((v) => v * k), COLORS.column));
    const effector = before[before.length - 1];
    if (detail.error_vector) this.arrow(effector, detail.error_vector.slice(0, 3), COLORS.error);
    this.kind = "jacobian";
    this.parts = { columns: columns.length, error: detail.error_vector ? 1 : 0 };
  }

  twoBone({ positions, target }) {
    const [root, knee] = positions;
    this.rod(root, knee, COLORS.triangle, 0.8);
    this.rod(knee, target, COLORS.triangle, 0.8);
    this.rod(root, target, COLORS.triangle, 0.6, 0.8);
    this.ball(knee, COLORS.triangle, 1.8);
    this.kind = "two_bone";
    this.parts = { sides: 3 };
  }

  describe() {
    return { kind: this.kind, meshes: this.group.children.length, ...this.parts };
  }

  dispose() {
    this.clear();
    this.scene.remove(this.group);
    this.cylinder.dispose();
    this.cone.dispose();
    this.sphere.dispose();
    for (const material of this.materials.values()) material.dispose();
  }
}
