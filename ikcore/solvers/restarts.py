"""Stall detection and restarts, shared by every iterative method.

An iterative solve can stop improving: a joint pinned on its limit, a dead end
the steps cannot leave, a crawl that would need far more iterations than are
left. :class:`StallWatch` notices it from the errors alone; the method then
restarts (:func:`restart_frames`) and gives up once restarts stop paying:

- a chain without limits restarts from a uniform arc turned onto the target
  (:func:`~ikcore.solvers.reach.arc_to`), which meets it exactly wherever such
  an arc reaches. Since that restart costs one iteration, such a chain is
  watched more closely than the method's own budget asks (:func:`watch_settings`),
  most closely near full reach, where every method crawls along the almost
  straight chain: the arc comes after a few iterations, not after many;
- any other chain restarts from its best pose turned a little at random
  (:func:`perturb`), from a generator seeded per solve (:func:`generator`): every
  solve is repeatable. CCD's sweeps and FABRIK's passes with joint frames, on
  a target within the reach, hand over to damped least squares at their first
  stall instead (:mod:`~ikcore.solvers.handover`), whose steps then restart so.
"""

import math
import random

from .. import rotation as rot
from ..kinematics import rotations_along, pose_of
from ..plan import HINGE, hinge_angle
from . import reach

#: A target at least this fraction of the reach from the root is near full reach.
NEAR_FULL_REACH = 0.9

SEED = 20110901

#: The horizon (see :class:`StallWatch`) for a chain without limits below :data:`NEAR_FULL_REACH`:
#: a crawl there slows as the error falls (about as 1 / k), which a pace projected over a method's
#: whole budget would take for progress.
FREE_HORIZON = 30


def generator():
    """A random generator seeded the same way for every solve: a solve is repeatable."""
    return random.Random(SEED)


class StallWatch:
    """Watches the error after each iteration and says when progress has stalled.

    Progress is a fall of the best error by the fraction ``rate`` below its
    level at the last progress. :meth:`update` returns True after ``window``
    iterations without progress, and also at the end of a window whose pace,
    kept up, would not bring the error down to ``goal`` within ``horizon``
    iterations (a crawl: it counts as progress, yet cannot finish). :attr:`hopeless`
    turns True once ``patience`` stalls in a row brought no progress.

    Nothing here depends on the iterations a solve has left: its first ``k``
    iterations are the same whatever its budget, so a solve stopped after ``k``
    shows the ``k``-th pose of a longer one.

    Parameters
    ----------
    error : float
        The error the watch starts from.
    goal : float
        The error that would end the solve (its tolerance).
    window, rate, patience
        As above.
    horizon : int
        Iterations within which the pace must bring the error to ``goal``:
        the method's own (:func:`watch_settings`), fewer where a restart costs
        nothing (the exact arc on a chain without limits near full reach).
    """

    __slots__ = ("best", "mark", "goal", "window", "rate", "patience", "since", "progressed",
                 "window_start", "stalls_without_progress", "stall_best", "horizon")

    def __init__(self, error, goal, window, rate, patience, horizon):
        self.best = self.mark = self.window_start = self.stall_best = error
        self.goal = goal
        self.window = window
        self.rate = rate
        self.patience = patience
        self.since = 0
        self.progressed = False
        self.stalls_without_progress = 0
        self.horizon = horizon

    def update(self, error, stuck=False):
        """Record one iteration's error; True when progress has stalled (see the class). ``stuck``:
        the method found no step at all; the window ends at once."""
        if error < self.best:
            self.best = error
            if error < self.mark * (1.0 - self.rate):
                self.mark = error
                self.progressed = True
        self.since += 1
        if stuck:
            self.progressed = False
        elif self.since < self.window:
            return False
        # A window has passed: was there progress, and at a pace that can reach the goal?
        pace = (self.best / self.window_start) ** (1.0 / self.since) if self.window_start > 0.0 else 0.0
        crawling = self.best * pace ** self.horizon > self.goal
        stalled = not self.progressed or crawling
        self.since = 0
        self.progressed = False
        self.window_start = self.best
        if not stalled:
            return False
        if self.best < self.stall_best * (1.0 - self.rate):
            self.stalls_without_progress = 0
        else:
            self.stalls_without_progress += 1
        self.stall_best = self.mark = self.best
        return True

    @property
    def hopeless(self):
        """True once ``patience`` stalls in a row brought no progress."""
        return self.stalls_without_progress >= self.patience


