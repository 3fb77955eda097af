"""Hypothesis strategies for random chains, constraints, poses and targets."""

import math
import random

from hypothesis import strategies as st

import ikcore
from ikcore import rotation as rot
from ikcore.checks import check_rotations

unit = st.floats(-1.0, 1.0, allow_nan=False)
directions = st.tuples(unit, unit, unit).filter(lambda v: math.sqrt(sum(c * c for c in v)) > 0.1).map(
    lambda v: tuple(c / math.sqrt(sum(x * x for x in v)) for c in v))
quaternions = st.tuples(unit, unit, unit, unit).filter(lambda q: sum(c * c for c in q) > 0.01).map(rot.normalize)
degrees = st.floats(-360.0, 360.0, allow_nan=False)


@st.composite
def constraints(draw):
    kind = draw(st.sampled_from(["free", "hinge", "ball"]))
    if kind == "free":
        return None
    a, b = sorted((draw(degrees), draw(degrees)))
    if kind == "hinge":
        return ikcore.Hinge(axis=draw(directions), min_deg=a, max_deg=b)
    return ikcore.BallSocket(cone_deg=draw(st.floats(0.0, 180.0)), twist_min_deg=a, twist_max_deg=b)


@st.composite
def chains(draw, min_bones=1, max_bones=8, limits=True, scales=(1.0,)):
    n = draw(st.integers(min_bones, max_bones))
    scale = draw(st.sampled_from(scales))
    p = tuple(scale * draw(unit) for _ in range(3))
    points = [p]
    for _ in range(n):
        d = draw(directions)
        length = scale * draw(st.floats(0.1, 2.0))
        p = tuple(c + length * dc for c, dc in zip(p, d))
        points.append(p)
    joints = [draw(constraints()) for _ in range(n)] if limits else None
    return ikcore.Chain(points, joints)


@st.composite
def targets(draw, chain, far=1.5):
    d = draw(directions)
    r = draw(st.floats(0.0, far)) * chain.reach
    return tuple(c + r * dc for c, dc in zip(chain.points[0], d))


# ----------------------------------------------------------------------------------------------
# Wide-range cases for fuzzing: a few hypothesis draws choose the kind of case (sizes, scales,
# shapes, limit mix, target and pole kinds), a seeded generator fills in the per-bone details.
# Every per-bone draw through hypothesis would cost more than most solves.

SPECIAL_DEGREES = (-360.0, -270.0, -210.0, -180.0, -150.0, -90.0, -1e-9, 0.0, 1e-9, 90.0, 150.0, 180.0,
                   210.0, 270.0, 360.0)
SPECIAL_WIDTHS = (0.0, 1e-9, 1.0, 60.0, 180.0, 359.999, 360.0, 720.0)
SPECIAL_CONES = (0.0, 1e-9, 1.0, 45.0, 90.0, 179.999, 180.0)


def random_direction(rng):
    while True:
        v = (rng.gauss(0.0, 1.0), rng.gauss(0.0, 1.0), rng.gauss(0.0, 1.0))
        n = math.sqrt(sum(c * c for c in v))
        if n > 1e-6:
            return tuple(c / n for c in v)


def random_rotation(rng, max_angle=math.pi):
    return rot.from_axis_angle(random_direction(rng), rng.uniform(0.0, max_angle))


def scaled(q, rng):
    """``q`` times a factor from ``+-1e-5`` to ``+-1e5``: the same rotation, as the API takes it."""
    k = rng.choice((-1.0, 1.0)) * 10.0 ** rng.uniform(-5.0, 5.0)
    return tuple(k * c for c in q)


def _pick(rng, specials, low, high, p_special=0.4):
    return rng.choice(specials) if rng.random() < p_special else rng.uniform(low, high)


def random_range(rng):
    """(min_deg, max_deg): negative, wrapping past +-180, empty-width, full or wider than a turn."""
    lo = _pick(rng, SPECIAL_DEGREES, -400.0, 400.0)
    return lo, lo + _pick(rng, SPECIAL_WIDTHS, 0.0, 400.0)


