// Rigid limbs: each bone of the frame a turned segment, each joint a ball or (for a hinge) a hub along its
// axis, each body bone an ellipsoid: instanced meshes placed from the shared array every frame.
//
// The buffer's sections (offsets and strides from the scene layout):
//   bones   [x0, y0, z0, x1, y1, z1, radius, kind]   a segment from point 0 to point 1
//   joints  [x, y, z, radius, qw, qx, qy, qz]         a joint at each chain point, q its limits' frame
// A style says how they look: the profile a segment is turned from (machined: a shaft between collars;
// organic: a spindle, thick in the middle), its colours per kind of bone and per chain, and the materials.
// Nothing is allocated per frame: scratch objects live at module level.

import * as THREE from "three";

const _a = new THREE.Vector3();
const _b = new THREE.Vector3();
const _dir = new THREE.Vector3();
const _q = new THREE.Quaternion();
const _j = new THREE.Quaternion();
const _s = new THREE.Vector3();
const _m = new THREE.Matrix4();
const _up = new THREE.Vector3(0, 1, 0);
const _color = new THREE.Color();

/** Profiles, (radius, height) pairs from the segment's base (0) to its end (1), radius 1 at the base. */
const PROFILES = {
  // A shaft with a collar at each end, the end a little narrower: turned metal.
  machined: [[0, 0], [0.92, 0], [1, 0.03], [1, 0.09], [0.8, 0.13], [0.72, 0.2], [0.7, 0.8], [0.74, 0.86],
    [0.86, 0.9], [0.9, 0.96], [0.82, 1], [0, 1]],
  // A spindle: narrow at the joints, swelling past the middle, tapering to the next joint.
  organic: (() => {
    const out = [[0, 0]];
    for (let i = 0; i <= 16; i++) {
      const t = i / 16;
      out.push([(0.62 + 0.5 * Math.sin(Math.PI * t) ** 0.8) * (1 - 0.3 * t), t]);
    }
    out.push([0, 1]);
    return out;
  })(),
  plain: [[0, 0], [1, 0], [0.6, 1], [0, 1]],
};

export const STYLES = {
  plain: { profile: "plain", kinds: [0xd9dde6, 0xff9f43, 0x8fa3bf, 0x6b7383], joint: 0x5b8def,
    roughness: 0.45, metalness: 0.1, hubs: false },
};

/** A turned segment along +y from 0 to 1, its base radius 1. */
function segmentGeometry(profile) {
  const points = PROFILES[profile].map(([r, y]) => new THREE.Vector2(r, y));
  const geometry = new THREE.LatheGeometry(points, 20);
  geometry.computeVertexNormals();
  return geometry;
}

export class RigidLimbs {
  /**
   * @param {THREE.Scene} scene
   * @param {object} layout the scene layout (sections, chains, kinds)
   * @param {object} style {profile, kinds: colours by bone kind, chainColors?: colours by chain,
   *   joint: colour, hubs: hinges as hubs, body: colour, roughness, metalness}
   * @param {(k: number) => boolean} [drawn] which chains to draw (default all): a view that draws some
   *   chains its own way (skinned) leaves them out
   */
  constructor(scene, layout, style, drawn = () => true) {
    this.scene = scene;
    this.layout = layout;
    this.style = style;
    const { bones, joints } = layout.sections;
    this.bones = bones;
    this.joints = joints;
    // Which records to draw: the bones and joints of drawn chains, and the extra bones (after the chains).
    let chainBones = 0;
    this.boneList = [];
    this.jointList = [];
    this.hinges = [];   // per drawn joint: its hinge axis turned onto +y (a Quaternion), or null
    layout.chains.forEach((chain, k) => {
      chainBones += chain.bones[1];
      if (!drawn(k)) return;
      for (let i = 0; i < chain.bones[1]; i++) this.boneList.push(chain.bones[0] + i);
      for (let i = 0; i < chain.joints[1]; i++) {
        this.jointList.push(chain.joints[0] + i);
        const limit = chain.constraints[i];
        this.hinges.push(style.hubs && limit?.type === "hinge"
          ? new THREE.Quaternion().setFromUnitVectors(_up, _b.fromArray(limit.axis).normalize()) : null);
      }
    });
    for (let i = chainBones; i < bones.count; i++) this.boneList.push(i);

    const material = (color) => new THREE.MeshStandardMaterial({ color, roughness: style.roughness,
      metalness: style.metalness });
    this.boneMesh = this.instanced(segmentGeometry(style.profile), material(0xffffff), this.boneList.length);
    this.jointMesh = this.instanced(new THREE.SphereGeometry(1, 20, 14), material(style.joint), this.jointList.length);
    // A hinge's hub: a short drum across the joint, along its axis.
    this.hubMesh = this.instanced(new THREE.CylinderGeometry(1, 1, 2.4, 24, 1), material(style.joint),
      this.hinges.filter(Boolean).length);
    // Body bones (kind "body") are drawn as ellipsoids from their first point to their second instead.
    this.bodyKind = layout.kinds.body;
    this.bodyMesh = this.instanced(new THREE.SphereGeometry(0.5, 32, 20).translate(0, 0.5, 0),
      material(style.body ?? style.kinds[2]), this.boneList.length);
    this.colored = false;
  }

