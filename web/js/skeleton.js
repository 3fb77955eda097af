// Draws a frame from Python's buffer: bones and joints as instanced meshes, targets as spheres.
//
// The buffer's sections (offsets and strides from the scene layout):
//   bones   [x0, y0, z0, x1, y1, z1, radius, kind]   a tapered limb from point 0 to point 1
//   joints  [x, y, z, radius, qw, qx, qy, qz]         a ball at each chain point
//   targets [x, y, z, qw, qx, qy, qz, radius]         what the chains reach for
// Nothing is allocated per frame: scratch objects live at module level.

import * as THREE from "three";

const _a = new THREE.Vector3();
const _b = new THREE.Vector3();
const _dir = new THREE.Vector3();
const _q = new THREE.Quaternion();
const _s = new THREE.Vector3();
const _m = new THREE.Matrix4();
const _up = new THREE.Vector3(0, 1, 0);
const _color = new THREE.Color();

// Colours per bone kind (layout "kinds": bone, tip, body, link).
const KIND_COLORS = [0xd9dde6, 0xff9f43, 0x8fa3bf, 0x6b7383];

export class SkeletonView {
  /**
   * @param {THREE.Scene} scene
   * @param {object} layout the scene layout sent by Python (sections, targets)
   */
  constructor(scene, layout) {
    this.layout = layout;
    const { bones, joints, targets } = layout.sections;
    this.bones = bones;
    this.joints = joints;
    this.targets = targets;

    // A limb tapering from radius 1 at its base to 0.6 at its end, base at the origin, along +y.
    const limb = new THREE.CylinderGeometry(0.6, 1, 1, 14, 1).translate(0, 0.5, 0);
    this.boneMesh = new THREE.InstancedMesh(
      limb,
      new THREE.MeshStandardMaterial({ roughness: 0.45, metalness: 0.1 }),
      Math.max(bones.count, 1),
    );
    this.boneMesh.count = bones.count;
    this.boneMesh.castShadow = true;
    this.boneMesh.frustumCulled = false;
    this.boneMesh.instanceMatrix.setUsage(THREE.DynamicDrawUsage);
    scene.add(this.boneMesh);

    this.jointMesh = new THREE.InstancedMesh(
      new THREE.SphereGeometry(1, 20, 14),
      new THREE.MeshStandardMaterial({ color: 0x5b8def, roughness: 0.35, metalness: 0.2 }),
      Math.max(joints.count, 1),
    );
    this.jointMesh.count = joints.count;
    this.jointMesh.castShadow = true;
    this.jointMesh.frustumCulled = false;
    this.jointMesh.instanceMatrix.setUsage(THREE.DynamicDrawUsage);
    scene.add(this.jointMesh);

    // Draggable targets red, scripted ones (a lane's copy, a spider's foot) a quieter amber; an oriented
    // target carries its axes (x red, y green, z blue) so its rotation can be seen and turned.
    const sphere = new THREE.SphereGeometry(1, 24, 16);
    const dragMaterial = new THREE.MeshStandardMaterial({ color: 0xff5e57, emissive: 0x661510, roughness: 0.3 });
    const fixedMaterial = new THREE.MeshStandardMaterial({ color: 0xf2b35b, emissive: 0x3a2a10, roughness: 0.5 });
    this.targetMeshes = layout.targets.map((target) => {
      const mesh = new THREE.Mesh(sphere, target.draggable ? dragMaterial : fixedMaterial);
      mesh.castShadow = true;
      mesh.name = target.name;
      mesh.userData.target = target;
      if (target.oriented) mesh.add(new THREE.AxesHelper(3.2));
      scene.add(mesh);
      return mesh;
    });
    this.scene = scene;
    this.colored = -1;
    // Body bones (kind "body") are drawn as ellipsoids from their first point to their second instead.
    this.bodyKind = layout.kinds.body;
    this.bodyMesh = new THREE.InstancedMesh(
      new THREE.SphereGeometry(0.5, 28, 18).translate(0, 0.5, 0),
      new THREE.MeshStandardMaterial({ color: KIND_COLORS[2], roughness: 0.5, metalness: 0.15 }),
      Math.max(bones.count, 1),
    );
    this.bodyMesh.count = 0;
    this.bodyMesh.castShadow = true;
    this.bodyMesh.frustumCulled = false;
    this.bodyMesh.instanceMatrix.setUsage(THREE.DynamicDrawUsage);
    scene.add(this.bodyMesh);
    // The target whose mesh the user is dragging: its mesh follows the pointer, not the buffer.
    this.held = -1;
  }

