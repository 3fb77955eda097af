"""The stall watch over K searches at once (:class:`ikcore.solvers.restarts.StallWatch`).

Each search keeps its own best error, its mark (the best error at its last
progress), the error at its window's start and the iterations since. After
each iteration, per search::

    best <- min(best, error)
    progress where best < mark (1 - rate): mark <- best
    at the end of a window (since = window):
        pace = (best / window_start) ^ (1 / since)
        stalled = no progress in the window, or best pace^horizon > goal (a crawl)

The reference restarts a search at its stall; a batched kernel hands such a
search over instead, so the watch only has to tell the first stall.
"""

import numpy as np


class Watches:
    """The stall watches of K searches (see the module docstring), up to each one's first stall.

    Parameters
    ----------
    errors : ndarray (K,)
        Each search's start error.
    goal : float
        The error that ends a search (its tolerance).
    windows, horizons : ndarray (K,) of int
        Each search's window and horizon (:func:`ikcore.solvers.restarts.watch_settings`).
    rate : float
        The fall of the best error that counts as progress.
    """

    def __init__(self, errors, goal, windows, horizons, rate):
        self.best = np.array(errors, dtype=float)
        self.mark = self.best.copy()
        self.window_start = self.best.copy()
        self.since = np.zeros(len(self.best), dtype=int)
        self.progressed = np.zeros(len(self.best), dtype=bool)
        self.windows, self.horizons = windows, horizons
        self.goal, self.rate = goal, rate

    def update(self, errors):
        """Record one iteration's errors; per search, whether its progress has stalled."""
        np.minimum(self.best, errors, out=self.best)
        progress = self.best < self.mark * (1.0 - self.rate)
        np.copyto(self.mark, self.best, where=progress)
        self.progressed |= progress
        self.since += 1
        ends = self.since >= self.windows
        stalled = np.zeros(len(errors), dtype=bool)
        if ends.any():
            best, start, since = self.best[ends], self.window_start[ends], self.since[ends]
            with np.errstate(divide="ignore", invalid="ignore"):
                pace = np.where(start > 0.0, (best / np.where(start > 0.0, start, 1.0)) ** (1.0 / since), 0.0)
            crawling = best * pace ** self.horizons[ends] > self.goal
            stalled[ends] = ~self.progressed[ends] | crawling
            self.since[ends] = 0
            self.progressed[ends] = False
            self.window_start[ends] = best
        return stalled

    def keep(self, rows):
        """Only the searches ``rows`` (a bool mask or indices) from now on."""
        for name in ("best", "mark", "window_start", "since", "progressed", "windows", "horizons"):
            setattr(self, name, getattr(self, name)[rows])
