"""Damped least squares finishing a geometric method that crawls.

CCD's sweeps and FABRIK's passes with joint frames slow down where a joint is
pinned on its limit, or near full reach where the chain is almost straight:
each step then moves the effector by less than the last, and the error falls
ever more slowly. Steps of damped least squares (:mod:`~.jacobian.dls`), which
move every joint at once toward the target, converge quadratically there.

A :class:`HandingOver` search takes its own method's steps until it hands
over, from its best pose so far: at the first stall the loop sees
(:func:`~.loop.iterate` asks for a restart), or sooner where the method tells
its steps slow down. From then on every iteration is a damped least squares
step, and a stall restarts those steps (:meth:`~.jacobian.JacobianSearch.restart`).
The trace shows the hand-over as a ``"handover"`` setup step, then the
Jacobian steps.
"""

from .loop import Search


class HandingOver(Search):
    """The base of a geometric method's search that hands over to damped least squares.

    A subclass gives ``problem``, ``chain`` and ``steps`` (the step hook), its
    method's iteration as :meth:`own_step` and the copy of its pose as
    :meth:`own_keep` (a :class:`~ikcore.kinematics.Frames`); it may call
    :meth:`hand_over` itself.

    Attributes
    ----------
    finisher : JacobianSearch or None
        The damped least squares search, once handed over.
    """

    finisher = None

    @property
    def stuck(self):
        return self.finisher is not None and self.finisher.stuck

    def step(self, iteration):
        if self.finisher is None:
            self.own_step(iteration)
        else:
            self.finisher.step(iteration)
            self.error, self.score = self.finisher.error, self.finisher.score

    def keep(self):
        return self.own_keep() if self.finisher is None else self.finisher.keep()

    def pose_of(self, kept):
        return self.problem.start if kept is None else kept

    def hand_over(self, frames):
        """Damped least squares steps from ``frames`` on (:mod:`~.jacobian.dls`'s defaults)."""
        from .jacobian import JacobianSearch
        from .jacobian.dls import default_rule
        self.finisher = JacobianSearch(self.problem.with_start(frames), default_rule(self.chain.reach), self.steps)
        self.error, self.score = self.finisher.error, self.finisher.score
        if self.steps is not None:
            self.steps.setup(frames.points, "handover")

    def restart(self, kept, rng):
        """At the first stall, hand over from the best pose ``kept``; after it, restart the steps."""
        if self.finisher is None:
            self.hand_over(self.pose_of(kept))
        else:
            self.finisher.restart(kept, rng)
            self.error, self.score = self.finisher.error, self.finisher.score
        return True
