// The crowd: many spiders over the terrain, drawn with instanced meshes, one draw call per part (thorax,
// abdomen, coxa, femur, tibia) whatever the count. Python writes per spider its body's pose and per leg its
// three angles (ikcore/rigs/crowd.py: layout.crowd gives the columns and the rig's geometry); this view poses
// the parts from them, as ikcore.rigs.crowd's pose() does:
//
//   coxa frame   C = T(body) R(body q) T(hip) R_y(base + yaw)      the coxa drawn from C's origin along +x
//   femur        from root, at the angle  th + femur              in C's xy plane (th: e1's angle from +x)
//   tibia        from the knee, at        th + psi + femur + tibia
//
// A part's mesh is a unit bone along +x (0 to 1), so each instance's matrix is C, a turn about z, and a
// stretch to the bone's length. The HUD says how many spiders and legs, and how many legs reached their
// footholds; Python's time per frame is the HUD's own line.

import * as THREE from "three";

import { SceneView } from "./base.js";
import { registerView } from "./registry.js";

const COLORS = { thorax: 0x3b2a22, abdomen: 0x4a3226, coxa: 0x3a281f, femur: 0x5a3c2a, tibia: 0x6e4a33 };

const _body = new THREE.Matrix4();
const _coxa = new THREE.Matrix4();
const _m = new THREE.Matrix4();
const _turn = new THREE.Matrix4();
const _p = new THREE.Vector3();
const _q = new THREE.Quaternion();
const _s = new THREE.Vector3();
const _color = new THREE.Color();
const _yaw = new THREE.Quaternion();
const _up = new THREE.Vector3(0, 1, 0);

/** A bone from x = 0 to x = 1, tapering from radius r0 to r1. */
function boneGeometry(r0, r1) {
  return new THREE.CylinderGeometry(r1, r0, 1, 7, 1).rotateZ(-Math.PI / 2).translate(0.5, 0, 0);
}

