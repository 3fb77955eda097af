"""What a reader of one method opens: the files and lines of ikcore run by its solves.

Usage (from the repository root)::

    python -m tests.bench.reading                 # CCD, FABRIK and DLS
    python -m tests.bench.reading --files ccd     # and CCD's lines file by file

Counted: every ikcore function (or method) that 30 solves per method call, over a free chain, a chain of
hinges and a chain of ball joints and hinges, ten targets each, every other one with a pole. A function
counts with its whole source (``lines``) and without its docstrings, comments and blank lines (``code``);
a file counts once. What a method hands over to (CCD and FABRIK to damped least squares on a limited
chain) counts as part of it: a reader following the solve reads it too.
"""

import argparse
import ast
import inspect
import os
import random
import sys
import textwrap

import ikcore
from ikcore import BallSocket, Chain, Hinge

ROOT = os.path.dirname(ikcore.__file__)
METHODS = ("ccd", "fabrik", "dls")


def chains():
    points = [(0, 0, 0), (0, 1, 0), (0, 2, 0), (0, 3, 0), (0, 3.5, 0)]
    yield Chain(points)
    yield Chain(points, [Hinge((0, 0, 1), -90, 90)] * 4)
    yield Chain(points, [BallSocket(60), Hinge((0, 0, 1), -90, 90), BallSocket(45), Hinge((1, 0, 0), -60, 60)])


def functions_run(method):
    """The code objects of ikcore's functions that the method's 30 solves call."""
    rng = random.Random(1)
    cases = [(chain, (rng.uniform(-3, 3), rng.uniform(-1, 3.5), rng.uniform(-2, 2)), None if k % 2 else (1, 2, 1))
             for chain in chains() for k in range(10)]
    seen = set()

    def called(frame, event, arg):
        if event == "call" and frame.f_code.co_filename.startswith(ROOT) and not frame.f_code.co_name.startswith("<"):
            seen.add(frame.f_code)

    sys.setprofile(called)
    try:
        for chain, target, pole in cases:
            ikcore.solve(chain, target, method, pole=pole)
    finally:
        sys.setprofile(None)
    return seen


def code_lines(source):
    """Lines of ``source`` that are neither blank, a comment nor part of a docstring."""
    tree = ast.parse(textwrap.dedent(source))
    docs = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and body
                and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
                and isinstance(body[0].value.value, str)):
            docs.update(range(body[0].lineno, body[0].end_lineno + 1))
    return sum(1 for i, line in enumerate(textwrap.dedent(source).splitlines(), 1)
               if i not in docs and line.strip() and not line.strip().startswith("#"))


def count(method):
    """``{file: (lines, code lines)}`` for ``method``."""
    per = {}
    for code in functions_run(method):
        source = "".join(inspect.getsourcelines(code)[0])
        name = os.path.relpath(code.co_filename, ROOT)
        lines, code_only = per.get(name, (0, 0))
        per[name] = (lines + source.count("\n"), code_only + code_lines(source))
    return per


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", choices=METHODS, help="list this method's lines file by file")
    args = parser.parse_args()
    for method in METHODS:
        per = count(method)
        print(f"{method}: {len(per)} files, {sum(a for a, _ in per.values())} lines, "
              f"{sum(b for _, b in per.values())} code lines")
        if args.files == method:
            for name, (lines, code_only) in sorted(per.items(), key=lambda kv: -kv[1][0]):
                print(f"    {name}: {lines} ({code_only})")


if __name__ == "__main__":
    main()
