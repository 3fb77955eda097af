// A chain drawn as one smooth skinned tube (three.js SkinnedMesh and Skeleton), tapering from root to tip.
//
// One three.js bone per chain bone, moved every frame from the records Python already writes, so Python's
// frame costs nothing more: bone i stands at joint record i's point, turned as bone i's frame, which is
// joint record i + 1's rotation (each joint record carries its parent bone's frame; the last, the last
// bone's). The tube is built once, straight along the chain's rest pose, each ring of vertices weighted
// between the two bones nearest it (half and half at a joint, all to one bone at its middle), so that a
// bend at a joint is shared by the rings around it and the skin curves instead of kinking.
//
// The rest pose is read from the first frame: with R_i bone i's rotation and p_i the points,
// d_i = R_i^-1 (p_{i+1} - p_i) is bone i in its own frame (its length and rest direction), as the joint
// limit overlays read it (overlays.js). The radii are the bone records' (a taper per bone).

import * as THREE from "three";

const _p = new THREE.Vector3();
const _q = new THREE.Quaternion();
const _r = new THREE.Quaternion();
const _d = new THREE.Vector3();
const _a = new THREE.Vector3();
const _b = new THREE.Vector3();
const _up = new THREE.Vector3(0, 1, 0);
const _x = new THREE.Vector3(1, 0, 0);

/** Weight of the bone a ring belongs to, `t` its place along the bone (0 at its base, 1 at its end). */
function own(t) {
  const u = Math.abs(t - 0.5) * 2;           // 0 at the middle, 1 at either joint
  const s = 1 - u;
  return 0.5 + 0.5 * (s * s * (3 - 2 * s));  // smoothstep: 1 at the middle, 0.5 at the joints
}

export class SkinnedTube {
  /**
   * @param {THREE.Scene} scene
   * @param {object} layout the scene layout
   * @param {number} k the chain's index in layout.chains
   * @param {Float64Array} buf a frame (in world coordinates), for the rest pose and radii
   * @param {THREE.Material} material a material for skinning (its colours per vertex, if any)
   * @param {{radial?: number, rings?: number, flare?: number, colors?: [number, number]}} [options]
   *   segments around, rings per bone, how much wider the root is, root and tip colours
   */
  constructor(scene, layout, k, buf, material, options = {}) {
    const radial = options.radial ?? 14;
    const perBone = options.rings ?? 4;
    const flare = options.flare ?? 1.3;
    const chain = layout.chains[k];
    const { bones, joints } = layout.sections;
    // The chain's own bones, after its lead (a bone from its frame's origin to its root, which no solve moves).
    const lead = chain.bones[1] - (chain.joints[1] - 1);
    const n = chain.joints[1] - 1;
    this.scene = scene;
    this.joints = joints;
    this.first = chain.joints[0];
    this.n = n;

    // Rest pose: bone lengths and directions in their own frames; radii per bone.
    const lengths = new Float64Array(n);
    const dirs = [];
    const radii = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const o = joints.offset + (this.first + i) * joints.stride;
      const e = o + joints.stride;
      _d.set(buf[e] - buf[o], buf[e + 1] - buf[o + 1], buf[e + 2] - buf[o + 2]);
      _r.set(buf[e + 5], buf[e + 6], buf[e + 7], buf[e + 4]).invert();
      lengths[i] = _d.length();
      dirs.push(_d.applyQuaternion(_r).normalize().clone());
      radii[i] = buf[bones.offset + (chain.bones[0] + lead + i) * bones.stride + 6];
    }
    // Bind pose: the rest chain from the origin; bone i at `starts[i]`, unturned.
    const starts = [new THREE.Vector3()];
    for (let i = 0; i < n; i++) starts.push(starts[i].clone().addScaledVector(dirs[i], lengths[i]));
    const total = lengths.reduce((a, b) => a + b, 0);

