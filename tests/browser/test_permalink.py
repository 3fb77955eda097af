"""Permalinks: the page's state in the URL hash, restored by opening the link; links from strangers are parsed
strictly (at least 200 malformed ones leave the page live, with a notice, no dialog, no foreign request, no console
error); the copy-link button; panel inputs checked with the specs Python applies.

Most cases are driven through ``hashchange`` on one loaded page (loading Pyodide per case would be slow); a few
open the page afresh with the link.
"""

import math
import random
from urllib.parse import quote

import pytest

TOL = 1e-6
#: Where no test drives the mouse: a small canvas, which software WebGL draws fast (a hashchange waits for a
#: frame to end, so the frame time sets the pace of the live cases).
SMALL = {"width": 240, "height": 180}


def snapshot(page):
    """The link and the state it was taken from, at the same moment, plus Python's view of the targets."""
    return page.evaluate("""() => {
        const link = ikDemo.link();
        const s = ikDemo.state();
        return { link, scene: s.scene, method: s.method, params: s.params, overlays: s.overlays,
                 camera: s.camera, targets: s.targets };
    }""")


def assert_close(a, b, what):
    assert len(a) == len(b) and all(math.isclose(x, y, rel_tol=0, abs_tol=TOL) for x, y in zip(a, b)), \
        f"{what}: {a} != {b}"


def link_values(link):
    """A link's entries: {key: [numbers]} for coordinates, {key: text} otherwise."""
    out = {}
    for part in link.split("#", 1)[1].split("&"):
        key, value = part.split("=", 1)
        out[key] = [float(v) for v in value.split(",")] if key.startswith("t.") or key == "cam" else value
    return out


def assert_same_links(link, reference):
    again, first = link_values(link), link_values(reference)
    assert again.keys() == first.keys()
    for key, value in first.items():
        if isinstance(value, list):
            assert_close(again[key], value, key)
        else:
            assert again[key] == value, key


def assert_restored(page, before, names, after=None):
    after = after or page.evaluate("ikDemo.state()")
    assert (after["scene"], after["method"]) == (before["scene"], before["method"])
    assert after["params"] == before["params"]
    assert after["overlays"] == before["overlays"]
    assert_close(after["camera"]["position"], before["camera"]["position"], "camera position")
    assert_close(after["camera"]["target"], before["camera"]["target"], "camera target")
    for name in names:
        assert_close(after["targets"][name], before["targets"][name], f"target {name}")
    return after


def test_link_round_trip_in_a_fresh_page(demo, site_server):
    """Set a state through the panel, the mouse and ikDemo; the link opened in a fresh page gives it back."""
    dialogs = []
    demo.page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    demo.open(site_server)
    demo.wait_ready()
    page = demo.page
    # The panel: method from its select, a tolerance typed into its field.
    page.locator("#gui .lil-gui select").nth(1).select_option("fabrik_dls")
    field = page.locator("#gui .lil-gui .lil-controller", has_text="tolerance").locator("input")
    field.fill("0.0025")
    field.press("Enter")
    page.evaluate("ikDemo.set({max_iterations: 37, damping: 0.07, constraints: false, animate: false})")
    page.evaluate("ikDemo.showLimits(true)")
    q = [math.cos(0.3), 0.0, math.sin(0.3), 0.0]
    page.evaluate("q => ikDemo.setTarget('target', [0.61, 1.07, 0.23], q)", q)
    # The pole dragged with the mouse, the camera orbited with the mouse.
    page.evaluate("ikDemo.select('pole')")
    demo.wait_frames(2)
    demo.drag(page.evaluate("ikDemo.screenPosition('pole')"), (40, -30))
    demo.drag((150, 450), (110, -25))
    before = snapshot(page)
    assert before["method"] == "fabrik_dls" and before["params"]["tolerance"] == 0.0025
    assert before["camera"]["position"] != [1.6, 1.8, 2.6], "the camera did not move"
    link = before["link"]
    assert link.startswith(site_server) and "#v=1&scene=arm&" in link
    assert "t.target=" in link and "t.pole=" in link and "cam=" in link
    held = page.evaluate("ikDemo.state().targets.pole")
    assert held != [0.45, 0.35, 0.35], "the pole was not dragged"

    page.goto("about:blank")
    page.goto(link)
    demo.wait_ready()
    after = assert_restored(page, before, ["target", "pole"])
    assert after["params"]["constraints"] is False and after["params"]["max_iterations"] == 37
    assert page.evaluate("document.getElementById('notice').hidden"), "a notice for a good link"
    # The restored page's own link says the same (the target's orientation among it) to within TOL.
    assert_same_links(page.evaluate("ikDemo.link()"), link)
    first = link_values(link)
    assert len(first["t.target"]) == 7
    assert_close(first["t.target"][3:], q, "the orientation in the link")
    assert page.evaluate("ikDemo.applyLink(location.hash)") == {"ignored": []}
    assert not dialogs


