// Loading stages and failures: the page either reaches its ready state or says, in plain text, what failed.
//
// Stages: "runtime" (PyScript, Pyodide and the packages of pyscript.json, ikcore's wheel among them),
// "packages" (importing ikcore: a wheel that failed to download or failed its integrity check shows here),
// "scene" (the Python scene and the first rendered frame). Each stage has a deadline; load errors, HTTP
// errors, rejected promises and errors raised by Python end the loading at once with a message. Everything
// is written with textContent: no message is ever parsed as HTML.
//
// This module imports nothing from three.js or PyScript, so it runs (and can report) even when they fail.
// It loads PyScript (through the import map's "@pyscript/core" entry) and the page's app.js itself, so that
// a failed load is seen.

const STAGES = [
  ["runtime", "Python runtime (PyScript, Pyodide, wheels)", 60000],
  ["packages", "ikcore package", 30000],
  ["scene", "Scene and first frame", 30000],
];

// While loading from another host (the CDN copy of the site), that host is checked this long into a stage
// without progress, and again as often: a host that does not answer is named within about 10 s.
const HOST_CHECK_MS = 4000;
const HOST_TIMEOUT_MS = 2500;

const $ = (id) => document.getElementById(id);
const started = performance.now();
let current = null;
let deadline = 0;
let failed = null;
let finished = false;
const recentErrors = [];
let resolveAttach;
let rejectAttach;

// The watchers below (console, fetch, resources, errors) serve the loading only: done() takes every one
// of them away, and the page runs on with the browser's own console.error, console.warn and fetch.
const watchers = [];

// Pyodide reports a package that failed to download or failed its integrity check only on stderr,
// which PyScript forwards to console.error; keep the last few lines to explain a later ImportError.
const pageConsoleError = console.error;
const consoleError = pageConsoleError.bind(console);
const watchConsoleError = (...args) => {
  recentErrors.push(args.map(String).join(" "));
  if (recentErrors.length > 8) recentErrors.shift();
  consoleError(...args);
};
console.error = watchConsoleError;
watchers.push(() => { if (console.error === watchConsoleError) console.error = pageConsoleError; });

// Pyodide reports a WebAssembly module it cannot compile with console warnings and then waits forever.
// The warnings are gathered for a moment (the resource observer below may name a missing file first).
const pageConsoleWarn = console.warn;
const consoleWarn = pageConsoleWarn.bind(console);
const wasmWarnings = [];
const watchConsoleWarn = (...args) => {
  consoleWarn(...args);
  const text = args.map(String).join(" ");
  if (!finished && (wasmWarnings.length || /wasm instantiation failed/i.test(text))) {
    if (!wasmWarnings.length) {
      setTimeout(() => fail(current, "The Python runtime's WebAssembly module could not be loaded:\n" +
        wasmWarnings.join("\n")), 500);
    }
    wasmWarnings.push(text);
  }
};
console.warn = watchConsoleWarn;
watchers.push(() => { if (console.warn === watchConsoleWarn) console.warn = pageConsoleWarn; });

// A file of the page answering with an HTTP error while loading ends the loading at once, naming it
// (Pyodide and PyScript would otherwise wait silently for what never comes).
if (typeof PerformanceObserver === "function" &&
    PerformanceObserver.supportedEntryTypes?.includes("resource")) {
  const resources = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (!finished && entry.responseStatus >= 400) {
        fail(current, `${entry.name} answered HTTP ${entry.responseStatus}.`);
      }
    }
  });
  resources.observe({ type: "resource", buffered: true });
  watchers.push(() => resources.disconnect());
}

// A download that fails without an HTTP error (network down, connection reset, integrity check) is named
// with the failure: the resource observer above sees only HTTP errors, and Pyodide reports the others
// as a bare "Failed to fetch".
const failedDownloads = [];
const pageFetch = window.fetch;
const watchFetch = function fetch(input, init) {
  return pageFetch.call(this, input, init).catch((error) => {
    if (!finished && error?.name !== "AbortError") {
      const url = input instanceof Request ? input.url : String(input);
      failedDownloads.push(`${new URL(url, location.href)} (${describe(error)})`);
    }
    throw error;
  });
};
window.fetch = watchFetch;
watchers.push(() => { if (window.fetch === watchFetch) window.fetch = pageFetch; });

