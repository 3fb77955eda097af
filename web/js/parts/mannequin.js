// A character's body as one smooth skinned mesh (three.js SkinnedMesh): a stylised mannequin made here of
// one closed surface per skin bone (an ellipsoid for the head, the hands, the feet and the torso's pieces, a
// tapered capsule for the neck and the limbs), merged into one geometry, each vertex weighted between its
// own bone and the bone across the nearer joint, so that an elbow, a knee or a shoulder bends smoothly.
//
// The skeleton is the scene's skin (layout.skin.bones: name, parent, length, radius) and its buffer section
// `skin`, [x, y, z, qw, qx, qy, qz] per bone: the world pose of the bone's frame, its origin at the bone's
// start joint, the bone along the frame's +y for its length, the frame's +z to the character's front. The
// three.js bones are children of the mesh (which stays at the origin), each placed every frame from its
// record: a bone's world pose is Python's, no hierarchy composes it here.
//
// Linear blend skinning: a vertex v of the bind pose goes to sum_i w_i M_i B_i^-1 v, with M_i bone i's pose
// this frame and B_i its pose at bind. The bind pose is the skin's rest (layout.skin.rest, the character
// standing) or else the first frame. A vertex at a joint is weighted half and half between the two bones
// that meet there, all to its own bone a blend length (about the limb's radius) past it: the skin there
// follows the average of the two bones' poses and curves round the bend instead of folding.

import * as THREE from "three";

const _m = new THREE.Matrix4();
const _p = new THREE.Vector3();
const _q = new THREE.Quaternion();
const _s = new THREE.Vector3(1, 1, 1);

/** Colours of the figure: a shirt, trousers, shoes and skin. */
const COLORS = { shirt: 0x4f7fb8, trousers: 0x2e3550, shoes: 0x2a2320, skin: 0xdcae8a };

/**
 * How each bone is shaped, by a word in its name: an ellipsoid (semi-axes across, x and z, as multiples of
 * the bone's radius; along, half its length plus `pad` radii) or a capsule (radii at its start and end joints
 * as multiples of its radius, `r0` and `r1`, stretched across by `x` and `z`, `bulge` more in its middle,
 * peaking at `lean` along it; its caps `cap0` and `cap1` of their radius high; `fromParent`: starting as wide
 * as its parent bone, so that a torso's pieces meet without a step). The first rule whose word the
 * name holds applies; a bone matching none is a capsule of its radius. `nose`: a bump of that many radii on
 * the front of the head. Where a limb's bones meet, the child starts narrower than its parent ends, so that
 * the parent's round end covers the joint: two surfaces nearly touching there would show through each
 * other in stripes.
 */
const SHAPES = [
  { word: "head", kind: "ellipsoid", x: 0.86, z: 1.0, pad: 0.05, nose: 0.16, color: "skin" },
  { word: "neck", kind: "capsule", r0: 1.1, r1: 1.0, color: "skin" },
  { word: "hand", kind: "ellipsoid", x: 0.5, z: 1.05, pad: 0.3, color: "skin" },
  { word: "foot", kind: "ellipsoid", x: 0.85, z: 0.62, pad: 0.55, color: "shoes" },
  { word: "pelvis", kind: "ellipsoid", x: 1.12, z: 0.82, pad: 0.45, color: "trousers" },
  // The torso from the waist up, one smooth piece: the bones' capsules as wide where they meet, the chest's
  // top flattened into the shoulders.
  { word: "chest", kind: "capsule", x: 1.15, z: 0.78, cap1: 0.45, fromParent: true, color: "shirt" },
  { word: "spine_3", kind: "capsule", x: 1.15, z: 0.78, cap1: 0.45, fromParent: true, color: "shirt" },
  { word: "spine", kind: "capsule", x: 1.15, z: 0.78, fromParent: true, color: "shirt" },
  { word: "clavicle", kind: "capsule", r0: 0.8, r1: 1.0, color: "shirt" },
  { word: "upper_arm", kind: "capsule", r0: 0.9, r1: 0.84, bulge: 0.1, lean: 0.4, color: "shirt" },
  { word: "forearm", kind: "capsule", r0: 0.84, r1: 0.64, bulge: 0.14, lean: 0.3, color: "skin" },
  { word: "thigh", kind: "capsule", r0: 1.0, r1: 0.74, bulge: 0.06, lean: 0.3, color: "trousers" },
  { word: "shin", kind: "capsule", r0: 0.8, r1: 0.58, bulge: 0.2, lean: 0.25, color: "trousers" },
];
const PLAIN = { kind: "capsule", r0: 1, r1: 1, color: "shirt" };

/** The shape rule of a bone called `name`. */
export function shapeOf(name) {
  return SHAPES.find((shape) => name.includes(shape.word)) ?? PLAIN;
}

/**
 * The rings of a bone's surface, bottom to top: [s (along the bone, from its start), rx, rz] each, the poles
 * excluded (the surface closes at s of the first and last entries of `poles`).
 */
