"""CCD over K copies of a chain without limits at once, on numpy arrays.

One sweep of :mod:`.ccd` for every copy at once, on joint-major arrays (local
and world rotations ``(N, K, 4)``, points ``(N + 1, K, 3)``, taken from forward
kinematics at the sweep's start). From the tip to the root, joint ``i`` at
``p_i`` turns by the shortest arc ``D`` that lines the direction to the
effector ``u = e - p_i`` up with the direction to the target ``v = t - p_i``,
seen in its parent's frame ``P``: ``q_i <- (P* D P) q_i``; the effector turns
with it, ``e <- p_i + D u``. A turn that would move the effector by less than
:data:`~.ccd.SKIP` of the tolerance is skipped, and a copy's sweep ends once
its effector meets the target (a mask per copy). Forward kinematics of the
rotations (:func:`ikcore.kinematics.pose_of`) ends each sweep.

**Which copies the kernel finishes.** Those the plain sweeps bring to their
target. As for FABRIK's kernels (:mod:`.fabrik.batched`), a copy whose target
lies at an edge of the reach or beyond it, whose start is straight on the
target's line, whose progress stalls (the reference restarts it from an arc),
that runs out of sweeps, or whose turn has no axis is handed over to the
reference, which solves it from its start. So is a copy whose joint would turn
near a half turn with the effector within :data:`AXIS_FLOOR` of the reach of
the line from the joint to the target: the turn's axis is then ``u x v`` of
near-opposite directions, which rounding decides (an error ``d`` in the
effector tilts it by about ``d / (|u| sin angle)``), so the kernel and the
reference, rounding apart, would part by more than the rounding.
"""

import numpy as np

from ..batched.quaternions import conjugate, multiply, turn
from ..batched.turning import iterate_copies, joint_arrays, joint_copies
from ..batched.watch import Watches
from . import ccd
from .fabrik.batched import RATE, opening
from .restarts import FREE_HORIZON, NEAR_FULL_REACH

_IDENTITY = np.array([1.0, 0.0, 0.0, 0.0])
#: A turn of more than a quarter turn with the effector nearer than this fraction of the reach to the
#: line from the joint to the target hands its copy over (see the module docstring): rounding of the
#: effector, a few 1e-16 of the reach, then tilts the axis by up to ~1e-11 and the points by less.
AXIS_FLOOR = 1e-4


def applies(chain, settings):
    """Whether the kernel takes the batch: a chain without limits, each turn uncapped."""
    return chain.plan.free and settings.options["max_step_deg"] >= 180.0


def solve(settings, targets, goals, starts):
    """CCD on K copies of ``settings.chain`` (see the module docstring). Arguments and result as
    :func:`.fabrik.batched.solve`."""
    chain, tol = settings.chain, settings.tolerance
    count, n = len(targets), chain.size
    frames = [chain.plan.rest] * count if starts is None else starts
    error, distance, met, handed = opening(settings, frames, targets, goals, starts is None)
    state = joint_arrays(frames, count, n)
    iterations = np.zeros(count, dtype=int)
    active = np.flatnonzero(~met & ~handed)
    if len(active):
        near = (NEAR_FULL_REACH * chain.reach <= distance[active]) & (distance[active] <= chain.reach)
        watches = Watches(error[active], tol, np.where(near, 3, ccd.WINDOW),
                          np.where(near, 12, min(ccd.HORIZON, FREE_HORIZON)), RATE)
        iterate_copies(BatchedCCD(chain, tol).sweep, state, active, goals, watches, settings.max_iterations,
                       iterations, handed)
    return joint_copies(state, goals, iterations, handed)


class BatchedCCD:
    """CCD's sweeps over K copies of a chain without limits (see the module docstring)."""

    def __init__(self, chain, tolerance):
        self.offsets = [np.array(o, dtype=float) for o in chain.offsets]
        self.root = np.array(chain.points[0], dtype=float)
        self.tolerance = tolerance
        self.skip = ccd.SKIP * tolerance
        self.axis_floor = AXIS_FLOOR * chain.reach

    def sweep(self, state, target):
        """One sweep, tip to root, then forward kinematics: ``state`` (a
        :class:`~ikcore.batched.turning.JointArrays`) updated in place."""
        rotations, worlds, points = state
        e = points[-1].copy()
        going = np.ones(len(target), dtype=bool)
        for i in range(len(self.offsets) - 1, -1, -1):
            p, q = points[i], rotations[i]
            u, v = e - p, target - p
            nu, nv = _norm(u), _norm(v)
            s, b = u / nu[:, None], v / nv[:, None]
            world = _arc(s, b)
            # |u| sin(angle): the effector's distance from the line p -> t.
            unsure = (np.einsum("kj,kj->k", s, b) < 0.0) & (nu * _norm(np.cross(s, b)) < self.axis_floor)
            world[going & unsure] = np.nan
            # The effector would move by |u| 2 sin(angle / 2): skip a turn below the tolerance's SKIP.
            angle = 2.0 * np.arctan2(_norm(world[:, 1:]), np.abs(world[:, 0]))
            turns = going & (nu != 0.0) & (nv != 0.0) & ~(nu * 2.0 * np.sin(0.5 * angle) < self.skip)
            parent = worlds[i - 1] if i else np.broadcast_to(_IDENTITY, q.shape)
            local = multiply(multiply(conjugate(parent), world), parent)
            new = _unit(multiply(local, q))
            made = multiply(multiply(parent, multiply(new, conjugate(q))), conjugate(parent))
            rotations[i] = np.where(turns[:, None], new, q)
            e = np.where(turns[:, None], p + turn(made, u), e)
            going &= ~(turns & (_norm(e - target) <= self.tolerance))
        self.forward(state)

    def forward(self, state):
        """Forward kinematics of the rotations, each made unit: ``R_i = R_{i-1} q_i``, ``p_{i+1} = p_i + R_i o_i``."""
        rotations, worlds, points = state
        rotations[:] = _unit(rotations)
        parent = np.broadcast_to(_IDENTITY, rotations.shape[1:])
        points[0] = self.root
        for i, offset in enumerate(self.offsets):
            parent = worlds[i] = multiply(parent, rotations[i])
            points[i + 1] = points[i] + turn(parent, offset)


def _norm(v):
    return np.sqrt(np.einsum("...j,...j->...", v, v))


def _unit(q):
    return q / _norm(q)[..., None]


def _arc(s, b):
    """The shortest arcs turning unit ``s`` onto unit ``b`` (:func:`ikcore.rotation.shortest_arc`); a half
    turn with no axis across ``s`` gives NaN (its copy is handed over)."""
    c = np.einsum("kj,kj->k", s, b)
    axis = np.cross(s, b)
    out = np.concatenate(((1.0 + c)[:, None], axis), axis=1)
    out /= _norm(out)[:, None]
    far = np.flatnonzero(~(c > -0.99))
    if len(far):
        # Near a half turn: the angle from atan2, the axis the cross product's part across s.
        sine = _norm(axis[far])
        across = axis[far] - np.einsum("kj,kj->k", axis[far], s[far])[:, None] * s[far]
        n = _norm(across)
        half = 0.5 * np.arctan2(sine, c[far])
        k = np.where(n > 1e-150, np.sin(half) / n, np.nan)
        out[far] = np.concatenate((np.cos(half)[:, None], across * k[:, None]), axis=1)
    return out