def test_links_of_every_scene_round_trip_live(demo, site_server):
    """Each scene's state taken as a link, the page changed, the link applied through hashchange: same state.
    The address bar follows the page with replaceState (no history entries), and keeps the embed keys."""
    demo.page.set_viewport_size(SMALL)
    demo.open(site_server)
    demo.wait_ready()
    page = demo.page
    length = page.evaluate("history.length")
    setups = {
        "tentacles": ("ccd", {"tolerance": 0.004, "max_iterations": 12, "animate": False},
                      {"target1": [0.4, 1.6, 0.3]}),
        # Standing still: the camera follows the walker's body, which starts at home in a restored page.
        "spider": ("fabrik", {"speed": 0.0, "wander": False, "max_iterations": 7},
                   {"destination": [2.5, 0.0, -1.5]}),
        "race": ("dls", {"tolerance": 0.002, "max_iterations": 60, "rate": 300, "pause": 0.5, "animate": False},
                 {"target": [-3.9, 0.9, 0.35]}),
    }
    for scene, (method, params, targets) in setups.items():
        page.evaluate("s => ikDemo.setScene(s)", scene)
        page.evaluate("m => ikDemo.setMethod(m)", method)
        page.evaluate("p => ikDemo.set(p)", params)
        for name, position in targets.items():
            page.evaluate("([n, p]) => ikDemo.setTarget(n, p)", [name, position])
        demo.wait_frames(2)
        before = snapshot(page)
        fragment = before["link"].split("#", 1)[1]
        # Every held target is in the link: all of the tentacles' (scripts stopped), the spider's destination.
        stored = {part.split("=")[0][2:] for part in fragment.split("&") if part.startswith("t.")}
        expected = {"tentacles": {"target0", "target1", "target2", "target3"}, "spider": {"destination"},
                    "race": {"target"}}[scene]
        assert stored == expected, (scene, stored)
        # The address bar caught up within the throttle.
        demo.wait_until(f"location.hash.includes('scene={scene}&method={method}')", 30_000, "the hash to follow")
        page.evaluate("ikDemo.setScene('arm')")
        page.evaluate("ikDemo.showLimits(true)")
        # The address bar follows the switch before the link is set again: setting the hash it still
        # shows would fire no hashchange.
        demo.wait_until("location.hash.includes('scene=arm')", 30_000, "the hash to follow the switch")
        if scene == "spider":
            # The camera follows a point of the walker's body, which turns towards the destination from its home
            # pose in the restored scene: the view is compared as the link leaves it, before the next frame (the
            # page's own link then, since the drawn targets are read from the next frame's buffer).
            restored = page.evaluate("h => [ikDemo.applyLink(h), ikDemo.link()]", fragment)
            assert restored[0] == {"ignored": []}
            assert_same_links(restored[1], before["link"])
            after = page.evaluate("ikDemo.state()")
        else:
            assert demo.apply_hash(fragment) == ""
            after = assert_restored(page, before, sorted(stored))
        assert after["params"] == before["params"]
    # With scripted motion on, a target the user did not pin follows its script and is not in the link.
    page.evaluate("ikDemo.setScene('tentacles')")
    page.evaluate("ikDemo.setTarget('target2', [0.1, 1.5, 0.2])")
    link = page.evaluate("ikDemo.link()")
    assert "t.target2=0.1,1.5,0.2" in link and "t.target0" not in link and "animate=1" in link
    # The embed mode's keys are kept in the hashes the page writes, unflagged.
    assert demo.apply_hash("v=1&embed=1&origin=https://docs.example.org&method=fabrik") == ""
    demo.wait_until("location.hash.includes('embed=1&origin=https%3A%2F%2Fdocs.example.org') && "
                    "location.hash.includes('scene=tentacles&method=fabrik')", 30_000, "the embed keys to stay in the hash")
    # Three links set through location.hash above add one entry each; the page's own writes add none.
    assert page.evaluate("history.length") == length + 3, "hash writes must not add history entries"


