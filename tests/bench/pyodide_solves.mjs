// Serve timing requests for the benchmark: ikcore's wheel in Pyodide under Node.
//
// Usage: node tests/bench/pyodide_solves.mjs WHEEL DRIVER.py
// Loads the wheel, runs DRIVER.py (it defines time_block_json), prints "ready <python version>", then
// answers each JSON request line read from stdin with one JSON line on stdout. Pyodide's own messages
// go to stderr. Ends when stdin closes.

import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { createInterface } from "node:readline";
import { loadPyodide } from "pyodide";

const [wheel, driver] = process.argv.slice(2);
if (!wheel || !driver) {
  console.error("usage: node pyodide_solves.mjs WHEEL DRIVER.py");
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
pyodide.runPython(readFileSync(driver, "utf8"), { globals: namespace, filename: driver });
const timeBlock = namespace.get("time_block_json");
const version = pyodide.runPython("import sys; sys.version.split()[0]");
process.stdout.write(`ready ${version}\n`);
for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim()) process.stdout.write(`${timeBlock(line)}\n`);
}
timeBlock.destroy();
namespace.destroy();
