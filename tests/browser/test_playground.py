"""The playground in headless Chromium: the reader types a solver, runs it and sees its curve and chain; its
mistakes are shown with their line and never break the page; an endless loop is stopped within 2 s and the
page answers; code in a link is shown, not run, until Run; an embed with a template works at 480x320."""

import time

import pytest

PLAYGROUND = "#scene=playground"


def open_playground(demo, site_server, fragment=PLAYGROUND):
    demo.open(site_server + fragment)
    demo.wait_ready()
    return demo.page


def view(page):
    return page.evaluate("ikDemo.state().view.playground")


def lanes(page):
    return page.evaluate("ikDemo.state() && window.ikDemo && ikDemo.state().chains")


def wait_result(demo, runs_before=None, timeout=30_000):
    """The result line once the reader's lane has a result (not "Running…")."""
    demo.wait_until("(() => { const r = ikDemo.state().view.playground.result;"
                    " return r.status && r.status !== 'running'; })()", timeout, "the run's result")
    return view(demo.page)["result"]


def type_code(page, lines):
    """Clear the editor and type ``lines`` key by key, as a reader types (the editor indents after a colon
    and keeps the indentation: each line is typed without its leading spaces, Backspace dedents)."""
    editor = page.locator("#playground textarea")
    editor.click()
    page.keyboard.press("Control+A")
    page.keyboard.press("Delete")
    for k, line in enumerate(lines):
        if line.startswith("<"):
            page.keyboard.press("Backspace")
            line = line[1:]
        page.keyboard.type(line.lstrip(), delay=5)
        if k < len(lines) - 1:
            page.keyboard.press("Enter")


def test_the_playground_opens_racing_the_ccd_template(demo, site_server):
    page = open_playground(demo, site_server)
    state = view(page)
    assert state["template"] == "ccd" and state["code"].startswith("# Your solver: step(points, target, lengths)")
    result = wait_result(demo)
    assert result["status"] == "converged" and result["text"].startswith("Your solver converged in")
    names = [c["name"] for c in page.evaluate("ikDemo.state().chains")]
    assert names == ["yours", "ccd", "fabrik", "jacobian_transpose"]
    # The editor's lines are numbered and coloured.
    assert page.locator(".pg-gutter span").count() == state["code"].count("\n") + 1
    assert page.locator(".pg-pre .pg-k").count() > 5 and page.locator(".pg-pre .pg-c").count() >= 5


MINE = [
    "import math",
    "def step(points, target, lengths):",
    "print('step', len(points))",
    "pts = [list(p) for p in points]",
    "pts[-1] = list(target)",
    "for i in reversed(range(len(lengths))):",
    "d = [pts[i][k] - pts[i + 1][k] for k in range(3)]",
    "n = math.hypot(*d)",
    "pts[i] = [pts[i + 1][k] + lengths[i] * d[k] / n for k in range(3)]",
    "<pts[0] = list(points[0])",
    "for i in range(len(lengths)):",
    "d = [pts[i + 1][k] - pts[i][k] for k in range(3)]",
    "n = math.hypot(*d)",
    "pts[i + 1] = [pts[i][k] + lengths[i] * d[k] / n for k in range(3)]",
    "<return pts",
]


def chain_tip(page, name):
    chain = next(c for c in page.evaluate("ikDemo.state().chains") if c["name"] == name)
    return chain


def test_typed_solver_runs_and_its_curve_and_chain_show(demo, site_server):
    page = open_playground(demo, site_server)
    wait_result(demo)
    type_code(page, MINE)
    code = view(page)["code"]
    assert "        pts[i] = [pts[i + 1][k]" in code and "\n    return pts" in code, code
    page.keyboard.press("Control+Enter")
    result = wait_result(demo)
    assert result["status"] == "converged", result
    # The chart holds the reader's curve (its lane, first, converged), and the reader's chain reaches the target.
    demo.wait_until("ikDemo.state().chains[0].status === 'converged'", 30_000, "the replay to end")
    lanes_ = page.evaluate("ikDemo.state().chains")
    yours = lanes_[0]
    assert yours["name"] == "yours" and yours["error"] <= 1.5e-3
    tip, target = yours["effector"], yours["target"]
    assert max(abs(a - b) for a, b in zip(tip, target)) < 2e-3
    # What it printed is under the editor.
    assert page.locator(".pg-output").inner_text().startswith("step 7")
    # The chart draws the reader's colour (the first lane's, orange) in its plot.
    assert chart_has_color(page, (0xff, 0x9f, 0x43))
    # The target dragged elsewhere: every lane races again, the reader's too, and reaches it.
    page.evaluate("ikDemo.setTarget('target', [-0.3, 0.8, 0.4])")
    demo.wait_until("(() => { const c = ikDemo.state().chains; return c.every((l) => l.status === 'converged')"
                    " && Math.abs(c[0].target[0] + 0.3) < 1e-9; })()", 30_000, "the race to the new target")
    yours = page.evaluate("ikDemo.state().chains")[0]
    assert max(abs(a - b) for a, b in zip(yours["effector"], yours["target"])) < 2e-3