def malformed_cases(rng):
    """At least 200 malformed or hostile hashes, each paired with what must still apply (or None)."""
    cases = []
    payloads = ["<script>window.__pwned=1</script>", "javascript:window.__pwned=1", "\"><img src=x onerror=window.__pwned=1>",
                "';window.__pwned=1;//", "${window.__pwned=1}", "<svg onload=window.__pwned=1>", "data:text/html,<b>x</b>",
                "javascript:alert(1)", "<iframe src=javascript:alert(1)>", "%3Cscript%3Ealert(1)%3C/script%3E",
                # Short enough to be shown whole in a notice: markup there would become elements.
                "<svg onload=alert(1)>", "<b>bold</b>", "<img src=x>"]
    for p in payloads:
        q = quote(p, safe="")
        cases += [(f"v=1&method={q}", None), (f"v=1&scene={q}", None), (f"{q}=1&method=ccd", {"method": "ccd"}),
                  (f"v=1&t.target={q}", None), (f"v=1&cam={q}", None), (p, None)]
    numbers = ["NaN", "Infinity", "-Infinity", "1e309", "-1e400", "1e308", "1e-400x", "0x10", "1_0", "1,5", "",
               "+-1", "1e", ".", "--1", "9" * 300, "1" * 70, "٣", "１", "0.5.5", " 1", "true"]
    for n in numbers:
        q = quote(n, safe=",")
        cases += [(f"v=1&max_iterations=25&tolerance={q}", {"max_iterations": 25}),
                  (f"v=1&t.target={q},1,1&method=ccd", {"method": "ccd"}),
                  (f"v=1&cam=1,1,1,0,0,{q}", None)]
    cases += [(f"v=1&tolerance={v}&method=ccd", {"method": "ccd"}) for v in ("0", "-0.001", "0.51", "1e9", "1e-400")]
    cases += [(f"v=1&max_iterations={v}", None) for v in ("0", "10001", "2.5", "-3", "1e5")]
    cases += [(f"v=1&damping={v}", None) for v in ("0", "100.5", "-1")]
    cases += [(f"v=1&constraints={v}&animate=0", {"animate": False}) for v in ("2", "yes", "-1", "truee")]
    cases += [(f"v=1&t.target={v}", None) for v in ("1,2", "1,2,3,4", "1,2,3,4,5,6,7,8", "1,2,3,0,0,0,0",
                                                     "1,2,3,2,0,0,0", "20000,0,0", "1,,3")]
    cases += [("v=1&t.nowhere=0,1,0&method=ccd", {"method": "ccd"}), ("v=1&t.pole=0,1,0,1,0,0,0", None),
              ("v=1&cam=1,1,1,1,1,1", None), ("v=1&cam=1,2,3", None), ("v=1&overlays=maybe", None),
              ("v=1&embed=2", None), ("v=1&method=two_bone", None), ("v=1&scene=octopus", None),
              ("v=1&method=ccd&method=fabrik", {"method": "ccd"}), ("v=1&speed=1", None), ("v=1&rate=5", None)]
    for v in ("2", "0", "abc", "1.0", "", "-1", "99999999999", "%00"):
        cases.append((f"v={v}&method=ccd", None))
    unknown = ["foo=1", "__proto__=1", "constructor=1", "toString=1", "t.=1,2,3", "T.target=1,2,3", "Method=ccd",
               "a" * 40 + "=1", "x.y=1", "=1", "=", "v", "scene", "t.target"]
    cases += [(f"v=1&{u}&method=ccd", {"method": "ccd"}) for u in unknown]
    for _ in range(45):
        raw = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 80)))
        cases.append((quote(raw, safe=""), None))
    for _ in range(15):
        text = "".join(rng.choice("%&=#.,t<>\"'vx0123456789eE+-_aZ") for _ in range(rng.randrange(1, 120)))
        cases.append((text, None))
    cases += [("%E0%A4%A", None), ("%", None), ("v=1&method=%E0%A4%A&max_iterations=31", {"max_iterations": 31}),
              ("v=1&" + "&".join(f"k{i}=1" for i in range(80)), None)]
    big = "v=1&method=ccd&" + "x" * 102_400
    cases += [(big, None), ("v=1&t.target=" + "1," * 50_000 + "1", None), ("&" * 100_000, None),
              ("v=1&method=" + "c" * 300, None), ("v=1&cam=" + ",".join(["1"] * 2000), None)]
    return cases