def random_constraint(rng, kind, bone, common_axis):
    if kind == "free":
        return None
    lo, hi = random_range(rng)
    if kind == "hinge":
        axis = rng.choice((random_direction(rng), random_direction(rng), bone, common_axis,
                           rot.perpendicular(bone), (-bone[0], -bone[1], -bone[2])))
        return ikcore.Hinge(axis=axis, min_deg=lo, max_deg=hi)
    return ikcore.BallSocket(cone_deg=_pick(rng, SPECIAL_CONES, 0.0, 180.0), twist_min_deg=lo, twist_max_deg=hi)


SHAPES = ("random", "straight", "planar", "zigzag", "near_straight", "coiled")
LIMIT_MIXES = ("free", "hinge", "ball", "mixed", "planar_hinges", "cones")
# Strategies built once: a strategy is validated on first use, which costs more than a draw.
shapes = st.sampled_from(SHAPES)
limit_mixes = st.sampled_from(LIMIT_MIXES)
seeds = st.integers(0, 2 ** 32 - 1)
_counts = {}


def bone_counts(low=1, high=60):
    """Bone counts in ``[low, high]``, half of them at most 6 (cheap, and where most edge cases live)."""
    key = (low, high)
    if key not in _counts:
        _counts[key] = st.one_of(st.integers(low, min(6, high)), st.integers(low, high))
    return _counts[key]


def build_chain(rng, n, shape, mix):
    """An ``n``-bone chain of the given shape and limit mix, details drawn from ``rng``.

    The chain's scale is log-uniform over ``1e-6..1e9``; each bone's length
    spreads around it by up to a few decades (clipped to ``1e-6..1e9``). The
    root sits at the origin or up to a hundred reaches from it. Mix "cones" is
    a straight chain of twist-free cones and free joints (FABRIK's tentacle
    case) whatever the shape.
    """
    if mix == "cones":
        shape = "straight"
    centre = rng.uniform(-6.0, 9.0)
    # (Spread: bones of one chain at most seven decades apart, so that none is shorter than 1e-9 of
    # the reach, which a Chain refuses.)
    spread = rng.choice((0.0, 0.5, 2.0, 3.5))
    lengths = [10.0 ** min(9.0, max(-6.0, centre + spread * rng.uniform(-1.0, 1.0))) for _ in range(n)]
    offset = rng.choice((0.0, 1.0, 100.0))
    first = random_direction(rng)
    normal = rot.perpendicular(first)
    points = [tuple(offset * sum(lengths) * c for c in random_direction(rng))]
    for i, length in enumerate(lengths):
        if shape == "straight":
            d = first
        elif shape == "zigzag":  # folded back on itself: every bone reverses the last
            d = first if i % 2 == 0 else (-first[0], -first[1], -first[2])
        elif shape == "near_straight":
            d = tuple(c + 1e-9 * rng.uniform(-1.0, 1.0) for c in first)
        elif shape == "planar":  # every bone normal to `normal`
            d = rot.rotate(rot.from_axis_angle(normal, rng.uniform(-math.pi, math.pi)), first)
        elif shape == "coiled":  # a helix that comes back near its root
            d = rot.rotate(rot.from_axis_angle(normal, 2.5 * i), first)
        else:
            d = random_direction(rng)
        p = points[-1]
        points.append(tuple(c + length * dc for c, dc in zip(p, d)))
    joints = None
    if mix != "free":
        joints = []
        for i in range(n):
            a, b = points[i], points[i + 1]
            bone = tuple((y - x) / lengths[i] for x, y in zip(a, b))
            if mix == "cones":
                cone = _pick(rng, SPECIAL_CONES, 0.0, 180.0)
                joints.append(None if rng.random() < 0.2 else ikcore.BallSocket(cone_deg=cone))
                continue
            if mix == "planar_hinges":  # one axis normal to the plane (FABRIK's planar case)
                lo, hi = random_range(rng) if rng.random() < 0.5 else (-180.0, 180.0)
                joints.append(ikcore.Hinge(axis=normal, min_deg=lo, max_deg=hi))
                continue
            kind = mix if mix != "mixed" else rng.choice(("free", "hinge", "ball"))
            joints.append(random_constraint(rng, kind, bone, normal))
    return ikcore.Chain(points, joints)


