"""Tentacles: long tapered chains on a swaying crown, following moving targets.

``count`` tentacles of ``bones`` bones stand on a ring of a ``crown`` node that
turns and bobs slowly, so their roots move: each chain lives in the crown's
frame (see :mod:`ikcore.skeleton`) and its root follows. The bones shorten and
thin towards the tip.

Each target traces its own Lissajous curve in its tentacle's sector
(:class:`Sector`): out from the tentacle's root, away from the crown, and
swinging more up and down and in and out than sideways, so that the
tentacles fan out like petals and never pass through one another (a headless
test runs the scene and measures the gaps between their bones). The curves
stay within the tentacle's reach whatever the crown does; every target can
be dragged (and released back to its path).

FABRIK is the default method, solved frame to frame from the previous pose:

- **Limits that make a tentacle.** Every joint is a twist-free cone: ``cone``
  degrees between neighbouring bones (a 20-bone tentacle can still curl
  through more than a full turn, but never kinks), ``base`` degrees for the
  root joint, which leans the whole tentacle toward its target (past the
  horizontal: a tentacle may droop over the crown's rim; a base pinned on a
  tighter limit makes the next joints take the lean, and the tentacle coils
  at its root). Such a chain is solved by FABRIK in point space with its
  offsets spread along it (:mod:`ikcore.solvers.fabrik.points`), which keeps
  the curl spread over the tentacle from frame to frame: on the scripted
  paths no joint bends more than about 18 degrees, and neighbouring joints
  differ by a few degrees at most. Without the limits FABRIK's textbook passes
  fold a long chain into sharp kinks; the ``constraints`` switch shows it.
- **No restarts.** FABRIK restarts a stalled solve from a random pose near the
  best one; frame to frame that would be a jump, so the scene passes
  ``max_restarts=0``: a frame that does not converge keeps its best pose, near
  the last one, and reports its status.
- **A gentle start.** A target far from the effector makes a cold solve,
  whose first passes hook the chain; so each tentacle starts gently curled
  outward and its target rises from the tentacle's tip onto its path over
  the first :data:`RISE` seconds (:class:`Rise`): the tentacles unfurl,
  tracked from the first frame.
"""

import math

from .. import rotation as rot
from ..checks import check_int_range
from ..constraints import BallSocket
from ..skeleton import Skeleton
from .paths import Lissajous
from .scene import Limb, Scene, Target, box, sampled

RING = 0.45
#: The most tentacles a scene takes.
MAX_COUNT = 512
#: Seconds a target takes to move from its tentacle's tip onto its path.
RISE = 3.0
# The start pose: the first bone leans outward, every other joint bends outward (degrees).
_LEAN = 10.0
_BEND = 3.0


