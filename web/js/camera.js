// Cameras and framing: where the camera stands for a scene, and keeping it there as the page changes size.
//
// A scene says the box its content keeps within (layout.bounds, from Python) and the direction it is best
// seen from (layout.camera: a position and a point looked at). The rig puts the camera on that direction at
// the distance where the whole box fits the part of the canvas nothing covers (the view's insets: the race's
// chart at the bottom, the panel on the right of a wide window), centred in it. It fits again when the
// canvas changes size, until the reader moves the camera (orbit, zoom) or a link places it. A view whose content
// can stand in more than one arrangement (the race's lanes, in one row or in two) chooses one when the camera
// fits anew (choose(), comparing the distances at which each would fit: distance()). A walker's view
// follows its body (follow()). The fog and the sun's shadow box scale with the distance, so that the ground
// fades out before the horizon at any scene's size.

import * as THREE from "three";

const _up = new THREE.Vector3(0, 1, 0);
const _dir = new THREE.Vector3();
const _right = new THREE.Vector3();
const _upv = new THREE.Vector3();
const _c = new THREE.Vector3();
const _k = new THREE.Vector3();
let _corner = new Float64Array(24);
let _count = 8;
const _proj = new Float64Array(24);

/** A small margin around the fitted box, as a fraction of the free region (each side), unless a view says. */
const MARGIN = 0.06;

export class CameraRig {
  /** @param {import("./stage.js").Stage} stage */
  constructor(stage) {
    this.stage = stage;
    this.fit = null;          // {bounds, direction, insets, choose, margin}: what the camera was fitted to
    this.userMoved = false;   // the reader (or a link) placed the camera: no refitting
    this.followed = null;     // the point follow() tracks: {x, z}
    stage.controls.addEventListener("start", () => { this.userMoved = true; });
    window.addEventListener("resize", () => this.refit());
  }

  /**
   * Fit again (the canvas or what covers it changed: `anew`, the view may choose another arrangement; or the
   * arrangement changed), unless the reader or a link placed the camera.
   */
  refit(anew = true) {
    if (this.fit && !this.userMoved) this.fitNow(anew);
  }

  /**
   * Fit the camera to a view's framing (views/base.js): `bounds` ({min, max}) seen along `direction` (from the
   * box towards the camera), within the canvas less `insets` ({top, right, bottom, left} in CSS pixels, or a
   * function giving them, called again on each refit) and `margin` (a fraction of that region each side, if
   * the view's box leaves none of its own). `choose(insets, anew)`, if given, gives the {bounds, direction}
   * to fit instead, choosing its arrangement for these insets when `anew` (see refit).
   */
  frameScene({ bounds, direction, insets, choose = null, margin = MARGIN }) {
    const get = typeof insets === "function" ? insets : () => insets;
    this.fit = { bounds, direction, insets: get, choose, margin };
    this.userMoved = false;
    this.followed = null;
    this.fitNow(true);
  }

  fitNow(anew) {
    const fit = this.fit;
    const insets = fit.insets();
    const { bounds, direction } = fit.choose ? fit.choose(insets, anew) : fit;
    this.frame(bounds, direction, insets);
  }

  /**
   * How far from `bounds` the camera stands to fit it (as frame() would; nothing moves): of two boxes
   * holding the same things, the nearer one draws them larger.
   */
  distance(bounds, direction, insets) {
    return this.place(bounds, direction, insets);
  }

