// A scene's view: what the page draws of a scene and how it frames it, from the scene's layout and the shared
// array Python fills every frame. SceneView draws any scene: its chains as rigid limbs, its targets, and
// contact shadows under the chains' roots and ends; it is what a scene without a view of its own gets. A
// scene's own view (views/<scene>.js, registered by scene name in views/index.js) extends it: other limbs or
// skins, things of its own, a hint, labels for its parameters, keys, a camera that follows.
//
// What the page asks of a view (app.js, the panel through window.ikDemo, handles.js, hud.js):
//   new View(context)             built after each scene switch (context: see the constructor)
//   update(buf, dt, now)          every frame, after Python's step (buf in world coordinates)
//   still()                       whether nothing moves until something changes it: the loop then rests
//   framing()                     {bounds, direction, insets(), choose?, margin?}: what the camera fits (camera.js)
//   targets                       the target meshes (parts/targets.js): picking, the gizmo
//   ground, clickedGround(point)  a mesh a click on is reported by clickedGround (a walker's terrain), or null
//   hint, shortHint               one short line: how to interact with this scene; shortHint, a few words, in
//                                 an embed
//   labels                        {param: label} for the panel; folder: its title for the scene's own params
//                                 ("<scene> settings" unless the view names it); choiceLabels: {param:
//                                 {choice: label}} for a subset's tick boxes (a choice's name otherwise)
//   methodLabel                   what the HUD says the scene solves with (null: the method's name)
//   chainNoun                     what the HUD calls a chain ("chain", "leg", "lane")
//   hudEach                       the most chains the HUD gives a line each (more are summed up in one)
//   hudChains                     whether the HUD lists the chains (the race's chart does it instead)
//   keydown(key)                  a key pressed on the page: true if the view used it
//   applied(state)                a command changed the scene: its state after it (a set, a drag, a release)
//   steps                         the step shown, where the scene shows a solve step by step (ikDemo.state().steps)
//   gizmoAxes                     the axes the drag gizmo offers ("xyz"; "xy" for a scene in a plane)
//   describe()                    what it draws, for ikDemo.state().view (tests)
//   handOver()                    optional: before a new layout of the same scene (its `revision`) replaces it,
//                                 what the next view takes over (context.carried), e.g. the playground's editor
//   dispose()                     remove everything it added (but what it handed over)

import { RigidLimbs, STYLES } from "../parts/limbs.js";
import { ContactShadows } from "../parts/shadows.js";
import { Targets } from "../parts/targets.js";

/** An element's box while it shows (null when it is absent or not displayed). */
function shownBox(element) {
  if (!element || element.hidden || !element.getClientRects().length) return null;
  return element.getBoundingClientRect();
}

/**
 * Insets (`own`: the page's, in CSS pixels) that stand the overlays along the top of the canvas (the HUD at the
 * left, an embed's buttons at the right) beside the content rather than above it, where the window is wide
 * enough: when the region between them is at least `aspect` times as wide as the canvas is tall (less the
 * bottom inset). A content taller than wide then takes the canvas's whole height.
 */
export function besideTopOverlays(own, aspect) {
  const hud = shownBox(document.getElementById("hud"));
  const buttons = shownBox(document.getElementById("embed-bar"));
  const bottom = own.bottom ?? 0;
  const left = Math.max(own.left ?? 0, hud ? hud.right + 8 : 0);
  const right = Math.max(own.right ?? 0, buttons ? window.innerWidth - buttons.left + 6 : 0);
  if (window.innerWidth - left - right >= aspect * (window.innerHeight - bottom)) return { top: 0, left, right, bottom };
  return { ...own, top: Math.max(own.top ?? 0, buttons ? buttons.bottom + 4 : 0) };
}

