// Input on the canvas: a TransformControls gizmo on the selected target, picking targets by clicking them,
// and clicking the ground to send a walker there. Knows nothing of IK: it reports where the user put things.
//
// Nothing is selected when a scene opens (a gizmo over a target would hide it and what reaches for it): a
// click on a draggable target puts the gizmo on it; a click on empty space, or Esc, takes it away.
// Works with mouse, pen and touch (pointer events; the canvas has `touch-action: none`). While the gizmo is
// dragged, OrbitControls is off, so the camera stays still.

import * as THREE from "three";
import { TransformControls } from "three/addons/controls/TransformControls.js";

const _ray = new THREE.Raycaster();
const _ndc = new THREE.Vector2();
const _hits = [];
const CLICK_PX = 6;

export class Handles {
  /**
   * @param {import("./stage.js").Stage} stage
   * @param {object} callbacks {moved(name, position[3], orientation[4] | null), selected(name | null),
   *   clickedGround(point[3])}
   */
  constructor(stage, callbacks) {
    this.stage = stage;
    this.callbacks = callbacks;
    this.view = null;
    this.ground = null;
    this.selected = null;
    this.dragging = false;
    this.down = null;
    const gizmo = new TransformControls(stage.camera, stage.renderer.domElement);
    gizmo.setSize(0.85);
    gizmo.addEventListener("dragging-changed", (event) => {
      this.dragging = event.value;
      stage.controls.enabled = !event.value;
      if (this.view) this.view.targets.held = event.value ? this.view.targets.meshes.indexOf(this.selected) : -1;
    });
    gizmo.addEventListener("objectChange", () => this.report());
    stage.scene.add(gizmo.getHelper());
    this.gizmo = gizmo;

    const canvas = stage.renderer.domElement;
    canvas.addEventListener("pointerdown", (event) => {
      this.down = event.isPrimary ? { x: event.clientX, y: event.clientY } : null;
    });
    canvas.addEventListener("pointerup", (event) => {
      const down = this.down;
      this.down = null;
      if (!down || this.dragging || this.gizmo.axis !== null) return;
      if (Math.hypot(event.clientX - down.x, event.clientY - down.y) > CLICK_PX) return;
      this.click(event.clientX, event.clientY);
    });
  }

  /** A new scene's view (its target meshes) and its ground mesh (or null). Nothing is selected. */
  attach(view, ground) {
    this.view = view;
    this.ground = ground;
    // The axes the view's scene moves targets along (a planar scene keeps them in its plane).
    this.gizmo.showX = view.gizmoAxes.includes("x");
    this.gizmo.showY = view.gizmoAxes.includes("y");
    this.gizmo.showZ = view.gizmoAxes.includes("z");
    this.deselect();
  }

  /** Put the gizmo on target `name` (translate mode unless the target is oriented and rotate was chosen). */
  select(name) {
    const mesh = this.view?.targetMesh(name);
    if (!mesh || !mesh.userData.target.draggable) throw new Error(`no draggable target ${JSON.stringify(name)}`);
    this.selected = mesh;
    if (!mesh.userData.target.oriented) this.gizmo.setMode("translate");
    this.gizmo.attach(mesh);
    this.callbacks.selected(name);
  }

  /** Take the gizmo away (nothing selected). */
  deselect() {
    if (this.dragging) return;
    const was = this.selected;
    this.gizmo.detach();
    this.selected = null;
    if (was) this.callbacks.selected(null);
  }

  /** "translate" or "rotate" (rotation only for a target that takes an orientation). */
  setMode(mode) {
    const oriented = this.selected?.userData.target.oriented;
    this.gizmo.setMode(mode === "rotate" && oriented ? "rotate" : "translate");
    this.mode = mode;
  }

  report() {
    const mesh = this.selected;
    if (!mesh) return;
    const p = mesh.position;
    const q = mesh.quaternion;
    const orientation = mesh.userData.target.oriented && this.gizmo.mode === "rotate" ? [q.w, q.x, q.y, q.z] : null;
    this.callbacks.moved(mesh.name, [p.x, p.y, p.z], orientation);
  }

  /**
   * A click (not a drag): select the target under the pointer; else send the walker to the ground point
   * (where the scene has one); else, on empty space, take the gizmo away.
   */
  click(x, y) {
    const canvas = this.stage.renderer.domElement;
    const rect = canvas.getBoundingClientRect();
    _ndc.set(((x - rect.left) / rect.width) * 2 - 1, -((y - rect.top) / rect.height) * 2 + 1);
    _ray.setFromCamera(_ndc, this.stage.camera);
    _hits.length = 0;
    const meshes = this.view ? this.view.targets.meshes.filter((m) => m.visible && m.userData.target.draggable) : [];
    // Recursive: a target drawn as a group (a marker with a wider invisible disc to click) counts as itself.
    _ray.intersectObjects(meshes, true, _hits);
    for (const hit of _hits) {
      let object = hit.object;
      while (object && !object.userData.target) object = object.parent;
      if (object) {
        this.select(object.name);
        return;
      }
    }
    if (this.ground) {
      _ray.intersectObject(this.ground, false, _hits);
      if (_hits.length) {
        this.deselect();
        this.callbacks.clickedGround(_hits[0].point.toArray());
        return;
      }
    }
    this.deselect();
  }
}