function stageItem(name) {
  return document.querySelector(`#loader li[data-stage="${name}"]`);
}

function seconds() {
  return ((performance.now() - started) / 1000).toFixed(1);
}

/** Enter a stage: the previous one is done. */
function stage(name) {
  if (failed || finished) return;
  hostCheckAt = performance.now() + HOST_CHECK_MS;
  const index = STAGES.findIndex(([key]) => key === name);
  if (index < 0) throw new Error(`unknown loading stage ${name}`);
  for (let i = 0; i < index; i++) {
    const item = stageItem(STAGES[i][0]);
    if (item && item.dataset.state !== "done") {
      item.dataset.state = "done";
      item.querySelector(".time").textContent = `${seconds()} s`;
    }
  }
  current = name;
  deadline = performance.now() + STAGES[index][2];
  stageItem(name).dataset.state = "active";
}

/**
 * Stop and show `message`: while loading, as the failure of the current stage (or `where`); after
 * loading, under `title` (default: the animation stopped).
 */
function fail(where, message, title) {
  if (failed) return;
  if (!finished && failedDownloads.length) {
    message = `${message}\n\nDownloads that failed:\n${failedDownloads.join("\n")}`;
  }
  failed = { where: where || current || "page", message: String(message) };
  const item = stageItem(current);
  if (item && !finished) item.dataset.state = "failed";
  $("failure-title").textContent = title ?? (finished
    ? "The animation stopped"
    : `Loading failed: ${STAGES.find(([key]) => key === current)?.[1] ?? failed.where}`);
  $("failure-text").textContent = failed.message;
  $("failure").hidden = false;
  $("loader").hidden = true;
  document.documentElement.dataset.state = "failed";
  rejectAttach(new Error(failed.message));
  consoleError(`ikcore demo: ${failed.where}: ${failed.message}`);
}

/** After a failure of a frame that the page has repaired (a restarted scene): the panel goes. */
function recover() {
  if (!finished || !failed) return;
  failed = null;
  $("failure").hidden = true;
  document.documentElement.dataset.state = "ready";
}

/** Loading is over: hide the loader. */
function done() {
  if (failed) return;
  stage("scene");
  const item = stageItem("scene");
  item.dataset.state = "done";
  item.querySelector(".time").textContent = `${seconds()} s`;
  finished = true;
  current = null;
  $("loader").hidden = true;
  document.documentElement.dataset.state = "ready";
  for (const unwatch of watchers.splice(0)) unwatch();
}