export class SceneView {
  /**
   * @param {object} context {stage, camera (camera.js), layout, buf (the first frame, in the world), command
   *   (Python's, for what the view reads: a race's curves), api (window.ikDemo, for what it changes), note,
   *   insets (what the page's overlays cover), terrain (the terrain mesh, or null), emit (tells ikDemo's
   *   listeners of an event)}
   */
  constructor(context) {
    this.context = context;
    this.stage = context.stage;
    this.layout = context.layout;
    this.scene = context.stage.scene;
    this.shortHint = "Click a red ball, then drag its arrows.";  // in an embed
    this.hint = "Click a red ball to put a handle on it, then drag the handle's arrows. Drag empty space to orbit.";
    this.labels = {};
    this.choiceLabels = {};
    this.folder = `${this.layout.scene} settings`;
    this.methodLabel = null;
    this.chainNoun = "chain";
    this.hudChains = true;
    this.ground = null;
    this.steps = null;
    this.gizmoAxes = "xyz";
    this.parts = [];
    this.targets = this.part(new Targets(this.scene, this.layout, this.targetStyle()));
    const style = this.limbStyle();
    this.limbs = style ? this.part(new RigidLimbs(this.scene, this.layout, style, (k) => this.rigid(k))) : null;
    this.shadows = this.part(new ContactShadows(this.scene, this.shadowCapacity(),
      (x, z) => this.stage.groundHeight(x, z)));
  }

  /** Keep `part` (anything with update(buf) and dispose()) for update and dispose. */
  part(part) {
    this.parts.push(part);
    return part;
  }

  /** The most chains the HUD gives a line each (a view may make it depend on the window). */
  get hudEach() {
    return 4;
  }

  /** How rigid limbs look here (parts/limbs.js); null: none are drawn (a view that skins the whole body). */
  limbStyle() {
    return STYLES.plain;
  }

  /** How targets are drawn here (parts/targets.js): {mesh, hidden}. */
  targetStyle() {
    return {};
  }

  /** Whether chain `k` is drawn as rigid limbs (a view that skins a chain says no). */
  rigid(k) {
    return k >= 0;
  }

  /** The most contact shadows drawn at once: a root and an end per chain, one per body bone. */
  shadowCapacity() {
    return 2 * this.layout.chains.length + this.layout.sections.bones.count + 8;
  }

  /** The mesh of target `name`, or undefined. */
  targetMesh(name) {
    return this.targets.mesh(name);
  }

  framing() {
    const { camera, bounds } = this.layout;
    const direction = camera.position.map((v, i) => v - camera.target[i]);
    return { bounds, direction, insets: () => this.context.insets() };
  }

  /** Whether the scene stands still (nothing moves until a command or the reader changes it): the loop then
   * rests (loop.js). */
  still() {
    return false;
  }

  update(buf, dt, now) {
    for (const part of this.parts) if (part !== this.shadows) part.update(buf, dt, now);
    this.shadows.begin();
    this.castShadows(buf);
    this.shadows.end();
  }

  /**
   * The frame's contact shadows: under each chain's first bone's start (a pedestal's foot, a root) and
   * under its last point (a foot, a tip), and under body bones; each fades with its height.
   */
  castShadows(buf) {
    const { bones, joints } = this.layout.sections;
    const body = this.layout.kinds.body;
    for (const chain of this.layout.chains) {
      const b = bones.offset + chain.bones[0] * bones.stride;
      const r = buf[b + 6];
      this.shadows.add(buf[b], buf[b + 1], buf[b + 2], 3.2 * r, 0.55, 0.6);
      const e = joints.offset + (chain.joints[0] + chain.joints[1] - 1) * joints.stride;
      this.shadows.add(buf[e], buf[e + 1], buf[e + 2], 2.5 * Math.max(buf[e + 3], 0.02), 0.45, 0.5);
    }
    for (let i = 0; i < bones.count; i++) {
      const o = bones.offset + i * bones.stride;
      if (buf[o + 7] !== body) continue;
      const r = buf[o + 6];
      this.shadows.add(0.5 * (buf[o] + buf[o + 3]), Math.min(buf[o + 1], buf[o + 4]) - r,
        0.5 * (buf[o + 2] + buf[o + 5]), 2.2 * r, 0.6, 1.2);
    }
  }

  keydown() {
    return false;
  }

  applied() {}

  clickedGround() {}

  describe() {
    return { scene: this.layout.scene, rigid: this.limbs?.boneList.length ?? 0, skinned: [], shadows: this.shadows.count };
  }

  dispose() {
    for (const part of this.parts) part.dispose();
    this.parts = [];
  }
}