@st.composite
def wide_chains(draw, min_bones=1, max_bones=60):
    """Chains of ``min_bones..max_bones`` bones, lengths in ``1e-6..1e9`` and random limits."""
    n = draw(bone_counts(min_bones, max_bones))
    return build_chain(random.Random(draw(seeds)), n, draw(shapes), draw(limit_mixes))


START_KINDS = ("none", "identity", "random", "small", "folded", "limits", "scaled")


def make_start(chain, kind, rng):
    """Start rotations of the given kind (``None`` for the default rest start)."""
    n = chain.size
    if kind == "none":
        return None
    if kind == "identity":
        return [rot.IDENTITY] * n
    if kind == "random":
        return [random_rotation(rng) for _ in range(n)]
    if kind == "scaled":  # any non-zero quaternion is a rotation: scaled, and q or -q
        return [scaled(random_rotation(rng), rng) for _ in range(n)]
    if kind == "small":
        return [random_rotation(rng, 1e-6 if rng.random() < 0.5 else 0.3) for _ in range(n)]
    if kind == "folded":  # every bone turned back on its parent: the pose doubles over itself
        out = []
        for d in chain.directions:
            p = rot.perpendicular(d)
            out.append((0.0, p[0], p[1], p[2]) if rng.random() < 0.7 else rot.IDENTITY)
        return out
    # On the limits: clamped from far outside them.
    return chain.clamp([random_rotation(rng) for _ in range(n)])


TARGET_KINDS = ("log", "log", "log", "root", "joint", "mid_bone", "reach", "min_reach", "allowed", "behind")


def make_target(chain, kind, rng, distance, start):
    """A target of the given kind; for "log", ``distance`` (over the reach) from the root."""
    root = chain.points[0]
    reach = chain.reach
    pose = chain.forward(chain.clamp(check_rotations(start or [rot.IDENTITY] * chain.size, chain.size)))
    if kind == "log":
        r = reach * distance
        return tuple(c + r * d for c, d in zip(root, random_direction(rng)))
    if kind == "root":
        return root
    if kind == "joint":
        return pose[rng.randrange(len(pose))]
    if kind == "mid_bone":
        i = rng.randrange(chain.size)
        t = rng.choice((0.5, 1e-9, 1.0 - 1e-9, rng.random()))
        return tuple(a + t * (b - a) for a, b in zip(pose[i], pose[i + 1]))
    if kind in ("reach", "min_reach"):
        r = reach if kind == "reach" else chain.min_reach
        return tuple(c + r * d for c, d in zip(root, random_direction(rng)))
    if kind == "allowed":
        return chain.forward(chain.clamp([random_rotation(rng) for _ in range(chain.size)]))[-1]
    # Straight behind the chain's current tip, as far from the root as the tip or as the reach.
    tip = pose[-1]
    v = [a - b for a, b in zip(tip, root)]
    nv = math.sqrt(sum(c * c for c in v))
    if nv < 1e-12 * reach:
        v, nv = list(chain.directions[0]), 1.0
    r = rng.choice((nv, 0.5 * reach, reach))
    return tuple(c - r * x / nv for c, x in zip(root, v))


POLE_KINDS = ("none", "none", "random", "target", "line", "root", "joint", "far")


def make_pole(chain, kind, rng, target):
    """A pole point of the given kind, or ``None``."""
    root = chain.points[0]
    if kind == "none":
        return None
    if kind == "random":
        return tuple(c + 2.0 * chain.reach * rng.random() * d for c, d in zip(root, random_direction(rng)))
    if kind == "target":
        return target
    if kind == "line":  # on the root-target line, either side
        t = rng.choice((0.5, -1.0, 2.0, rng.uniform(-3.0, 3.0)))
        return tuple(r + t * (x - r) for r, x in zip(root, target))
    if kind == "root":
        return root
    if kind == "joint":
        return chain.points[rng.randrange(len(chain.points))]
    return tuple(c + 1e6 * chain.reach * d for c, d in zip(root, random_direction(rng)))
