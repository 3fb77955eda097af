// Load a wheel into Pyodide (npm "pyodide", under Node), run a Python file, print what it returns.
//
// Usage: node tests/pyodide/run_wheel.mjs WHEEL PYFILE FUNCTION
// Prints one line: the string returned by FUNCTION() defined in PYFILE. Pyodide's own messages go to stderr.

import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { loadPyodide } from "pyodide";

const [wheel, pyfile, fn] = process.argv.slice(2);
if (!wheel || !pyfile || !fn) {
  console.error("usage: node run_wheel.mjs WHEEL PYFILE FUNCTION");
  process.exit(2);
}
const pyodide = await loadPyodide({ stdout: (line) => console.error(line), stderr: (line) => console.error(line) });
const failures = [];
await pyodide.loadPackage(resolve(wheel), {
  messageCallback: (line) => console.error(line),
  errorCallback: (line) => failures.push(line),
});
if (failures.length) {
  console.error(`loading ${wheel} failed:\n${failures.join("\n")}`);
  process.exit(1);
}
const namespace = pyodide.globals.get("dict")();
try {
  pyodide.runPython(readFileSync(pyfile, "utf8"), { globals: namespace, filename: pyfile });
  const out = pyodide.runPython(`${fn}()`, { globals: namespace });
  process.stdout.write(`${out}\n`);
} finally {
  namespace.destroy();
}
