// Joint-limit overlays: a hinge's allowed arc, a ball-and-socket's cone and a slider's stroke, drawn as lines
// at each joint.
//
// Geometry from the frame buffer alone. For joint i, record i gives R_p (the world rotation of the frame
// its limits are written in) and record i + 1 gives R_i (bone i's frame). Since
// p[i+1] = p[i] + R_i (rest[i+1] - rest[i]), the bone's rest direction is d_rest = R_i^-1 (p[i+1] - p[i]) / |.|,
// and in the world the limits sit at R_p d_rest (a cone's axis, a hinge arc's zero angle) and R_p axis
// (a hinge's axis). A slider never turns its bone (R_i = R_p): its bone's end runs along R_p axis, from
// p[i] + R_p (offset + lower axis) to p[i] + R_p (offset + upper axis), offset the bone's rest vector (given in
// its description): the stroke, with a tick across each end. One preallocated line buffer; nothing is allocated
// per frame.

import * as THREE from "three";

const RIM = 24;            // segments of a cone's rim or a hinge's arc
const PER_JOINT = RIM + 4; // plus spokes
const _rp = new THREE.Quaternion();
const _ri = new THREE.Quaternion();
const _d = new THREE.Vector3();
const _a = new THREE.Vector3();
const _u = new THREE.Vector3();
const _v = new THREE.Vector3();
const _o = new THREE.Vector3();
const _r = new THREE.Vector3();
let _pos = null;
let _w = 0;

function put(x, y, z) {
  _pos[_w++] = x;
  _pos[_w++] = y;
  _pos[_w++] = z;
}

/** A unit vector square to the unit vector `d`, into `out` (from whichever of x and y lies farther off it). */
function across(d, out) {
  out.set(Math.abs(d.x) < 0.9 ? 1 : 0, Math.abs(d.x) < 0.9 ? 0 : 1, 0);
  return out.addScaledVector(d, -out.dot(d)).normalize();
}

const HINGE = new THREE.Color(0xffd166);
const CONE = new THREE.Color(0x4cc9f0);
const STROKE = new THREE.Color(0x06d6a0);
const COLORS = { hinge: HINGE, ball: CONE, slider: STROKE };

export class LimitOverlay {
  constructor(scene, layout) {
    this.scene = scene;
    this.layout = layout;
    this.items = [];
    for (const chain of layout.chains) {
      chain.constraints.forEach((limit, j) => {
        if (!limit || (limit.type === "ball" && limit.cone_deg >= 179.9)) return;
        this.items.push({ joint: chain.joints[0] + j, limit,
          axis: limit.axis ? new THREE.Vector3().fromArray(limit.axis).normalize() : null,
          offset: limit.offset ? new THREE.Vector3().fromArray(limit.offset) : null });
      });
    }
    const vertices = Math.max(this.items.length, 1) * PER_JOINT * 2;
    this.positions = new Float32Array(vertices * 3);
    const colors = new Float32Array(vertices * 3);
    this.items.forEach((item, k) => {
      const c = COLORS[item.limit.type] ?? CONE;
      for (let v = 0; v < PER_JOINT * 2; v++) c.toArray(colors, (k * PER_JOINT * 2 + v) * 3);
    });
    const geometry = new THREE.BufferGeometry();
    this.attribute = new THREE.BufferAttribute(this.positions, 3).setUsage(THREE.DynamicDrawUsage);
    geometry.setAttribute("position", this.attribute);
    geometry.setAttribute("color", new THREE.BufferAttribute(colors, 3));
    geometry.setDrawRange(0, this.items.length * PER_JOINT * 2);
    this.lines = new THREE.LineSegments(geometry, new THREE.LineBasicMaterial({
      vertexColors: true, transparent: true, opacity: 0.85, depthTest: false }));
    this.lines.frustumCulled = false;
    this.lines.renderOrder = 2;
    this.lines.visible = false;
    scene.add(this.lines);
  }

  set visible(on) { this.lines.visible = on; }
  get visible() { return this.lines.visible; }

  dispose() {
    this.scene.remove(this.lines);
    this.lines.geometry.dispose();
    this.lines.material.dispose();
  }