def perturb(chain, rotations, rng, angle, within=False):
    """``rotations`` each turned by a random angle up to ``angle`` radians, within the limits.

    A hinge turns about its own axis; any other joint about a random axis. With
    ``within``, a hinge's new angle is drawn from the part of its range within
    ``angle`` of its own (so a large ``angle`` scatters it over the whole range),
    not turned and then clamped (which would leave it on a limit as often as not).
    """
    out = []
    for q, joint, bone in zip(rotations, chain.plan.joints, chain.directions):
        if joint.kind == HINGE:
            hinge = joint.constraint
            if within and not hinge.range.full:
                t = hinge_angle(joint, q)
                q = hinge.rotation(rng.uniform(max(hinge.range.lo, t - angle), min(hinge.range.hi, t + angle)))
            else:
                q = hinge.rotation(hinge.angle(q) + rng.uniform(-angle, angle))
        else:
            axis = (rng.gauss(0.0, 1.0), rng.gauss(0.0, 1.0), rng.gauss(0.0, 1.0))
            if axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2] < 1e-12:
                axis = (1.0, 0.0, 0.0)
            q = rot.normalize(rot.multiply(rot.from_axis_angle(axis, rng.uniform(0.0, angle)), q))
            if joint.clamp is not None:
                q = joint.clamp(q, bone)
        out.append(q)
    return out


def watch_settings(problem):
    """The :class:`StallWatch`'s ``(window, horizon)`` for ``problem``: the method's ``WINDOW``
    and ``HORIZON``. A free problem (:attr:`~ikcore.problem.Problem.free`), which a stalled solve
    restarts from the arc onto the target (:func:`restart_frames`), meeting it at once, is watched
    more closely: a crawl is a pace that would not meet the tolerance within
    :data:`FREE_HORIZON` more iterations; near full reach (a target at least
    :data:`NEAR_FULL_REACH` of the reach from the root) it is told within three iterations (a
    pace that would not meet the tolerance within twelve more)."""
    chain = problem.chain
    module = problem.settings.module
    if problem.free:
        if NEAR_FULL_REACH * chain.reach <= problem.distance <= chain.reach:
            return 3, 12
        return module.WINDOW, min(module.HORIZON, FREE_HORIZON)
    return module.WINDOW, module.HORIZON


def restart_frames(problem, frames, rng, angle, within=False):
    """The pose a stalled solve of ``problem`` starts again from, near ``frames`` (see the module
    docstring): for a free problem (a chain without limits, a position target) the arc onto the
    target where one reaches, else ``frames`` perturbed by up to ``angle`` radians a joint
    (``within``: see :func:`perturb`). The watch (:func:`watch_settings`) tells a free problem's
    crawl sooner, since its restart meets the target."""
    chain = problem.chain
    if problem.free:
        points = reach.arc_to(chain, problem.target, frames.points)
        if points is not None:
            # The arc's rotations, then their own forward kinematics: the arc's points are built by
            # chords and sines and keep the bone lengths to about 1e-9 only, and a restart may be the
            # pose a solve returns.
            return pose_of(chain, rotations_along(chain, frames, points)[0])
    slides = perturb_slides(chain, frames.slides, rng, angle) if chain.plan.sliders else None
    return pose_of(chain, perturb(chain, frames.rotations, rng, angle, within), slides)


def perturb_slides(chain, slides, rng, angle):
    """Each slider's displacement in ``slides`` drawn anew within its range, from the part of it
    within ``angle / pi`` of its width of where it is: the share of its range a hinge of a whole
    turn's range would be drawn from."""
    out = list(slides)
    share = min(1.0, angle / math.pi)
    for j in chain.plan.sliders:
        slider, s = chain.plan.joints[j].constraint, slides[j]
        reach = share * (slider.upper - slider.lower)
        out[j] = rng.uniform(max(slider.lower, s - reach), min(slider.upper, s + reach))
    return out