  /** The mesh of the target called `name`, or undefined. */
  targetMesh(name) {
    return this.targetMeshes.find((mesh) => mesh.name === name);
  }

  /** Remove everything this view added to the scene and free the GPU buffers. */
  dispose() {
    for (const mesh of [this.boneMesh, this.jointMesh, this.bodyMesh]) {
      this.scene.remove(mesh);
      mesh.geometry.dispose();
      mesh.material.dispose();
      mesh.dispose();
    }
    const seen = new Set();
    for (const mesh of this.targetMeshes) {
      this.scene.remove(mesh);
      for (const thing of [mesh.geometry, mesh.material]) {
        if (!seen.has(thing)) thing.dispose();
        seen.add(thing);
      }
    }
  }

  /** Place every instance from the frame in `buf` (a Float64Array). */
  update(buf) {
    const { bones, joints, targets } = this;
    let body = 0;
    for (let i = 0; i < bones.count; i++) {
      const o = bones.offset + i * bones.stride;
      _a.set(buf[o], buf[o + 1], buf[o + 2]);
      _b.set(buf[o + 3], buf[o + 4], buf[o + 5]);
      _dir.subVectors(_b, _a);
      const length = _dir.length();
      if (length > 1e-9) _q.setFromUnitVectors(_up, _dir.divideScalar(length));
      else _q.identity();
      const r = buf[o + 6];
      if (buf[o + 7] === this.bodyKind) {
        // The ellipsoid reaches a radius past each end, like a capsule's caps.
        _a.addScaledVector(_dir, -r);
        _s.set(2 * r, Math.max(length + 2 * r, 1e-6), 2 * r);
        this.bodyMesh.setMatrixAt(body++, _m.compose(_a, _q, _s));
        _s.set(0, 0, 0);
      } else {
        _s.set(r, Math.max(length, 1e-6), r);
      }
      this.boneMesh.setMatrixAt(i, _m.compose(_a, _q, _s));
      if (this.colored < 0) this.boneMesh.setColorAt(i, _color.setHex(KIND_COLORS[buf[o + 7]] ?? KIND_COLORS[0]));
    }
    this.boneMesh.instanceMatrix.needsUpdate = true;
    this.bodyMesh.count = body;
    this.bodyMesh.instanceMatrix.needsUpdate = true;
    if (this.colored < 0 && bones.count) {
      this.boneMesh.instanceColor.needsUpdate = true;
      this.colored = 1;
    }
    _q.identity();
    for (let i = 0; i < joints.count; i++) {
      const o = joints.offset + i * joints.stride;
      const r = buf[o + 3];
      _a.set(buf[o], buf[o + 1], buf[o + 2]);
      _s.set(r, r, r);
      this.jointMesh.setMatrixAt(i, _m.compose(_a, _q, _s));
    }
    this.jointMesh.instanceMatrix.needsUpdate = true;
    for (let i = 0; i < targets.count; i++) {
      if (i === this.held) continue;
      const o = targets.offset + i * targets.stride;
      const mesh = this.targetMeshes[i];
      mesh.position.set(buf[o], buf[o + 1], buf[o + 2]);
      mesh.quaternion.set(buf[o + 4], buf[o + 5], buf[o + 6], buf[o + 3]);
      mesh.scale.setScalar(buf[o + 7]);
    }
  }
}
