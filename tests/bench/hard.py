"""The hard problems, beside the standard ones: where solvers used to fail or crawl.

Each is a list of ``(chain, target)`` cases, drawn from a seeded generator
(``random.Random``, no numpy), so the tests (``tests/core/test_hard_problems.py``)
and the benchmark (``docs/benchmarks.md``) see the very same cases.

``legs(root)``
    Limbs: a ``"ball"`` hip (``BallSocket(100, -45, 45)``) or a ``"free"`` one, a
    knee hinge of 0..150 degrees and an ankle hinge of -45..45 about the same
    axis; bones of 0.45, 0.42 and 0.13 hanging down. 200 targets, the feet of
    random poses within the limits: all reachable. Solved from the rest pose.
``clamped_legs(root)``
    The same limbs, 200 targets the feet of random rotations clamped into the
    limits: the knee is often straight on its limit and the foot near full
    reach, where the sweeps of CCD crawl.
``near_reach(n)``
    Straight free chains of ``n`` unit bones; 20 random directions at each of
    0.95, 0.98, 0.99, 0.995, 0.998, 0.999, 0.9999, 0.99999 and 0.999999 of the reach.
``differing_axes()``
    Six hinges about random axes across the bones, lopsided ranges, 200 chains,
    each with the tip of a random pose within its limits.
``hip_and_knee()``
    The two-bone limb ``two_bone`` met with its limits: a ball hip
    (``BallSocket(100, -60, 60)``) and a knee hinge of 0..150, 100 reachable targets.
"""

import math
import random

import ikcore
from ikcore import BallSocket, Chain, Hinge
from ikcore import rotation as rot

NEAR_REACH_FRACTIONS = (0.95, 0.98, 0.99, 0.995, 0.998, 0.999, 0.9999, 0.99999, 0.999999)


def _direction(rng):
    while True:
        v = (rng.gauss(0.0, 1.0), rng.gauss(0.0, 1.0), rng.gauss(0.0, 1.0))
        n = math.sqrt(sum(c * c for c in v))
        if n > 1e-6:
            return tuple(c / n for c in v)


def _rotation(rng):
    return rot.from_axis_angle(_direction(rng), rng.uniform(0.0, math.pi))


def _allowed(chain, rng):
    """The tip of a random pose within ``chain``'s limits: truly reachable."""
    return chain.forward(chain.clamp([_rotation(rng) for _ in range(chain.size)]))[-1]


def leg(root):
    """The limb of :func:`legs`."""
    hip = BallSocket(100.0, -45.0, 45.0) if root == "ball" else None
    return Chain([(0.0, 0.0, 0.0), (0.0, -0.45, 0.0), (0.0, -0.87, 0.0), (0.0, -1.0, 0.0)],
                 [hip, Hinge((1.0, 0.0, 0.0), 0.0, 150.0), Hinge((1.0, 0.0, 0.0), -45.0, 45.0)])


def legs(root, count=200, seed=17):
    chain = leg(root)
    rng = random.Random(seed)
    cases = []
    for _ in range(count):
        knee = rot.from_axis_angle((1.0, 0.0, 0.0), math.radians(rng.uniform(0.0, 150.0)))
        ankle = rot.from_axis_angle((1.0, 0.0, 0.0), math.radians(rng.uniform(-45.0, 45.0)))
        cases.append((chain, chain.forward(chain.clamp([_rotation(rng), knee, ankle]))[-1]))
    return cases


def clamped_legs(root, count=200, seed=19):
    chain = leg(root)
    rng = random.Random(seed)
    return [(chain, _allowed(chain, rng)) for _ in range(count)]


def near_reach(n, per_fraction=20, seed=29):
    chain = Chain([(float(i), 0.0, 0.0) for i in range(n + 1)])
    rng = random.Random(seed + n)
    return [(chain, tuple(f * n * c for c in _direction(rng)))
            for f in NEAR_REACH_FRACTIONS for _ in range(per_fraction)]


def differing_axes(count=200, seed=31):
    rng = random.Random(seed)
    cases = []
    for _ in range(count):
        joints = []
        for _ in range(6):
            a = rng.uniform(0.0, 2.0 * math.pi)
            joints.append(Hinge((0.0, math.cos(a), math.sin(a)), rng.uniform(-150.0, 0.0), rng.uniform(10.0, 150.0)))
        chain = Chain([(float(i), 0.0, 0.0) for i in range(7)], joints)
        cases.append((chain, _allowed(chain, rng)))
    return cases


def hip_and_knee(count=100, seed=37):
    chain = Chain([(0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (2.0, 0.0, 0.0)],
                  [BallSocket(100.0, -60.0, 60.0), Hinge((0.0, 0.0, 1.0), 0.0, 150.0)])
    rng = random.Random(seed)
    return [(chain, _allowed(chain, rng)) for _ in range(count)]


#: Name -> (cases, the methods it is about); what the tests and the benchmark run.
PROBLEMS = {
    "legs, ball hip": (lambda: legs("ball"), ("ccd", "fabrik", "jacobian_transpose", "pseudo_inverse", "dls",
                                               "fabrik_dls")),
    "legs, free hip": (lambda: legs("free"), ("ccd", "fabrik", "jacobian_transpose", "pseudo_inverse", "dls",
                                               "fabrik_dls")),
    "legs, ball hip, clamped poses": (lambda: clamped_legs("ball"), ("ccd", "fabrik", "jacobian_transpose",
                                                                     "pseudo_inverse", "dls", "fabrik_dls")),
    "legs, free hip, clamped poses": (lambda: clamped_legs("free"), ("ccd", "fabrik", "jacobian_transpose",
                                                                     "pseudo_inverse", "dls", "fabrik_dls")),
    "near full reach, 4 bones": (lambda: near_reach(4), ("ccd", "fabrik", "jacobian_transpose", "pseudo_inverse",
                                                          "dls", "fabrik_dls")),
    "near full reach, 10 bones": (lambda: near_reach(10), ("ccd", "fabrik", "jacobian_transpose", "pseudo_inverse",
                                                            "dls", "fabrik_dls")),
    "six hinges, differing axes": (differing_axes, ("ccd", "fabrik", "jacobian_transpose", "pseudo_inverse", "dls",
                                                    "fabrik_dls")),
    "ball hip and hinge knee": (hip_and_knee, ("two_bone", "dls")),
}


def run(cases, method, **options):
    """The Solutions of ``method`` on ``cases``, each from the rest pose."""
    return [ikcore.solve(chain, target, method, **options) for chain, target in cases]
