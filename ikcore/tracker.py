"""A bound chain solved frame after frame for a moving target, with its settings checked once.

A scene solves the same chains every frame with the same method, options and
pole; only the target moves. :meth:`BoundChain.solve
<ikcore.skeleton.BoundChain.solve>` checks its keyword arguments on every call
(cheaply while they stay the same, but a call with nine of them is itself a
good part of a small chain's solve). A :class:`Tracker` is made once with
them, from :meth:`BoundChain.tracker <ikcore.skeleton.BoundChain.tracker>`,
and called with each frame's target.
"""

from .checks import check_point
from .errors import IKError
from .solve import make_settings, solve_warm


class Tracker:
    """``tracker(target)``: ``bound.solve(target, method, pole=pole, local=local, **options)``.

    The same Solution and the same pose written into the chain's nodes, with
    the method, options and pole checked when the tracker is made (a bad one
    raises :class:`~ikcore.IKError` then). Each call warm-starts from the
    chain's last verdict, as ``solve`` does, when the chain still holds it;
    otherwise (the first call, a pose set from outside, the chain's limits
    switched with ``constrained``) it hands the call to ``solve`` itself.

    The cheap path is taken for targets in the chain's own frame (``local``;
    for a chain that hangs from the world, its frame is the world's); a
    tracker of world targets hands every call to ``solve``, which turns them
    into that frame.

    Attributes
    ----------
    bound : BoundChain
    method : str
    pole : (x, y, z) or None
        As given (a tuple of floats once checked).
    local : bool
    options : dict
        ``tolerance``, ``max_iterations``, ``orientation_tolerance`` and the
        method's options, as for :func:`ikcore.solve`.
    """

    __slots__ = ("bound", "method", "pole", "local", "options", "_settings")

    def __init__(self, bound, method, pole=None, local=False, **options):
        if not isinstance(local, bool):
            raise IKError(f"local must be True or False, got {local!r}")
        # Checked as solve() would check them: the settings for this chain, the pole as a point.
        self._settings = make_settings(bound.chain, method, False, **options)
        self.bound = bound
        self.method = method
        self.pole = None if pole is None else check_point(pole, "pole")
        self.local = local
        self.options = options

    def __call__(self, target):
        bound = self.bound
        settings = self._settings
        last = bound._held_verdict() if self.local else None
        if last is not None and last[0] is settings.chain:
            solution = solve_warm(settings, target, None, self.pole, last[1], last[2])
            bound._adopt(solution, None)
            return solution
        return bound.solve(target, self.method, pole=self.pole, local=self.local, **self.options)
