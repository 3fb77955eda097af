// Embed mode (#embed=1) and the messages of an embedding page.
//
// Embed mode shows the canvas alone: no HUD, the GUI panel only when opened with the small "Controls"
// button, no page scroll, the canvas filling the iframe at any size, and an "Open full demo" link (this
// URL without the embed keys, in a new tab); the wheel zooms only after a click on the demo, so that it
// scrolls the embedding page otherwise. It combines with any other key of the hash.
//
// Messages. The page that embeds the demo (window.parent, nothing else) may send
//   {type: "ikcore", command: "setScene", name}          {type: "ikcore", command: "setMethod", name}
//   {type: "ikcore", command: "setTarget", name, position: [x, y, z], orientation?: [w, x, y, z]}
//   {type: "ikcore", command: "set", params: {tolerance: 0.001, ...}}
//   {type: "ikcore", command: "state"}                    {type: "ikcore", command: "pose"}
//   {type: "ikcore", command: "stepTo", index}            (the steps scene; also written {type: "stepTo", index})
// each with an optional `id` (a short string or a number) echoed in the answer. The demo answers
//   {type: "ikcore", event: "result", id, ok: true, state} (or pose), or {..., ok: false, error}
// and posts on its own {type: "ikcore", event: "ready", state} after the first frame,
// {type: "ikcore", event: "change", state} after any change of scene, method, parameters or targets
// (from a message, the panel, a drag or a new hash; at most five a second),
// {type: "ikcore", event: "step", step: {index, count, iteration, phase, joint, caption}} on each change of
// the step shown (the steps scene: playing, stepping, the slider, a message, a new trace), and
// {type: "ikcore", event: "failed", error}.
//
// Origins. A message is handled only when it comes from window.parent and its origin is allowed: this
// page's own origin, and the origins listed in the hash key `origin` (exact origins such as
// `origin=https://docs.example.org`, several separated by commas; `origin=null` admits opaque origins,
// i.e. sandboxed frames and file: pages, which any page can create: avoid it). Other messages are ignored
// and not answered. The demo posts only to the parent, with the parent's origin as targetOrigin (never
// "*"), and only when that origin is allowed: its own events need the parent's origin to be known,
// from location.ancestorOrigins or document.referrer, or from the parent's first accepted message.
//
// Every value of a message is checked here (kinds, lengths, finite numbers) before it reaches the
// demo's API, which checks names and ranges again in Python. Nothing from a message or the hash is
// written as HTML or evaluated.

import { parseHash } from "./permalink.js";

const COMMANDS = new Set(["setScene", "setMethod", "setTarget", "set", "state", "pose", "stepTo"]);
/** The largest step index a message may name (the demo checks it against the trace shown). */
const MAX_STEP = 1e6;
const NAME_RE = /^[A-Za-z0-9_-]{1,64}$/;
const PARAM_RE = /^[a-z_]{1,32}$/;
const MAX_PARAMS = 16;
const CHANGE_EVERY_MS = 200;

// The hash is read by the page's link parser (permalink.js), which checks its syntax and caps its length
// and passes `embed` (0 / 1) and `origin` (text) through; what they mean is decided here.

/** Whether the hash asks for embed mode (`embed=1`). */
export function embedRequested(hash = location.hash) {
  return parseHash(hash).state.embed === 1;
}

/** An exact origin (`https://host[:port]`), or "null"; anything else gives null. */
export function exactOrigin(text) {
  if (text === "null") return "null";
  try {
    const url = new URL(text);
    if ((url.protocol === "https:" || url.protocol === "http:") && url.origin === text) return text;
  } catch {
    // Not a URL.
  }
  return null;
}

/** The origins allowed to drive this page: its own (unless opaque) and those of the `origin` key. */
export function allowedOrigins(hash = location.hash) {
  const allowed = new Set();
  if (location.origin !== "null") allowed.add(location.origin);
  const ignored = [];
  const listed = parseHash(hash).state.origin;
  for (const item of listed === undefined ? [] : listed.split(",")) {
    const origin = exactOrigin(item.trim());
    if (origin) allowed.add(origin);
    else ignored.push(item.trim());
  }
  return { allowed, ignored };
}