function rings(shape, length, radius, detail) {
  const out = [];
  if (shape.kind === "ellipsoid") {
    const c = 0.5 * length;
    const half = 0.5 * length + (shape.pad ?? 0) * radius;
    const n = detail.rings + 2;
    for (let i = 1; i < n; i++) {
      const phi = -Math.PI / 2 + (Math.PI * i) / n;
      out.push([c + half * Math.sin(phi), shape.x * radius * Math.cos(phi), shape.z * radius * Math.cos(phi)]);
    }
    return { out, poles: [c - half, c + half] };
  }
  // A capsule: a round cap at each joint, a taper between them with a bulge (a calf, a biceps).
  const r0 = (shape.r0 ?? 1) * radius;
  const r1 = (shape.r1 ?? 1) * radius;
  const x = shape.x ?? 1;
  const z = shape.z ?? 1;
  const h0 = (shape.cap0 ?? 1) * r0;
  const h1 = (shape.cap1 ?? 1) * r1;
  const caps = detail.caps;
  for (let i = 1; i <= caps; i++) {
    const phi = -Math.PI / 2 + (Math.PI / 2) * (i / (caps + 1));
    out.push([h0 * Math.sin(phi), x * r0 * Math.cos(phi), z * r0 * Math.cos(phi)]);
  }
  const lean = shape.lean ?? 0.5;
  for (let i = 0; i <= detail.rings; i++) {
    const t = i / detail.rings;
    // The bulge: a bump peaking at `lean` along the bone, nothing at either joint.
    const bump = t < lean ? Math.sin((Math.PI / 2) * (t / lean)) : Math.cos((Math.PI / 2) * ((t - lean) / (1 - lean)));
    const r = r0 + (r1 - r0) * t + (shape.bulge ?? 0) * radius * bump * bump;
    out.push([t * length, x * r, z * r]);
  }
  for (let i = caps; i >= 1; i--) {
    const phi = (Math.PI / 2) * (1 - i / (caps + 1));
    out.push([length + h1 * Math.sin(phi), x * r1 * Math.cos(phi), z * r1 * Math.cos(phi)]);
  }
  return { out, poles: [-h0, length + h1] };
}