    // Rings: perBone per bone, then a rounded cap of `cap` rings closing the tip.
    const cap = 4;
    const ringCount = n * perBone + 1 + cap;
    const positions = new Float32Array((ringCount * (radial + 1) + 1) * 3);
    const normals = new Float32Array(positions.length);
    const colors = new Float32Array(positions.length);
    const skinIndex = new Uint16Array((ringCount * (radial + 1) + 1) * 4);
    const skinWeight = new Float32Array(skinIndex.length);
    const root = new THREE.Color(options.colors?.[0] ?? 0x6d3b5a);
    const tip = new THREE.Color(options.colors?.[1] ?? 0xe59a8e);
    const color = new THREE.Color();
    let v = 0;
    let along = 0;
    const ring = (center, dir, radius, bone, weight, other, s) => {
      // A frame around the ring's direction: any vector normal to it (rest chains are near straight).
      _a.copy(Math.abs(dir.x) < 0.9 ? _x : _up).addScaledVector(dir, -(Math.abs(dir.x) < 0.9 ? dir.x : dir.y)).normalize();
      _b.crossVectors(dir, _a);
      color.lerpColors(root, tip, s);
      for (let j = 0; j <= radial; j++) {
        const th = (2 * Math.PI * j) / radial;
        const c = Math.cos(th);
        const sn = Math.sin(th);
        const nx = c * _a.x + sn * _b.x;
        const ny = c * _a.y + sn * _b.y;
        const nz = c * _a.z + sn * _b.z;
        positions.set([center.x + radius * nx, center.y + radius * ny, center.z + radius * nz], 3 * v);
        normals.set([nx, ny, nz], 3 * v);
        // A lighter underside stripe along the tube (j around 0), as on a tentacle's sucker side.
        const stripe = 1 + 0.25 * Math.max(0, Math.cos(th)) ** 6;
        colors.set([color.r * stripe, color.g * stripe, color.b * stripe], 3 * v);
        skinIndex.set([bone, other, 0, 0], 4 * v);
        skinWeight.set([weight, 1 - weight, 0, 0], 4 * v);
        v++;
      }
    };
    const radiusAt = (i, t) => {
      // Radii meet halfway between bone middles; the root flares into whatever it stands on.
      const here = radii[i];
      const next = t < 0.5 ? (i > 0 ? radii[i - 1] : here * flare) : (i < n - 1 ? radii[i + 1] : here * 0.55);
      const f = Math.abs(t - 0.5);
      return here + (next - here) * f;
    };
    for (let i = 0; i < n; i++) {
      for (let r = 0; r < perBone; r++) {
        const t = r / perBone;
        const w = own(t);
        const other = t < 0.5 ? Math.max(i - 1, 0) : Math.min(i + 1, n - 1);
        _p.copy(starts[i]).addScaledVector(dirs[i], t * lengths[i]);
        ring(_p, dirs[i], radiusAt(i, t), i, other === i ? 1 : w, other, along / total);
        along += lengths[i] / perBone;
      }
    }
    // The tip's ring and the cap, all on the last bone.
    const last = n - 1;
    const tipRadius = radiusAt(last, 1);
    for (let c = 0; c <= cap; c++) {
      const angle = (c / (cap + 1)) * (Math.PI / 2);
      _p.copy(starts[n]).addScaledVector(dirs[last], tipRadius * Math.sin(angle));
      ring(_p, dirs[last], tipRadius * Math.cos(angle), last, 1, last, 1);
    }
    // The very tip: one vertex.
    _p.copy(starts[n]).addScaledVector(dirs[last], tipRadius);
    positions.set([_p.x, _p.y, _p.z], 3 * v);
    normals.set([dirs[last].x, dirs[last].y, dirs[last].z], 3 * v);
    colors.set([tip.r, tip.g, tip.b], 3 * v);
    skinIndex.set([last, last, 0, 0], 4 * v);
    skinWeight.set([1, 0, 0, 0], 4 * v);
    const apex = v++;

    const index = [];
    const rings = ringCount;
    for (let r = 0; r < rings - 1; r++) {
      for (let j = 0; j < radial; j++) {
        const a = r * (radial + 1) + j;
        const b = a + radial + 1;
        index.push(a, b, a + 1, b, b + 1, a + 1);
      }
    }
    const lastRing = (rings - 1) * (radial + 1);
    for (let j = 0; j < radial; j++) index.push(lastRing + j, apex, lastRing + j + 1);

    const geometry = new THREE.BufferGeometry();
    geometry.setAttribute("position", new THREE.BufferAttribute(positions, 3));
    geometry.setAttribute("normal", new THREE.BufferAttribute(normals, 3));
    geometry.setAttribute("color", new THREE.BufferAttribute(colors, 3));
    geometry.setAttribute("skinIndex", new THREE.Uint16BufferAttribute(skinIndex, 4));
    geometry.setAttribute("skinWeight", new THREE.BufferAttribute(skinWeight, 4));
    geometry.setIndex(index);

    // Bones directly under the mesh (not nested: each gets its world pose from the frame, not from a
    // parent); their bind pose is the rest chain, so their inverses are translations.
    const mesh = new THREE.SkinnedMesh(geometry, material);
    const boneList = [];
    const inverses = [];
    for (let i = 0; i < n; i++) {
      const bone = new THREE.Bone();
      bone.position.copy(starts[i]);
      mesh.add(bone);
      boneList.push(bone);
      inverses.push(new THREE.Matrix4().makeTranslation(-starts[i].x, -starts[i].y, -starts[i].z));
    }
    mesh.bind(new THREE.Skeleton(boneList, inverses), new THREE.Matrix4());
    mesh.castShadow = true;
    // Its bounding volume is the bind pose's, far from where the chain is drawn: never culled.
    mesh.frustumCulled = false;
    mesh.name = `skin:${chain.name}`;
    scene.add(mesh);
    this.mesh = mesh;
    this.boneList = boneList;
    this.tipOffset = new THREE.Vector3().copy(dirs[last]).multiplyScalar(lengths[last]);
  }

  /** Pose the bones from the frame in `buf` (world coordinates). */
  update(buf) {
    const { joints, first, n, boneList } = this;
    for (let i = 0; i < n; i++) {
      const o = joints.offset + (first + i) * joints.stride;
      const e = o + joints.stride;
      const bone = boneList[i];
      bone.position.set(buf[o], buf[o + 1], buf[o + 2]);
      bone.quaternion.set(buf[e + 5], buf[e + 6], buf[e + 7], buf[e + 4]);
    }
  }

  /** Where the skin's last bone puts the chain's end (for tests: the effector, as Python has it). */
  tip() {
    const bone = this.boneList[this.n - 1];
    bone.updateMatrixWorld();
    return _p.copy(this.tipOffset).applyMatrix4(bone.matrixWorld).toArray();
  }

  dispose() {
    this.scene.remove(this.mesh);
    this.mesh.geometry.dispose();
    this.mesh.skeleton.dispose();
  }
}
