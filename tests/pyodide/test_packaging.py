"""The wheel: reproducible, and registered in the vendored pyodide-lock.json so the page loads it by name."""

import hashlib
import importlib.machinery
import importlib.util
import json
import shutil
import subprocess
import time
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
TOOLS_PYODIDE = ROOT / ".venv-tools" / "bin" / "pyodide"


def sha256(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def load_site_script():
    loader = importlib.machinery.SourceFileLoader("ikcore_build_site", str(ROOT / "build" / "site"))
    spec = importlib.util.spec_from_loader(loader.name, loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def test_site_lock_lists_the_wheel_with_its_hash(built):
    wheel = next(built.glob("ikcore-*-py3-none-any.whl"))
    pyodide_dir = built / "site" / "vendor" / "pyodide"
    entry = json.loads((pyodide_dir / "pyodide-lock.json").read_text())["packages"]["ikcore"]
    assert entry["file_name"] == wheel.name
    assert (pyodide_dir / wheel.name).read_bytes() == wheel.read_bytes()
    assert entry["sha256"] == sha256(wheel)
    assert entry["imports"] == ["ikcore"]
    assert entry["depends"] == []
    config = json.loads((built / "site" / "pyscript.json").read_text())
    assert config["packages"] == ["ikcore"]


def test_fallback_writes_what_pyodide_build_writes(built, tmp_path):
    if not TOOLS_PYODIDE.exists():
        pytest.skip("pyodide-build is not installed (.venv-tools needs Python >= 3.12): nothing to compare with")
    wheel = next(built.glob("ikcore-*-py3-none-any.whl"))
    npm_lock = ROOT / "node_modules" / "pyodide" / "pyodide-lock.json"
    for name in ("tool", "fallback"):
        (tmp_path / name).mkdir()
        shutil.copyfile(npm_lock, tmp_path / name / "pyodide-lock.json")
        shutil.copyfile(wheel, tmp_path / name / wheel.name)
    subprocess.run([str(TOOLS_PYODIDE), "lockfile", "add-wheels", "--input", str(tmp_path / "tool" / "pyodide-lock.json"),
                    "--output", str(tmp_path / "tool" / "out.json"), "--base-path", str(tmp_path / "tool"),
                    str(tmp_path / "tool" / wheel.name)], check=True, capture_output=True)
    load_site_script().register_fallback(tmp_path / "fallback" / "pyodide-lock.json", tmp_path / "fallback" / wheel.name)
    tool = json.loads((tmp_path / "tool" / "out.json").read_text())
    fallback = json.loads((tmp_path / "fallback" / "pyodide-lock.json").read_text())
    assert fallback["packages"]["ikcore"] == tool["packages"]["ikcore"]
    assert fallback == tool


def copy_sources(target):
    """The files build/wheel reads, copied with fresh timestamps, and the project's .venv beside them."""
    target.mkdir()
    for path in [ROOT / "pyproject.toml", ROOT / "README.md", *ROOT.glob("LICENSE*")]:
        shutil.copyfile(path, target / path.name)
    shutil.copytree(ROOT / "ikcore", target / "ikcore", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    shutil.copytree(ROOT / "build", target / "build")
    (target / ".venv").symlink_to(ROOT / ".venv")


def test_wheel_is_reproducible(built, tmp_path):
    wheels = []
    for name in ("one", "two"):
        copy_sources(tmp_path / name)
        run = subprocess.run([str(tmp_path / name / "build" / "wheel")], capture_output=True, text=True)
        assert run.returncode == 0, run.stderr
        wheels.append(Path(run.stdout.strip().splitlines()[-1]))
        time.sleep(1.1)  # the second copy's files are a second younger
    assert sha256(wheels[0]) == sha256(wheels[1])
    # And the working tree's own wheel (build/wheel again: it is instant when the sources did not change).
    ours = subprocess.run([str(ROOT / "build" / "wheel")], capture_output=True, text=True, check=True)
    assert sha256(wheels[0]) == sha256(Path(ours.stdout.strip().splitlines()[-1]))
    with zipfile.ZipFile(wheels[0]) as z:
        infos = z.infolist()
    assert {i.date_time for i in infos} == {(1980, 1, 1, 0, 0, 0)}
    # The checkout's file modes do not leak in (RECORD's own mode is fixed by the wheel writer).
    assert {(i.external_attr >> 16) & 0o777 for i in infos if not i.filename.endswith("/RECORD")} == {0o644}
    sources = {p.relative_to(ROOT).as_posix() for p in (ROOT / "ikcore").rglob("*.py")}
    assert sources <= {i.filename for i in infos}


def test_wheel_carries_the_licence_and_the_type_hints_marker(built):
    wheel = next(built.glob("ikcore-*-py3-none-any.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    assert "ikcore/py.typed" in names, names
    licence = [n for n in names if n.endswith("licenses/LICENSE") or n.endswith(".dist-info/LICENSE")]
    assert licence, names
    assert zipfile.ZipFile(wheel).read(licence[0]).decode().startswith("MIT License")
    metadata = zipfile.ZipFile(wheel).read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
    assert "License-Expression: MIT" in metadata and "License-File: LICENSE" in metadata, metadata[:600]
