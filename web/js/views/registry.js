// Scene views by scene name. A scene's own view registers itself here (registerView in its module, the module
// imported by views/index.js); a scene with none is drawn by SceneView, so that a scene added in Python shows
// before it has a view of its own. Nothing else in the page names a scene.

import { SceneView } from "./base.js";

const views = new Map();

/** Draw scene `name` with `View` (a SceneView subclass). */
export function registerView(name, View) {
  if (views.has(name)) throw new Error(`a view for scene ${JSON.stringify(name)} is registered already`);
  views.set(name, View);
}

/** The view class of scene `name`: its own, or SceneView. */
export function viewFor(name) {
  return views.get(name) ?? SceneView;
}
