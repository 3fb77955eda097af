"""The crowd: ``count`` spiders walking over the terrain, every leg solved in Python every frame.

Each spider is the spider scene's (:mod:`ikcore.rigs.spider`: its body, its
eight legs, their limits and its tetrapod groups), but a crowd of them is laid
out as a structure of arrays: flat lists per quantity, one entry per spider or
per leg, made when ``count`` changes and never per frame, and each stage of a
frame is one pass over the whole crowd:

1. :mod:`~ikcore.rigs.walkers`: every spider turns towards its own
   destination and walks at its own pace;
2. :mod:`~ikcore.rigs.phase_gait`: every spider's gait phase advances; feet
   lift, travel and land on the ground as drawn
   (:mod:`~ikcore.rigs.heightgrid`, sampled once per step);
3. :mod:`~ikcore.rigs.bodies`: every body eases towards the plane through its
   footing and turns to its heading;
4. :mod:`~ikcore.rigs.crowd_legs`: every coxa is aimed at its foot, and every
   leg is solved in one call of the planar two_bone kernel.

The buffer
----------
The frame a spider is drawn from is its body's pose and its legs' angles; the
page poses the rig from them with the geometry of ``layout()["crowd"]["rig"]``.
The buffer is laid out once for :data:`MAX_COUNT` spiders, whatever ``count``
is (a change of ``count`` needs no new buffer, view or layout), as columns of
``capacity`` floats (``8 x capacity`` for the legs' columns), at the offsets
``layout()["crowd"]["columns"]`` gives:

``header``                          ``[count, legs converged, largest error]``
``x, y, z, qw, qx, qy, qz``         per spider: its body's position and rotation
``yaw, femur, tibia``               per leg (``8 k + i``: leg ``i`` of spider ``k``,
                                    :func:`~ikcore.rigs.spider.mounts`' order):
                                    its angles in radians

Only the first ``count`` (``8 x count``) entries of a column are written. The
scene has no chains, bones, joints or targets of the common contract
(:mod:`ikcore.rigs.scene`): those sections are empty.
"""

import math
import struct

from .. import rotation as rot
from ..checks import check_int_range
from ..pose import dump_pose
from .bodies import Bodies
from .crowd_legs import CrowdLegs
from .heightgrid import HeightGrid
from .phase_gait import PhaseGait
from .scene import Scene
from .spider import BODY_BONES, GROUPS, mounts
from .terrain import Terrain
from .walkers import Walkers

#: The most spiders a crowd takes (the buffer holds this many).
MAX_COUNT = 400
#: The terrain's half side, and its grid's samples per side (the drawn surface).
HALF = 20.0
RESOLUTION = 129
#: Spiders wander up to this far from the terrain's edge.
MARGIN = 2.5
#: The plastic number: Roberts' R2 sequence, whose every prefix covers the square evenly, takes its
#: inverse powers as steps.
_PLASTIC = 1.324717957244746
HEADER = ("count", "converged", "largest_error")
BODY_COLUMNS = ("x", "y", "z", "qw", "qx", "qy", "qz")
LEG_COLUMNS = ("yaw", "femur", "tibia")
_GOLDEN = math.pi * (3.0 - math.sqrt(5.0))


def places(count):
    """Where spiders ``0 .. count - 1`` start, ``(x, z, heading)``: spider ``k`` at point ``k`` of Roberts'
    R2 sequence over the room wanderers keep to (``HALF - MARGIN`` each side of the centre), facing ``k``
    golden angles round. Every prefix of that sequence covers the square evenly: a crowd of any size is
    spread over the whole terrain, and spider ``k``'s place does not depend on ``count`` (a larger crowd
    fills the gaps)."""
    room = HALF - MARGIN
    out = []
    for k in range(count):
        u = (0.5 + k / _PLASTIC) % 1.0
        v = (0.5 + k / _PLASTIC ** 2) % 1.0
        out.append((room * (2.0 * u - 1.0), room * (2.0 * v - 1.0), k * _GOLDEN))
    return out


