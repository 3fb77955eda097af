"""FABRIK over K copies of a chain at once, on numpy arrays: chains without limits, and chains of
twist-free cones about a straight rest line (:mod:`.batched_cones`).

The points of all copies sit in one joint-major array ``P`` of shape
``(N + 1, K, 3)``, so each step of a pass is a few array operations over every
copy at once (the passes of :mod:`.points`)::

    backward:  P[N] <- t;     P[i] <- P[i+1] + L_i (P[i] - P[i+1]) / |P[i] - P[i+1]|
    forward:   P[0] <- root;  P[i+1] <- P[i] + L_i (P[i+1] - P[i]) / |P[i+1] - P[i]|

A copy leaves the arrays once its effector meets its target. The rotations
follow once, at the end, turned from the start by the shortest arcs
(:func:`ikcore.batched.quaternions.rotations_along`), as :func:`ikcore.kinematics.pose_from_points`
turns them for one chain.

**Which copies the kernel finishes.** It runs only the plain passes. A copy
whose solve by :func:`ikcore.solvers.fabrik.run` would leave them is *handed
over*: the caller solves it by the reference from its start, so its result is
the reference's own. Handed over are the copies whose target lies out of
reach, nearer the root than the chain folds, within the tolerance of an edge
of the reach (a chain without limits: the nearest pose in one step) or on the
root (:data:`ON_ROOT`), whose start is straight on the target's line (bent first,
:mod:`~ikcore.solvers.degenerate`), whose progress stalls (the reference
restarts it: the stall watch of :mod:`ikcore.batched.watch` tells when) or
that run out of iterations (the reference returns its best pose), any whose
passes meet a point on its neighbour, and, on a chain with a cone whose rim
the kernel does not meet (see :class:`.batched_cones.ConePasses`), any that
meets its target with a bone on a rim. A copy whose start meets its
target is returned as it is, in 0 iterations.
"""

import math

import numpy as np

from ...batched.copies import Copies
from ...batched.quaternions import rotations_along
from ...batched.watch import Watches
from ...solution import CONVERGED
from .. import degenerate
from ..restarts import FREE_HORIZON, NEAR_FULL_REACH
from . import HORIZON, WINDOW
from .batched_cones import ConePasses
from .points import cones_of

#: A target this near the root (a fraction of the reach) is met as well by every pose turned about
#: the root, and the passes' rounding picks which: such a copy is handed over.
ON_ROOT = 1e-9
#: The fall of the best error the stall watch counts as progress: the rate
#: :func:`~ikcore.solvers.loop.iterate` watches FABRIK with.
RATE = 0.01


def solve(settings, targets, goals, starts):
    """FABRIK on K copies of ``settings.chain`` (one :func:`applies` takes; see the module docstring).

    Parameters
    ----------
    settings : Settings
    targets : list of K (x, y, z)
    goals : ndarray (K, 3)
        The same targets.
    starts : list of K Frames, or None
        Each copy's start pose; ``None``: every copy starts from the rest pose.

    Returns
    -------
    Copies
        Every copy the kernel finishes is converged.
    """
    chain, tol = settings.chain, settings.tolerance
    count, n = len(targets), chain.size
    rest = chain.plan.rest
    frames = [rest] * count if starts is None else starts
    start = start_points(frames, count, n)
    error, distance, met, handed = opening(settings, frames, targets, goals, starts is None)
    points = start.copy()
    iterations = np.zeros(count, dtype=int)
    active = np.flatnonzero(~met & ~handed)
    if len(active):
        windows, horizons = watch_settings(chain, distance[active])
        passes = FreePasses(chain) if chain.plan.free else ConePasses(chain.plan.layouts[cones_of])
        _iterate(points, active, goals, Watches(error[active], tol, windows, horizons, RATE), passes,
                 settings.max_iterations, iterations, handed)
    done = ~met & ~handed
    final = np.ascontiguousarray(points.transpose(1, 0, 2))
    rotations = np.empty((count, n, 4))
    rotations[met] = as_array([frames[k].rotations for k in np.flatnonzero(met)], (int(met.sum()), n, 4))
    if done.any():
        directions, worlds = _reference(frames, done, starts is None, rest, n)
        rotations[done] = rotations_along(final[done], np.array(chain.lengths), directions, worlds)[0]
    offset = final[:, -1] - goals
    return Copies(final, rotations, [CONVERGED] * count, iterations, np.sqrt(np.einsum("kj,kj->k", offset, offset)),
                  handed)


def applies(chain):
    """Whether the kernel takes ``chain``: no limits, or twist-free cones about a straight rest line
    (the chains FABRIK solves on points alone, :mod:`.points`)."""
    return chain.plan.free or chain.plan.layouts[cones_of] is not None


def edges(settings, distance):
    """Per copy, whether its target lies where the reference leaves the passes at once: out of reach
    or, for a chain without limits, within the tolerance of an edge of it (the nearest pose in one
    step); nearer the root than the chain folds (the passes aim at the nearest point); on the root."""
    chain, margin = settings.chain, settings.edge_margin
    out = (distance >= chain.reach) | (distance < chain.min_reach) | (distance <= ON_ROOT * chain.reach)
    if chain.plan.free:
        out |= (distance >= chain.reach - margin) | ((chain.min_reach > 0.0) & (distance <= chain.min_reach + margin))
    return out


def watch_settings(chain, distance):
    """Each copy's stall watch window and horizon (:func:`~ikcore.solvers.restarts.watch_settings`)."""
    if not chain.plan.free:
        return np.full(len(distance), WINDOW), np.full(len(distance), HORIZON)
    near = (NEAR_FULL_REACH * chain.reach <= distance) & (distance <= chain.reach)
    return np.where(near, 3, WINDOW), np.where(near, 12, min(HORIZON, FREE_HORIZON))