class TentacleScene(Scene):
    """Tentacles following scripted (and draggable) targets.

    Parameters
    ----------
    count : int
        Number of tentacles (>= 1).
    bones : int
        Bones per tentacle (>= 2).
    cone : float
        Largest bend between neighbouring bones, degrees.
    base : float
        Largest lean of the first bone from the vertical, degrees.
    """

    name = "tentacles"
    default_method = "fabrik"
    default_max_iterations = 10
    default_constraints = True
    #: ``make_scene("tentacles", count=k)``: a crowd of ``k`` tentacles (the benchmark's crowd size).
    options = {"count": lambda value, name: check_int_range(value, name, 1, MAX_COUNT)}

    def __init__(self, count=4, bones=20, cone=25.0, base=120.0):
        super().__init__()
        self.skeleton = Skeleton()
        self.crown = self.skeleton.add_node("crown")
        self.count = count
        for k in range(count):
            a = 2.0 * math.pi * (k + 0.5) / count
            cx, cz = math.cos(a), -math.sin(a)
            root = (RING * cx, 0.0, RING * cz)
            points = [root]
            y = 0.0
            lengths = [0.14 * (1.0 - 0.45 * i / bones) for i in range(bones)]
            for length in lengths:
                y += length
                points.append((root[0], y, root[2]))
            joints = [BallSocket(cone_deg=base)] + [BallSocket(cone_deg=cone)] * (bones - 1)
            bound = self.skeleton.add_chain(f"tentacle{k}", "crown", points, joints)
            radii = [0.075 * (1.0 - 0.8 * (i + 0.5) / bones) for i in range(bones)]
            limb = self.add_limb(Limb(bound, radii, target=f"target{k}"))
            path = Sector(root, (cx, 0.0, cz), limb.reach, frequency=(0.17 + 0.013 * k, 0.23 + 0.011 * k,
                                                                     0.13 + 0.017 * k),
                          phase=(1.3 * k, 0.7 * k, 2.1 * k + 0.5))
            # Turning +y outward: about y x outward.
            axis = (cz, 0.0, -cx)
            bound.set_rotations([rot.from_axis_angle(axis, math.radians(_LEAN))]
                                + [rot.from_axis_angle(axis, math.radians(_BEND))] * (bones - 1))
            tip = bound.chain.forward(bound.rotations)[-1]
            rise = Rise(tip, path, RISE)
            self.add_target(Target(f"target{k}", rise(0.0), path=rise, radius=0.06))
        self._options = self.method_options(self.params["method"])

    def method_options(self, method):
        opts = super().method_options(method)
        if method == "fabrik":
            # Frame to frame a restart would jump; a stalled frame keeps its best pose instead.
            opts["max_restarts"] = 0
        return opts

    def advance(self, dt):
        t = self.script_time
        # The crown sways about Y and bobs: the roots move, the chains follow in its frame.
        self.crown.set_local((0.0, 0.06 * math.sin(0.4 * t), 0.0),
                        rot.from_axis_angle((0.0, 1.0, 0.0), 0.25 * math.sin(0.23 * t)))
        super().advance(dt)

    def camera(self):
        return {"position": [3.2, 2.4, 3.6], "target": [0.0, 1.0, 0.0]}

    def bounds(self):
        # The crown's rim and the targets' courses: from the curled tentacles' tips (where the targets
        # rise from) onto their curves, whose slowest component has a period of under 8 s.
        points = [p for limb in self.limbs for p in limb.bound.world_points()[:1]]
        for target in self.targets.values():
            points += sampled(target.path, 30.0, 0.1)
        return box(points, 0.15)


class Sector:
    """A Lissajous curve in a tentacle's own sector of the crown.

    Around a centre ``OUT`` times the reach out from the root (along the
    horizontal unit vector ``outward``) and ``UP`` times the reach high, the
    curve swings ``AMPLITUDE`` times the reach along (outward, up, sideways),
    at ``frequency`` hertz and ``phase`` radians per axis: from the root, it
    stays between 0.57 and 0.92 of the reach (0.74 +- 0.17), and the sideways swing is the
    smallest, so neighbouring tentacles keep to their own sectors.
    """

    OUT = 0.5
    UP = 0.55
    AMPLITUDE = (0.12, 0.1, 0.07)

    def __init__(self, root, outward, reach, frequency, phase):
        ox, _, oz = outward
        self.outward = (ox, oz)
        self.side = (-oz, ox)
        self.center = (root[0] + self.OUT * reach * ox, self.UP * reach, root[2] + self.OUT * reach * oz)
        a = self.AMPLITUDE
        self.curve = Lissajous(center=(0.0, 0.0, 0.0), amplitude=(a[0] * reach, a[1] * reach, a[2] * reach),
                               frequency=frequency, phase=phase)

    def __call__(self, t):
        r, y, s = self.curve(t)
        (ox, oz), (sx, sz), c = self.outward, self.side, self.center
        return (c[0] + r * ox + s * sx, c[1] + y, c[2] + r * oz + s * sz)


class Rise:
    """A path that starts at ``start`` and joins ``path`` by time ``duration``.

    ``p(t) = start + e(t / duration) (path(t) - start)`` with the smoothstep
    ``e(u) = 3 u^2 - 2 u^3`` (``e = 1`` from ``duration`` on): it leaves ``start``
    and meets ``path`` with the path's own velocity.
    """

    def __init__(self, start, path, duration):
        self.start = start
        self.path = path
        self.duration = duration

    def __call__(self, t):
        p = self.path(t)
        u = t / self.duration
        if u >= 1.0:
            return p
        e = u * u * (3.0 - 2.0 * u) if u > 0.0 else 0.0
        s = self.start
        return (s[0] + e * (p[0] - s[0]), s[1] + e * (p[1] - s[1]), s[2] + e * (p[2] - s[2]))
