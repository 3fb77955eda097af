"""The documentation site in headless Chromium: every page crawled, every embed live, the walkthrough
driving its embed, and what four embeds cost in view and out of view.

The crawl starts at /docs/ and follows every link inside /docs/: each page loads with no console error
and no request to another host (the harness's rules), each internal link leads to a page that exists
and each #anchor to an element of that page, formulas are KaTeX's finished HTML with KaTeX's fonts
loaded and no error, and each embedded demo, scrolled into view, becomes ready and answers a ``stepTo``
message (the steps scene by showing that step).
"""

import json
from pathlib import Path
from urllib.parse import urldefrag, urljoin, urlsplit

import pytest

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]

LINKS = """() => [...document.querySelectorAll('a[href]')].map((a) => a.href)"""
IDS = """() => [...document.querySelectorAll('[id]')].map((e) => e.id)"""
MATHS = """async () => {
  await document.fonts.ready;
  return {
    formulas: document.querySelectorAll('.katex').length,
    errors: document.querySelectorAll('.katex-error').length,
    raw: [...document.querySelectorAll('.math, .math-display')].filter((e) => !e.querySelector('.katex')).length,
    font: document.querySelectorAll('.katex').length === 0 || document.fonts.check('16px KaTeX_Main'),
  };
}"""

# The parent page sends {type: "ikcore", command: "stepTo", index, id} to a frame and resolves with the
# frame's answer (or rejects after a while).
ASK_STEP = """([selector, index]) => new Promise((resolve, reject) => {
  const frame = document.querySelector(selector);
  const id = `test-${index}-${Math.random()}`;
  const clock = setTimeout(() => reject(new Error('no answer to stepTo')), 60000);
  addEventListener('message', function listen(event) {
    if (event.source !== frame.contentWindow || event.data?.id !== id) return;
    removeEventListener('message', listen);
    clearTimeout(clock);
    resolve(event.data);
  });
  frame.contentWindow.postMessage({type: 'ikcore', command: 'stepTo', index, id}, location.origin);
})"""


def wait_ready(demo, selector, timeout_ms=180_000):
    state = demo.wait_until(f"['ready', 'failed'].includes(document.querySelector({json.dumps(selector)})"
                            f"?.dataset.state) && document.querySelector({json.dumps(selector)}).dataset.state",
                            timeout=timeout_ms, what=f"{selector} to become ready")
    assert state == "ready", f"{selector} failed to load"


def check_embeds(demo, url):
    """Scroll each embed of the page into view; each becomes ready and answers stepTo."""
    page = demo.page
    count = page.evaluate("() => document.querySelectorAll('figure.ikdemo iframe').length")
    for k in range(count):
        fid = page.evaluate(f"() => {{ const f = document.querySelectorAll('figure.ikdemo iframe')[{k}];"
                            f" f.id = f.id || 'test-frame-{k}'; f.scrollIntoView({{block: 'center'}}); return f.id; }}")
        css = f"#{fid}"
        wait_ready(demo, css)
        src = page.evaluate(f"() => document.querySelector('{css}').src")
        answer = page.evaluate(ASK_STEP, [css, 2])
        assert answer.get("event") == "result", (url, src, answer)
        if "scene=steps" in src:
            assert answer["ok"], (url, src, answer)
            shown = page.evaluate(f"() => document.querySelector('{css}').contentWindow.ikDemo.state().steps.index")
            assert shown == 2, (url, src, shown)
        else:
            assert answer["ok"] is False and "steps" in answer["error"], (url, src, answer)
    return count


