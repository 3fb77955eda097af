"""FABRIK for the fast approximate reach, then damped least squares to finish.

FABRIK (:mod:`~ikcore.solvers.fabrik`) moves the tip near a position target in a
few cheap iterations but knows nothing of orientation; damped least squares
(:mod:`~ikcore.solvers.dls`) meets position and orientation together but pays
for each iteration with a Jacobian. So:

1. **Reach.** Without an orientation target, FABRIK solves the problem itself.
   With one, the last bone's world rotation is asked (``R_{N-1} = Q``), so its
   start point, the *wrist*, must be at ``w = target - Q (rest_N - rest_{N-1})``:
   FABRIK moves the first ``N - 1`` bones to put their tip on ``w``, and the
   last joint takes ``q_{N-1} = R_{N-2}^-1 Q`` (then its limits). For a free
   chain whose wrist is reachable this already meets both targets.
2. **Finish.** DLS iterations from that pose (adaptive damping, the same
   safeguards: :mod:`ikcore.solvers._jacobian`) until position and orientation
   are met.

FABRIK gets at most half the iteration budget; both phases count in
``iterations``. In the wrist phase the error history is the effector's with
the last bone set to ``Q``, which is the wrist's distance to ``w``.

Options
-------
damping : float > 0
    DLS damping as a fraction of the chain's reach (default 0.03).
rest_weight : float in [0, 1]
    Gain of the null-space motion toward the rest pose in the DLS phase
    (default 0: off).
"""

import math

from .. import rotation as rot
from ..chain import Chain
from ..checks import check_positive
from ..problem import Outcome, Problem, read_options
from . import _jacobian, fabrik

OPTIONS = {
    "damping": (0.03, check_positive),
    "rest_weight": (0.0, _jacobian.check_fraction),
}
MAX_ITERATIONS = 200
# FABRIK iterations at most: enough for the approximate reach, where it is fast.
FABRIK_ITERATIONS = 25

# Wrist sub-chains of recently solved chains (a chain is immutable): built once, not per frame.
_wrists = {}
_WRIST_CACHE = 64


def _wrist_chain(chain):
    entry = _wrists.get(id(chain))
    if entry is not None and entry[0] is chain:
        return entry[1]
    sub = Chain(chain.points[:-1], chain.joints[:-1])
    if len(_wrists) >= _WRIST_CACHE:
        _wrists.pop(next(iter(_wrists)))
    _wrists[id(chain)] = (chain, sub)
    return sub


def run(problem):
    """Solve ``problem``: FABRIK reach, then DLS finish."""
    chain = problem.chain
    budget = problem.max_iterations
    fabrik_budget = max(1, min(budget // 2, FABRIK_ITERATIONS))
    options = read_options("fabrik", {}, fabrik.OPTIONS)
    Q = problem.orientation
    if Q is None:
        reach = fabrik.run(Problem(chain, problem.target, problem.start, problem.tolerance, fabrik_budget,
                                   None, problem.orientation_tolerance, problem.pole, options))
        start, used, errors = reach.rotations, reach.iterations, list(reach.errors)
    elif chain.size == 1:
        start, used, errors = [Q], 0, [math.dist(chain._forward(problem.start)[-1], problem.target)]
    else:
        sub = _wrist_chain(chain)
        tx, ty, tz = problem.target
        ox, oy, oz = rot.rotate(Q, chain.offsets[-1])
        wrist = (tx - ox, ty - oy, tz - oz)
        reach = fabrik.run(Problem(sub, wrist, problem.start[:-1], problem.tolerance, fabrik_budget,
                                   None, problem.orientation_tolerance, problem.pole, options))
        parent = sub.world_rotations(reach.rotations)[-1]
        start = list(reach.rotations) + [rot.normalize(rot.multiply(rot.conjugate(parent), Q))]
        used, errors = reach.iterations, list(reach.errors)
        # The history starts at the start pose's own effector error.
        errors[0] = math.dist(chain._forward(problem.start)[-1], problem.target)
    if chain.limited:
        start = chain.clamp(start)
    # The finish starts from the reached pose: its true error ends the reach history.
    reached = math.dist(chain._forward(start)[-1], problem.target)
    if used:
        errors[-1] = reached
    elif list(start) != list(problem.start):
        # Setting the last bone to the asked rotation was the reach: one iteration.
        used = 1
        errors.append(reached)
    finish = _jacobian.iterate(problem, "inverse", damping=problem.options["damping"], adaptive=True,
                               rest_weight=problem.options["rest_weight"], start=start,
                               max_iterations=budget - used, errors=errors)
    return Outcome(finish.rotations, used + finish.iterations, finish.errors, finish.stalled)
