"""Solvers to start the playground from: each the textbook step of one method, in plain Python.

Each template is a file of this package whose source the page puts in its editor
(:func:`source`) and that :func:`ikcore.rigs.race_solvers` runs as any reader's
code: one function ``step(points, target, lengths)``, called once per iteration
(the contract is in each file's first lines). They are written to be read and
changed, not to be fast: ikcore's own methods (:mod:`ikcore.solvers`) are the
tuned versions, with joint limits, restarts and honest statuses.
"""

from importlib import resources

from ...checks import check_choice

#: The templates, in the order the page offers them.
TEMPLATES = ("ccd", "fabrik", "jacobian_transpose", "empty")


def source(name):
    """The source text of template ``name`` (one of :data:`TEMPLATES`)."""
    name = check_choice(name, "template", TEMPLATES)
    return resources.files(__name__).joinpath(f"{name}.py").read_text(encoding="utf-8")
