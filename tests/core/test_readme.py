"""The Python examples of the README's "Use" section run, and print what their comments say."""

import contextlib
import io
import re
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"
BLOCK = re.compile(r"```python\n(.*?)```", re.S)
# print(...)   # what it prints[: why]
EXPECT = re.compile(r"^(print\(.*\))\s+#\s*([^:]+)")


def examples():
    text = README.read_text(encoding="utf-8")
    use = text.split("\n## Use\n", 1)[1].split("\n## ", 1)[0]
    return BLOCK.findall(use)


def test_readme_has_python_examples():
    assert len(examples()) >= 2


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
