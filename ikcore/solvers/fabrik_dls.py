"""FABRIK for the fast approximate reach, then damped least squares to finish.

FABRIK (:mod:`~ikcore.solvers.fabrik`) moves the tip near a position target in a
few cheap iterations but knows nothing of orientation; damped least squares
(:mod:`~ikcore.solvers.jacobian.dls`) meets position and orientation together
but pays for each iteration with a Jacobian. So:

1. **Reach.** Without an orientation target, FABRIK solves the problem itself.
   With one, the last bone's world rotation is asked (``R_{N-1} = Q``), so its
   start point, the *wrist*, must be at ``w = target - Q (rest_N - rest_{N-1})``:
   FABRIK moves the first ``N - 1`` bones to put their tip on ``w``, and the
   last joint takes ``q_{N-1} = R_{N-2}^* Q`` (then its limits). For a chain
   without limits whose wrist is reachable this already meets both targets.
2. **Finish.** Damped least squares iterations from that pose (or from the
   start, where the reach ended farther from meeting the target than it),
   with adaptive damping, the same safeguards and secondary objectives
   (:mod:`ikcore.solvers.jacobian`), until position and orientation are met.

FABRIK gets at most half the iteration budget (and at most
:data:`FABRIK_ITERATIONS`); both phases count in ``iterations``. In the wrist
phase the error history is the wrist's distance to ``w``.

**Sliders and masks.** FABRIK keeps every bone's length, so it cannot move a
slider (:class:`~ikcore.Slider`): the reach runs on the chain with each slider
held where the start has it (a bone of the slid length whose joint cannot turn),
and the finish, which moves sliders, does the rest. FABRIK measures the whole
position: with a ``mask`` (:mod:`ikcore.mask`) the reach still aims at the whole
target, a pose that meets every masked task where the target is reachable, and the
finish measures only the asked axes; a reach that ends farther from meeting the
masked task than the start is dropped as any other.

Options
-------
damping : float > 0
    DLS damping as a fraction of the chain's reach (default 0.03).
rest_weight : float in [0, 1]
    Short for the secondary objective ``TowardRest(rest_weight)`` in the DLS
    phase (:mod:`ikcore.objectives`; default 0: none).
"""

from .. import rotation as rot
from ..chain import Chain
from ..constraints import Hinge
from ..checks import check_fraction, check_positive
from ..kinematics import pose_of, slid_offsets
from ..problem import Problem, check_settings
from . import fabrik
from .jacobian import run as run_jacobian
from .jacobian.dls import default_rule

OPTIONS = {
    "damping": (0.03, check_positive),
    "rest_weight": (0.0, check_fraction),
}
MAX_ITERATIONS = 200
#: The stall watch's window (:func:`~ikcore.solvers.restarts.watch_settings`): a restart from a pose
#: scattered over the ranges needs ten iterations to show that it beats the best pose so far.
WINDOW = 10
#: A pace that would not meet the tolerance within this many more iterations is a crawl: the
#: whole default budget.
HORIZON = MAX_ITERATIONS
ORIENTATION = POLE = SECONDARY = True
#: It moves sliders (its finish does; the reach holds them) and takes a mask: see above.
SLIDERS = MASK = True
#: FABRIK iterations at most: enough for the approximate reach, where it is fast.
FABRIK_ITERATIONS = 25


def run(problem, steps=None):
    """Solve ``problem``: FABRIK's reach, then the DLS finish."""
    chain = problem.chain
    budget = max(1, min(problem.max_iterations // 2, FABRIK_ITERATIONS))
    Q = problem.orientation
    slides = problem.start.slides
    # The chain FABRIK reaches with: with sliders, each held at its start displacement.
    held = chain if slides is None else held_chain(chain, slides)
    if Q is None:
        reached = fabrik.run(_sub_problem(problem, held, problem.target, pose_of(held, problem.start.rotations)
                                          if slides else problem.start, budget), _seeing(steps, held, slides))
        start = reached.frames if slides is None else pose_of(chain, reached.frames.rotations, slides)
        used, errors = reached.iterations, list(reached.errors)
        # The reach returns its best pose, swivelled toward the pole: the history runs from the
        # start's error (over the asked axes, with a mask) to that pose's.
        errors[0] = problem.start_error
        errors[-1] = problem.error(start)
    elif chain.size == 1:
        # The one bone takes the asked rotation: that is the reach.
        start = pose_of(chain, [Q], slides)
        used, errors = 1, [problem.start_error, problem.error(start)]
    else:
        wrist_chain = chain.plan.layouts[_wrist_chain] if slides is None else _wrist_chain(held)
        hand = rot.rotate(Q, held.offsets[-1])
        wrist = tuple(t - o for t, o in zip(problem.target, hand))
        sub_start = pose_of(wrist_chain, problem.start.rotations[:-1])
        # The steps hook sees the whole chain: the hand held at the asked orientation on FABRIK's wrist.
        reached = fabrik.run(_sub_problem(problem, wrist_chain, wrist, sub_start, budget),
                             None if steps is None else _seeing(steps, wrist_chain, slides).holding(hand))
        last = rot.multiply(rot.conjugate(reached.frames.worlds[-1]), Q)
        start = pose_of(chain, [*reached.frames.rotations, last], slides)
        # The wrist's history, from the whole chain's start error to the reached pose's own error;
        # setting the last bone is an iteration of its own where FABRIK took none.
        used, errors = reached.iterations, list(reached.errors)
        errors[0] = problem.start_error
        if used == 0:
            used = 1
            errors.append(problem.error(start))
        else:
            errors[-1] = problem.error(start)
    finish = "finish"
    if problem.score(start) > problem.score(problem.start):
        # The reach went the wrong way (an orientation the chain cannot take there): the finish
        # starts from the start instead.
        start = problem.start
        errors[-1] = problem.start_error
        finish = "fallback"
    if steps is not None:
        steps.setup(start.points, finish, used)
    # The pole: FABRIK's reach turned toward it already, but for the wrist; with an orientation the
    # finish turns the bones up to the wrist, where an iteration is left for it.
    left = problem.max_iterations - used
    finish = run_jacobian(problem.with_start(start), default_rule(chain.reach, problem.options["damping"]), steps,
                          budget=left, errors=errors, turn=Q is not None and left > 0)
    return type(finish)(finish.frames, used + finish.iterations, finish.errors, finish.stalled)


def held_chain(chain, slides):
    """``chain`` with each slider held at its displacement in ``slides`` (per joint, ``None`` for the
    others): its bone ``o_i + s_i a_i`` long, its joint a hinge that cannot turn. Its poses are those
    of ``chain`` with those displacements, joint for joint."""
    points = [chain.points[0]]
    for offset in slid_offsets(chain, slides):
        points.append(tuple(p + o for p, o in zip(points[-1], offset)))
    joints = [joint if s is None else Hinge(joint.axis, 0.0, 0.0) for joint, s in zip(chain.joints, slides)]
    return Chain(points, joints)


def _seeing(steps, held, slides):
    """The steps hook for the reach: with sliders, one whose steps are of the chain held."""
    return steps if steps is None or slides is None else steps.seeing(held)


def _wrist_chain(chain):
    """The chain without its last bone: the one whose tip FABRIK puts on the wrist."""
    return Chain(chain.points[:-1], chain.joints[:-1])


def _sub_problem(problem, chain, target, start, budget):
    """A FABRIK problem for the reach: ``chain`` to ``target`` from ``start`` within ``budget``."""
    settings = check_settings(chain, "fabrik", tolerance=problem.tolerance, max_iterations=budget)
    return Problem(settings, target, start, None, problem.pole if problem.orientation is None else None)
