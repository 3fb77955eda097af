"""The library stays readable in one sitting: no function in ikcore/ runs past 80 lines of code
(its docstring, comments and blank lines aside), and the package never imports a browser module."""

import ast
import pathlib

import ikcore

ROOT = pathlib.Path(ikcore.__file__).parent
LONGEST = 80


def code_lines(source_lines, node):
    body = node.body
    first = body[0]
    has_doc = isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str)
    start = first.end_lineno + 1 if has_doc else first.lineno
    return sum(1 for line in source_lines[start - 1:node.end_lineno]
               if line.strip() and not line.strip().startswith("#"))


def test_no_function_runs_past_80_lines():
    long = []
    for path in sorted(ROOT.rglob("*.py")):
        source = path.read_text()
        lines = source.splitlines()
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and code_lines(lines, node) > LONGEST:
                long.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name}")
    assert not long, long


def test_the_package_knows_nothing_of_the_browser():
    for path in sorted(ROOT.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            assert not any(n.split(".")[0] in ("js", "pyodide", "pyscript") for n in names), (path, names)
