"""Shared by every test folder: markers by folder, and the built wheel and site for the tests that need them.

``tests/core`` needs nothing but ikcore installed. ``tests/pyodide`` and ``tests/browser`` need
``dist/`` (the wheel, ``dist/site``): the ``built`` fixture runs ``build/wheel`` and ``build/site``
once per session (both are quick when nothing changed), unless ``IKCORE_PREBUILT=1`` says that
``./build/test`` has just done it.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DIST = ROOT / "dist"
FOLDER_MARKERS = {"browser": "browser", "pyodide": "pyodide"}


def pytest_collection_modifyitems(items):
    for item in items:
        parts = Path(str(item.path)).relative_to(ROOT).parts
        if len(parts) > 1 and parts[0] == "tests" and parts[1] in FOLDER_MARKERS:
            item.add_marker(FOLDER_MARKERS[parts[1]])


@pytest.fixture(scope="session")
def built():
    """The ``dist/`` folder with the wheel and both sites, built from the working tree."""
    if os.environ.get("IKCORE_PREBUILT") != "1":
        for step in ([str(ROOT / "build" / "wheel")], [sys.executable, str(ROOT / "build" / "site")]):
            run = subprocess.run(step, cwd=ROOT, capture_output=True, text=True)
            if run.returncode != 0:
                pytest.fail(f"{' '.join(step)} failed:\n{run.stdout}{run.stderr}", pytrace=False)
    wheels = sorted(DIST.glob("ikcore-*-py3-none-any.whl"))
    if len(wheels) != 1 or not (DIST / "site" / "index.html").is_file():
        pytest.fail("dist/ has no wheel or no site: run ./build/demo --no-serve", pytrace=False)
    return DIST
