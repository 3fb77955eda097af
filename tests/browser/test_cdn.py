"""dist/site-cdn: the page with its runtime from pinned CDN URLs, checked by Subresource Integrity.

There is no network here, so the CDN is played by the test: requests to cdn.jsdelivr.net are answered
from node_modules (the npm packages the CDN serves byte for byte), and anything else outside
127.0.0.1 still fails the test. A tampered CDN file must stop the page with a message.
"""

import json
import re
from pathlib import Path

import ikcore

ROOT = Path(__file__).resolve().parent.parent.parent
CDN_HOST = "cdn.jsdelivr.net"
NPM_PATH = re.compile(r"^/npm/((?:@[^/@]+/)?[^/@]+)@([^/]+)/(.+)$")
TYPES = {".js": "text/javascript", ".mjs": "text/javascript", ".css": "text/css", ".json": "application/json",
         ".wasm": "application/wasm", ".zip": "application/zip"}


def play_cdn(context, tamper=None):
    """Answer CDN requests from node_modules; ``tamper(path, body)`` may change a file on its way."""
    served = []

    def handle(route):
        url = route.request.url
        match = NPM_PATH.match(url.split(CDN_HOST, 1)[1].split("?")[0])
        if not match:
            return route.abort()
        name, version, path = match.groups()
        package = ROOT / "node_modules" / name
        if json.loads((package / "package.json").read_text())["version"] != version or not (package / path).is_file():
            return route.fulfill(status=404, body="not found")
        body = (package / path).read_bytes()
        if tamper:
            body = tamper(path, body)
        served.append(url)
        route.fulfill(status=200, body=body, headers={
            "Content-Type": TYPES.get(Path(path).suffix, "application/octet-stream"),
            "Access-Control-Allow-Origin": "*", "Cache-Control": "public, max-age=31536000, immutable"})

    context.route(f"https://{CDN_HOST}/**", handle)
    return served


def test_cdn_folder_holds_only_the_page_and_the_wheel(built):
    site = built / "site-cdn"
    files = {p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file()}
    wheel = next(built.glob("ikcore-*-py3-none-any.whl")).name
    assert wheel in files
    assert not any(f.startswith("vendor/") for f in files)
    assert {f for f in files if f.endswith((".whl", ".wasm", ".zip", ".mjs"))} == {wheel}
    html = (site / "index.html").read_text()
    importmap = json.loads(re.search(r'<script type="importmap">(.*?)</script>', html, re.S).group(1))
    for url in importmap["imports"].values():
        assert url.startswith(f"https://{CDN_HOST}/npm/") and "@" in url, url
        if not url.endswith("/"):
            assert url in importmap["integrity"], url
    assert all(v.startswith("sha384-") for v in importmap["integrity"].values())
    for tag in re.findall(r"<link [^>]*cdn\.jsdelivr\.net[^>]*>", html):
        assert 'integrity="sha384-' in tag and 'crossorigin="anonymous"' in tag, tag


def test_cdn_site_runs_with_integrity_checked_files(demo, built, serve):
    served = play_cdn(demo.context)
    demo.allow_host(CDN_HOST)
    demo.open(serve(built / "site-cdn"))
    state = demo.wait_ready()
    assert state["chains"][0]["status"] in ikcore.STATUSES
    demo.wait_frames(3)
    for part in ("/npm/pyodide@", "/npm/@pyscript/core@", "/npm/three@", "/npm/lil-gui@"):
        assert any(part in url for url in served), part
    assert any(re.search(r"127\.0\.0\.1:\d+/ikcore-[^/]+\.whl$", url) for url in demo.requests)


def test_cdn_file_altered_on_the_way_is_refused(demo, built, serve):
    def tamper(path, body):
        return body + b"\n// altered\n" if path == "build/three.core.js" else body

    play_cdn(demo.context, tamper)
    demo.allow_host(CDN_HOST)
    demo.allow_console_error(r"integrity|digest|three|ikcore demo|Failed to fetch")
    demo.open(serve(built / "site-cdn"))
    assert demo.wait_loaded() == "failed"
    text = demo.failure_text()
    assert "could not be loaded" in text and "three" in text, text
