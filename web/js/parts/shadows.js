// Contact shadows: a soft dark disc on the ground under each thing that stands on it or hangs near it (a
// foot, a pedestal, a tentacle's crown), fading and widening as the thing rises. One instanced quad drawn
// with a small shader of its own: the disc's falloff is computed per pixel (no texture), each instance
// carries its strength, and the discs blend over the ground without writing depth. A software renderer draws
// them for a few hundred pixels each, where shadow maps would cost the whole frame; at high quality they
// add the darkening a shadow map's blur misses where things touch the ground.

import * as THREE from "three";

const _m = new THREE.Matrix4();
const _p = new THREE.Vector3();
const _q = new THREE.Quaternion();
const _s = new THREE.Vector3();
const _n = new THREE.Vector3();
const _up = new THREE.Vector3(0, 1, 0);
// Where lift() looks for bumps, as fractions of a disc's radius: eight points at 0.75 and four at 0.4.
const LIFT_SAMPLES = [];
for (let i = 0; i < 8; i++) LIFT_SAMPLES.push(0.75 * Math.cos(i * Math.PI / 4), 0.75 * Math.sin(i * Math.PI / 4));
for (let i = 0; i < 4; i++) LIFT_SAMPLES.push(0.4 * Math.cos(i * Math.PI / 2 + 0.8), 0.4 * Math.sin(i * Math.PI / 2 + 0.8));

const VERTEX = `
attribute float strength;
varying vec2 vUv;
varying float vStrength;
#include <fog_pars_vertex>
void main() {
  vUv = uv * 2.0 - 1.0;
  vStrength = strength;
  vec4 mvPosition = modelViewMatrix * instanceMatrix * vec4(position, 1.0);
  gl_Position = projectionMatrix * mvPosition;
  #include <fog_vertex>
}`;

// A Gaussian-like falloff that reaches zero at the disc's rim; the fog fades a far disc with the ground.
const FRAGMENT = `
uniform vec3 color;
varying vec2 vUv;
varying float vStrength;
#include <fog_pars_fragment>
void main() {
  float r2 = dot(vUv, vUv);
  if (r2 >= 1.0) discard;
  float a = vStrength * (1.0 - r2) * (1.0 - r2);
  gl_FragColor = vec4(color, a);
  #include <fog_fragment>
}`;

export class ContactShadows {
  /**
   * @param {THREE.Scene} scene
   * @param {number} capacity the most discs drawn at once
   * @param {(x: number, z: number) => number} groundHeight the ground's height under a point
   */
  constructor(scene, capacity, groundHeight) {
    this.scene = scene;
    this.groundHeight = groundHeight;
    const geometry = new THREE.PlaneGeometry(2, 2).rotateX(-Math.PI / 2);
    this.strength = new THREE.InstancedBufferAttribute(new Float32Array(Math.max(capacity, 1)), 1);
    this.strength.setUsage(THREE.DynamicDrawUsage);
    geometry.setAttribute("strength", this.strength);
    const material = new THREE.ShaderMaterial({
      vertexShader: VERTEX, fragmentShader: FRAGMENT,
      uniforms: THREE.UniformsUtils.merge([THREE.UniformsLib.fog, { color: { value: new THREE.Color(0x05070a) } }]),
      transparent: true, depthWrite: false, fog: true,
      // Drawn on the ground's surface without fighting it for depth.
      polygonOffset: true, polygonOffsetFactor: -2, polygonOffsetUnits: -2,
    });
    this.mesh = new THREE.InstancedMesh(geometry, material, Math.max(capacity, 1));
    this.mesh.instanceMatrix.setUsage(THREE.DynamicDrawUsage);
    this.mesh.frustumCulled = false;
    this.mesh.renderOrder = 1;
    this.mesh.count = 0;
    this.mesh.name = "contact-shadows";
    scene.add(this.mesh);
    this.count = 0;
  }

  /** Start a frame's discs. */
  begin() {
    this.count = 0;
  }

  /**
   * A disc under (x, y, z), `radius` wide at contact and `strength` dark (0..1), for a thing that reaches
   * down to height y: the higher it is above the ground, the wider and fainter, gone by `fade` above it.
   */
  add(x, y, z, radius, strength, fade) {
    if (this.count >= this.strength.count) return;
    const ground = this.groundHeight(x, z);
    const h = Math.max(0, y - ground);
    const k = 1 - h / fade;
    if (k <= 0) return;
    const i = this.count++;
    // Lie along the ground's slope (a terrain): its normal from the heights around.
    const e = 0.25 * radius + 0.05;
    _n.set(this.groundHeight(x - e, z) - this.groundHeight(x + e, z), 2 * e,
      this.groundHeight(x, z - e) - this.groundHeight(x, z + e)).normalize();
    _q.setFromUnitVectors(_up, _n);
    const r = radius * (1 + 0.8 * (1 - k));
    _s.set(r, 1, r);
    _p.set(x, ground + 0.004 + this.lift(x, ground, z, r), z);
    this.mesh.setMatrixAt(i, _m.compose(_p, _q, _s));
    this.strength.array[i] = strength * k * k;
  }

  /**
   * How far the ground rises above a flat disc of radius r lying on it at (x, ground, z) with normal _n: a
   * wide disc on a curved terrain would otherwise pass under the bumps, which cut its soft edge into a hard
   * polygon. The disc is lifted by the highest bump within the visible part of it (its falloff leaves the
   * outer quarter nearly clear); on flat ground, nothing.
   */
  lift(x, ground, z, r) {
    let most = 0;
    for (let j = 0; j < LIFT_SAMPLES.length; j += 2) {
      const dx = LIFT_SAMPLES[j] * r;
      const dz = LIFT_SAMPLES[j + 1] * r;
      // The disc's plane at (x + dx, z + dz): n . (p - centre) = 0.
      const plane = ground - (_n.x * dx + _n.z * dz) / _n.y;
      most = Math.max(most, this.groundHeight(x + dx, z + dz) - plane);
    }
    return most;
  }

  /** End a frame's discs: upload them. */
  end() {
    this.mesh.count = this.count;
    this.mesh.instanceMatrix.needsUpdate = true;
    this.strength.needsUpdate = true;
  }

  dispose() {
    this.scene.remove(this.mesh);
    this.mesh.geometry.dispose();
    this.mesh.material.dispose();
    this.mesh.dispose();
  }
}
