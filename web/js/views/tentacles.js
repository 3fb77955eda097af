// The tentacles: each one smooth skinned tube (parts/tube.js) driven by the bone records Python writes,
// standing on a domed crown that sways with the chains' frame.

import * as THREE from "three";

import { SkinnedTube } from "../parts/tube.js";
import { SceneView } from "./base.js";
import { registerView } from "./registry.js";

const _p = new THREE.Vector3();

class TentaclesView extends SceneView {
  constructor(context) {
    super(context);
    const { layout, buf } = context;
    this.shortHint = "Click a red ball at a tip, then drag it.";  // in an embed
    this.hint = "Click a red ball at a tentacle's tip, then drag its arrows. Drag empty space to orbit.";
    this.chainNoun = "tentacle";
    const material = new THREE.MeshStandardMaterial({ vertexColors: true, roughness: 0.5, metalness: 0.05 });
    this.material = material;
    // Fewer segments around each tube for a crowd (make_scene("tentacles", count=...)).
    const crowd = layout.chains.length > 16;
    this.tubes = layout.chains.map((_, k) => new SkinnedTube(this.scene, layout, k, buf, material,
      { radial: crowd ? 8 : 14, rings: crowd ? 2 : 4, colors: [0x5a2f4f, 0xe8a090] }));
    // The crown: a dome under the roots, as wide as the ring they stand on, posed by the chains' frame.
    const { joints, frames } = layout.sections;
    const f = frames.offset;
    const o = joints.offset + layout.chains[0].joints[0] * joints.stride;
    const ring = Math.hypot(buf[o] - buf[f], buf[o + 2] - buf[f + 2]);
    const rim = ring + 0.12;
    // From the rim (sunk into the ground) up to the top, so that the lathe's faces point outward; high
    // enough at the roots' ring to take the tubes' open ends.
    const profile = [];
    for (let i = 0; i <= 12; i++) {
      const a = (i / 12) * (Math.PI / 2);
      profile.push(new THREE.Vector2(Math.max(rim * Math.cos(a), 1e-4), 0.22 * Math.sin(a) - 0.1));
    }
    const crown = new THREE.Mesh(new THREE.LatheGeometry(profile, 48),
      new THREE.MeshStandardMaterial({ color: 0x4a2a45, roughness: 0.55, metalness: 0.05 }));
    crown.castShadow = true;
    this.scene.add(crown);
    this.crown = crown;
    this.rim = rim;
  }

  rigid() {
    return false;
  }

  update(buf, dt, now) {
    for (const tube of this.tubes) tube.update(buf);
    const { frames } = this.layout.sections;
    const f = frames.offset;
    this.crown.position.set(buf[f], buf[f + 1], buf[f + 2]);
    this.crown.quaternion.set(buf[f + 4], buf[f + 5], buf[f + 6], buf[f + 3]);
    super.update(buf, dt, now);
  }

  castShadows(buf) {
    super.castShadows(buf);
    _p.copy(this.crown.position);
    this.shadows.add(_p.x, _p.y - 0.1, _p.z, 1.5 * this.rim, 0.65, 0.8);
  }

  describe() {
    return { ...super.describe(), skinned: this.tubes.map((tube) => ({
      name: tube.mesh.name, bones: tube.mesh.skeleton.bones.length, skinned: tube.mesh.isSkinnedMesh,
      tip: tube.tip() })) };
  }

  dispose() {
    super.dispose();
    for (const tube of this.tubes) tube.dispose();
    this.material.dispose();
    this.scene.remove(this.crown);
    this.crown.geometry.dispose();
    this.crown.material.dispose();
  }
}

registerView("tentacles", TentaclesView);