def _iterate(points, active, goals, watches, passes, cap, iterations, handed):
    """The passes on the copies ``active`` until each meets its target or is handed over (see the
    module docstring). ``points`` (N + 1, K, 3) holds the start on entry and the met poses on exit.
    A copy that meets its target with a bone on its cone's rim is handed over where the passes say
    its rims cannot be met (``rims_met``: see :class:`.batched_cones.ConePasses`)."""
    p = np.ascontiguousarray(points[:, active])
    t = goals[active]
    it = 0
    while len(active):
        it += 1
        # A point on its neighbour divides by zero: its copy's error turns NaN, and it is handed over.
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            effector, inside = passes.step(p, t)
            e = effector - t
            error = np.sqrt(np.einsum("kj,kj->k", e, e))
        met = error <= watches.goal
        stalled = watches.update(error) & ~met
        lost = ~np.isfinite(error)
        if not passes.rims_met:
            lost |= met & ~inside
            met &= inside
        leave = met | stalled | lost | (it >= cap)
        if not leave.any():
            continue
        points[:, active[met]] = p[:, met]
        iterations[active[met]] = it
        handed[active[leave & ~met]] = True
        keep = ~leave
        p, t, active = np.ascontiguousarray(p[:, keep]), t[keep], active[keep]
        watches.keep(keep)


class FreePasses:
    """The passes of a chain without limits over K copies (see the module docstring)."""

    def __init__(self, chain):
        self.lengths = [float(v) for v in chain.lengths]
        self.root = np.array(chain.points[0], dtype=float)

    #: No cone, no rim.
    rims_met = True

    def step(self, p, target):
        """One iteration on the points ``p`` toward ``target`` (K, 3): the effectors, and per copy
        True (no limit to leave)."""
        _backward(p, self.lengths, target)
        _forward(p, self.lengths, self.root)
        return p[-1], np.True_


def _backward(p, lengths, target):
    """Tip to root: the effector onto the target, each point onto the line toward its old place."""
    d = np.empty_like(target)
    s = np.empty(len(target))
    p[-1] = target
    for i in range(len(lengths) - 1, -1, -1):
        np.subtract(p[i], p[i + 1], out=d)
        np.sqrt(np.einsum("kj,kj->k", d, d), out=s)
        np.divide(lengths[i], s, out=s)
        np.multiply(d, s[:, None], out=d)
        np.add(p[i + 1], d, out=p[i])


def _forward(p, lengths, root):
    """Root to tip: the root back in place, each point onto the line toward its backward-pass place."""
    d = np.empty(p.shape[1:])
    s = np.empty(p.shape[1])
    p[0] = root
    for i in range(len(lengths)):
        np.subtract(p[i + 1], p[i], out=d)
        np.sqrt(np.einsum("kj,kj->k", d, d), out=s)
        np.divide(lengths[i], s, out=s)
        np.multiply(d, s[:, None], out=d)
        np.add(p[i], d, out=p[i + 1])


def straight_starts(chain, frames, targets, goals, asked, from_rest):
    """Per copy, whether :func:`ikcore.solvers.degenerate.straight` finds its start and target on one
    line (asked only for the copies ``asked``). From the rest pose, only targets near the rest's
    line (within twice the test's distance, measured on arrays) are asked one by one."""
    out = np.zeros(len(targets), dtype=bool)
    ask = np.flatnonzero(asked)
    if from_rest and len(ask):
        rest = chain.plan.rest
        if not degenerate.straight(chain, rest):
            return out
        first, last = np.array(rest.points[0]), np.array(rest.points[-1])
        u = (last - first) / np.linalg.norm(last - first)
        offset = goals[ask] - first
        off = offset - np.outer(offset @ u, u)
        ask = ask[np.sqrt(np.einsum("kj,kj->k", off, off)) <= 2.0 * degenerate.COLLINEAR * chain.reach]
    for k in ask:
        out[k] = degenerate.straight(chain, frames[k], targets[k])
    return out


def start_points(frames, count, n):
    """The start points of ``frames``, joint-major: ``(N + 1, K, 3)``."""
    if count and all(f is frames[0] for f in frames):
        return np.repeat(np.array(frames[0].points, dtype=float)[:, None, :], count, axis=1)
    return as_array([f.points for f in frames], (count, n + 1, 3)).transpose(1, 0, 2).copy()


def _reference(frames, rows, from_rest, rest, n):
    """The bone directions and world rotations of the start poses of the copies ``rows`` (the rest
    pose's once, where every copy starts there)."""
    if from_rest:
        return np.array(rest.directions, dtype=float), np.array(rest.worlds, dtype=float)
    picked = [frames[k] for k in np.flatnonzero(rows)]
    return (as_array([f.directions for f in picked], (len(picked), n, 3)),
            as_array([f.worlds for f in picked], (len(picked), n, 4)))


def opening(settings, frames, targets, goals, from_rest):
    """Per copy, what the reference tells before its first step: the start's error and the target's
    distance from the root (measured as :class:`~ikcore.problem.Problem` measures them), whether the
    start meets the target, and whether the reference leaves the plain steps at once (:func:`edges`,
    :func:`straight_starts`), so that the copy is handed over."""
    chain = settings.chain
    root = chain.points[0]
    error = np.array([math.dist(f.points[-1], t) for f, t in zip(frames, targets)])
    distance = np.array([math.dist(t, root) for t in targets])
    met = error <= settings.tolerance
    handed = ~met & edges(settings, distance)
    handed |= straight_starts(chain, frames, targets, goals, ~met & ~handed, from_rest)
    return error, distance, met, handed


def as_array(rows, shape):
    """Nested rows of floats as one array of ``shape``."""
    return np.array(rows, dtype=float).reshape(shape)
