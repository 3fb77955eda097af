"""Maths rendered at build time: every formula goes through KaTeX (the npm package pinned in
package-lock.json) under Node while Sphinx writes the page, so a page carries finished HTML and
MathML, and only KaTeX's stylesheet and fonts, copied into ``_static/katex/``. No script renders
maths in the reader's browser and nothing is fetched from elsewhere; a formula KaTeX cannot
parse fails the build with its message.
"""

import json
import shutil
import subprocess
from pathlib import Path

from docutils import nodes
from sphinx.errors import ExtensionError

ROOT = Path(__file__).resolve().parents[2]
KATEX = ROOT / "node_modules" / "katex"
SCRIPT = Path(__file__).with_name("katex_render.mjs")


class KaTeX:
    """One Node process for the whole build, answering a formula a line."""

    def __init__(self):
        self.process = None
        self.cache = {}

    def render(self, tex, display):
        key = (tex, display)
        if key not in self.cache:
            if self.process is None:
                if not (KATEX / "package.json").is_file():
                    raise ExtensionError("node_modules/katex is missing: run ./build/setup")
                # Node finds "katex" in the project's node_modules, above the script's folder.
                self.process = subprocess.Popen(["node", str(SCRIPT)], cwd=ROOT, stdin=subprocess.PIPE,
                                                stdout=subprocess.PIPE, text=True)
            self.process.stdin.write(json.dumps({"tex": tex, "display": display}) + "\n")
            self.process.stdin.flush()
            answer = json.loads(self.process.stdout.readline())
            if "error" in answer:
                raise ExtensionError(f"KaTeX cannot render {tex!r}: {answer['error']}")
            self.cache[key] = answer["html"]
        return self.cache[key]

    def close(self):
        if self.process is not None:
            self.process.stdin.close()
            self.process.wait(timeout=10)
            self.process = None


KATEX_RENDERER = KaTeX()


def visit_math(self, node):
    self.body.append(KATEX_RENDERER.render(node.astext(), display=False))
    raise nodes.SkipNode


def visit_displaymath(self, node):
    tex = node.astext()
    if not node.get("nowrap"):
        tex = "\\begin{aligned}" + tex + "\\end{aligned}" if "\\\\" in tex else tex
    self.body.append('<div class="math-display">' + KATEX_RENDERER.render(tex, display=True) + "</div>\n")
    raise nodes.SkipNode


def copy_assets(app, exception):
    if exception is not None or app.builder.format != "html":
        return
    target = Path(app.outdir) / "_static" / "katex"
    shutil.rmtree(target, ignore_errors=True)
    (target / "fonts").mkdir(parents=True)
    shutil.copyfile(KATEX / "dist" / "katex.min.css", target / "katex.min.css")
    for font in (KATEX / "dist" / "fonts").glob("*.woff2"):
        shutil.copyfile(font, target / "fonts" / font.name)
    KATEX_RENDERER.close()


def setup(app):
    app.add_html_math_renderer("katex_offline", (visit_math, None), (visit_displaymath, None))
    app.add_css_file("katex/katex.min.css")
    app.connect("build-finished", copy_assets)
    return {"parallel_read_safe": True, "parallel_write_safe": False}
