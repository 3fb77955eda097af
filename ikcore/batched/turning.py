"""The state of K copies of a chain whose joints a batched kernel turns, and the kernel's loop.

CCD's sweeps (:mod:`ikcore.solvers.ccd_batched`) and FABRIK's passes with frames
(:mod:`ikcore.solvers.fabrik.batched_framed`) change joint rotations, so both
work on the rotations, world rotations and points of every copy, joint-major
(:class:`JointArrays`), and iterate alike: each iteration measures every
active copy's error, keeps the poses of those that meet their target, hands
over those that stall, fail or run out of iterations, and goes on with the rest.
"""

from typing import NamedTuple

import numpy as np

from ..solution import CONVERGED
from .copies import Copies


class JointArrays(NamedTuple):
    """Joint-major arrays over K copies of a chain of N joints."""

    rotations: np.ndarray  #: (N, K, 4) local rotations
    worlds: np.ndarray     #: (N, K, 4) world rotations
    points: np.ndarray     #: (N + 1, K, 3) joint points, the effector last

    def of(self, rows):
        """The copies ``rows`` (a bool mask or indices), as a new state."""
        return JointArrays(*(np.ascontiguousarray(part[:, rows]) for part in self))


def joint_arrays(frames, count, n):
    """The :class:`JointArrays` of ``frames`` (K :class:`~ikcore.kinematics.Frames`)."""
    def stacked(rows, width):
        return np.array(rows, dtype=float).reshape(count, -1, width).transpose(1, 0, 2).copy()
    return JointArrays(stacked([f.rotations for f in frames], 4), stacked([f.worlds for f in frames], 4),
                       stacked([f.points for f in frames], 3))


def iterate_copies(step, state, active, goals, watches, cap, iterations, handed, slow=None):
    """Run ``step(work, targets)`` (one iteration on a :class:`JointArrays`) on the copies ``active``
    until each meets its goal or is handed over.

    A copy leaves when its effector's error meets the watches' goal (its pose is written into
    ``state`` and its iteration count into ``iterations``), or is handed over (``handed``) when its
    progress stalls (``watches``), its error is not finite, it reaches ``cap`` iterations or, given
    ``slow``, its error grows past ``slow`` times the last one from the second iteration on.
    """
    work = state.of(active)
    t = goals[active]
    last = watches.best.copy()
    it = 0
    while len(active):
        it += 1
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            step(work, t)
            e = work.points[-1] - t
            error = np.sqrt(np.einsum("kj,kj->k", e, e))
        met = error <= watches.goal
        leave = met | (watches.update(error) & ~met) | ~np.isfinite(error) | (it >= cap)
        if slow is not None and it >= 2:
            leave |= (error > slow * last) & ~met
        last = error
        if not leave.any():
            continue
        for part, whole in zip(work, state):
            whole[:, active[met]] = part[:, met]
        iterations[active[met]] = it
        handed[active[leave & ~met]] = True
        keep = ~leave
        work = work.of(keep)
        t, active, last = t[keep], active[keep], last[keep]
        watches.keep(keep)


def joint_copies(state, goals, iterations, handed):
    """What a kernel that turns joints leaves: the met poses in ``state`` per copy, each converged,
    its error measured from its points."""
    rotations, points = (np.ascontiguousarray(part.transpose(1, 0, 2)) for part in (state.rotations, state.points))
    offset = points[:, -1] - goals
    return Copies(points, rotations, [CONVERGED] * len(goals), iterations,
                  np.sqrt(np.einsum("kj,kj->k", offset, offset)), handed)
