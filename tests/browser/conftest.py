"""The browser harness: the built site served on 127.0.0.1, driven in Debian's Chromium through Playwright.

Fixtures
--------
``site_server``  ``dist/site`` served by ``build/serve`` on a free port (``Cache-Control: no-store``).
``serve``        a factory: ``serve(folder, headers={...})`` starts another server (a tampered copy of
                 the site, a Content-Security-Policy header) for the test.
``demo``         a new context of Chromium (launched once per session with a new empty profile and the
                 flags software WebGL needs headless; each test gets its own cache and storage) with one
                 page; every request, console message and uncaught page error is recorded. ``demo.open(url)``
                 loads the page, ``demo.wait_loaded()`` waits until it is ready or has failed.

Every test using ``demo`` fails when the page requested anything outside 127.0.0.1, logged a console
error or raised an uncaught error, unless the test allowed that console error with
``demo.allow_console_error(regex)``. A screenshot of each test's last state is saved in
``dist/test-artifacts/<test name>.png``.

Chromium missing is a failure, not a skip: deselect these tests with ``-m "not browser"``.
"""

import ctypes
import io
import os
import re
import signal
import shutil
import subprocess
import sys
import time
import warnings
from pathlib import Path
from urllib.parse import urlsplit

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
ARTIFACTS = ROOT / "dist" / "test-artifacts"
CHROMIUM = os.environ.get("IKCORE_CHROMIUM", "/usr/bin/chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--enable-unsafe-swiftshader"]
#: Loading the runtime takes 3-5 s on an idle machine; a loaded CI runner can take several times that.
LOAD_TIMEOUT_MS = 120_000
LOCAL_SCHEMES = ("data:", "blob:", "about:")
#: Small enough for software WebGL (SwiftShader) to draw several frames a second on a busy runner.
VIEWPORT = {"width": 960, "height": 600}


def _die_with_parent():
    """In the child: end when the test process ends, even if it is killed before its teardown."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


class Server:
    """``build/serve`` in a subprocess."""

    def __init__(self, folder, headers=None):
        cmd = [sys.executable, str(ROOT / "build" / "serve"), "--dir", str(folder), "--port", "0", "--quiet"]
        for name, value in (headers or {}).items():
            cmd += ["--header", f"{name}: {value}"]
        self.process = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                        preexec_fn=_die_with_parent if sys.platform == "linux" else None)
        line = self.process.stdout.readline()
        if " at " not in line:
            self.process.kill()
            raise RuntimeError(f"build/serve did not start: {line}{self.process.stderr.read()}")
        self.url = line.split(" at ", 1)[1].strip()

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()


@pytest.fixture
def serve():
    """``serve(folder, headers=None)``: the URL of a new server for this test (stopped after it)."""
    servers = []

    def start(folder, headers=None):
        servers.append(Server(folder, headers))
        return servers[-1].url

    yield start
    for server in servers:
        server.stop()


@pytest.fixture(scope="session")
def site_server(built):
    """The URL of ``dist/site`` (ends with ``/``), served for the whole session."""
    server = Server(built / "site")
    yield server.url
    server.stop()


@pytest.fixture(scope="session")
def chromium():
    """Debian's Chromium, launched once per session with a new empty profile (a temporary folder)."""
    if not Path(CHROMIUM).is_file():
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium (./build/test does), "
                    "or deselect browser tests with -m 'not browser'", pytrace=False)
    from playwright.sync_api import sync_playwright

    # This run's screenshots only.
    shutil.rmtree(ARTIFACTS, ignore_errors=True)
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        yield browser
        browser.close()


