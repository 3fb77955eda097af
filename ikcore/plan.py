"""What the solvers derive from a chain once: its joints sorted by kind, and layouts per method.

A :class:`~ikcore.chain.Chain` never changes, so everything a solver would
otherwise work out on each call is worked out once and kept on it, as
``chain.plan``: which joints are hinges and about which axis, and whether the
chain moves in one plane, when the chain is made; its rest pose and a method's
own layout of the chain, at their first use.

Joint limits reach the solvers through :attr:`Plan.clamps`: the built-in
constraints' own ``clamp``, or, for a user's :class:`~ikcore.Constraint`
subclass, a wrapper that checks what it returns and names the joint when it
fails, so that a faulty joint gives an :class:`~ikcore.IKError`, never a NaN
that a loop would chase forever.
"""

from math import acos, atan2, copysign, cos, isfinite, pi, sqrt

from . import rotation as rot
from .checks import check_rotations
from .constraints import BallSocket, Hinge, Slider
from .errors import IKError
from .kinematics import pose_of, rest
from .vectors import across, cross, dot

FREE, HINGE, BALL, SLIDER, CUSTOM = "free", "hinge", "ball", "slider", "custom"
#: Turns tried round a circle by :meth:`Joint.search_swivel`.
SWIVELS = 72


class Joint:
    """One joint as the solvers see it.

    Attributes
    ----------
    index : int
    kind : str
        ``"free"`` (no limits, also a ball joint that limits nothing),
        ``"hinge"``, ``"ball"`` (a :class:`~ikcore.BallSocket`), ``"slider"`` (a
        :class:`~ikcore.Slider`, which slides and never turns) or ``"custom"`` (any other
        :class:`~ikcore.Constraint`).
    constraint : Constraint or None
    bone : (x, y, z)
        The rest direction of the joint's bone.
    axis : (x, y, z) or None
        A hinge's or a slider's unit axis, in the parent's frame.
    range : AngleRange or None
        A hinge's range, or a ball joint's twist range.
    cone : float
        A ball joint's largest swing (:attr:`~ikcore.BallSocket.swing_limit`), radians; pi otherwise.
    clamp : callable or None
        ``clamp(q, bone)``: the nearest allowed rotation (``None`` for a free joint).
    """

    __slots__ = ("index", "kind", "constraint", "bone", "axis", "range", "cone", "clamp")

    def __init__(self, index, constraint, bone):
        self.index = index
        self.constraint = constraint
        self.bone = bone
        self.axis = None
        self.range = None
        self.cone = pi
        if constraint is None or (type(constraint) is BallSocket and constraint.free):
            self.kind, self.clamp = FREE, None
        elif type(constraint) is Hinge:
            self.kind, self.clamp = HINGE, constraint.clamp
            self.axis, self.range = constraint.axis, constraint.range
        elif type(constraint) is Slider:
            self.kind, self.clamp = SLIDER, constraint.clamp
            self.axis = constraint.axis
        elif type(constraint) is BallSocket:
            self.kind, self.clamp = BALL, constraint.clamp
            self.range, self.cone = constraint.twist, constraint.swing_limit
        else:
            self.kind, self.clamp = CUSTOM, checked_clamp(constraint, index)

    def __repr__(self):
        return f"Joint({self.index}, {self.kind})"

    def swivel_within(self, base, axis, preferred):
        """The turn ``s`` about the unit ``axis`` (in the parent's frame) nearest ``preferred``
        whose rotation ``rot(axis, s) base`` the joint's limits allow.

        A rotation that moves a bone's tip onto a line leaves its turn about that
        line free: where the limits forbid the one a solver prefers, this finds
        the nearest they allow. A twist-free cone has it in closed form
        (:func:`swivel_in_cone`); any other joint is searched
        (:meth:`search_swivel`).
        """
        if self.kind == BALL and self.range.full:
            return swivel_in_cone(self.cone, self.bone, base, axis, preferred)
        return self.search_swivel(base, axis, preferred)

    def search_swivel(self, base, axis, preferred):
        """:meth:`swivel_within` for any joint, by search: the preferred turn when allowed; else
        :data:`SWIVELS` turns round the circle are tried, and the nearest allowed one is moved
        toward the preferred up to the limits' edge (bisection); with none allowed, the least
        violating one is refined (golden section)."""
        def violation(s):
            return self.constraint.violation(rot.multiply(rot.from_axis_angle(axis, s), base), self.bone)

        if violation(preferred) <= 1e-12:
            return preferred
        step = 2.0 * pi / SWIVELS
        # Offsets from the preferred turn, nearest first.
        offsets = sorted((k * step for k in range(-SWIVELS // 2 + 1, SWIVELS // 2 + 1) if k), key=abs)
        for offset in offsets:
            if violation(preferred + offset) <= 1e-12:
                inside, outside = offset, offset - copysign(step, offset)
                for _ in range(30):
                    mid = 0.5 * (inside + outside)
                    if violation(preferred + mid) <= 1e-12:
                        inside = mid
                    else:
                        outside = mid
                return preferred + inside
        best = min(offsets, key=lambda o: violation(preferred + o))
        low, high = best - step, best + step
        for _ in range(40):
            a, b = low + 0.382 * (high - low), low + 0.618 * (high - low)
            if violation(preferred + a) <= violation(preferred + b):
                high = b
            else:
                low = a
        return preferred + 0.5 * (low + high)


def swivel_in_cone(cone, bone, base, axis, preferred):
    """:meth:`Joint.swivel_within` for a twist-free cone of half-angle ``cone`` about the unit
    ``bone``: only the swing counts, the angle between ``bone`` and its image.

    Turned by ``s`` about the unit ``axis`` ``k``, the bone's image ``e`` (under
    ``base``) goes to ``k (k.e) + e' cos(s) + (k x e) sin(s)`` (``e'`` its part
    across ``k``), whose cosine with the bone is ``A + B cos(s - s0)``. The turns
    that keep it within the cone are those within ``w`` of ``s0``, where
    ``A + B cos(w) = cos(cone)``: the preferred one if it is among them, else the
    nearer edge; where none is, ``s0``, the least swing there is.
    """
    e = rot.rotate(base, bone)
    a = dot(axis, bone) * dot(axis, e)
    c, s = dot(bone, across(e, axis)), dot(bone, cross(axis, e))
    b = sqrt(c * c + s * s)
    least = cos(cone)
    if a - b >= least:
        return preferred  # every turn keeps within the cone
    if a + b < least:
        return atan2(s, c) if b > 0.0 else preferred  # none does: the least swing
    middle = atan2(s, c)
    width = acos(min(1.0, (least - a) / b))
    off = rot.wrap_angle(preferred - middle)
    return preferred if abs(off) <= width else middle + copysign(width, off)


def hinge_angle(joint, q):
    """A hinge's angle in ``q`` (``joint`` a :class:`Joint` of kind hinge): ``2 atan2(v . a, w)``,
    as the number in its range or just past the end it lies beyond
    (:meth:`~ikcore.constraints.AngleRange.nearest_turn`)."""
    ax, ay, az = joint.axis
    return joint.range.nearest_turn(2.0 * atan2(q[1] * ax + q[2] * ay + q[3] * az, q[0]))


def checked_clamp(constraint, index):
    """``constraint.clamp`` for a user's constraint, checked: a unit quaternion back, or an
    :class:`~ikcore.IKError` naming joint ``index``."""

    def clamp(q, bone):
        try:
            out = constraint.clamp(q, bone)
            w, x, y, z = (float(c) for c in out)
        except IKError:
            raise
        except Exception as exc:
            raise IKError(f"joint {index}'s constraint {constraint!r} failed on {q!r}: {exc!r}") from exc
        n = sqrt(w * w + x * x + y * y + z * z)
        if not (n > 1e-12 and isfinite(n)):
            raise IKError(f"joint {index}'s constraint {constraint!r} returned {out!r} for {q!r}: "
                          f"not a finite non-zero quaternion")
        return (w / n, x / n, y / n, z / n)

    return clamp


class Plan:
    """A chain's joints and layouts, worked out once (see the module docstring).

    Attributes
    ----------
    joints : tuple of Joint
    clamps : tuple
        Per joint, ``clamp(q, bone)`` or ``None`` (see :class:`Joint`).
    free : bool
        No joint limits anything.
    hinges : bool
        Every joint is a hinge.
    sliders : tuple of int
        The joints that are :class:`~ikcore.Slider` s (a chain's pose then holds their
        displacements: :attr:`ikcore.kinematics.Frames.slides`).
    plane : (x, y, z) or None
        The common axis when every joint is a hinge about one axis and every
        rest bone lies across it: every pose then lies in the plane through
        the root normal to it.
    rest : Frames
        The rest pose (:func:`~ikcore.kinematics.rest`).
    layouts : Layouts
        A method's own layout of the chain, ``layouts[build]`` for ``build(chain)``
        (``build`` a module-level function), worked out at the first lookup.
    settings : dict
        Per method, its default settings for this chain, kept by
        :func:`ikcore.problem.settings_of` at their first use.
    """

    __slots__ = ("chain", "joints", "clamps", "free", "hinges", "sliders", "plane", "_rest", "settings", "layouts",
                 "_start")

    def __init__(self, chain):
        self.chain = chain
        self.joints = tuple(Joint(i, c, d) for i, (c, d) in enumerate(zip(chain.joints, chain.directions)))
        self.clamps = tuple(j.clamp for j in self.joints)
        self.free = all(j.kind == FREE for j in self.joints)
        self.hinges = all(j.kind == HINGE for j in self.joints)
        self.sliders = tuple(j.index for j in self.joints if j.kind == SLIDER)
        self.plane = _plane(self.joints, chain.directions) if self.hinges else None
        self._rest = None
        self.settings = {}
        self.layouts = Layouts(chain)
        self._start = (None, None)

    @property
    def rest(self):
        """The rest pose (every joint at the identity, then within its limits), made once: where
        every cold solve starts (:func:`ikcore.kinematics.rest`)."""
        if self._rest is None:
            self._rest = rest(self.chain)
        return self._rest

    def start(self, rotations):
        """The start pose of ``rotations`` (checked by :func:`~ikcore.checks.check_rotations`), made
        (:func:`ikcore.kinematics.pose_of`). The last one is kept with its rotations: a caller that
        solves target after target from one pose (a robot from its ready pose) has it checked and
        made once. The rotations are compared by value; a NaN never compares equal, so a bad
        pose is refused every time."""
        try:
            key = tuple(tuple(q) for q in rotations)
        except TypeError:
            key = None
        kept, frames = self._start
        if key is None or key != kept:
            frames = pose_of(self.chain, check_rotations(rotations if key is None else key, len(self.joints),
                                                        "start"))
            self._start = key, frames
        return frames

    def clamp(self, rotations):
        """``rotations`` with each joint's limits applied."""
        return [q if clamp is None else clamp(q, d)
                for q, clamp, d in zip(rotations, self.clamps, self.chain.directions)]


class Layouts(dict):
    """A chain's layouts by the function that makes them: ``layouts[build]`` is ``build(chain)``,
    made at the first lookup and kept (a ``build`` that raises keeps nothing)."""

    __slots__ = ("chain",)

    def __init__(self, chain):
        super().__init__()
        self.chain = chain

    def __missing__(self, build):
        found = self[build] = build(self.chain)
        return found


def _plane(joints, directions):
    ax, ay, az = joints[0].axis
    for joint, (dx, dy, dz) in zip(joints, directions):
        bx, by, bz = joint.axis
        if abs(bx - ax) + abs(by - ay) + abs(bz - az) > 1e-12 or abs(dx * ax + dy * ay + dz * az) > 1e-12:
            return None
    return (ax, ay, az)