# In the page: each case from a known start, set as location.hash, read once the page's hashchange handler ran.
RUN_CASES = """async (cases) => {
  const out = [];
  const notice = document.getElementById('notice');
  for (const fragment of cases) {
    ikDemo.set({ method: 'dls', max_iterations: 10, animate: true });
    notice.hidden = true;
    const changed = new Promise((resolve) =>
      addEventListener('hashchange', () => setTimeout(() => resolve(true), 0), { once: true }));
    location.hash = fragment;
    const ok = await Promise.race([changed, new Promise((resolve) => setTimeout(() => resolve(false), 30000))]);
    const state = ikDemo.state();
    out.push({ changed: ok, notice: notice.hidden ? '' : notice.textContent, elements: notice.childElementCount,
               error: state.error,
               frame: state.frame, params: state.params });
  }
  return out;
}"""


def test_malformed_links_leave_the_page_live(demo, site_server):
    """200+ malformed and hostile links applied to a live page: each one's rest applies, a notice names what was
    ignored, nothing runs, no dialog opens, no request leaves 127.0.0.1, no console error; frames keep coming."""
    dialogs = []
    demo.page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    demo.page.set_viewport_size(SMALL)
    demo.open(site_server)
    demo.wait_ready()
    page = demo.page
    cases = malformed_cases(random.Random(5))
    assert len(cases) >= 200
    elements = page.evaluate("document.querySelectorAll('*').length")
    first = page.evaluate("ikDemo.state().frame")
    results = []
    for chunk in range(0, len(cases), 50):
        results += page.evaluate(RUN_CASES, [fragment for fragment, _ in cases[chunk:chunk + 50]])
    for k, ((fragment, expect), got) in enumerate(zip(cases, results)):
        what = f"case {k} {fragment[:80]!r}"
        assert got["changed"], f"{what}: no hashchange"
        assert got["notice"].startswith(("Link: ignored ", "Link not applied: ")), f"{what}: notice {got['notice'][:200]!r}"
        # A link read whole or not at all: never both "not applied" and "the rest applied".
        assert not ("not applied" in got["notice"] and "rest of it applied" in got["notice"]), f"{what}: {got['notice']!r}"
        assert len(got["notice"]) < 400, f"{what}: notice too long ({len(got['notice'])})"
        assert got["elements"] == 0, f"{what}: the notice holds elements: markup from the link was parsed"
        assert got["error"] is None, f"{what}: {got['error']}"
        for key, value in (expect or {}).items():
            assert got["params"][key] == value, f"{what}: {key} = {got['params'][key]!r}"
    assert results[-1]["frame"] > first, "no frame was drawn while the links were applied"
    state = demo.wait_frames(3)
    assert state["error"] is None and state["scene"] == "arm"
    assert page.evaluate("window.__pwned") is None
    assert page.evaluate("document.querySelectorAll('*').length") == elements
    assert page.evaluate("document.querySelectorAll('script:not([type]), img, iframe, svg').length") == \
        page.evaluate("document.querySelectorAll('script:not([type])').length")
    assert not dialogs


@pytest.mark.parametrize("fragment, expect", [
    ("v=1&scene=spider&speed=NaN&method=ccd&cam=4,3.5,5,0,0.3,0&<script>alert(1)</script>=1",
     {"scene": "spider", "method": "ccd"}),
    ("v=1&scene=race&method=ccd&" + "x" * 102_400, {"scene": "arm", "method": "dls"}),
], ids=["spider-with-bad-entries", "100kB"])
def test_malformed_link_opened_afresh(demo, site_server, fragment, expect):
    dialogs = []
    demo.page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    demo.page.set_viewport_size(SMALL)
    demo.open(f"{site_server}#{fragment}")
    demo.wait_ready()
    state = demo.wait_frames(3)
    assert {key: state[key] for key in expect} == expect
    assert state["error"] is None
    notice = demo.page.locator("#notice")
    assert notice.is_visible() and notice.text_content().startswith(("Link: ignored ", "Link not applied: "))
    assert demo.page.evaluate("window.__pwned") is None
    assert not dialogs


