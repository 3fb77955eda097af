// A small code editor for the playground: a plain <textarea> (so that typing, selection, undo, the phone's
// keyboard and screen readers are the browser's own) laid exactly over a <pre> that shows the same text with
// Python's syntax coloured, beside a gutter of line numbers. Both scroll together inside one box; the textarea's
// text is transparent, its caret and selection are not.
//
// Keys: Tab indents by four spaces (Escape first, then Tab, leaves the editor), Enter keeps the line's
// indentation (one level more after a colon), Backspace in an indentation removes a level, Ctrl/Cmd-Enter runs.
// A line can be marked (an error's), with its message shown under it.

const INDENT = "    ";
const KEYWORDS = new Set(("False None True and as assert async await break class continue def del elif else except " +
  "finally for from global if import in is lambda nonlocal not or pass raise return try while with yield").split(" "));
const BUILTINS = new Set(("abs all any bool dict enumerate float int len list max min print range reversed round " +
  "sorted str sum tuple zip isinstance type map filter math").split(" "));
// Comments, strings (triple-quoted first; an unclosed one runs to the end of its line, or of the text), numbers,
// names.
const TOKENS = /(#[^\n]*)|("""[\s\S]*?(?:"""|$)|'''[\s\S]*?(?:'''|$)|"(?:\\.|[^"\\\n])*"?|'(?:\\.|[^'\\\n])*'?)|(\b\d+\.?\d*(?:[eE][+-]?\d+)?\b|\.\d+\b)|([A-Za-z_]\w*)/g;

function escape(text) {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** `source` as HTML: spans of classes pg-c (comment), pg-s (string), pg-n (number), pg-k, pg-b, pg-f. */
export function highlight(source) {
  let out = "";
  let last = 0;
  let afterDef = false;
  for (const match of source.matchAll(TOKENS)) {
    out += escape(source.slice(last, match.index));
    last = match.index + match[0].length;
    const [text, comment, string, number, name] = match;
    let kind = null;
    if (comment) kind = "c";
    else if (string) kind = "s";
    else if (number) kind = "n";
    else if (name) kind = KEYWORDS.has(name) ? "k" : afterDef ? "f" : BUILTINS.has(name) ? "b" : null;
    afterDef = name === "def" || name === "class";
    out += kind ? `<span class="pg-${kind}">${escape(text)}</span>` : escape(text);
  }
  return `${out + escape(source.slice(last))}\n`;
}

export class CodeEditor {
  /**
   * @param {HTMLElement} host where the editor goes
   * @param {{onRun: () => void, onChange: (text: string) => void, label: string}} options
   */
  constructor(host, { onRun, onChange, label }) {
    this.onRun = onRun;
    this.onChange = onChange;
    this.escaped = false;
    this.markedLine = null;
    this.root = document.createElement("div");
    this.root.className = "pg-code";
    this.root.innerHTML = `<div class="pg-layer"><div class="pg-gutter" aria-hidden="true"></div>` +
      `<div class="pg-text"><div class="pg-mark" hidden></div><pre class="pg-pre" aria-hidden="true"></pre>` +
      `<textarea class="pg-input" spellcheck="false" autocapitalize="off" autocomplete="off" autocorrect="off"` +
      ` wrap="off"></textarea></div></div>`;
    host.append(this.root);
    this.gutter = this.root.querySelector(".pg-gutter");
    this.pre = this.root.querySelector(".pg-pre");
    this.mark = this.root.querySelector(".pg-mark");
    this.input = this.root.querySelector("textarea");
    this.input.setAttribute("aria-label", label);
    this.input.addEventListener("input", () => this.changed());
    this.input.addEventListener("keydown", (event) => this.keydown(event));
  }

  get value() {
    return this.input.value;
  }

  /** Replace the whole text (a template, a link's code); clears the mark. */
  set value(text) {
    this.input.value = text;
    this.input.setSelectionRange(0, 0);
    this.root.scrollTop = 0;
    this.render();
  }

  focus() {
    this.input.focus();
  }

  changed() {
    this.markLine(null);
    this.render();
    this.onChange(this.input.value);
  }

  render() {
    const text = this.input.value;
    this.pre.innerHTML = highlight(text);
    const lines = text.split("\n");
    let numbers = "";
    for (let i = 1; i <= lines.length; i++) numbers += `<span${i === this.markedLine ? ' class="pg-bad"' : ""}>${i}</span>`;
    this.gutter.innerHTML = numbers;
    // The textarea as large as its text: the box around both scrolls, and the two never drift apart.
    const widest = lines.reduce((w, line) => Math.max(w, line.length), 0);
    this.input.style.width = `calc(${widest + 2}ch + 1.2rem)`;
    this.input.style.height = `calc(${lines.length} * var(--pg-line) + 1rem)`;
  }

  /** Mark `line` (from 1; null: none) as the one an error is on, and scroll it into view. */
  markLine(line) {
    const lines = this.input.value.split("\n").length;
    this.markedLine = Number.isInteger(line) && line >= 1 ? Math.min(line, lines) : null;
    this.mark.hidden = this.markedLine === null;
    if (this.markedLine !== null) {
      this.mark.style.top = `calc(${this.markedLine - 1} * var(--pg-line) + 0.5rem)`;
      const lineHeight = this.mark.getBoundingClientRect().height || 18;
      const top = (this.markedLine - 1) * lineHeight;
      if (top < this.root.scrollTop || top > this.root.scrollTop + this.root.clientHeight - 2 * lineHeight) {
        this.root.scrollTop = Math.max(0, top - this.root.clientHeight / 3);
      }
    }
    for (const [i, span] of [...this.gutter.children].entries()) span.classList.toggle("pg-bad", i + 1 === this.markedLine);
  }

  /** Insert `text` at the selection as typing would (the browser's undo keeps it). */
  insert(text) {
    const input = this.input;
    if (!document.execCommand?.("insertText", false, text)) {
      input.setRangeText(text, input.selectionStart, input.selectionEnd, "end");
      this.changed();
    }
  }

  keydown(event) {
    const input = this.input;
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      this.onRun();
      return;
    }
    if (event.key === "Escape") {
      this.escaped = true;
      return;
    }
    const escaped = this.escaped;
    this.escaped = false;
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const { selectionStart: start, selectionEnd: end, value } = input;
    const lineStart = value.lastIndexOf("\n", start - 1) + 1;
    const before = value.slice(lineStart, start);
    if (event.key === "Tab" && !escaped && !event.shiftKey) {
      event.preventDefault();
      this.insert(INDENT.slice((before.length % INDENT.length)));
    } else if (event.key === "Enter" && !event.shiftKey) {
      event.preventDefault();
      const indent = /^ */.exec(before)[0];
      this.insert(`\n${indent}${/:\s*$/.test(before) ? INDENT : ""}`);
    } else if (event.key === "Backspace" && start === end && before.length && /^ +$/.test(before)) {
      event.preventDefault();
      const remove = before.length % INDENT.length || INDENT.length;
      input.setSelectionRange(start - remove, start);
      if (!document.execCommand?.("delete")) {
        input.setRangeText("", start - remove, start, "end");
        this.changed();
      }
    }
  }

  dispose() {
    this.root.remove();
  }
}
