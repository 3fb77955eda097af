// The page's state as a URL hash, and back: strict parsing of links that anyone may have written.
//
//   #v=1&scene=arm&method=dls&tolerance=0.001&max_iterations=10&damping=0.03&constraints=1&animate=0
//    &overlays=1&t.target=x,y,z,qw,qx,qy,qz&t.pole=x,y,z&cam=px,py,pz,tx,ty,tz&embed=1&quality=low
//
// `v` is the format's version (1; a link without it is read as version 1). Parameters are the scene's own
// names (its layout's param_specs), booleans as 1 / 0, a set of names with commas (the playground's
// rivals=ccd,fabrik). `t.<name>` places a draggable target (and orients it
// with a unit quaternion w, x, y, z where the target takes one); `cam` is the camera's position and the
// point it orbits. `embed` (0 / 1) and `origin` (the origins allowed to drive an embedded page) belong to
// the embed mode (embed.js reads and checks them): they are passed through unchanged. `quality` (auto, high,
// low: see stage.js) is the renderer's, chosen when the page opens; it too is passed through. `code` is the
// playground's code, deflated in base64url (code-link.js): read up to MAX_CODE characters, apart from the
// hash's other keys (which MAX_HASH and MAX_VALUE hold as before), and never run by the page until its reader
// presses Run.
//
// Parsing happens in two steps: parseHash() checks what needs no scene (keys, syntax, lengths, finite
// numbers within COORD_LIMIT, the scene among the page's scenes), resolveLink() checks the rest against
// the scene the link applies to (its parameter specs, its targets). Whatever fails either step is left
// out and listed in `ignored` as short plain text; the rest of the link still applies. Nothing here is
// evaluated or written into the page as HTML: the results are numbers, booleans and names from fixed lists.

import { paramFromText, paramToText, parseNumber } from "./params.js";

export const VERSION = 1;
/** Longest hash read (characters, "#" excluded); a longer one is ignored whole. */
export const MAX_HASH = 4096;
/** Longest value read for one key. */
export const MAX_VALUE = 256;
/** Most entries read from one link. */
export const MAX_ENTRIES = 64;
/** Largest coordinate (absolute) of a target or the camera. */
export const COORD_LIMIT = 10000;
/** The renderer's qualities a link may ask for (stage.js says what each draws). */
export const QUALITIES = ["auto", "high", "low"];
/** Longest `code` value read (characters of base64url). */
export const MAX_CODE = 12000;
const CODE = /^[A-Za-z0-9_-]+$/;

// Marks what parseHash left out when it read nothing of a link (too long, another version): the notice says
// the link was not applied, instead of listing it among parts left out.
const WHOLE = "whole link: ";
const NAME = /^[a-z][a-z0-9_]{0,31}$/;
const TARGET = /^t\.([A-Za-z][A-Za-z0-9_@]{0,31})$/;
const FLAG = { 0: 0, 1: 1 };

/** `text` cut short and stripped of control characters, to show in a notice. */
function shown(text, max = 24) {
  // eslint-disable-next-line no-control-regex
  const clean = String(text).replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, "?");
  return clean.length > max ? `${clean.slice(0, max)}…` : clean;
}