def test_copy_link_button_and_panel_inputs_checked_like_links(demo, site_server):
    """The copy-link button (clipboard, or a selected field without one); typed values outside the spec's range,
    or not finite numbers, get a notice and are not applied."""
    demo.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=site_server.rstrip("/"))
    demo.open(site_server)
    demo.wait_ready()
    page = demo.page
    page.evaluate("ikDemo.set({animate: false})")
    button = page.locator("#gui .lil-gui button", has_text="copy link")
    button.click()
    demo.wait_until("!document.getElementById('notice').hidden", 30_000, "the copied notice")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied.startswith(site_server) and "#v=1&scene=arm" in copied and "animate=0" in copied
    # No clipboard: the link shows in a field, selected.
    page.evaluate("Object.defineProperty(navigator, 'clipboard', { value: undefined })")
    button.click()
    field = page.locator("#share-link")
    demo.wait_until("!document.getElementById('share').hidden", 30_000, "the link field")
    assert field.input_value() == page.evaluate("ikDemo.link()")
    assert page.evaluate("""(() => { const f = document.getElementById('share-link');
                               return f.selectionStart === 0 && f.selectionEnd === f.value.length; })()""")
    page.locator("#share-close").click()
    assert page.evaluate("document.getElementById('share').hidden")

    assert page.evaluate("ikDemo.state().params.max_iterations") == 10

    def typed(label, text):
        field = page.locator("#gui .lil-gui .lil-controller", has_text=label).locator("input")
        field.fill(text)
        field.press("Enter")
        return page.evaluate("[document.getElementById('notice').hidden ? '' : "
                             "document.getElementById('notice').textContent, ikDemo.state().params]")

    for label, key, text in [("max iterations", "max_iterations", "1e9"), ("tolerance", "tolerance", "Infinity"),
                             ("damping", "damping", "-1")]:
        before = page.evaluate("ikDemo.state().params")
        notice, params = typed(label, text)
        assert key in notice and "not applied" in notice, (text, notice)
        assert params == before, (text, params)
        shown = page.locator("#gui .lil-gui .lil-controller", has_text=label).locator("input").input_value()
        assert shown != text
        page.evaluate("document.getElementById('notice').hidden = true")
    # In range: applied, even beyond the slider's end (the spec is what counts).
    notice, params = typed("max iterations", "500")
    assert params["max_iterations"] == 500 and notice == ""
    notice, params = typed("tolerance", "0.02")
    assert params["tolerance"] == 0.02
    # ikDemo.set takes the same specs.
    for bad in ("{tolerance: NaN}", "{max_iterations: 1e9}", "{speed: 1}", "{constraints: 1}", "{method: 'two_bone'}"):
        with pytest.raises(Exception):
            page.evaluate(f"ikDemo.set({bad})")
    assert page.evaluate("ikDemo.state().params") == params
    assert page.evaluate("ikDemo.state().error") is None


def test_the_notice_says_what_of_a_link_applied(demo, site_server):
    """A link left out whole says only that (not "the rest of it applied"); a link with parts left out lists
    them and says the rest applied."""
    demo.page.set_viewport_size(SMALL)
    demo.open(site_server)
    demo.wait_ready()
    long = "v=1&method=ccd&" + "x" * 5000
    assert demo.apply_hash(long) == f"Link not applied: it is {len(long)} characters long, more than the 4096 read."
    assert demo.apply_hash("v=2&method=ccd") == "Link not applied: it is version 2, and this page reads v=1."
    assert demo.page.evaluate("ikDemo.state().method") == "dls"
    assert demo.apply_hash("v=1&method=ccd&speed=1") == "Link: ignored speed (unknown key). The rest of it applied."
    assert demo.page.evaluate("ikDemo.state().method") == "ccd"

