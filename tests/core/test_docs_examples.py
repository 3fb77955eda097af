"""Every code example of the documentation's getting-started, guide and algorithm pages runs, and prints
what the page shows.

A page's ```python blocks (the algorithms' textbook listings) run in order in one namespace; its ```pycon
blocks (``>>>`` prompts, then the output) are doctests run in that same namespace, in page order, their
output compared with the page's. A block in any other language that holds Python fails: every example a
reader sees runs here.
"""

import doctest
import re
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[2] / "docs"
FENCE = re.compile(r"^(`{3,})([\w-]*)[^\n]*\n(.*?)^\1[ \t]*$", re.S | re.M)
PAGES = [DOCS / "index.md", DOCS / "getting-started.md", DOCS / "api" / "index.md", *sorted((DOCS / "guide").glob("*.md")),
         *sorted((DOCS / "algorithms").glob("*.md"))]
#: An exception's type as the page writes it (``ikcore.IKError``) or as Python names it
#: (``ikcore.errors.IKError``): the last name is compared, the message in full.
EXCEPTION = re.compile(r"^(?:\w+\.)*(\w+):", re.M)


class Checker(doctest.OutputChecker):
    def check_output(self, want, got, optionflags):
        if super().check_output(want, got, optionflags):
            return True
        return super().check_output(EXCEPTION.sub(r"\1:", want, 1), EXCEPTION.sub(r"\1:", got, 1), optionflags)


def blocks(page):
    """``(language, code, line)`` of every fenced block of a page, in order."""
    text = page.read_text(encoding="utf-8")
    return [(m.group(2), m.group(3), text.count("\n", 0, m.start()) + 2) for m in FENCE.finditer(text)]


def run_page(page):
    """Run a page's examples; returns the number of outputs checked; raises on any failure."""
    namespace = {"__name__": "__docs__"}
    runner = doctest.DocTestRunner(checker=Checker(), optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    parser = doctest.DocTestParser()
    checked = 0
    for language, code, line in blocks(page):
        where = f"{page.name}:{line}"
        if language == "python":
            exec(compile(code, where, "exec"), namespace)
        elif language == "pycon":
            test = parser.get_doctest(code, namespace, where, str(page), line - 1)
            out = []
            result = runner.run(test, out=out.append, clear_globs=False)
            namespace = test.globs  # a DocTest runs in a copy of its globals: the next block goes on from it
            assert not result.failed, f"{where}: the example's output differs from the page's:\n" + "".join(out)
            checked += sum(1 for example in test.examples if example.want or example.exc_msg)
        else:
            assert ">>>" not in code and not re.search(r"^\s*(import|from) \w+", code, re.M), \
                f"{where}: a ```{language} block holding Python: write it as ```python or ```pycon"
    return checked


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(DOCS)))
def test_page_examples_run_and_print_what_the_page_shows(page):
    if not any(language in ("python", "pycon") for language, _, _ in blocks(page)):
        assert page.name == "index.md", f"{page.name} has no example"
        return
    assert run_page(page) >= 1


def test_every_guide_and_algorithm_page_is_covered():
    names = {p.relative_to(DOCS).as_posix() for p in PAGES}
    assert {"guide/tracking.md", "algorithms/ccd.md", "algorithms/walkthrough.md"} <= names
    assert len(names) >= 20


def test_a_wrong_output_fails(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("```pycon\n>>> 1 + 1\n3\n```\n")
    with pytest.raises(AssertionError, match="differs"):
        run_page(page)