export class Mannequin {
  /**
   * @param {THREE.Scene} scene
   * @param {object} layout the scene layout: skin.bones ({name, parent, length, radius}), optional
   *   skin.rest (a pose per bone, [x, y, z, qw, qx, qy, qz]), sections.skin
   * @param {Float64Array} buf the first frame (its skin section binds the mesh where skin.rest is absent)
   * @param {{radial?: number, rings?: number, caps?: number, flat?: boolean}} [detail] segments around each
   *   surface, rings along it, rings in a capsule's cap; flat: a Lambert material (a software renderer)
   */
  constructor(scene, layout, buf, detail = {}) {
    const level = { radial: detail.radial ?? 18, rings: detail.rings ?? 8, caps: detail.caps ?? 3 };
    this.scene = scene;
    this.section = layout.sections.skin;
    const bones = layout.skin.bones;
    this.specs = bones;
    const n = bones.length;
    // Bind poses: each bone's world matrix at rest.
    const rest = layout.skin.rest ?? null;
    const bind = bones.map((_, i) => {
      const r = rest ? rest[i] : null;
      const o = this.section.offset + i * this.section.stride;
      const at = (k) => (r ? r[k] : buf[o + k]);
      return new THREE.Matrix4().compose(_p.set(at(0), at(1), at(2)), _q.set(at(4), at(5), at(6), at(3)), _s);
    });
    const starts = bind.map((m) => new THREE.Vector3().setFromMatrixPosition(m));
    const ends = bind.map((m, i) => new THREE.Vector3(0, bones[i].length, 0).applyMatrix4(m));
    const children = bones.map(() => []);
    bones.forEach((bone, i) => { if (bone.parent >= 0) children[bone.parent].push(i); });

    const positions = [];
    const colors = [];
    const skinIndex = [];
    const skinWeight = [];
    const index = [];
    const color = new THREE.Color();
    const v = new THREE.Vector3();
    // One closed surface: the rings `out` ([s, rx, rz]: across, x and z, at height s along the bone), `front`
    // ahead of the bone's axis along z, closed by a vertex at each pole's s; its faces wound counter-clockwise
    // seen from outside (the bottom fan, the bands, the top fan).
    const surface = (out, poles, front, vertex) => {
      const radial = level.radial;
      const base = positions.length / 3;
      vertex(poles[0], 0, front);
      for (const [s, rx, rz] of out) {
        for (let j = 0; j < radial; j++) {
          const th = (2 * Math.PI * j) / radial;
          vertex(s, rx * Math.sin(th), front + rz * Math.cos(th));
        }
      }
      vertex(poles[1], 0, front);
      const ring = (k, j) => base + 1 + k * radial + (j % radial);
      const top = base + 1 + out.length * radial;
      for (let j = 0; j < radial; j++) {
        index.push(base, ring(0, j + 1), ring(0, j));
        for (let k = 0; k + 1 < out.length; k++) {
          index.push(ring(k, j), ring(k, j + 1), ring(k + 1, j));
          index.push(ring(k, j + 1), ring(k + 1, j + 1), ring(k + 1, j));
        }
        index.push(ring(out.length - 1, j), ring(out.length - 1, j + 1), top);
      }
    };
    bones.forEach((bone, i) => {
      const shape = shapeOf(bone.name);
      color.set(COLORS[shape.color]);
      const parent = bones[bone.parent];
      const fitted = shape.fromParent && parent ? { ...shape, r0: parent.radius / bone.radius } : shape;
      const { out, poles } = rings(fitted, bone.length, bone.radius, level);
      // The children that hang from this bone's end (a forearm from the upper arm; not the thighs from the
      // pelvis's sides): the skin past its end blends into the nearest of them.
      const ends_ = children[i].filter((c) => starts[c].distanceTo(ends[i]) < 0.5 * bone.length + bone.radius);
      const blend = Math.min(1.2 * bone.radius, 0.45 * bone.length);
      const vertex = (s, x, z) => {
        v.set(x, s, z).applyMatrix4(bind[i]);
        positions.push(v.x, v.y, v.z);
        colors.push(color.r, color.g, color.b);
        // Own weight against the parent's across the start joint (a), against a child's across the end (b).
        const a = bone.parent >= 0 ? THREE.MathUtils.smoothstep(s, -blend, blend) : 1;
        let child = -1;
        let best = Infinity;
        for (const c of ends_) {
          const d = starts[c].distanceToSquared(v);
          if (d < best) { best = d; child = c; }
        }
        const b = child >= 0 ? 1 - THREE.MathUtils.smoothstep(s, bone.length - blend, bone.length + blend) : 1;
        skinIndex.push(i, Math.max(bone.parent, 0), Math.max(child, 0), 0);
        skinWeight.push(a * b, 1 - a, a * (1 - b), 0);
      };
      surface(out, poles, 0, vertex);
      if (shape.nose) {
        // A small bump on the face, so that the head shows where it looks.
        const r = shape.nose * bone.radius;
        const ball = rings({ kind: "ellipsoid", x: 1, z: 1.2, pad: 0 }, 2 * r, 1.1 * r, level);
        const at = 0.4 * bone.length - r;
        surface(ball.out.map(([s, rx, rz]) => [s + at, rx, rz]), ball.poles.map((s) => s + at),
          shape.z * bone.radius * 0.92, vertex);
      }
    });
    const geometry = new THREE.BufferGeometry();
    geometry.setAttribute("position", new THREE.Float32BufferAttribute(positions, 3));
    geometry.setAttribute("color", new THREE.Float32BufferAttribute(colors, 3));
    geometry.setAttribute("skinIndex", new THREE.Uint16BufferAttribute(skinIndex, 4));
    geometry.setAttribute("skinWeight", new THREE.Float32BufferAttribute(skinWeight, 4));
    geometry.setIndex(index);
    geometry.computeVertexNormals();

    const material = detail.flat
      ? new THREE.MeshLambertMaterial({ vertexColors: true })
      : new THREE.MeshStandardMaterial({ vertexColors: true, roughness: 0.62, metalness: 0.02 });
    const mesh = new THREE.SkinnedMesh(geometry, material);
    const skeleton = [];
    for (let i = 0; i < n; i++) {
      const b = new THREE.Bone();
      b.name = bones[i].name;
      mesh.add(b);
      skeleton.push(b);
    }
    mesh.bind(new THREE.Skeleton(skeleton, bind.map((m) => m.clone().invert())), new THREE.Matrix4());
    mesh.castShadow = true;
    // Its bounding volume is the bind pose's: never culled (the camera keeps the character in view).
    mesh.frustumCulled = false;
    mesh.name = "skin:body";
    scene.add(mesh);
    this.mesh = mesh;
    this.bones = skeleton;
    this.vertices = positions.length / 3;
  }

  /** Pose the bones from the frame's skin section. */
  update(buf) {
    const { offset, stride } = this.section;
    const bones = this.bones;
    for (let i = 0; i < bones.length; i++) {
      const o = offset + i * stride;
      bones[i].position.set(buf[o], buf[o + 1], buf[o + 2]);
      bones[i].quaternion.set(buf[o + 4], buf[o + 5], buf[o + 6], buf[o + 3]);
    }
  }

  /**
   * The index of the skin bone whose name holds `word` (and, if given, names the `side`, "left" or "right":
   * as a word of its own, `left_hand`, or a letter, `hand_l`), or -1.
   */
  find(word, side = null) {
    const named = side && new RegExp(`(^|_)(${side}|${side[0]})(_|$)`);
    return this.specs.findIndex((bone) => bone.name.includes(word) && (!named || named.test(bone.name)));
  }

  /** Where bone `i`'s point `along` (0: its start, 1: its end) is drawn (tests: the skin follows Python). */
  pointOf(i, along = 0) {
    const bone = this.bones[i];
    bone.updateMatrixWorld();
    return _p.set(0, along * this.specs[i].length, 0).applyMatrix4(bone.matrixWorld).toArray();
  }

  dispose() {
    this.scene.remove(this.mesh);
    this.mesh.geometry.dispose();
    this.mesh.material.dispose();
    this.mesh.skeleton.dispose();
  }
}