def chart_has_color(page, rgb, within=40):
    import io

    from PIL import Image

    box = page.evaluate("(() => { const r = document.querySelector('#race canvas').getBoundingClientRect();"
                        " return {x: r.left, y: r.top, width: r.width * 0.55, height: r.height}; })()")
    image = Image.open(io.BytesIO(page.screenshot(clip=box))).convert("RGB")
    r, g, b = rgb
    return sum(n for n, (x, y, z) in image.getcolors(maxcolors=1 << 22)
               if abs(x - r) <= within and abs(y - g) <= within and abs(z - b) <= within) > 30


def run_code(page, code):
    page.evaluate("(code) => { const t = document.querySelector('#playground textarea'); t.value = code;"
                  " t.dispatchEvent(new Event('input')); }", code)
    page.click("#playground .pg-run")


def test_a_syntax_error_shows_its_line_marked(demo, site_server):
    page = open_playground(demo, site_server)
    wait_result(demo)
    run_code(page, "import math\n\ndef step(points, target, lengths)\n    return points\n")
    result = wait_result(demo)
    assert result["status"] == "error" and result["text"].startswith("Line 3: SyntaxError"), result
    assert view(page)["markedLine"] == 3
    assert page.locator(".pg-gutter span.pg-bad").inner_text() == "3"
    assert page.locator(".pg-mark").is_visible()
    # Typing clears the mark; the page goes on.
    page.locator("#playground textarea").click()
    page.keyboard.type("x")
    assert view(page)["markedLine"] is None
    # ... and the lanes finishing their race after it do not mark it again.
    demo.wait_frames(10)
    assert view(page)["markedLine"] is None and page.locator(".pg-mark").is_hidden()


def test_an_exception_shows_its_message_and_line(demo, site_server):
    page = open_playground(demo, site_server)
    wait_result(demo)
    run_code(page, "def step(points, target, lengths):\n    total = 0\n    return points[len(points)]\n")
    result = wait_result(demo)
    assert result["status"] == "error"
    assert result["text"] == "Line 3: IndexError: list index out of range", result
    assert view(page)["markedLine"] == 3


def test_an_endless_loop_is_stopped_within_two_seconds_and_the_page_answers(demo, site_server):
    page = open_playground(demo, site_server)
    wait_result(demo)
    page.evaluate("(code) => { const t = document.querySelector('#playground textarea'); t.value = code;"
                  " t.dispatchEvent(new Event('input')); }",
                  "def step(points, target, lengths):\n    n = 0\n    while True:\n        n += 1\n")
    t0 = time.monotonic()
    page.click("#playground .pg-run")
    result = wait_result(demo, timeout=10_000)
    took = time.monotonic() - t0
    assert result["status"] == "timeout" and "stopped after 1 s" in result["text"], result
    # From the click's handler to the message, on the page's clock (the test's own clock adds Playwright's
    # round trips and polling on a shared machine: printed, not held).
    assert result["ms"] < 2000, f"stopped {result['ms']:.0f} ms after Run"
    assert view(page)["markedLine"] in (3, 4)
    # The page still answers: frames go on, the panel and the target respond.
    frame = page.evaluate("ikDemo.state().frame")
    demo.wait_frames(5, timeout=5_000)
    assert page.evaluate("ikDemo.state().frame") > frame
    page.evaluate("ikDemo.setTarget('target', [0.2, 0.9, 0.3])")
    demo.wait_frames(6, timeout=5_000)
    assert "until you press Run" in view(page)["result"]["text"]
    print(f"endless loop stopped {result['ms']:.0f} ms after Run (page clock), {took:.2f} s (test clock)")


def test_a_nan_solver_is_flagged(demo, site_server):
    page = open_playground(demo, site_server)
    wait_result(demo)
    run_code(page, "def step(points, target, lengths):\n    return [(float('nan'), 0.0, 0.0)] * len(points)\n")
    result = wait_result(demo)
    assert result["status"] == "invalid"
    assert result["text"] == "Flagged, at iteration 1: point 0 is (nan, 0.0, 0.0): NaN or infinite", result
    # Nothing NaN reaches the scene: the reader's lane is drawn at rest.
    chains = page.evaluate("ikDemo.state().chains")
    assert all(v == v for c in chains for v in c["effector"])


