// Renders TeX to HTML with KaTeX for the documentation build: one JSON request a line on stdin,
// {"tex": "...", "display": true}, one JSON answer a line on stdout, {"html": "..."} or {"error": "..."}.
import katex from "katex";
import readline from "node:readline";

const lines = readline.createInterface({ input: process.stdin });
lines.on("line", (line) => {
  const { tex, display } = JSON.parse(line);
  let answer;
  try {
    answer = { html: katex.renderToString(tex, { displayMode: display, throwOnError: true, output: "htmlAndMathml" }) };
  } catch (error) {
    answer = { error: String(error.message || error) };
  }
  process.stdout.write(JSON.stringify(answer) + "\n");
});
