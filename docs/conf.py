"""Sphinx configuration of the ikcore documentation (built by build/docs into dist/site/docs/)."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE / "_ext"))

import ikcore  # noqa: E402  (after the path: the API reference documents this checkout)

project = "ikcore"
author = "the ikcore authors"
copyright = "the ikcore authors"
release = version = ikcore.__version__

extensions = [
    "sphinx.ext.autodoc",
    "numpydoc",
    "myst_parser",
    "katex_offline",
    "ikdemo",
    "benchplots",
]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["README.md", "demo.png", "_ext", "**/__pycache__"]
root_doc = "index"
nitpicky = False

myst_enable_extensions = ["dollarmath", "colon_fence", "deflist", "attrs_block"]
myst_heading_anchors = 3
myst_dmath_double_inline = True

html_math_renderer = "katex_offline"

autodoc_member_order = "bysource"
autodoc_typehints = "none"
autodoc_default_options = {"members": True, "undoc-members": False, "show-inheritance": False}
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False

html_theme = "furo"
html_title = f"ikcore {release}"
html_static_path = ["_static"]
html_last_updated_fmt = None
html_show_sphinx = True
html_copy_source = False
html_show_sourcelink = False
html_theme_options = {
    "source_repository": None,
    "navigation_with_keys": True,
    "announcement": None,
}
html_context = {}
pygments_style = "friendly"
suppress_warnings = []

templates_path = ["_templates"]
html_sidebars = {"**": ["sidebar/brand.html", "sidebar/demo-link.html", "sidebar/search.html",
                        "sidebar/scroll-start.html", "sidebar/navigation.html", "sidebar/scroll-end.html"]}
html_favicon = "../web/favicon.svg"