function decode(text) {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

/** Finite numbers separated by commas, `counts` of them (one of), each within COORD_LIMIT; or a reason. */
function coordinates(text, counts) {
  const parts = text.split(",");
  if (!counts.includes(parts.length)) return `takes ${counts.join(" or ")} numbers`;
  const values = parts.map(parseNumber);
  if (!values.every(Number.isFinite)) return "takes finite decimal numbers";
  if (values.some((v) => Math.abs(v) > COORD_LIMIT)) return `coordinates must be within ±${COORD_LIMIT}`;
  return values;
}

/**
 * Read a hash ("#..." or without "#"): {state, ignored}.
 *
 * state: {version, scene?, params: {name: text}, targets: {name: numbers[3 | 7]}, camera?: numbers[6],
 * overlays?: boolean, embed?: 0 | 1, origin?: text, quality?: one of QUALITIES}. `params` are still text:
 * resolveLink() checks them against the scene's specs. ignored: short plain-text descriptions of what was left out.
 *
 * @param {string} hash
 * @param {{scenes?: string[]}} [context] the page's scene names (a scene outside them is ignored)
 */
export function parseHash(hash, context = {}) {
  const state = { version: VERSION, params: {}, targets: {} };
  const ignored = [];
  let text = typeof hash === "string" ? hash : "";
  if (text.startsWith("#")) text = text.slice(1);
  if (!text) return { state, ignored };
  // The playground's code first, on its own terms (see the top of the file); the rest as any link.
  const codes = text.split("&").filter((part) => part.startsWith("code="));
  if (codes.length) {
    text = text.split("&").filter((part) => !part.startsWith("code=")).join("&");
    const code = codes[0].slice(5);
    if (codes.length > 1) ignored.push("code (given twice)");
    else if (code.length > MAX_CODE) ignored.push(`code (longer than ${MAX_CODE} characters)`);
    else if (!CODE.test(code)) ignored.push("code (not base64url text)");
    else state.code = code;
  }
  if (text.length > MAX_HASH) {
    ignored.push(`${WHOLE}it is ${text.length} characters long, more than the ${MAX_HASH} read`);
    return { state, ignored };
  }
  const entries = [];
  const seen = new Set();
  for (const part of text.split("&")) {
    if (!part) continue;
    if (entries.length >= MAX_ENTRIES) {
      ignored.push(`entries after the first ${MAX_ENTRIES}`);
      break;
    }
    const cut = part.indexOf("=");
    const rawKey = cut < 0 ? part : part.slice(0, cut);
    const key = decode(rawKey);
    const value = cut < 0 ? null : decode(part.slice(cut + 1));
    if (key === null || (cut >= 0 && value === null)) {
      ignored.push(`${shown(rawKey)} (malformed %-escape)`);
      continue;
    }
    if (!NAME.test(key) && !TARGET.test(key)) {
      ignored.push(`${shown(key)} (unknown key)`);
      continue;
    }
    if (value === null || value === "") {
      ignored.push(`${key} (no value)`);
      continue;
    }
    if (value.length > MAX_VALUE) {
      ignored.push(`${key} (value longer than ${MAX_VALUE} characters)`);
      continue;
    }
    if (seen.has(key)) {
      ignored.push(`${key} (given twice)`);
      continue;
    }
    seen.add(key);
    entries.push([key, value]);
  }
  const version = entries.find(([key]) => key === "v");
  if (version && version[1] !== String(VERSION)) {
    // Another version's keys may mean other things: nothing of it applies but the embed keys.
    const embed = entries.find(([key]) => key === "embed");
    if (embed && Object.hasOwn(FLAG, embed[1])) state.embed = FLAG[embed[1]];
    const origin = entries.find(([key]) => key === "origin");
    if (origin) state.origin = origin[1];
    ignored.push(`${WHOLE}it is version ${shown(version[1], 12)}, and this page reads v=${VERSION}`);
    return { state, ignored };
  }
  for (const [key, value] of entries) {
    const target = TARGET.exec(key);
    if (target) {
      const values = coordinates(value, [3, 7]);
      if (typeof values === "string") {
        ignored.push(`${key} (${values})`);
      } else if (values.length === 7 && Math.abs(Math.hypot(...values.slice(3)) - 1) > 1e-3) {
        ignored.push(`${key} (orientation is not a unit quaternion)`);
      } else {
        state.targets[target[1]] = values;
      }
      continue;
    }
    switch (key) {
      case "v":
        break;
      case "scene":
        if (NAME.test(value) && (!context.scenes || context.scenes.includes(value))) state.scene = value;
        else ignored.push(`scene ${shown(value, 16)} (unknown scene)`);
        break;
      case "origin":
        // Checked by embed.js (exact origins only); kept so that the page's own links keep it.
        state.origin = value;
        break;
      case "embed":
      case "overlays":
        if (Object.hasOwn(FLAG, value)) state[key] = key === "embed" ? FLAG[value] : FLAG[value] === 1;
        else ignored.push(`${key} (0 or 1)`);
        break;
      case "quality":
        if (QUALITIES.includes(value)) state.quality = value;
        else ignored.push(`quality (${QUALITIES.join(", ")})`);
        break;
      case "cam": {
        const values = coordinates(value, [6]);
        if (typeof values === "string") {
          ignored.push(`cam (${values})`);
        } else if (Math.hypot(values[0] - values[3], values[1] - values[4], values[2] - values[5]) < 1e-6) {
          ignored.push("cam (the camera is at the point it looks at)");
        } else {
          state.camera = values;
        }
        break;
      }
      default:
        // A scene parameter: checked against the scene's specs by resolveLink().
        state.params[key] = value;
    }
  }
  return { state, ignored };
}

/**
 * Check a parsed link against the scene it applies to (`layout`, from Python): {params, targets, ignored}
 * with params typed ({name: number | boolean | string from the spec's choices}) and targets as
 * [{name, position, orientation | null}] (draggable targets of this scene only).
 */
export function resolveLink(state, layout) {
  const specs = layout.param_specs;
  const params = {};
  const targets = [];
  const ignored = [];
  for (const [key, text] of Object.entries(state.params)) {
    if (!Object.hasOwn(specs, key)) {
      ignored.push(`${key} (unknown key)`);
      continue;
    }
    try {
      params[key] = paramFromText(specs[key], text, key);
    } catch (error) {
      ignored.push(`${key} (${error.message.replace(/, got .*$/, "")})`);
    }
  }
  for (const [name, values] of Object.entries(state.targets)) {
    const target = layout.targets.find((t) => t.name === name);
    if (!target || !target.draggable) {
      ignored.push(`t.${name} (scene ${layout.scene} has no draggable target ${name})`);
    } else if (values.length === 7 && !target.oriented) {
      ignored.push(`t.${name} (takes no orientation)`);
    } else {
      targets.push({ name, position: values.slice(0, 3), orientation: values.length === 7 ? values.slice(3) : null });
    }
  }
  return { params, targets, ignored };
}

/** A coordinate as link text: 12 significant digits (well under 1e-6 for the coordinates allowed). */
function coordinate(v) {
  return String(Number(v.toPrecision(12)) + 0);
}

/**
 * The hash (without "#") of a state: {scene, params: {name: value}, overlays, targets: {name: numbers},
 * camera: numbers[6], embed?, origin?, quality?}. Parameters come in the order given, targets likewise.
 */
export function formatHash(state) {
  const parts = [`v=${VERSION}`, `scene=${encodeURIComponent(state.scene)}`];
  for (const [key, value] of Object.entries(state.params)) {
    // (A subset's commas stay commas: rivals=ccd,fabrik.)
    if (value !== null && value !== undefined) parts.push(`${key}=${encodeURIComponent(paramToText(value)).replace(/%2C/g, ",")}`);
  }
  parts.push(`overlays=${state.overlays ? 1 : 0}`);
  for (const [name, values] of Object.entries(state.targets)) {
    parts.push(`t.${encodeURIComponent(name)}=${values.map(coordinate).join(",")}`);
  }
  if (state.camera) parts.push(`cam=${state.camera.map(coordinate).join(",")}`);
  if (state.embed !== undefined) parts.push(`embed=${state.embed ? 1 : 0}`);
  if (state.origin !== undefined) parts.push(`origin=${encodeURIComponent(state.origin)}`);
  if (state.quality !== undefined) parts.push(`quality=${state.quality}`);
  if (state.code) parts.push(`code=${state.code}`);
  return parts.join("&");
}

/**
 * The notice for what a link left out: one short line of plain text ("" when nothing was). A link refused
 * whole says so and nothing else ("Link not applied: ..."); otherwise the notice lists what was left out and
 * says that the rest applied.
 */
export function describeIgnored(ignored) {
  if (!ignored.length) return "";
  const whole = ignored.find((item) => item.startsWith(WHOLE));
  if (whole) return `Link not applied: ${whole.slice(WHOLE.length)}.`;
  const listed = ignored.slice(0, 4).join("; ");
  const more = ignored.length > 4 ? ` and ${ignored.length - 4} more` : "";
  return `Link: ignored ${listed}${more}. The rest of it applied.`;
}