class CrowdView extends SceneView {
  constructor(context) {
    super(context);
    const crowd = this.crowd = this.layout.crowd;
    this.shortHint = "Every leg solved in Python each frame.";  // in an embed
    this.hint = "A crowd of spiders, every leg solved in Python each frame. Change the count in the panel.";
    this.labels = { count: "spiders", speed: "walk speed" };
    this.folder = "crowd";
    this.methodLabel = "two_bone, one call";
    this.chainNoun = "leg";
    const capacity = crowd.capacity;
    const legs = capacity * crowd.legs_per_spider;
    const rig = crowd.rig;
    this.theta = Math.atan2(rig.e1[1], rig.e1[0]);
    // The body's two bones (thorax, abdomen) as ellipsoids, each around its bone in the body frame.
    const sphere = new THREE.SphereGeometry(1, 14, 10);
    this.meshes = {};
    this.bodyParts = rig.body.map(([a, b, r], k) => {
      const length = Math.hypot(b[0] - a[0], b[1] - a[1], b[2] - a[2]);
      const local = new THREE.Matrix4().compose(
        new THREE.Vector3((a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2),
        new THREE.Quaternion().setFromUnitVectors(new THREE.Vector3(1, 0, 0),
          new THREE.Vector3(b[0] - a[0], b[1] - a[1], b[2] - a[2]).normalize()),
        new THREE.Vector3(length / 2 + 0.6 * r, 0.8 * r, r));
      const name = k === 0 ? "thorax" : "abdomen";
      return { mesh: this.instanced(name, sphere.clone(), capacity), local };
    });
    sphere.dispose();
    this.coxa = this.instanced("coxa", boneGeometry(0.05, 0.045), legs);
    this.femur = this.instanced("femur", boneGeometry(0.045, 0.035), legs);
    this.tibia = this.instanced("tibia", boneGeometry(0.035, 0.012), legs);
    // Each spider a shade of its own (fixed per spider: set once for the whole capacity).
    for (const { mesh } of this.bodyParts) {
      for (let k = 0; k < capacity; k++) {
        _color.setHex(COLORS[mesh.name]).offsetHSL(0.04 * Math.sin(2.3 * k), 0, 0.06 * Math.cos(1.7 * k));
        mesh.setColorAt(k, _color);
      }
      mesh.instanceColor.needsUpdate = true;
    }
    this.count = 0;
    this.converged = 0;
  }

  /** An InstancedMesh of `capacity` instances added to the scene (drawn: the first `count`). */
  instanced(name, geometry, capacity) {
    // Legs take their part's colour; bodies white, tinted per spider by their instance colours.
    const legPart = !name.endsWith("ax") && name !== "abdomen";
    const material = new THREE.MeshStandardMaterial({ color: legPart ? COLORS[name] : 0xffffff, roughness: 0.55,
      metalness: 0.06 });
    const mesh = new THREE.InstancedMesh(geometry, material, capacity);
    mesh.name = name;
    mesh.count = 0;
    mesh.frustumCulled = false;  // the instances roam over the whole terrain: the geometry's box says nothing
    mesh.instanceMatrix.setUsage(THREE.DynamicDrawUsage);
    this.scene.add(mesh);
    this.meshes[name] = mesh;
    return mesh;
  }

  /** One shadow per spider under its body. */
  shadowCapacity() {
    return this.layout.crowd.capacity;
  }

  update(buf, dt, now) {
    const { columns, legs_per_spider: per, rig } = this.crowd;
    const count = this.count = buf[columns.header];
    this.converged = buf[columns.header + 1];
    const c = columns;
    const th = this.theta;
    const [l1, l2] = rig.lengths;
    const [rx, ry] = rig.root;
    for (let k = 0; k < count; k++) {
      _p.set(buf[c.x + k], buf[c.y + k], buf[c.z + k]);
      _q.set(buf[c.qx + k], buf[c.qy + k], buf[c.qz + k], buf[c.qw + k]);
      _body.compose(_p, _q, _s.set(1, 1, 1));
      for (const { mesh, local } of this.bodyParts) mesh.setMatrixAt(k, _m.multiplyMatrices(_body, local));
      for (let i = 0; i < per; i++) {
        const n = per * k + i;
        const hip = rig.hips[i];
        const a = rig.bases[i] + buf[c.yaw + n];
        _yaw.setFromAxisAngle(_up, a);
        _coxa.compose(_p.set(hip[0], hip[1], hip[2]), _yaw, _s.set(1, 1, 1)).premultiply(_body);
        this.coxa.setMatrixAt(n, _m.makeScale(rig.coxa, 1, 1).premultiply(_coxa));
        const t0 = th + buf[c.femur + n];
        const t1 = th + rig.psi + buf[c.femur + n] + buf[c.tibia + n];
        this.femur.setMatrixAt(n, this.bone(rx, ry, t0, l1));
        this.tibia.setMatrixAt(n, this.bone(rx + l1 * Math.cos(t0), ry + l1 * Math.sin(t0), t1, l2));
      }
    }
    for (const mesh of Object.values(this.meshes)) {
      mesh.count = this.bodyParts.some((part) => part.mesh === mesh) ? count : per * count;
      mesh.instanceMatrix.needsUpdate = true;
    }
    super.update(buf, dt, now);
  }

  /** A leg bone's matrix: in the coxa frame (_coxa), from (x, y, 0) at `angle` about z, `length` long. */
  bone(x, y, angle, length) {
    _turn.makeRotationZ(angle);
    _turn.elements[12] = x;
    _turn.elements[13] = y;
    return _m.makeScale(length, 1, 1).premultiply(_turn).premultiply(_coxa);
  }

  castShadows(buf) {
    const c = this.crowd.columns;
    for (let k = 0; k < this.count; k++) this.shadows.add(buf[c.x + k], buf[c.y + k] - 0.3, buf[c.z + k], 0.7, 0.55, 1.0);
  }

  /** The HUD's lines for the crowd: its size and its legs (Python's time per frame is the HUD's own line). */
  hudLines(buf) {
    const c = this.crowd.columns;
    const count = buf[c.header];
    const legs = count * this.crowd.legs_per_spider;
    return [`${count} spiders: ${buf[c.header + 1]}/${legs} legs reached`];
  }

  describe() {
    const parts = {};
    for (const [name, mesh] of Object.entries(this.meshes)) parts[name] = { instanced: mesh.isInstancedMesh, count: mesh.count };
    return { ...super.describe(), spiders: this.count, parts, drawCalls: Object.keys(this.meshes).length,
      converged: this.converged };
  }

  dispose() {
    super.dispose();
    for (const mesh of Object.values(this.meshes)) {
      this.scene.remove(mesh);
      mesh.geometry.dispose();
      mesh.material.dispose();
      mesh.dispose();
    }
    this.meshes = {};
  }
}

registerView("crowd", CrowdView);
