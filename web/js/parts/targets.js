// Targets: what the chains reach for, drawn from the buffer's `targets` section,
//   [x, y, z, qw, qx, qy, qz, radius]   in the order of layout.targets
// Draggable targets red, scripted ones (a race lane's copy) a quieter amber; an oriented target carries its
// axes (x red, y green, z blue) so its rotation can be seen and turned. A view may draw a target its own way
// (a marker on the ground) or not at all (`hidden`: its mesh stays, for screenPosition; a hidden mesh is not picked).

import * as THREE from "three";

export class Targets {
  /**
   * @param {THREE.Scene} scene
   * @param {object} layout the scene layout
   * @param {{mesh?: (target: object) => THREE.Object3D | null, hidden?: (target: object) => boolean}} [how]
   */
  constructor(scene, layout, how = {}) {
    this.scene = scene;
    this.section = layout.sections.targets;
    this.owned = [];
    const sphere = this.own(new THREE.SphereGeometry(1, 24, 16));
    const dragMaterial = this.own(new THREE.MeshStandardMaterial({ color: 0xff5e57, emissive: 0x7a1a12, roughness: 0.3 }));
    const fixedMaterial = this.own(new THREE.MeshStandardMaterial({ color: 0xf2b35b, emissive: 0x3a2a10, roughness: 0.5 }));
    this.meshes = layout.targets.map((target) => {
      let mesh = how.mesh?.(target) ?? null;
      if (mesh) {
        mesh.traverse((o) => { if (o.geometry) this.own(o.geometry); if (o.material) this.own(o.material); });
        mesh.userData.scaled = false;
      } else {
        mesh = new THREE.Mesh(sphere, target.draggable ? dragMaterial : fixedMaterial);
        mesh.castShadow = true;
        mesh.userData.scaled = true;
        if (target.oriented) mesh.add(this.own(new THREE.AxesHelper(3.2)));
      }
      mesh.name = target.name;
      mesh.userData.target = target;
      mesh.visible = !how.hidden?.(target);
      scene.add(mesh);
      return mesh;
    });
    // The target whose mesh the user is dragging: its mesh follows the pointer, not the buffer.
    this.held = -1;
  }

  own(thing) {
    this.owned.push(thing);
    return thing;
  }

  /** The mesh of the target called `name`, or undefined. */
  mesh(name) {
    return this.meshes.find((mesh) => mesh.name === name);
  }

  /** Place every target from the frame in `buf`. */
  update(buf) {
    const { section } = this;
    for (let i = 0; i < section.count; i++) {
      if (i === this.held) continue;
      const o = section.offset + i * section.stride;
      const mesh = this.meshes[i];
      mesh.position.set(buf[o], buf[o + 1], buf[o + 2]);
      mesh.quaternion.set(buf[o + 4], buf[o + 5], buf[o + 6], buf[o + 3]);
      if (mesh.userData.scaled) mesh.scale.setScalar(buf[o + 7]);
    }
  }

  dispose() {
    for (const mesh of this.meshes) this.scene.remove(mesh);
    for (const thing of new Set(this.owned)) thing.dispose();
  }
}
