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

class ArmView extends SceneView {
  constructor(context) {
    super(context);
    this.hint = "Click the red ball, then drag its arrows to move the hand (R: turn it, T: move it). " +
      "The small red ball is where the elbow points.";
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

  castShadows(buf) {
    super.castShadows(buf);
    // The plate's own: wider than the pedestal's.
    this.shadows.add(0, 0, 0, 0.45, 0.6, 1);
  }

  dispose() {
    super.dispose();
    this.scene.remove(this.plate);
    this.plate.geometry.dispose();
    this.plate.material.dispose();
  }
}

registerView("arm", ArmView);