  frame(bounds, direction, insets) {
    const { camera, controls } = this.stage;
    const d = this.place(bounds, direction, insets);
    controls.target.copy(_c).addScaledVector(_right, _proj[0]).addScaledVector(_upv, _proj[1]);
    camera.position.copy(controls.target).addScaledVector(_dir, d);
    controls.update();
    const lo = bounds.min;
    const hi = bounds.max;
    this.stage.setDistance(d, Math.max(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]));
  }

  /**
   * The distance d at which `bounds` fits the free region, with the box's centre in _c, the camera's basis
   * in _right, _upv, _dir and the shifts of the point looked at in _proj[0..1].
   */
  place(bounds, direction, insets) {
    const { camera, container } = this.stage;
    const w = container.clientWidth || 1;
    const h = container.clientHeight || 1;
    const inset = { top: 0, right: 0, bottom: 0, left: 0, ...insets };
    // The free region in normalised device coordinates, less the margin.
    let xl = -1 + (2 * inset.left) / w;
    let xr = 1 - (2 * inset.right) / w;
    let yb = -1 + (2 * inset.bottom) / h;
    let yt = 1 - (2 * inset.top) / h;
    if (xr - xl < 0.3) { xl = -1; xr = 1; }     // too narrow to respect: use the whole width
    if (yt - yb < 0.3) { yb = -1; yt = 1; }
    const margin = this.fit?.margin ?? MARGIN;
    const mx = margin * (xr - xl);
    const my = margin * (yt - yb);
    xl += mx; xr -= mx; yb += my; yt -= my;
    const tanV = Math.tan(THREE.MathUtils.degToRad(camera.fov) / 2);
    const tanH = tanV * camera.aspect;

    _dir.fromArray(direction).normalize();
    _right.crossVectors(_up, _dir).normalize();
    if (_right.lengthSq() < 1e-9) _right.set(1, 0, 0);
    _upv.crossVectors(_dir, _right);
    const lo = bounds.min;
    const hi = bounds.max;
    _c.set((lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2);
    // What must fit, in the camera's basis (right, up, towards the camera), from the box's centre: the
    // box's corners, or, where the box lists the points it holds, the corners of a small cube (`pad`)
    // about each of them (tighter: seen from its side a box's corners stand far outside its content).
    const points = bounds.points ?? null;
    _count = points ? 8 * points.length : 8;
    if (_corner.length < 3 * _count) _corner = new Float64Array(3 * _count);
    for (let i = 0; i < _count; i++) {
      const j = i & 7;
      if (points) {
        const p = points[i >> 3];
        const pad = bounds.pad ?? 0;
        _k.set(p[0] + (j & 1 ? pad : -pad), p[1] + (j & 2 ? pad : -pad), p[2] + (j & 4 ? pad : -pad)).sub(_c);
      } else {
        _k.set(j & 1 ? hi[0] : lo[0], j & 2 ? hi[1] : lo[1], j & 4 ? hi[2] : lo[2]).sub(_c);
      }
      _corner[3 * i] = _k.dot(_right);
      _corner[3 * i + 1] = _k.dot(_upv);
      _corner[3 * i + 2] = _k.dot(_dir);
    }
    // The camera at c + sx right + sy up + d dir, looking along -dir. A corner at depth d - z projects to
    // (x - sx) / ((d - z) tanH): for each d the shifts that keep every corner inside the region form an
    // interval; the smallest d with both intervals non-empty fits the box. Bisection on d.
    let near = 0;
    for (let i = 0; i < _count; i++) near = Math.max(near, _corner[3 * i + 2]);
    let a = near + 1e-3;
    let b = near + 1e4;
    for (let it = 0; it < 60; it++) {
      const d = 0.5 * (a + b);
      if (this.shifts(d, xl, xr, yb, yt, tanH, tanV)) b = d;
      else a = d;
    }
    this.shifts(b, xl, xr, yb, yt, tanH, tanV);
    return b;
  }

  /** Whether shifts exist that fit every corner at distance `d`; if so, the middle ones in _proj[0..1]. */
  shifts(d, xl, xr, yb, yt, tanH, tanV) {
    let xlo = -Infinity, xhi = Infinity, ylo = -Infinity, yhi = Infinity;
    for (let i = 0; i < _count; i++) {
      const depth = d - _corner[3 * i + 2];
      const x = _corner[3 * i];
      const y = _corner[3 * i + 1];
      xlo = Math.max(xlo, x - xr * depth * tanH);
      xhi = Math.min(xhi, x - xl * depth * tanH);
      ylo = Math.max(ylo, y - yt * depth * tanV);
      yhi = Math.min(yhi, y - yb * depth * tanV);
    }
    if (xlo > xhi || ylo > yhi) return false;
    _proj[0] = 0.5 * (xlo + xhi);
    _proj[1] = 0.5 * (ylo + yhi);
    return true;
  }

  /** A view from a link ({position, target}): kept as it is, no refitting. */
  setView(view) {
    this.stage.setView(view);
    this.userMoved = true;
  }

  /** Keep (x, z) where it is on screen: the view moves by however far it moved since the last call. */
  follow(x, z) {
    const f = this.followed;
    if (f) this.stage.pan(x - f.x, 0, z - f.z);
    else this.followed = { x, z };
    this.followed.x = x;
    this.followed.z = z;
  }
}