def test_code_in_a_link_is_shown_not_run_until_run(demo, site_server):
    page = open_playground(demo, site_server)
    wait_result(demo)
    run_code(page, "def step(points, target, lengths):\n    print('ran')\n    return points\n")
    wait_result(demo)
    demo.wait_until("ikDemo.state().view.playground.packed", 5000, "the code packed into the link")
    link = page.evaluate("ikDemo.link()")
    assert "code=" in link and "print" not in link
    # A new page from the link (the address bar holds it already: a fresh load, as a reader opening it gets):
    # the code is in the editor, with the notice; it has not run.
    demo.open("about:blank")
    demo.open(link)
    demo.wait_ready()
    demo.wait_until("ikDemo.state().view.playground.fromLink", 10_000, "the link's code in the editor")
    state = view(page)
    assert "print('ran')" in state["code"]
    assert page.locator(".pg-link").is_visible()
    demo.wait_frames(10)
    played = page.evaluate("ikDemo.state().view.playground")
    assert played["result"]["status"] == "converged"  # the template's run, not the link's code
    assert page.locator(".pg-output").is_hidden()
    page.click("#playground .pg-run")
    result = wait_result(demo)
    assert result["status"] == "stalled" and page.locator(".pg-output").inner_text().startswith("ran")
    assert page.locator(".pg-link").is_hidden()


@pytest.mark.context(viewport={"width": 480, "height": 320})
def test_an_embed_with_a_template_fits_480_by_320(demo, site_server):
    page = open_playground(demo, site_server, "#scene=playground&embed=1&template=fabrik")
    result = wait_result(demo)
    state = view(page)
    assert state["template"] == "fabrik" and "FABRIK" in state["code"]
    assert result["status"] == "converged"
    # Everything of the playground within the frame: the panel, Run, the chart.
    for selector in ("#playground", "#playground .pg-run", "#race"):
        box = page.locator(selector).bounding_box()
        assert box["x"] >= 0 and box["y"] >= 0 and box["x"] + box["width"] <= 480 and box["y"] + box["height"] <= 320, (selector, box)
    assert page.locator("#playground textarea").is_visible()
    # Run from the embed too.
    page.click("#playground .pg-run")
    assert wait_result(demo)["status"] == "converged"


def lanes_seen(page, bottom):
    """How many of a grid of points over the canvas, above ``bottom`` (client pixels), show the canvas
    itself (``elementFromPoint``), and the pixels of the page there (a screenshot, overlays included)."""
    import io

    from PIL import Image

    hits = page.evaluate("""(bottom) => {
        const canvas = document.querySelector('#viewport canvas');
        let hits = 0, total = 0;
        for (let y = 100; y < bottom - 4; y += 24) for (let x = 8; x < innerWidth - 8; x += 24) {
            total += 1;
            if (document.elementFromPoint(x, y) === canvas) hits += 1;
        }
        return {hits, total};
    }""", bottom)
    # The whole page, then cropped: a clipped screenshot is composited anew and may not show what the
    # reader sees.
    shot = Image.open(io.BytesIO(page.screenshot())).convert("RGB")
    return hits, shot.crop((0, 100, shot.width, int(bottom)))


@pytest.mark.context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
def test_on_a_phone_held_upright_the_editor_sits_below_the_scene_and_runs_by_tap(demo, site_server):
    page = open_playground(demo, site_server)
    wait_result(demo)
    panel = page.locator("#playground").bounding_box()
    chart = page.locator("#race").bounding_box()
    # The editor takes the bottom of the page, the chart stands above it, nothing runs off the screen.
    assert panel["y"] > 300 and panel["y"] + panel["height"] <= 844 and panel["x"] >= 0 and panel["x"] + panel["width"] <= 390
    assert chart["y"] + chart["height"] <= panel["y"] + 1
    # Above the chart the lanes are seen: nothing of the editor covers the canvas there, and what the page
    # shows there is what it shows with the editor taken away (no shadow, backdrop or layer of it).
    hits, shown = lanes_seen(page, chart["y"])
    assert hits["hits"] >= 0.9 * hits["total"], hits
    page.evaluate("document.querySelector('#playground').style.visibility = 'hidden'")
    page.wait_for_timeout(300)
    _, bare = lanes_seen(page, chart["y"])
    page.evaluate("document.querySelector('#playground').style.visibility = ''")
    dark = sum(1 for a, b in zip(shown.get_flattened_data(), bare.get_flattened_data()) if sum(b) - sum(a) > 60)
    assert dark < 0.02 * shown.width * shown.height, dark
    colours = set(shown.get_flattened_data())
    assert len(colours) > 50, "the canvas above the chart shows one flat colour: no lanes"
    # A phone's font: 16 px, so that focusing the editor does not zoom the page.
    assert page.evaluate("getComputedStyle(document.querySelector('.pg-code')).fontSize") == "16px"
    page.tap("#playground textarea")
    page.evaluate("(code) => { const t = document.querySelector('#playground textarea'); t.value = code;"
                  " t.dispatchEvent(new Event('input')); }", "def step(points, target, lengths):\n    return points[:3]\n")
    page.tap("#playground .pg-run")
    result = wait_result(demo)
    assert result["status"] == "invalid" and "returned 3 points; the chain has 7" in result["text"]