async function sha256Hex(bytes) {
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Why did the package `name` not load? Fetch its wheel again (without the integrity check) and compare
 * it with the sha256 that pyodide-lock.json expects. Resolves to a sentence; never rejects.
 */
async function diagnosePackage(name) {
  try {
    const configUrl = new URL(document.querySelector('script[type="py"]').getAttribute("config"), location.href);
    const config = await (await fetch(configUrl)).json();
    const wheelUrl = config.packages.map((p) => new URL(p, location.href)).find((u) => u.pathname.endsWith(".whl"));
    let url = wheelUrl;
    let expected = null;
    if (!url) {
      const lockUrl = new URL("pyodide-lock.json", new URL(config.interpreter, configUrl));
      const entry = (await (await fetch(lockUrl)).json()).packages[name];
      if (!entry) return `${lockUrl} does not list ${name}.`;
      url = new URL(entry.file_name, lockUrl);
      expected = entry.sha256;
    }
    const response = await fetch(url, { cache: "no-store" });
    if (!response.ok) return `${url} answered HTTP ${response.status} ${response.statusText}.`;
    if (!expected) return `${url} downloads (HTTP ${response.status}), but Pyodide could not install it.`;
    if (!crypto.subtle) return `${url} downloads; its hash cannot be checked on an insecure (non-HTTPS) origin.`;
    const actual = await sha256Hex(await response.arrayBuffer());
    if (actual !== expected) {
      return `${url} failed its integrity check: its sha256 is ${actual}, pyodide-lock.json expects ` +
        `${expected}. The file was altered or does not belong to this build.`;
    }
    return `${url} downloads and matches pyodide-lock.json, yet did not install.`;
  } catch (error) {
    return `The package could not be diagnosed: ${describe(error)}.`;
  }
}

/** The package `name` did not import: find out why, then fail with `message` and the reason. */
function packageFailed(name, message) {
  const clock = setTimeout(() => fail("packages", message), 10000);
  diagnosePackage(name).then((reason) => {
    clearTimeout(clock);
    const detail = recentErrors.length ? `\n\nConsole:\n${recentErrors.join("\n")}` : "";
    fail("packages", `${message}\n${reason}${detail}`);
  });
}

const attached = new Promise((resolve, reject) => {
  resolveAttach = resolve;
  rejectAttach = reject;
});
attached.catch(() => {});

// Python calls this once its scene exists: step(dt) per frame, command(name, json) for changes,
// buffer() for the current scene's frame buffer, read through getBuffer (buffer("terrain"): the terrain's heights),
// and a JSON description of the scene.
function attach(step, command, buffer, info) {
  if (failed) return;
  resolveAttach({ step, command, buffer, info: JSON.parse(info) });
}

window.ikBoot = Object.freeze({ stage, fail, done, recover, attach, attached, packageFailed,
  get failed() { return failed; } });

function describe(reason) {
  if (reason instanceof Error) return reason.message || String(reason);
  if (reason && typeof reason === "object" && "message" in reason) return String(reason.message);
  return String(reason);
}

const onError = (event) => {
  if (!finished) fail(current, describe(event.error ?? event.message));
};
const onRejection = (event) => {
  if (finished) return;
  // Reported here (panel and console.error), so not a second time as an uncaught rejection.
  event.preventDefault();
  fail(current, describe(event.reason));
};
window.addEventListener("error", onError);
window.addEventListener("unhandledrejection", onRejection);
watchers.push(() => {
  window.removeEventListener("error", onError);
  window.removeEventListener("unhandledrejection", onRejection);
});

const deadlines = setInterval(() => {
  // A page loading in a hidden tab gets no animation frame, so no first frame: its clock waits too.
  if (document.hidden && current) deadline = performance.now() + STAGES.find(([key]) => key === current)[2];
  if (!failed && !finished && current && performance.now() > deadline) {
    const label = STAGES.find(([key]) => key === current)[1];
    const waiting = $("loader-note")?.textContent;
    const extra = (waiting ? `\n\n${waiting}` : "") +
      (recentErrors.length ? `\n\nLast console errors:\n${recentErrors.join("\n")}` : "");
    fail(current, `${label}: no progress within ${STAGES.find(([key]) => key === current)[2] / 1000} s.` +
      " A file could not be loaded or the runtime did not start." + extra);
  }
  if (!finished && !failed) {
    const item = current && stageItem(current);
    if (item) item.querySelector(".time").textContent = `${seconds()} s`;
  }
}, 250);
watchers.push(() => clearInterval(deadlines));

document.addEventListener("py:ready", () => stage("packages"));

function mapped(specifier) {
  const script = document.querySelector('script[type="importmap"]');
  return (script && JSON.parse(script.textContent).imports[specifier]) || specifier;
}

/** One URL per other host the page loads from (import map, <link href>, <script src>): {host: url}. */
function remoteHosts() {
  const urls = [];
  const script = document.querySelector('script[type="importmap"]');
  if (script) urls.push(...Object.values(JSON.parse(script.textContent).imports).filter((u) => !u.endsWith("/")));
  for (const node of document.querySelectorAll("link[href], script[src]")) urls.push(node.href || node.src);
  const hosts = {};
  for (const text of urls) {
    const url = new URL(text, location.href);
    if (url.origin !== location.origin && (url.protocol === "https:" || url.protocol === "http:")) {
      hosts[url.host] ??= url.href;
    }
  }
  return hosts;
}

/**
 * Which other hosts cannot be reached? Each is asked for one file it should serve (no-cors: any answer,
 * even an error status, means the host is there; only a network failure or no answer in time counts).
 * Resolves to a sentence naming them, or null; never rejects.
 */
async function unreachableHosts() {
  const failures = await Promise.all(Object.entries(remoteHosts()).map(async ([host, url]) => {
    const control = new AbortController();
    const clock = setTimeout(() => control.abort(), HOST_TIMEOUT_MS);
    try {
      await fetch(url, { mode: "no-cors", cache: "no-store", signal: control.signal });
      return null;
    } catch {
      return control.signal.aborted
        ? `${host} did not answer within ${HOST_TIMEOUT_MS / 1000} s (asked for ${url})`
        : `${host} could not be reached (network error for ${url})`;
    } finally {
      clearTimeout(clock);
      control.abort();  // the headers are enough: the body is not downloaded
    }
  }));
  const found = failures.filter(Boolean);
  if (!found.length) return null;
  const names = [...new Set(found.map((f) => f.split(" ", 1)[0]))].join(" and ");
  return {
    // A host that refused or failed: nothing will come from it.
    down: found.some((f) => f.includes("could not be reached")),
    text: `Cannot reach ${names}, where this page loads its runtime and libraries from:\n` +
      `${found.join("\n")}.\nCheck the connection, a proxy or a content blocker; the self-contained ` +
      "copy of the site (dist/site) loads nothing from other hosts.",
  };
}

/** A load failed with `message`: fail naming an unreachable host when that is the cause. */
function loadFailed(where, message) {
  unreachableHosts().then((hosts) => fail(where, hosts ? `${hosts.text}\n\n(${message})` : message));
}

/** A line under the loading stages (null: none). */
function loaderNote(text) {
  let note = $("loader-note");
  if (!text) {
    note?.remove();
    return;
  }
  if (!note) {
    note = document.createElement("p");
    note.id = "loader-note";
    note.setAttribute("role", "status");
    $("loader").append(note);
  }
  note.textContent = text;
}

// The stylesheets preloaded by index.html (lil-gui's), applied here: one that fails names its host.
for (const preload of document.querySelectorAll("link[rel=preload][data-stylesheet]")) {
  const sheet = document.createElement("link");
  sheet.rel = "stylesheet";
  for (const name of ["integrity", "crossorigin"]) {
    if (preload.hasAttribute(name)) sheet.setAttribute(name, preload.getAttribute(name));
  }
  sheet.href = preload.href;
  sheet.addEventListener("error", () => {
    if (!finished) loadFailed(current, `The stylesheet ${sheet.href} could not be loaded.`);
  });
  document.head.append(sheet);
}

// A watchdog for the CDN copy: a host that stopped answering leaves module and fetch requests pending
// for minutes, with no error to catch; it is checked while a loading stage makes no progress.
let hostCheckAt = performance.now() + HOST_CHECK_MS;
let hostCheckBusy = false;
const hostWatch = setInterval(() => {
  if (failed || finished) {
    clearInterval(hostWatch);
    return;
  }
  if (hostCheckBusy || performance.now() < hostCheckAt || !Object.keys(remoteHosts()).length) return;
  hostCheckBusy = true;
  const where = current;
  unreachableHosts().then((hosts) => {
    hostCheckBusy = false;
    hostCheckAt = performance.now() + HOST_CHECK_MS;
    if (!hosts || finished || failed) {
      loaderNote(null);
    } else if (hosts.down) {
      fail(where, hosts.text);
    } else {
      // Slow is not down: say which host keeps the page waiting; the stage's deadline still applies.
      loaderNote(`Still waiting: ${hosts.text}`);
    }
  });
}, 250);

stage("runtime");
// The page's modules (three.js, lil-gui) and PyScript load in parallel; either failing is reported.
import("./app.js").catch((error) => loadFailed(current, `The page's modules could not be loaded: ${describe(error)}` +
  ` (three.js from ${mapped("three")})`));
import("@pyscript/core").then(({ hooks }) => {
  // PyScript 0.7.31 compiles its chain of worker hooks with Function() as soon as a worker hook exists,
  // even if no worker ever starts, which a Content-Security-Policy without 'unsafe-eval' refuses. Its
  // only built-in worker hook gives workers a pyscript.fs stub; this page runs Python on the main thread
  // and starts no worker, so the hook is dropped before PyScript reads it (after its plugins load).
  hooks.worker.onBeforeRunAsync.clear();
}).catch((error) =>
  loadFailed("runtime", `PyScript could not be loaded from ${mapped("@pyscript/core")}: ${describe(error)}`));