class Demo:
    """One Chromium with one page, and everything it did."""

    def __init__(self, context, name):
        self.context = context
        self.name = name
        self.requests = []
        self.console = []
        self.page_errors = []
        self.allowed = []
        self.hosts = {"127.0.0.1"}
        context.on("request", lambda request: self.requests.append(request.url))
        self.page = context.pages[0] if context.pages else context.new_page()
        self.page.on("console", lambda message: self.console.append((message.type, message.text)))
        self.page.on("pageerror", lambda error: self.page_errors.append(str(error)))
        # CSP violations are also console errors; this keeps their exact directive for messages.
        self.page.add_init_script(
            "window.__cspViolations = [];"
            "document.addEventListener('securitypolicyviolation', e => window.__cspViolations.push("
            "`${e.violatedDirective} blocked ${e.blockedURI || 'inline'} (${e.sourceFile}:${e.lineNumber})`));")

    def allow_host(self, host):
        """Let requests to ``host`` through: the test answers them itself (``context.route``)."""
        self.hosts.add(host)

    def allow_console_error(self, pattern):
        """Let console errors matching ``pattern`` (a regex) through: the test expects them."""
        self.allowed.append(re.compile(pattern))

    def open(self, url):
        self.page.goto(url)
        return self.page

    def apply_hash(self, fragment):
        """Set ``location.hash`` and wait for the page's hashchange handler to have run; return the notice text."""
        return self.page.evaluate(
            """h => new Promise((resolve, reject) => {
                 document.getElementById('notice').hidden = true;
                 const clock = setTimeout(() => reject(new Error('no hashchange')), 30000);
                 addEventListener('hashchange', () => setTimeout(() => {
                   clearTimeout(clock);
                   const n = document.getElementById('notice');
                   resolve(n.hidden ? '' : n.textContent);
                 }, 0), { once: true });
                 location.hash = h;
               })""", fragment)

    def wait_until(self, expression, timeout=LOAD_TIMEOUT_MS, what=None):
        """Poll the JS ``expression`` until it is truthy; return its value.

        Polled from here rather than with ``page.wait_for_function``, which evaluates its predicate
        with ``eval`` inside the page and so cannot run under a strict Content-Security-Policy.
        """
        deadline = time.monotonic() + timeout / 1000
        while True:
            value = self.page.evaluate(expression)
            if value:
                return value
            if time.monotonic() > deadline:
                pytest.fail(f"timed out after {timeout / 1000:.0f} s waiting for {what or expression}",
                            pytrace=False)
            self.page.wait_for_timeout(50)

    def wait_loaded(self, timeout=LOAD_TIMEOUT_MS):
        """Wait until the page is ready or has failed; return ``"ready"`` or ``"failed"``."""
        return self.wait_until(
            "['ready', 'failed'].includes(document.documentElement.dataset.state) && "
            "document.documentElement.dataset.state", timeout, "the page to be ready or to fail")

    def wait_frames(self, count, timeout=60_000):
        """Wait until ``count`` more frames have been drawn; return ``state()``."""
        start = self.page.evaluate("ikDemo.state().frame")
        self.wait_until(f"ikDemo.state().frame >= {start + count}", timeout, f"{count} frames")
        return self.page.evaluate("ikDemo.state()")

    def wait_ready(self, timeout=LOAD_TIMEOUT_MS):
        """Wait for the ready state; fail with the page's own failure text otherwise. Return ``state()``."""
        if self.wait_loaded(timeout) != "ready":
            pytest.fail(f"the page failed to load:\n{self.failure_text()}", pytrace=False)
        return self.page.evaluate("ikDemo.ready")

    def failure_text(self):
        return self.page.evaluate(
            "document.getElementById('failure').hidden ? '' : "
            "document.getElementById('failure-title').textContent + '\\n' + "
            "document.getElementById('failure-text').textContent")

    def problems(self):
        """Everything that breaks the harness's rules, as readable lines."""
        out = []
        for url in self.requests:
            if url.startswith(LOCAL_SCHEMES):
                continue
            if urlsplit(url).hostname not in self.hosts:
                out.append(f"request outside 127.0.0.1: {url}")
        for kind, text in self.console:
            if kind == "error" and not any(p.search(text) for p in self.allowed):
                out.append(f"console error: {text}")
        out += [f"uncaught page error: {e}" for e in self.page_errors]
        return out

    def canvas_image(self):
        """The 3D canvas alone, as a PIL image: the HUD, the panel, the hint and the race chart floating
        over it are hidden first (through the CSSOM: the page's Content-Security-Policy refuses an added
        <style> element). Clipped from the page rather than taken of the element, so a busy machine
        does not wait for the element to hold still between animation frames."""
        from PIL import Image

        box = self.page.evaluate("""() => {
            document.querySelectorAll('#hud, #gui, #race, #hint, .lil-gui').forEach(
                (e) => e.style.setProperty('visibility', 'hidden', 'important'));
            const r = document.querySelector('#viewport canvas').getBoundingClientRect();
            return {x: r.left, y: r.top, width: r.width, height: r.height};
        }""")
        return Image.open(io.BytesIO(self.page.screenshot(clip=box))).convert("RGB")

    def drag(self, start, offset, steps=10, pause_ms=20):
        """Press the mouse at ``start`` (client pixels), move it by ``offset`` in ``steps`` steps with a
        pause after each (so the page sees a drag, not a jump), and release it."""
        mouse = self.page.mouse
        x, y = start
        mouse.move(x, y)
        mouse.down()
        for k in range(1, steps + 1):
            mouse.move(x + offset[0] * k / steps, y + offset[1] * k / steps)
            self.page.wait_for_timeout(pause_ms)
        mouse.up()

    def screenshot(self):
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        name = re.sub(r"[^\w.-]+", "_", self.name).strip("_")[:100]
        self.page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def pytest_configure(config):
    config.addinivalue_line("markers", "context(**options): Playwright options for the demo fixture's browser "
                            "context (viewport, has_touch, is_mobile, reduced_motion...)")


