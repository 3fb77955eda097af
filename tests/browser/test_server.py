"""build/serve, which the demo and the browser tests use: no-store caching, MIME types, extra headers."""

import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent


def head(url):
    with urllib.request.urlopen(urllib.request.Request(url, method="HEAD"), timeout=10) as response:
        return response.status, response.headers


@pytest.mark.parametrize("path, content_type", [
    ("", "text/html"),
    ("main.py", "text/x-python"),
    ("pyscript.json", "application/json"),
    ("vendor/pyodide/pyodide.mjs", "text/javascript"),
    ("vendor/pyodide/pyodide.asm.wasm", "application/wasm"),
    ("vendor/pyodide/python_stdlib.zip", "application/zip"),
    ("js/app.js", "text/javascript"),
])
def test_types_and_no_store(site_server, path, content_type):
    status, headers = head(site_server + path)
    assert status == 200
    assert headers["Content-Type"].split(";")[0] == content_type
    assert headers["Cache-Control"] == "no-store"


def test_wheel_is_served(site_server, built):
    wheel = next(built.glob("ikcore-*-py3-none-any.whl")).name
    status, headers = head(f"{site_server}vendor/pyodide/{wheel}")
    assert status == 200 and headers["Content-Type"] == "application/zip"


def test_extra_headers(built, serve):
    url = serve(built / "site", {"Content-Security-Policy": "script-src 'self'", "X-Test": "1"})
    assert url.startswith("http://127.0.0.1:")
    _, headers = head(url)
    assert headers["Content-Security-Policy"] == "script-src 'self'"
    assert headers["X-Test"] == "1" and headers["Cache-Control"] == "no-store"


def test_refuses_a_folder_without_a_page(tmp_path):
    run = subprocess.run([sys.executable, str(ROOT / "build" / "serve"), "--dir", str(tmp_path), "--port", "0"],
                         capture_output=True, text=True, timeout=30)
    assert run.returncode != 0 and "has no index.html" in run.stderr