# -- the methods that race: the panel's "ikcore methods racing" (Python's rivals) ----------------------------

#: The chart's colours of lanes 3 to 6 (parts/race-chart.js): purple, red, cyan, yellow.
LANE_RGB = {3: (0xc5, 0x6c, 0xf0), 4: (0xff, 0x6b, 0x6b), 5: (0x3d, 0xd6, 0xd0), 6: (0xf2, 0xe3, 0x5e)}


def rival_box(page, label):
    """The tick box of the method ``label`` (as the chart names it) in the panel's folder of rivals."""
    folder = page.locator("#gui .lil-gui", has=page.locator(".lil-title", has_text="ikcore methods racing")).last
    row = folder.locator(".lil-controller.lil-boolean").filter(
        has=page.locator(".lil-name").get_by_text(label, exact=True))
    return row.locator("input")


def ticked(page):
    labels = ["CCD", "FABRIK", "J transpose", "pseudo-inverse", "DLS", "FABRIK→DLS"]
    return [label for label in labels if rival_box(page, label).is_checked()]


def raced(demo, names):
    """Wait for the lanes ``names`` (after "yours") to have ended their replays; return the chains."""
    demo.wait_until(f"(() => {{ const c = ikDemo.state().chains; return c.length === {len(names) + 1} && "
                    f"c.map((l) => l.name).join() === {','.join(['yours', *names])!r} && "
                    "c.every((l) => l.status !== 'running'); })()", 30_000, f"the race of {names}")
    demo.page.wait_for_timeout(300)  # the chart's last curve drawn
    return demo.page.evaluate("ikDemo.state().chains")


def assert_lanes_framed(page, count):
    """Every lane's name is drawn between the editor and the panel, above the chart: the camera framed them."""
    boxes = page.evaluate("""() => { const r = (s) => document.querySelector(s).getBoundingClientRect();
        return { labels: ikDemo.state().view.labels, editor: r('#playground'), gui: r('#gui'), chart: r('#race') }; }""")
    assert len(boxes["labels"]) == count
    for left, top, right, bottom in boxes["labels"]:
        assert boxes["editor"]["right"] <= left and right <= boxes["gui"]["left"], boxes
        assert bottom <= boxes["chart"]["top"], boxes