def check_count(value, name="count"):
    return check_int_range(value, name, 1, MAX_COUNT)


class CrowdScene(Scene):
    """``count`` spiders over a terrain (see the module docstring).

    Parameters
    ----------
    count : int
        Spiders, in ``[1, MAX_COUNT]``; also a parameter (:meth:`set_params`).
    seed : int
        Chooses the terrain, the paces, the destinations and the gait phases.
    """

    name = "crowd"
    methods = ("two_bone",)
    default_method = "two_bone"
    default_max_iterations = 1
    #: ``count`` spiders; ``speed``: the crowd's walking speed (units per second, each spider its own
    #: pace around it).
    extra_params = {"count": {"kind": "int", "min": 1, "max": MAX_COUNT},
                    "speed": {"kind": "float", "min": 0.0, "max": 1.5}}
    options = {"count": check_count}

    def __init__(self, count=100, seed=11):
        super().__init__()
        self.params["count"] = check_count(count)
        self.params["speed"] = 0.7
        self.terrain = Terrain(seed=seed, half=HALF)
        self.grid = self.terrain.grid(RESOLUTION)
        self.ground = HeightGrid(self.grid)
        legs = mounts()
        self.walkers = Walkers(HALF - MARGIN, seed)
        self.gait = PhaseGait([rest for _, _, rest in legs], GROUPS, self.ground.height, seed + 1)
        self.bodies = Bodies()
        self.legs = CrowdLegs(legs)
        self.converged = 0
        self._offsets = self._lay_out()
        self._resize(self.params["count"])

    def _lay_out(self):
        """The buffer's columns: ``{name: offset}`` in floats (see the module docstring), and its size."""
        offsets, at = {"header": 0}, len(HEADER)
        for name in BODY_COLUMNS:
            offsets[name], at = at, at + MAX_COUNT
        for name in LEG_COLUMNS:
            offsets[name], at = at, at + 8 * MAX_COUNT
        self._size = at
        return offsets

    def _resize(self, count):
        """Lay the crowd out for ``count`` spiders (those already walking carry on)."""
        self.walkers.resize(count, places(count))
        self.gait.resize(count, self.walkers)
        self.bodies.resize(count, self.walkers, self.gait)
        self.legs.resize(count)
        self.solve()
        # What write() packs: per column its byte offset, a packer for its length, and its list.
        w, b, g = self.walkers, self.bodies, self.legs
        columns = zip(BODY_COLUMNS + LEG_COLUMNS, (w.x, b.y, w.z, b.qw, b.qx, b.qy, b.qz, g.yaw, g.femur, g.tibia))
        self._columns = [(8 * self._offsets[name], struct.Struct(f"{len(values)}d").pack_into, values)
                         for name, values in columns]

    def params_changed(self, old):
        if self.params["count"] != old["count"]:
            self._resize(self.params["count"])

    @property
    def count(self):
        return self.walkers.count

    # -- the frame -----------------------------------------------------------------------------

    def advance(self, dt):
        if self.params["animate"]:
            self.walkers.advance(dt, self.params["speed"], self.legs.strain)
        else:
            self.walkers.halt()
        self.gait.update(dt, self.walkers)
        self.bodies.update(dt, self.walkers, self.gait)

    def solve(self):
        self.legs.aim(self.walkers, self.bodies, self.gait, self.params["constraints"])
        # The tolerance the legs' statuses were decided with: a new one counts from the next frame.
        self.solved_tolerance = self.params["tolerance"]
        self.converged = self.legs.solve(self.solved_tolerance, self.params["constraints"])

    # -- output --------------------------------------------------------------------------------

    def layout(self):
        out = super().layout()
        out["size"] = self._size
        out["crowd"] = {"capacity": MAX_COUNT, "legs_per_spider": self.legs.per_walker, "header": list(HEADER),
                        "columns": dict(self._offsets), "rig": {**self.legs.rig(), "body": [
                            [list(a), list(b), r] for a, b, r in BODY_BONES]}}
        return out

    def write(self, buf):
        """Fill ``buf`` (from :meth:`allocate`) with the header and the first ``count`` entries of
        every column (see the module docstring). Returns the number of floats of the buffer."""
        errors = self.legs.results.errors
        buf[0], buf[1], buf[2] = float(self.count), float(self.converged), max(errors)
        for offset, pack, values in self._columns:
            pack(buf, offset, *values)
        return self._size

    def terrain_info(self):
        return {"half": HALF, "resolution": RESOLUTION, "seed": self.terrain.seed}

    def terrain_grid(self, resolution=RESOLUTION):
        """The heights the feet land on (:class:`~ikcore.rigs.heightgrid.HeightGrid`): the grid the page
        draws. ``resolution`` must be the layout's."""
        if resolution != RESOLUTION:
            check_int_range(resolution, "terrain grid resolution", RESOLUTION, RESOLUTION)
        return self.grid

    def camera(self):
        return {"position": [0.0, 0.75 * HALF, 1.25 * HALF], "target": [0.0, 0.0, 0.0]}

    def bounds(self):
        # The square the spiders wander over, from the lowest ground to above the bodies.
        heights = self.grid["heights"]
        m = HALF - MARGIN + 1.5
        return {"min": [-m, min(heights) - 0.1, -m], "max": [m, max(heights) + 1.0, m]}

    def feet(self):
        """Per leg: ``(planted, foot, error)``: whether its foot is on the ground, the foot's target
        (world) and the distance from the solved tip to it (for tests and the state)."""
        gait, errors = self.gait, self.legs.results.errors
        return [(gait.planted(n), (gait.fx[n], gait.fy[n], gait.fz[n]), errors[n]) for n in range(self.legs.count)]

    def state(self):
        # The feet measured against the tolerance their legs were solved with, as their statuses are.
        tolerance = self.solved_tolerance * self.legs.reach
        planted = [error for down, _, error in self.feet() if down]
        status = self.legs.results.status
        return {"scene": self.name, "method": self.params["method"], "frame": self.frame, "time": self.time,
                "params": self.get_params(), "chains": [], "targets": {},
                "crowd": {"spiders": self.count, "legs": self.legs.count, "converged": self.converged,
                          "unreachable": status.count(1), "stalled": status.count(3),
                          "largest_error": max(self.legs.results.errors), "planted": len(planted),
                          "planted_within_tolerance": sum(e <= tolerance for e in planted)}}

    def pose(self):
        """Every leg's pose in :mod:`ikcore.pose`'s format: chain ``spider<k>.leg<i>``, its rotations
        about the hinge axis and its frame, the coxa's world pose (the body's, turned by the yaw)."""
        legs = self.legs
        chain = legs.chains[self.params["constraints"]]
        axis = chain.joints[0].axis
        entries = []
        for n in range(legs.count):
            k, i = divmod(n, legs.per_walker)
            rotations = [rot.from_axis_angle(axis, legs.femur[n]), rot.from_axis_angle(axis, legs.tibia[n])]
            entries.append((f"spider{k}.leg{i}", chain, rotations, self._coxa(k, i, legs.yaw[n])))
        return dump_pose(self.name, self.params["method"], entries)

    def _coxa(self, k, i, yaw):
        """The world pose ``(position, rotation)`` of spider ``k``'s coxa ``i`` turned by ``yaw``."""
        b = self.bodies
        q = (b.qw[k], b.qx[k], b.qy[k], b.qz[k])
        hip = rot.rotate(q, self.legs.hips[i])
        a = 0.5 * (self.legs.bases[i] + yaw)
        position = (self.walkers.x[k] + hip[0], b.y[k] + hip[1], self.walkers.z[k] + hip[2])
        return position, rot.multiply(q, (math.cos(a), 0.0, math.sin(a), 0.0))
