"""The built wheel in real Pyodide (npm ``pyodide`` under Node) solves exactly as CPython does."""

import importlib.util
import json
import math
import shutil
import subprocess
from pathlib import Path

import pytest

import ikcore

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
POSITION_TOLERANCE = 1e-9


def load_cases():
    spec = importlib.util.spec_from_file_location("ikcore_pyodide_cases", HERE / "cases.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def wheel(built):
    return next(built.glob("ikcore-*-py3-none-any.whl"))


@pytest.fixture(scope="module")
def in_pyodide(wheel):
    """``cases.results()`` as computed by Pyodide from the wheel."""
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is not on PATH: the wheel test needs Node.js 20+", pytrace=False)
    if not (ROOT / "node_modules" / "pyodide" / "pyodide.mjs").is_file():
        pytest.fail("node_modules/pyodide is missing: run ./build/setup", pytrace=False)
    run = subprocess.run([node, str(HERE / "run_wheel.mjs"), str(wheel), str(HERE / "cases.py"), "results_json"],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    if run.returncode != 0:
        pytest.fail(f"Pyodide run failed ({run.returncode}):\n{run.stderr[-4000:]}", pytrace=False)
    return json.loads(run.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def in_cpython():
    return load_cases().results()


def test_pyodide_imports_the_wheel(in_pyodide, wheel):
    assert in_pyodide["version"] == ikcore.__version__
    assert wheel.name.startswith(f"ikcore-{ikcore.__version__}-")
    assert in_pyodide["file"].startswith("/lib/python3"), in_pyodide["file"]
    assert "/site-packages/ikcore/" in in_pyodide["file"]


def test_every_method_ran(in_pyodide):
    assert list(in_pyodide["methods"]) == list(ikcore.METHODS)


@pytest.mark.parametrize("method", ikcore.METHODS)
def test_method_matches_cpython(method, in_pyodide, in_cpython):
    ours = in_cpython["methods"][method]
    theirs = in_pyodide["methods"][method]
    assert [row["case"] for row in theirs] == [row["case"] for row in ours]
    solved = 0
    for a, b in zip(ours, theirs):
        case = a["case"]
        if "refused" in a or "refused" in b:
            assert a.get("refused") == b.get("refused"), case
            continue
        solved += 1
        assert b["status"] == a["status"], case
        assert b["iterations"] == a["iterations"], case
        assert math.isclose(b["error"], a["error"], rel_tol=1e-9, abs_tol=POSITION_TOLERANCE), case
        assert len(b["positions"]) == len(a["positions"]), case
        for p, q in zip(a["positions"], b["positions"]):
            assert all(math.isfinite(v) for v in q), case
            assert math.dist(p, q) <= POSITION_TOLERANCE, (case, p, q)
    assert solved, f"{method} refused every case"


@pytest.mark.parametrize("method", ikcore.METHODS)
def test_trace_matches_cpython(method, in_pyodide, in_cpython):
    ours = in_cpython["traces"][method]
    theirs = in_pyodide["traces"][method]
    assert theirs["same_as_solve"] and ours["same_as_solve"]
    assert [(s["phase"], s["iteration"], s["joint"]) for s in theirs["steps"]] == \
        [(s["phase"], s["iteration"], s["joint"]) for s in ours["steps"]]
    assert len(ours["steps"]) > 2
    for a, b in zip(ours["steps"], theirs["steps"]):
        # The captions round their numbers: the same text unless a value sits on a rounding edge.
        assert b["caption"].split(" ")[:2] == a["caption"].split(" ")[:2]
        for p, q in zip(a["positions"], b["positions"]):
            assert math.dist(p, q) <= POSITION_TOLERANCE, (method, a["caption"], p, q)


def test_a_urdf_loads_and_solves_in_pyodide_as_in_cpython(in_pyodide, in_cpython):
    """xml.etree's parser and the wheel's data files are there in Pyodide: the shipped Panda loads,
    a 4x4 target is met with the same joint values, and a malformed file is refused alike."""
    ours, theirs = in_cpython["urdf"], in_pyodide["urdf"]
    assert theirs["status"] == ours["status"] == "converged"
    assert theirs["points"] == ours["points"]
    assert max(abs(a - b) for a, b in zip(ours["joint_values"], theirs["joint_values"])) <= 1e-9
    assert theirs["refused"] == ours["refused"] and "line 3" in ours["refused"]
    assert theirs["scara"][0] == ours["scara"][0] == "converged"
    assert max(abs(a - b) for a, b in zip(ours["scara"][1:], theirs["scara"][1:])) <= 1e-9
