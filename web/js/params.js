// Checking a parameter against its spec: the scene's `layout.param_specs`, written by Python's
// ikcore.rigs.scene (the same specs its set_params applies). The page checks with these before anything
// reaches Python: values typed in the panel, passed to ikDemo.set, or read from a link.
//
// A spec is {kind: "choice", choices}, {kind: "subset", choices} (a set of the choices: at least one, none
// twice, as an array in the order of the choices; in a link, names separated by commas), {kind: "bool"},
// {kind: "int", min, max} or {kind: "float", min, max, open_min} (open_min: min itself is refused).

// A plain decimal number: no hex, no "Infinity", no "NaN", no separators.
const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** The number `text` spells, or NaN when it is anything but a plain decimal number. */
export function parseNumber(text) {
  return typeof text === "string" && text.length <= 64 && NUMBER.test(text) ? Number(text) : NaN;
}

function range(spec) {
  return `${spec.open_min ? "(" : "["}${spec.min}, ${spec.max}]`;
}

/** A subset's value: a new array of its names in the order of the choices, or an Error naming `name`. */
function checkSubset(spec, value, name) {
  const listed = spec.choices.join(", ");
  if (!Array.isArray(value)) throw new Error(`${name} must be a list of names out of ${listed}`);
  if (!value.length) throw new Error(`${name} must name at least one of ${listed}`);
  const seen = new Set();
  for (const item of value) {
    if (typeof item !== "string" || !spec.choices.includes(item)) {
      throw new Error(`${name}: ${JSON.stringify(String(item)).slice(0, 26)} is not one of ${listed}`);
    }
    if (seen.has(item)) throw new Error(`${name} names ${item} twice`);
    seen.add(item);
  }
  return spec.choices.filter((choice) => seen.has(choice));
}

/** `value` checked against `spec`: returned as is (a subset in its choices' order), or an Error naming `name` is thrown. */
export function checkParam(spec, value, name) {
  switch (spec.kind) {
    case "choice":
      if (typeof value !== "string" || !spec.choices.includes(value)) {
        throw new Error(`${name} must be one of ${spec.choices.join(", ")}`);
      }
      return value;
    case "subset":
      return checkSubset(spec, value, name);
    case "bool":
      if (typeof value !== "boolean") throw new Error(`${name} must be true or false`);
      return value;
    case "int":
    case "float": {
      if (typeof value !== "number" || !Number.isFinite(value)) {
        throw new Error(`${name} must be a finite number in ${range(spec)}, got ${String(value)}`);
      }
      if (spec.kind === "int" && !Number.isInteger(value)) {
        throw new Error(`${name} must be an integer in ${range(spec)}, got ${value}`);
      }
      if (value < spec.min || value > spec.max || (spec.open_min && value === spec.min)) {
        throw new Error(`${name} must be in ${range(spec)}, got ${value}`);
      }
      return value;
    }
    default:
      throw new Error(`${name} has a spec of unknown kind`);
  }
}

/** A value from text (a link, a typed field) for `spec`, checked; throws like checkParam. */
export function paramFromText(spec, text, name) {
  if (spec.kind === "bool") {
    if (text === "1" || text === "true") return true;
    if (text === "0" || text === "false") return false;
    throw new Error(`${name} must be 0 or 1`);
  }
  if (spec.kind === "choice") return checkParam(spec, text, name);
  if (spec.kind === "subset") return checkParam(spec, text === "" ? [] : text.split(","), name);
  return checkParam(spec, parseNumber(text), name);
}

/** A value as link text: booleans as 1 / 0, numbers in their shortest exact form, a subset's names with commas. */
export function paramToText(value) {
  if (typeof value === "boolean") return value ? "1" : "0";
  if (Array.isArray(value)) return value.join(",");
  return String(value);
}

/**
 * Check every entry of `params` against `specs`: {values, errors}, where errors lists one message per
 * refused entry (an unknown name, a value out of its spec) and values holds the rest.
 */
export function checkParams(specs, params, scene) {
  const values = {};
  const errors = [];
  for (const [name, value] of Object.entries(params)) {
    if (value === null || value === undefined) continue;
    const spec = Object.hasOwn(specs, name) ? specs[name] : null;
    if (!spec) {
      errors.push(`scene ${JSON.stringify(scene)} has no parameter ${JSON.stringify(name)} (it has: ${Object.keys(specs).join(", ")})`);
      continue;
    }
    try {
      values[name] = checkParam(spec, value, name);
    } catch (error) {
      errors.push(error.message);
    }
  }
  return { values, errors };
}
