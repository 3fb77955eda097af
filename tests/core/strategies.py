"""Hypothesis strategies for random chains, constraints, poses and targets."""

import math

from hypothesis import strategies as st

import ikcore
from ikcore import rotation as rot

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