/** This URL without the embed keys (`embed`, `origin`): the full demo in the same state. */
export function fullDemoUrl(href = location.href) {
  const url = new URL(href);
  const kept = url.hash.replace(/^#/, "").split("&").filter((part) => {
    if (!part) return false;
    let key = part.split("=", 1)[0];
    try {
      key = decodeURIComponent(key);
    } catch {
      // Kept as it is: the full page reports it.
    }
    return key !== "embed" && key !== "origin";
  });
  url.hash = kept.join("&");
  return url.href;
}

function element(tag, attributes, text) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  if (text) node.textContent = text;
  return node;
}

/** Switch the page to embed mode: the small bar (Controls, Open full demo) and the CSS hooks. */
function embedUi() {
  const root = document.documentElement;
  root.dataset.embed = "1";
  const bar = element("nav", { id: "embed-bar", "aria-label": "Demo controls" });
  const toggle = element("button", { type: "button", id: "embed-controls", "aria-expanded": "false",
    "aria-controls": "gui" }, "Controls");
  toggle.addEventListener("click", () => {
    const open = !("guiOpen" in root.dataset);
    if (open) root.dataset.guiOpen = "1";
    else delete root.dataset.guiOpen;
    toggle.setAttribute("aria-expanded", String(open));
  });
  const link = element("a", { id: "embed-open", href: fullDemoUrl(), target: "_blank", rel: "noopener" },
    "Open full demo \u2197");
  // The hash may have changed since (the state of the demo): the link follows it when used.
  const refresh = () => { link.href = fullDemoUrl(); };
  for (const type of ["pointerenter", "focus", "click", "auxclick", "contextmenu"]) link.addEventListener(type, refresh);
  bar.append(toggle, link);
  document.body.append(bar);
}

export const embedded = embedRequested();
if (embedded) embedUi();

/**
 * In embed mode the wheel scrolls the embedding page, not the camera, until the demo is clicked; it
 * zooms from then on while the pointer stays over the canvas (OrbitControls leaves a wheel event alone
 * while its zoom is off).
 */
export function wheelAfterClick(controls, canvas) {
  if (!embedded) return;
  controls.enableZoom = false;
  canvas.addEventListener("pointerdown", () => { controls.enableZoom = true; });
  canvas.addEventListener("pointerleave", () => { controls.enableZoom = false; });
}

function finite(values, n) {
  return Array.isArray(values) && values.length === n && values.every((v) => typeof v === "number" && Number.isFinite(v));
}

