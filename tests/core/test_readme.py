"""The README's Python example runs and prints what its comments say, and its links lead somewhere."""

import contextlib
import io
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
BLOCK = re.compile(r"```python\n(.*?)```", re.S)
# print(...)   # what it prints
EXPECT = re.compile(r"^(print\(.*\))\s+#\s*(.+)$")
LINK = re.compile(r"\]\(([^)#]+)(#[^)]*)?\)")


def examples():
    return BLOCK.findall(README.read_text(encoding="utf-8"))


def test_readme_is_short():
    assert len(README.read_text(encoding="utf-8").splitlines()) <= 150


def test_readme_has_a_python_example():
    assert examples()


def test_readme_examples_print_what_they_say():
    namespace = {}
    checked = 0
    for block in examples():
        exec(compile(block, "README.md", "exec"), namespace)
        for line in block.splitlines():
            match = EXPECT.match(line)
            if match:
                out = io.StringIO()
                with contextlib.redirect_stdout(out):
                    exec(match.group(1), namespace)
                assert out.getvalue().strip() == match.group(2).strip(), line
                checked += 1
    assert checked >= 2


def test_readme_links_to_files_that_exist():
    links = [m.group(1) for m in LINK.finditer(README.read_text(encoding="utf-8"))]
    local = [link for link in links if "://" not in link]
    assert len(local) >= 10
    missing = [link for link in local if not (ROOT / link).exists()]
    assert not missing, missing
