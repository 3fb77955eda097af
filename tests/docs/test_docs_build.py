"""The documentation build. It treats every warning as an error: a broken link, a formula KaTeX cannot parse or
a page left out of the contents fails ``build/docs`` (which ``./build/site``, and so ``./build/test``, runs),
naming each (built here from a copy of docs/ with those faults put in); and its API reference covers
every public name."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import ikcore
import ikcore.rigs

ROOT = Path(__file__).resolve().parents[2]


def test_a_warning_fails_the_docs_build(tmp_path):
    # A tree shaped like the project's: the copied pages, the rest linked to the real ones.
    shutil.copytree(ROOT / "docs", tmp_path / "docs", ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("ikcore", "node_modules", "web"):
        os.symlink(ROOT / name, tmp_path / name)
    (tmp_path / "dist").mkdir()
    page = tmp_path / "docs" / "guide" / "tracking.md"
    page.write_text(page.read_text(encoding="utf-8")
                    + "\nSee [a page that is not there](nowhere.md) and $\\frac{1}{$.\n", encoding="utf-8")
    (tmp_path / "docs" / "orphan.md").write_text("# Orphan\n\nIn no table of contents.\n", encoding="utf-8")
    run = subprocess.run([sys.executable, str(ROOT / "build" / "docs"), "--source", str(tmp_path / "docs"),
                          "--out", str(tmp_path / "html")], capture_output=True, text=True, timeout=600)
    output = run.stdout + run.stderr
    assert run.returncode != 0, output
    assert "nowhere" in output, output
    assert "KaTeX cannot render" in output, output
    assert "orphan" in output and "toctree" in output, output
    assert not (tmp_path / "html").exists()


def test_the_api_reference_covers_every_public_name(built):
    api = (built / "site" / "docs" / "api" / "index.html").read_text(encoding="utf-8")
    rigs = (built / "site" / "docs" / "api" / "rigs.html").read_text(encoding="utf-8")
    for name in ikcore.__all__:
        module = getattr(ikcore, name).__class__.__name__ == "module"
        assert (f'id="module-ikcore.{name}"' if module else f'id="ikcore.{name}"') in api, name
    for name in ikcore.rigs.__all__:
        assert f'id="ikcore.rigs.{name}"' in rigs, name
    # numpydoc's sections, rendered from the docstrings
    assert "Parameters" in api and "Returns" in api and "Raises" in api