function plainObject(value) {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * Check a message's fields; returns {command, args} or throws an Error saying what is wrong.
 * Only the fields a command takes are read; values are copied, never passed on as received.
 */
export function checkMessage(data) {
  const { command } = data;
  if (typeof command !== "string" || !COMMANDS.has(command)) {
    throw new Error(`unknown command ${JSON.stringify(String(command)).slice(0, 40)}; commands: ${[...COMMANDS].join(", ")}`);
  }
  const name = (what) => {
    if (typeof data.name !== "string" || !NAME_RE.test(data.name)) throw new Error(`${command} takes a ${what} name (letters, digits, _ or -)`);
    return data.name;
  };
  switch (command) {
    case "setScene": return { command, args: [name("scene")] };
    case "setMethod": return { command, args: [name("method")] };
    case "setTarget": {
      const target = name("target");
      if (!finite(data.position, 3)) throw new Error("setTarget takes position: three finite numbers");
      const args = [target, data.position.slice()];
      if (data.orientation !== undefined && data.orientation !== null) {
        if (!finite(data.orientation, 4)) throw new Error("setTarget takes orientation: four finite numbers (w, x, y, z)");
        args.push(data.orientation.slice());
      }
      return { command, args };
    }
    case "set": {
      if (!plainObject(data.params)) throw new Error("set takes params: an object");
      const keys = Object.keys(data.params);
      if (keys.length > MAX_PARAMS) throw new Error(`set takes at most ${MAX_PARAMS} parameters`);
      const params = {};
      for (const key of keys) {
        const value = data.params[key];
        if (!PARAM_RE.test(key)) throw new Error(`set: bad parameter name ${JSON.stringify(key).slice(0, 40)}`);
        const ok = typeof value === "boolean" || (typeof value === "number" && Number.isFinite(value)) ||
          (typeof value === "string" && NAME_RE.test(value));
        if (!ok) throw new Error(`set: ${key} must be a finite number, true/false or a name`);
        params[key] = value;
      }
      return { command, args: [params] };
    }
    case "stepTo": {
      const { index } = data;
      if (!Number.isInteger(index) || index < 0 || index > MAX_STEP) {
        throw new Error("stepTo takes index: a step number (an integer from 0)");
      }
      return { command, args: [index] };
    }
    default: return { command, args: [] };
  }
}

/** A message's data as the commands read it: `{type: "stepTo", index}` is short for the stepTo command. */
function asCommand(data) {
  if (!plainObject(data)) return null;
  if (data.type === "stepTo") return { type: "ikcore", command: "stepTo", index: data.index, id: data.id };
  return data.type === "ikcore" && "command" in data ? data : null;
}

function checkId(id) {
  if (id === undefined) return undefined;
  if ((typeof id === "string" && id.length <= 64) || (typeof id === "number" && Number.isFinite(id))) return id;
  return null;
}

/**
 * Answer the embedding page's messages and tell it about changes (see the top of this file).
 * `api` is window.ikDemo; its setters are wrapped so that changes from the panel and drags are posted too.
 */
export function connectParent(api, { hash = location.hash, note = () => {} } = {}) {
  const { allowed, ignored } = allowedOrigins(hash);
  if (ignored.length) note(`origin: ignored ${ignored.slice(0, 3).map((s) => JSON.stringify(s.slice(0, 40))).join(", ")} (exact origins only, such as https://example.org)`);
  const parent = window.parent !== window ? window.parent : null;
  if (!parent) return { allowed };
  let target = null;
  const known = location.ancestorOrigins?.length ? location.ancestorOrigins[0] : (() => {
    try {
      return document.referrer ? new URL(document.referrer).origin : null;
    } catch {
      return null;
    }
  })();
  if (known && allowed.has(known)) target = known;
  let ready = false;
  let changeTimer = 0;
  let lastChange = 0;

  const post = (message) => {
    if (target === null) return;
    // An opaque parent ("null") can only be reached with "*"; it was admitted explicitly by origin=null.
    parent.postMessage({ type: "ikcore", ...message }, target === "null" ? "*" : target);
  };
  const postChange = () => {
    changeTimer = 0;
    lastChange = performance.now();
    post({ event: "change", state: api.state() });
  };
  const changed = () => {
    if (!ready || changeTimer) return;
    changeTimer = setTimeout(postChange, Math.max(0, lastChange + CHANGE_EVERY_MS - performance.now()));
  };
  for (const key of ["setScene", "setMethod", "set", "setTarget"]) {
    const call = api[key];
    api[key] = function (...args) {
      const result = call.apply(this, args);
      changed();
      return result;
    };
  }

  // A new hash set by the parent (the iframe's src) applies as a link: a change too.
  window.addEventListener("hashchange", changed);
  // Each step shown, as it changes (not throttled: a walkthrough's text may follow it).
  api.on("step", (step) => {
    if (ready) post({ event: "step", step });
  });

  window.addEventListener("message", (event) => {
    if (event.source !== parent || !allowed.has(event.origin)) return;
    const data = asCommand(event.data);
    if (data === null) return;
    target = event.origin;
    const id = checkId(data.id);
    if (id === null) {
      post({ event: "result", ok: false, error: "id must be a string of at most 64 characters or a number" });
      return;
    }
    try {
      const { command, args } = checkMessage(data);
      if (command === "pose") {
        post({ event: "result", id, ok: true, pose: api.pose() });
        return;
      }
      if (command !== "state") api[command](...args);
      post({ event: "result", id, ok: true, state: api.state() });
    } catch (error) {
      post({ event: "result", id, ok: false, error: String(error?.message ?? error) });
    }
  });

  api.ready.then(() => {
    ready = true;
    post({ event: "ready", state: api.state() });
  }, (error) => post({ event: "failed", error: String(error?.message ?? error) }));
  return { allowed };
}