  instanced(geometry, material, count) {
    const mesh = new THREE.InstancedMesh(geometry, material, Math.max(count, 1));
    mesh.count = count;
    mesh.castShadow = true;
    mesh.frustumCulled = false;
    mesh.instanceMatrix.setUsage(THREE.DynamicDrawUsage);
    this.scene.add(mesh);
    return mesh;
  }

  /** The colour of bone record `index` of kind `kind`: its chain's, else its kind's. */
  boneColor(index, kind) {
    const { chainColors, kinds } = this.style;
    if (chainColors && kind !== this.bodyKind) {
      const k = this.layout.chains.findIndex((c) => index >= c.bones[0] && index < c.bones[0] + c.bones[1]);
      if (k >= 0) return _color.set(chainColors[k % chainColors.length]).multiplyScalar(kind === 3 ? 0.55 : 1);
    }
    return _color.setHex(kinds[kind] ?? kinds[0]);
  }

  /** Place every instance from the frame in `buf` (a Float64Array). */
  update(buf) {
    const { bones, joints, boneList, jointList, hinges } = this;
    let body = 0;
    for (let n = 0; n < boneList.length; n++) {
      const o = bones.offset + boneList[n] * bones.stride;
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
      this.boneMesh.setMatrixAt(n, _m.compose(_a, _q, _s));
      if (!this.colored) this.boneMesh.setColorAt(n, this.boneColor(boneList[n], buf[o + 7]));
    }
    this.boneMesh.instanceMatrix.needsUpdate = true;
    this.bodyMesh.count = body;
    this.bodyMesh.instanceMatrix.needsUpdate = true;
    if (!this.colored && boneList.length) {
      this.boneMesh.instanceColor.needsUpdate = true;
      this.colored = true;
    }
    let hub = 0;
    for (let n = 0; n < jointList.length; n++) {
      const o = joints.offset + jointList[n] * joints.stride;
      const r = buf[o + 3];
      _a.set(buf[o], buf[o + 1], buf[o + 2]);
      const hinge = hinges[n];
      if (hinge) {
        // The joint's frame (its limits' frame, where the axis is written) turned onto the axis.
        _j.set(buf[o + 5], buf[o + 6], buf[o + 7], buf[o + 4]).multiply(hinge);
        _s.set(r, r, r);
        this.hubMesh.setMatrixAt(hub++, _m.compose(_a, _j, _s));
        _s.set(0, 0, 0);
      } else {
        _s.set(r, r, r);
      }
      _q.identity();
      this.jointMesh.setMatrixAt(n, _m.compose(_a, _q, _s));
    }
    this.jointMesh.instanceMatrix.needsUpdate = true;
    this.hubMesh.instanceMatrix.needsUpdate = true;
  }

  /** Remove everything this added to the scene and free the GPU buffers. */
  dispose() {
    for (const mesh of [this.boneMesh, this.jointMesh, this.hubMesh, this.bodyMesh]) {
      this.scene.remove(mesh);
      mesh.geometry.dispose();
      mesh.material.dispose();
      mesh.dispose();
    }
  }
}
