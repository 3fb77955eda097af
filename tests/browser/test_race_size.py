"""The race's lanes drawn large and apart: measured where the page draws them, at a desktop window, a phone held
upright, a tablet held upright (the panel open beside the lanes) and a small embed. Each chain's joints
(ikDemo.pose(), world positions) are projected through the page's own camera (its position, target and field of
view from ikDemo.state(), checked against the page's own projection of the target), in CSS pixels."""

import math

import pytest

# (the hash, the least height in CSS pixels of a chain at rest, straight up from its root)
DESKTOP = pytest.param("#scene=race", 180, marks=pytest.mark.context(viewport={"width": 1280, "height": 800}),
                       id="1280x800")
PHONE = pytest.param("#scene=race", 100, marks=pytest.mark.context(
    viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True, device_scale_factor=2), id="390x844")
TABLET = pytest.param("#scene=race", 120, marks=pytest.mark.context(viewport={"width": 768, "height": 1024}),
                      id="768x1024")
EMBED = pytest.param("#embed=1&scene=race", 75, marks=pytest.mark.context(viewport={"width": 480, "height": 320}),
                     id="embed-480x320")
#: Targets relative to lane 0's root (copied to every lane): one up and to the side, one low and forward.
SPOTS = ((0.3, 1.15, 0.2), (-0.3, 0.45, 0.5))

PAGE = """() => {
  const r = (id) => { const e = document.getElementById(id);
                      if (!e || !e.getClientRects().length) return null;
                      const b = e.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; };
  return {canvas: r('viewport'), hud: r('hud'), hint: r('hint'), chart: r('race'), gui: r('gui'),
          width: innerWidth, height: innerHeight};
}"""


class Projection:
    """A perspective camera as three.js has it (looking at its target, y up), onto a canvas in CSS pixels."""

    def __init__(self, camera, canvas):
        self.position = camera["position"]
        forward = unit([t - p for t, p in zip(camera["target"], self.position)])
        self.right = unit(cross(forward, (0.0, 1.0, 0.0)))
        self.up = cross(self.right, forward)
        self.forward = forward
        self.tan = math.tan(math.radians(camera.get("fov", 45.0)) / 2)
        self.left, self.top, right, bottom = canvas
        self.width, self.height = right - self.left, bottom - self.top

    def __call__(self, p):
        d = [a - b for a, b in zip(p, self.position)]
        x, y, z = dot(d, self.right), dot(d, self.up), dot(d, self.forward)
        nx, ny = x / (z * self.tan * self.width / self.height), y / (z * self.tan)
        return self.left + (nx + 1) / 2 * self.width, self.top + (1 - ny) / 2 * self.height


def unit(v):
    n = math.sqrt(dot(v, v))
    return [a / n for a in v]


def dot(a, b):
    return sum(x * y for x, y in zip(a, b))


def cross(a, b):
    return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]


def lanes_drawn(page):
    """Per lane: its chain's height at rest on the page (root to a point a reach above it), and the box of its
    joints and target as drawn, [left, top, right, bottom]; the page's boxes (canvas, HUD, hint, chart, panel)."""
    state, pose, boxes = page.evaluate(f"[ikDemo.state(), ikDemo.pose(), ({PAGE})()]")
    project = Projection(state["camera"], boxes["canvas"])
    # The projection is the page's: where it puts the target is where the page draws it.
    drawn = page.evaluate("ikDemo.screenPosition('target')")
    assert math.dist(project(state["targets"]["target"]), drawn) < 1.5, (project(state["targets"]["target"]), drawn)
    lanes = []
    for chain, entry in zip(state["chains"], pose["chains"]):
        points = entry["world_positions"]
        reach = sum(math.dist(a, b) for a, b in zip(points, points[1:]))
        root = points[0]
        rest = project(root)[1] - project((root[0], root[1] + reach, root[2]))[1]
        xy = [project(p) for p in points + [chain["target"]]]
        lanes.append({"rest": rest, "box": [min(x for x, _ in xy), min(y for _, y in xy),
                                            max(x for x, _ in xy), max(y for _, y in xy)]})
    return lanes, boxes


def overlap(a, b):
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize(("link", "least"), [DESKTOP, PHONE, TABLET, EMBED])
def test_the_race_lanes_are_drawn_large_apart_and_clear_of_the_overlays(demo, site_server, link, least):
    demo.open(f"{site_server}{link}")
    demo.wait_ready()
    page = demo.page
    # Each lane shown in the pose it decides its race in (no replay), the target where the test puts it.
    # (Python's frames stepped at once, undrawn: a lane is decided a frame, software WebGL draws slowly.)
    page.evaluate("ikDemo.set({animate: false, replay: false}); ikDemo.advance(7, 1 / 60, 0)")
    origin = page.evaluate("ikDemo.pose().chains[0].world_positions[0]")
    heights = []
    for spot in (None, *SPOTS):
        if spot is not None:
            page.evaluate("p => { ikDemo.setTarget('target', p); ikDemo.advance(7, 1 / 60, 0); }",
                          [o + s for o, s in zip(origin, spot)])
        lanes, boxes = lanes_drawn(page)
        heights = [lane["rest"] for lane in lanes]
        assert min(heights) >= least, f"the chains are drawn small: {[round(h) for h in heights]} px"
        # The row of lanes fills the free width: together they span most of it.
        span = max(lane["box"][2] for lane in lanes) - min(lane["box"][0] for lane in lanes)
        gui = boxes["gui"]
        right = gui[0] if gui and gui[3] - gui[1] > 120 else boxes["width"]  # the open panel's column
        assert span >= 0.55 * right, (span, right)
        # Every lane within the canvas, clear of the HUD above, of the hint and the chart below and of the open
        # panel, and no two lanes' drawings overlap.
        below = min(b[1] for b in (boxes["hint"], boxes["chart"]) if b)
        for k, lane in enumerate(lanes):
            left, top, right_, bottom = lane["box"]
            assert 0 <= left and right_ <= right and bottom <= below, (k, lane, boxes)
            if boxes["hud"]:
                assert top >= boxes["hud"][3], (k, lane, boxes)
            for other in lanes[k + 1:]:
                assert not overlap(lane["box"], other["box"]), (spot, lanes)
    print("lane heights at rest (CSS px):", [round(h) for h in heights])