def test_every_docs_page(demo, site_server):
    start = urljoin(site_server, "docs/index.html")
    docs_root = urljoin(site_server, "docs/")
    pending, seen, anchors, pages, files = [start], set(), [], {}, {}
    embeds = maths_pages = 0
    failed = []
    demo.page.on("response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    while pending:
        url = pending.pop()
        if url in seen:
            continue
        seen.add(url)
        response = demo.page.goto(url)
        assert response is not None and response.status == 200, f"{url}: HTTP {response and response.status}"
        pages[url] = set(demo.page.evaluate(IDS))
        maths = demo.page.evaluate(MATHS)
        assert maths["errors"] == 0 and maths["raw"] == 0 and maths["font"], (url, maths)
        maths_pages += maths["formulas"] > 0
        embeds += check_embeds(demo, url)
        assert not failed, (url, failed)
        for link in demo.page.evaluate(LINKS):
            if urlsplit(link).hostname != "127.0.0.1":
                continue
            base, fragment = urldefrag(link)
            if base.startswith(docs_root):
                if base.endswith("/"):
                    base += "index.html"
                if not base.endswith(".html"):   # a figure's image, opened by its link: it exists
                    if base not in files:
                        files[base] = demo.page.request.get(base).status
                    assert files[base] == 200, f"{url} links to {base}: HTTP {files[base]}"
                    continue
                pending.append(base)
                if fragment:
                    anchors.append((url, base, fragment))
            else:  # the page itself, from "Open the live demo" and the embeds' links
                assert base in (site_server, urljoin(site_server, "index.html")), (url, link)
    for source, target, fragment in anchors:
        assert target in pages, f"{source} links to {target}, which was not crawled"
        assert fragment in pages[target], f"{source} links to {target}#{fragment}: no such anchor"
    assert len(pages) >= 35, sorted(pages)
    assert maths_pages >= 7, maths_pages
    assert embeds >= 14, embeds


def test_the_page_links_to_the_docs_and_back(demo, site_server):
    demo.open(site_server)
    assert demo.wait_loaded() == "ready"
    href = demo.page.get_attribute("#docs-link", "href")
    response = demo.page.goto(urljoin(site_server, href))
    assert response.status == 200 and "ikcore" in demo.page.title()
    back = demo.page.evaluate("() => document.getElementById('back-to-demo').href")
    assert back in (site_server, urljoin(site_server, "index.html"))


def test_the_walkthrough_drives_its_embed(demo, site_server):
    page = demo.open(urljoin(site_server, "docs/algorithms/walkthrough.html"))
    wait_ready(demo, "#walkthrough-demo iframe")
    shown = "document.querySelector('#walkthrough-demo iframe').contentWindow.ikDemo.state().steps.index"
    for index in (8, 16, 4):   # scrolled to: the block crossing the middle of the window drives the demo
        # Scrolled back to the middle whenever it has drifted from it, as a reader would: the embed and the
        # page's images may still move the text once loaded.
        centred = f"""(() => {{
            const block = document.querySelector('.walk-step.step-{index}');
            const box = block.getBoundingClientRect();
            if (Math.abs(box.top + box.height / 2 - innerHeight / 2) > box.height / 2)
                block.scrollIntoView({{block: 'center', behavior: 'instant'}});
            return {shown} === {index};
        }})()"""
        demo.wait_until(centred, timeout=30_000, what=f"the demo to show step {index}")
        demo.wait_until(f"document.querySelector('.walk-step.step-{index}').classList.contains('walk-current')",
                        timeout=10_000, what=f"block {index} highlighted")
    page.evaluate("() => window.scrollTo(0, 0)")
    page.click(".walk-step.step-1")   # clicked: the same
    demo.wait_until(f"{shown} === 1", timeout=30_000, what="the demo to show step 1")


def python_calls(page, seconds):
    """Python calls a second of each embed of the page, over ``seconds``: frames counted by each demo."""
    count = """() => [...document.querySelectorAll('figure.ikdemo iframe')].map(
        (f) => f.contentWindow.ikDemo ? f.contentWindow.ikDemo.state().frame : null)"""
    before = page.evaluate(count)
    page.wait_for_timeout(seconds * 1000)
    after = page.evaluate(count)
    return [(b - a) / seconds for a, b in zip(before, after)]


def test_four_embeds_load_lazily_and_rest_out_of_view(demo, site_server):
    page = demo.open(urljoin(site_server, "docs/page/embedding.html"))
    ids = ["demo-four-arm", "demo-four-tentacles", "demo-four-spider", "demo-four-race"]
    src = "() => [...document.querySelectorAll('figure.ikdemo iframe')].map((f) => f.getAttribute('src'))"
    page.wait_for_timeout(1500)
    assert all(s is None for s in page.evaluate(src)[-4:]), "embeds far below loaded with the page"
    page.set_viewport_size({"width": 1000, "height": 1500})   # tall enough for the four at once
    page.evaluate("() => document.getElementById('demo-four-arm').scrollIntoView({block: 'start'})")
    for ident in ids:
        wait_ready(demo, f"#{ident} iframe")
    in_view = python_calls(page, 5)[-4:]
    page.evaluate("() => window.scrollTo(0, 0)")
    page.wait_for_timeout(500)
    out_of_view = python_calls(page, 5)[-4:]
    report = {"in_view": in_view, "out_of_view": out_of_view}
    (ROOT / "dist" / "test-artifacts").mkdir(parents=True, exist_ok=True)
    (ROOT / "dist" / "test-artifacts" / "docs-four-embeds.json").write_text(json.dumps(report, indent=1))
    print("Python calls a second, four embeds:", report)
    assert all(rate > 0.5 for rate in in_view), report
    assert all(rate == 0 for rate in out_of_view), report