def test_the_panel_chooses_the_methods_that_race_and_the_code_stays(demo, site_server):
    page = open_playground(demo, site_server)
    wait_result(demo)
    assert ticked(page) == ["CCD", "FABRIK", "J transpose"]
    type_code(page, MINE)
    page.keyboard.press("Control+Enter")
    assert wait_result(demo)["status"] == "converged"
    # An edit made since, not run: it stays in the editor and is not sent to Python by the change of lanes.
    page.keyboard.type("\n# not run yet")
    code = view(page)["code"]
    runs = view(page)["loads"]
    page.evaluate("window.__editor = document.querySelector('#playground textarea')")
    raced(demo, ["ccd", "fabrik", "jacobian_transpose"])
    assert chart_has_color(page, LANE_RGB[3])
    # Untick the Jacobian transpose, as a reader clicks: three lanes, no fourth curve; the tick box keeps the focus.
    rival_box(page, "J transpose").click()
    chains = raced(demo, ["ccd", "fabrik"])
    assert [c["status"] for c in chains] == ["converged"] * 3, chains
    assert not chart_has_color(page, LANE_RGB[3])
    assert_lanes_framed(page, 3)
    assert ticked(page) == ["CCD", "FABRIK"]
    assert page.evaluate("document.activeElement.closest('.lil-controller')?.textContent") == "J transpose"
    # The editor is the one the reader typed into: the same code (and the unrun edit), Python's code the one run.
    state = view(page)
    assert state["code"] == code and state["result"]["status"] == "converged"
    assert view(page)["loads"] == runs
    assert page.locator(".pg-output").inner_text().startswith("step 7")
    # The very editor the reader typed into: its caret, scroll and undo history are kept too.
    assert page.evaluate("document.querySelector('#playground textarea') === window.__editor")
    # Tick three more: six lanes, their curves in their colours; the link carries the choice.
    for label in ("pseudo-inverse", "DLS", "FABRIK→DLS"):
        rival_box(page, label).click()
    raced(demo, ["ccd", "fabrik", "pseudo_inverse", "dls", "fabrik_dls"])
    assert chart_has_color(page, LANE_RGB[3]) and chart_has_color(page, LANE_RGB[4])
    assert "&rivals=ccd,fabrik,pseudo_inverse,dls,fabrik_dls&" in page.evaluate("ikDemo.link()")
    # Every method: seven lanes, the seventh curve in a colour of its own.
    assert not chart_has_color(page, LANE_RGB[6])
    rival_box(page, "J transpose").click()
    raced(demo, ["ccd", "fabrik", "jacobian_transpose", "pseudo_inverse", "dls", "fabrik_dls"])
    assert chart_has_color(page, LANE_RGB[6])
    assert_lanes_framed(page, 7)
    assert view(page)["code"] == code
    # The last one unticked is refused with a notice: one method at least races.
    for label in ("CCD", "FABRIK", "J transpose", "pseudo-inverse", "DLS"):
        rival_box(page, label).click()
    raced(demo, ["fabrik_dls"])
    rival_box(page, "FABRIK→DLS").click()
    notice = page.locator("#notice")
    assert notice.is_visible() and "rivals must name at least one of" in notice.text_content()
    assert ticked(page) == ["FABRIK→DLS"]
    assert [c["name"] for c in page.evaluate("ikDemo.state().chains")] == ["yours", "fabrik_dls"]
    # The editor still holds the reader's code, and Run runs it (the edit too) against the lane left.
    assert view(page)["code"] == code
    page.click("#playground .pg-run")
    demo.wait_until(f"ikDemo.state().view.playground.loads === {runs + 1}", 10_000, "the run")
    assert wait_result(demo)["status"] == "converged"


def test_a_link_carries_the_rivals_and_its_code_still_waits_for_run(demo, site_server):
    page = open_playground(demo, site_server)
    wait_result(demo)
    run_code(page, "def step(points, target, lengths):\n    print('ran')\n    return points\n")
    wait_result(demo)
    page.evaluate("ikDemo.set({rivals: ['dls', 'fabrik']})")
    demo.wait_until("ikDemo.state().view.playground.packed", 5000, "the code packed into the link")
    link = page.evaluate("ikDemo.link()")
    assert "&rivals=fabrik,dls&" in link and "code=" in link
    demo.open("about:blank")
    demo.open(link)
    demo.wait_ready()
    demo.wait_until("ikDemo.state().view.playground.fromLink", 10_000, "the link's code in the editor")
    raced(demo, ["fabrik", "dls"])
    assert ticked(page) == ["FABRIK", "DLS"]
    # Other lanes, chosen in the panel, do not run the link's code: the template races, the notice stays.
    rival_box(page, "CCD").click()
    raced(demo, ["ccd", "fabrik", "dls"])
    state = view(page)
    assert state["fromLink"] and "print('ran')" in state["code"] and state["result"]["status"] == "converged"
    assert page.locator(".pg-link").is_visible() and page.locator(".pg-output").is_hidden()
    page.click("#playground .pg-run")
    assert wait_result(demo)["status"] == "stalled"
    assert page.locator(".pg-output").inner_text().startswith("ran")
    # A bad value in a link is named in the notice and left out; the rest of the link applies.
    notice = demo.apply_hash("v=1&rivals=fabrik,newton&rate=30")
    assert notice.startswith("Link: ignored rivals (rivals: \"newton\" is not one of ccd, fabrik,"), notice
    assert notice.endswith("The rest of it applied.")
    assert page.evaluate("ikDemo.state().params.rate") == 30
    assert [c["name"] for c in page.evaluate("ikDemo.state().chains")] == ["yours", "ccd", "fabrik", "dls"]
    for fragment, words in (("v=1&rivals=fabrik,fabrik", "rivals (rivals names fabrik twice)"),
                            ("v=1&rivals=,", "rivals (rivals: \"\" is not one of")):
        assert words in demo.apply_hash(fragment)
