"""The ``ikdemo`` directive: the live demo embedded in a page, as a reader would embed it.

::

    ```{ikdemo} CCD on a planar chain, step by step
    :hash: scene=steps&planar=1&method=ccd&step=1
    :id: ccd-demo
    ```

writes an ``<iframe>`` of the site's own page (``index.html`` two levels up from ``/docs/``,
whatever the page's depth) with ``embed=1`` added to the hash, and a link to the same state in
the full page. The frame gets its address only when the reader scrolls near it (``_static/ikdocs.js``),
so a page of several embeds loads each demo as it is reached.
"""

import html
import re

from docutils import nodes
from docutils.parsers.rst import Directive, directives

HASH_RE = re.compile(r"^[A-Za-z0-9_.,=&-]+$")


class IKDemo(Directive):
    required_arguments = 1
    final_argument_whitespace = True
    option_spec = {"hash": directives.unchanged_required, "id": directives.unchanged_required,
                   "height": directives.positive_int}

    def run(self):
        state = self.options["hash"].strip()
        if not HASH_RE.match(state) or "embed=" in state:
            raise self.error(f"ikdemo: hash {state!r} must be plain key=value pairs joined by & (embed=1 is added)")
        env = self.state.document.settings.env
        up = "../" * (env.docname.count("/") + 1)
        title = self.arguments[0]
        ident = self.options.get("id") or "demo-" + re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")
        height = self.options.get("height", 340)
        frame = f"{up}index.html#{state}&embed=1"
        full = f"{up}index.html#{state}"
        text = (f'<figure class="ikdemo" id="{html.escape(ident)}">\n'
                f'  <iframe class="ikdemo-frame" data-src="{html.escape(frame)}" height="{height}" '
                f'title="{html.escape(title)}" loading="lazy"></iframe>\n'
                f'  <figcaption>{html.escape(title)}: the live demo, step with &#9664; &#9654; or drag the target. '
                f'<a class="ikdemo-open" href="{html.escape(full)}">Open it in the full page</a></figcaption>\n'
                f'</figure>\n')
        return [nodes.raw("", text, format="html")]


def setup(app):
    app.add_directive("ikdemo", IKDemo)
    app.add_js_file("ikdocs.js", type="module")
    app.add_css_file("ikdocs.css")
    return {"parallel_read_safe": True, "parallel_write_safe": True}
