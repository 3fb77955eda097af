"""dist/site-cdn: the page with its runtime from pinned CDN URLs, checked by Subresource Integrity.

There is no network here, so the CDN is played by the test: requests to cdn.jsdelivr.net are answered
from node_modules (the npm packages the CDN serves byte for byte), and anything else outside
127.0.0.1 still fails the test. A tampered CDN file must stop the page with a message.
"""

import json
import re
import time
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


def policy_of(html):
    """The Content-Security-Policy of a page's <meta>, as {directive: [sources]}."""
    content = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]+)">', html).group(1)
    return {part.split()[0]: part.split()[1:] for part in content.split("; ")}


def test_both_sites_carry_a_strict_policy(built):
    for name, remote in (("site", False), ("site-cdn", True)):
        html = (built / name / "index.html").read_text()
        # Before any script or stylesheet, so that it covers them.
        assert html.index("Content-Security-Policy") < min(html.index("<script"), html.index("<link"))
        policy = policy_of(html)
        scripts = policy["script-src"]
        assert "'wasm-unsafe-eval'" in scripts and "'unsafe-eval'" not in scripts, scripts
        assert not any("unsafe-inline" in s for sources in policy.values() for s in sources)
        assert policy["object-src"] == ["'none'"] and policy["base-uri"] == ["'none'"]
        urls = {s for sources in policy.values() for s in sources if "://" in s}
        if remote:
            # Only the pinned package folders on the CDN, and exactly those the page loads from.
            assert urls and all(re.fullmatch(rf"https://{CDN_HOST}/npm/(@[\w.-]+/)?[\w.-]+@[\w.-]+/", u) for u in urls)
            used = set(re.findall(rf"https://{CDN_HOST}/npm/(?:@[\w.-]+/)?[\w.-]+@[\w.-]+/", html))
            assert urls == used | {u for u in urls if "/pyodide@" in u}, (urls, used)
        else:
            assert not urls, urls
        assert (built / name / "embed-example.html").is_file()


def test_unreachable_cdn_is_named_within_10_s(demo, built, serve):
    demo.context.route(f"https://{CDN_HOST}/**", lambda route: route.abort())
    demo.allow_host(CDN_HOST)
    demo.allow_console_error(r"net::ERR_FAILED|Failed to load|Failed to fetch|ikcore demo|dynamically imported")
    url = serve(built / "site-cdn")
    started = time.monotonic()
    demo.open(url)
    assert demo.wait_loaded(10_000) == "failed"
    elapsed = time.monotonic() - started
    text = demo.failure_text()
    assert f"Cannot reach {CDN_HOST}" in text and "could not be reached" in text, text
    assert elapsed < 10, elapsed


def test_cdn_that_does_not_answer_is_named_within_10_s(demo, built, serve):
    pending = []
    demo.context.route(f"https://{CDN_HOST}/**", lambda route: pending.append(route))  # never answered
    demo.allow_host(CDN_HOST)
    url = serve(built / "site-cdn")
    started = time.monotonic()
    demo.page.goto(url, wait_until="domcontentloaded")  # "load" never comes
    note = demo.wait_until("document.getElementById('loader-note')?.textContent", 10_000,
                           "a note naming the host that does not answer")
    assert time.monotonic() - started < 10
    assert f"Cannot reach {CDN_HOST}" in note and "did not answer" in note, note
    assert demo.page.is_visible("#loader") and pending
