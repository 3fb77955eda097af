"""The library stays readable in one sitting: no function in ikcore/ runs past 80 lines, counted
with its docstring, comments and blank lines, none past 80 lines of code alone either; the modules
import one another without a cycle, each at its top; and the package never imports a browser
module."""

import ast
import pathlib

import ikcore

ROOT = pathlib.Path(ikcore.__file__).parent
LONGEST = 80


def functions():
    """``(path, node, lines)`` for every function of the package."""
    for path in sorted(ROOT.rglob("*.py")):
        source = path.read_text()
        lines = source.splitlines()
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                yield path, node, lines


def code_lines(source_lines, node):
    body = node.body
    first = body[0]
    has_doc = isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str)
    start = first.end_lineno + 1 if has_doc else first.lineno
    return sum(1 for line in source_lines[start - 1:node.end_lineno]
               if line.strip() and not line.strip().startswith("#"))


def whole_lines(node):
    """The function's lines from its first decorator (or ``def``) to its last, all of them."""
    first = min([node.lineno] + [d.lineno for d in node.decorator_list])
    return node.end_lineno - first + 1


def test_no_function_runs_past_80_lines_of_code():
    long = [f"{path.relative_to(ROOT)}:{node.lineno} {node.name}" for path, node, lines in functions()
            if code_lines(lines, node) > LONGEST]
    assert not long, long


def test_no_function_runs_past_80_lines_with_its_docstring_and_comments():
    long = [f"{path.relative_to(ROOT)}:{node.lineno} {node.name} ({whole_lines(node)} lines)"
            for path, node, _ in functions() if whole_lines(node) > LONGEST]
    assert not long, long


def module_name(path):
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path, modules):
    """``(module, top)`` for every ikcore module ``path`` imports (``top``: at the module's top level,
    not inside a function or class)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    tree = ast.parse(path.read_text())
    top = {id(node) for node in tree.body}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[:len(parts) - node.level + 1] + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            found = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names]
        elif isinstance(node, ast.Import):
            found = [a.name for a in node.names]
        else:
            continue
        for module in found:
            if module in modules and module != name:
                yield module, id(node) in top


def import_graph():
    modules = {module_name(path): path for path in ROOT.rglob("*.py")}
    return {name: list(imports(path, modules)) for name, path in modules.items()}


def imports_numpy(node):
    if isinstance(node, ast.Import):
        return any(a.name.split(".")[0] == "numpy" for a in node.names)
    return isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "numpy"


def needs_numpy(module):
    """Whether ``module`` imports numpy at its top: numpy is optional, so such a module (a batched
    kernel) is imported where a batch first asks for it."""
    path = ROOT.parent.joinpath(*module.split("."))
    path = path / "__init__.py" if path.is_dir() else path.with_suffix(".py")
    return any(imports_numpy(node) for node in ast.parse(path.read_text()).body)


def test_modules_import_at_their_top():
    inside = [(name, module) for name, found in import_graph().items() for module, top in found
              if not top and not needs_numpy(module)]
    assert not inside, inside


def test_no_import_cycles():
    graph = {name: {module for module, _ in found} for name, found in import_graph().items()}
    # Depth-first search: a module met again while still on the path closes a cycle.
    state, cycles = {}, []

    def visit(name, path):
        state[name] = "open"
        for module in sorted(graph[name]):
            if state.get(module) == "open":
                cycles.append(path[path.index(module):] + [module])
            elif module not in state:
                visit(module, path + [module])
        state[name] = "done"

    for name in sorted(graph):
        if name not in state:
            visit(name, [name])
    assert not cycles, cycles


def test_the_package_knows_nothing_of_the_browser():
    for path in sorted(ROOT.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            assert not any(n.split(".")[0] in ("js", "pyodide", "pyscript") for n in names), (path, names)