#: What Playwright says when Chromium's renderer process dies under a page.
CRASHED = r"Target crashed|Page crashed"


def pytest_collection_modifyitems(items):
    """A browser test whose page's renderer process died (on a loaded machine Chromium now and then
    loses one while a page loads, in no test in particular) runs once more, in a new context: the
    crash says nothing of the page. Any other failure stands, and so does a second crash
    (pytest-rerunfailures, pinned in build/requirements-test.txt)."""
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.path)).parents:
            item.add_marker(pytest.mark.flaky(reruns=1, only_rerun=[CRASHED]))


@pytest.fixture
def demo(chromium, request):
    """A new browser context (its own empty cache and storage) with one page, watched (see above). A test
    marked ``@pytest.mark.context(**options)`` gets those options for its context (a phone's viewport and
    touch, reduced motion)."""
    marker = request.node.get_closest_marker("context")
    options = {"viewport": VIEWPORT, "service_workers": "block", **(marker.kwargs if marker else {})}
    context = chromium.new_context(**options)
    watched = Demo(context, request.node.name)
    request.node.ikcore_demo = watched
    yield watched
    try:
        watched.screenshot()
    except Exception as exc:  # an artifact for people to look at, not a verdict: a slow machine may time out
        warnings.warn(f"no screenshot of {request.node.name}: {exc}", stacklevel=1)
    finally:
        context.close()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    """After a test's body: fail it for foreign requests, console errors and uncaught page errors."""
    problems = []
    try:
        result = yield
    finally:
        watched = getattr(item, "ikcore_demo", None)
        problems = watched.problems() if watched is not None else []
        if problems:  # shown even when the test failed for another reason first
            item.add_report_section("call", "harness", "\n".join(problems))
    if problems:
        pytest.fail("the page broke the harness's rules:\n  " + "\n  ".join(problems), pytrace=False)
    return result


class SiteCopy:
    """A private copy of ``dist/site`` made of hard links: files are replaced, never written in place."""

    def __init__(self, source, path):
        shutil.copytree(source, path, copy_function=os.link)
        self.path = path

    def find(self, pattern):
        """The one file matching the glob ``pattern`` under the copy."""
        found = sorted(self.path.glob(pattern))
        assert len(found) == 1, f"{pattern}: {found}"
        return found[0]

    def replace(self, relative, data):
        """Give ``relative`` new content (a new file: the built site keeps its own)."""
        target = self.path / relative
        target.unlink()
        target.write_bytes(data if isinstance(data, bytes) else data.encode())

    def remove(self, relative):
        (self.path / relative).unlink()


@pytest.fixture
def site_copy(built, tmp_path):
    """A :class:`SiteCopy` of ``dist/site`` in the test's temporary folder."""
    return SiteCopy(built / "site", tmp_path / "site")
