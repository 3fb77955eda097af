"""The standard benchmark problems, reproduced exactly.

Chains: N bones of length 1 on a straight rest pose along +x from the origin,
``p_i = (i, 0, 0)``, reach ``L = N``. Targets: from
``numpy.random.default_rng(seed)``, all directions drawn first (3D: ``g / |g|``
with ``g ~ N(0, I3)``; planar: an angle ``~ U[0, 2 pi)``), then every radius
``r = U[0.2, 0.95] * L``.

Seeds: ``12345 + N`` (3D), ``+ 1000`` (planar), ``+ 2000`` (batch, K targets).
"""

import math

import numpy as np

import ikcore

SIZES = (3, 10, 30, 100)
TARGETS_PER_SIZE = 50
TOLERANCES = (1e-3, 1e-6)
BATCH_SIZES = (8, 100, 1000)
TRACK_FRAMES = 30
TRACK_STEP = 0.01


def rest_points(n):
    """``p_i = (i, 0, 0)`` for ``i = 0 .. n``."""
    return [(float(i), 0.0, 0.0) for i in range(n + 1)]


def free_chain(n):
    """The standard free 3D chain of ``n`` unit bones."""
    return ikcore.Chain(rest_points(n))


def draw_targets(n, count, seed, planar=False):
    """``count`` targets for an ``n``-bone chain (reach ``n``), as a list of tuples."""
    rng = np.random.default_rng(seed)
    if planar:
        a = rng.uniform(0.0, 2.0 * math.pi, count)
        dirs = np.stack([np.cos(a), np.sin(a), np.zeros(count)], axis=1)
    else:
        g = rng.standard_normal((count, 3))
        dirs = g / np.linalg.norm(g, axis=1, keepdims=True)
    r = rng.uniform(0.2, 0.95, count) * n
    return [tuple(float(c) for c in p) for p in dirs * r[:, None]]


def targets_3d(n):
    """The 50 standard 3D targets for ``n`` bones (seed ``12345 + n``)."""
    return draw_targets(n, TARGETS_PER_SIZE, 12345 + n)


def targets_planar(n):
    """The 50 standard planar targets for ``n`` bones (seed ``12345 + n + 1000``)."""
    return draw_targets(n, TARGETS_PER_SIZE, 12345 + n + 1000, planar=True)


def targets_batch(n, k):
    """``k`` batch targets for ``n`` bones (seed ``12345 + n + 2000``); chain k takes target k."""
    return draw_targets(n, k, 12345 + n + 2000)


def track_paths(n, first_targets, frames=TRACK_FRAMES):
    """Per chain, the targets of each tracking frame.

    Chain ``k`` starts at ``first_targets[k]`` (where it starts converged); each
    frame its target moves ``0.01 L`` along the unit direction of
    ``(cos a, sin a, 0.5 sin 2.3 a)``, ``a = 0.37 k + 0.1``. A step that would
    leave the shell ``0.2 L <= |t| <= 0.95 L`` is mirrored off it (the direction's
    radial component is reversed, as a ball bouncing off the wall), so every
    target stays within the shell and reachable.
    """
    reach = float(n)
    step = TRACK_STEP * reach
    lo, hi = 0.2 * reach, 0.95 * reach
    paths = []
    for k, start in enumerate(first_targets):
        a = 0.37 * k + 0.1
        d = np.array([math.cos(a), math.sin(a), 0.5 * math.sin(2.3 * a)])
        d /= np.linalg.norm(d)
        t = np.array(start, dtype=float)
        path = []
        for _ in range(frames):
            nxt = t + step * d
            r = np.linalg.norm(nxt)
            if not lo <= r <= hi:
                radial = t / np.linalg.norm(t)
                d = d - 2.0 * np.dot(d, radial) * radial
                nxt = t + step * d
            t = nxt
            path.append(tuple(float(c) for c in t))
        paths.append(path)
    return paths