  update(buf) {
    if (!this.lines.visible) return;
    const { joints } = this.layout.sections;
    _pos = this.positions;
    _w = 0;
    for (const item of this.items) {
      const o = joints.offset + item.joint * joints.stride;
      const n = o + joints.stride;
      _o.set(buf[o], buf[o + 1], buf[o + 2]);
      _rp.set(buf[o + 5], buf[o + 6], buf[o + 7], buf[o + 4]);
      _ri.set(buf[n + 5], buf[n + 6], buf[n + 7], buf[n + 4]).invert();
      _d.set(buf[n] - _o.x, buf[n + 1] - _o.y, buf[n + 2] - _o.z);
      const r = 0.45 * _d.length();
      _d.normalize().applyQuaternion(_ri).applyQuaternion(_rp);
      const start = _w;
      if (item.limit.type === "slider") {
        this.stroke(item);
      } else if (item.limit.type === "hinge") {
        _a.copy(item.axis).applyQuaternion(_rp);
        _u.copy(_d).addScaledVector(_a, -_d.dot(_a)).normalize();
        _v.crossVectors(_a, _u);
        const lo = THREE.MathUtils.degToRad(item.limit.min_deg);
        const hi = THREE.MathUtils.degToRad(item.limit.max_deg);
        for (let s = 0; s < RIM; s++) {
          for (let t = s; t <= s + 1; t++) {
            const th = lo + ((hi - lo) * t) / RIM;
            put(_o.x + r * (Math.cos(th) * _u.x + Math.sin(th) * _v.x),
              _o.y + r * (Math.cos(th) * _u.y + Math.sin(th) * _v.y),
              _o.z + r * (Math.cos(th) * _u.z + Math.sin(th) * _v.z));
          }
        }
        for (let e = 0; e < 2; e++) {
          const th = e ? hi : lo;
          put(_o.x, _o.y, _o.z);
          put(_o.x + r * (Math.cos(th) * _u.x + Math.sin(th) * _v.x),
            _o.y + r * (Math.cos(th) * _u.y + Math.sin(th) * _v.y),
            _o.z + r * (Math.cos(th) * _u.z + Math.sin(th) * _v.z));
        }
      } else {
        const c = THREE.MathUtils.degToRad(item.limit.cone_deg);
        // A basis (u, v) normal to the cone's axis d.
        across(_d, _u);
        _v.crossVectors(_d, _u);
        const h = r * Math.cos(c);
        const q = r * Math.sin(c);
        for (let s = 0; s < RIM; s++) {
          for (let t = s; t <= s + 1; t++) {
            const th = (2 * Math.PI * t) / RIM;
            put(_o.x + h * _d.x + q * (Math.cos(th) * _u.x + Math.sin(th) * _v.x),
              _o.y + h * _d.y + q * (Math.cos(th) * _u.y + Math.sin(th) * _v.y),
              _o.z + h * _d.z + q * (Math.cos(th) * _u.z + Math.sin(th) * _v.z));
          }
        }
        for (let s = 0; s < 2; s++) {
          const th = Math.PI * s;
          put(_o.x, _o.y, _o.z);
          put(_o.x + h * _d.x + q * (Math.cos(th) * _u.x + Math.sin(th) * _v.x),
            _o.y + h * _d.y + q * (Math.cos(th) * _u.y + Math.sin(th) * _v.y),
            _o.z + h * _d.z + q * (Math.cos(th) * _u.z + Math.sin(th) * _v.z));
        }
      }
      while (_w < start + PER_JOINT * 6) put(_o.x, _o.y, _o.z);
    }
    this.attribute.needsUpdate = true;
  }

  /** A slider's stroke from the joint at _o, its limits' frame _rp: the line its bone's end runs along, and a
   *  tick across each end. */
  stroke(item) {
    const { lower, upper } = item.limit;
    _a.copy(item.axis).applyQuaternion(_rp);
    _r.copy(item.offset).applyQuaternion(_rp).add(_o);
    // A direction across the stroke for the ticks.
    across(_a, _u);
    const tick = 0.04 + 0.1 * (upper - lower);
    put(_r.x + lower * _a.x, _r.y + lower * _a.y, _r.z + lower * _a.z);
    put(_r.x + upper * _a.x, _r.y + upper * _a.y, _r.z + upper * _a.z);
    for (let e = 0; e < 2; e++) {
      const s = e ? upper : lower;
      put(_r.x + s * _a.x - tick * _u.x, _r.y + s * _a.y - tick * _u.y, _r.z + s * _a.z - tick * _u.z);
      put(_r.x + s * _a.x + tick * _u.x, _r.y + s * _a.y + tick * _u.y, _r.z + s * _a.z + tick * _u.z);
    }
  }
}
