"""``solve``: one entry point for every method, and the honest verdict."""

import importlib
import math

from . import rotation as rot
from .chain import Chain
from .checks import check_choice, check_int_range, check_point, check_positive, check_quaternion
from .errors import IKError
from .problem import Problem, read_options
from .solution import CONVERGED, MAX_ITERATIONS, STALLED, UNREACHABLE, Solution

METHODS = ("ccd", "fabrik", "jacobian_transpose", "pseudo_inverse", "dls", "two_bone", "fabrik_dls")

# Methods that can meet an orientation target for the last bone.
ORIENTATION_METHODS = ("jacobian_transpose", "pseudo_inverse", "dls", "fabrik_dls")

_modules = {}
# Per loaded method without a check_problem: its module and default options (see _plain_problem).
_plain_methods = {}


def solver_module(method):
    """The module under :mod:`ikcore.solvers` that implements ``method``."""
    module = _modules.get(method)
    if module is None:
        check_choice(method, "method", METHODS)
        module = importlib.import_module(f"{__package__}.solvers.{method}")
        _modules[method] = module
        if not hasattr(module, "check_problem"):
            _plain_methods[method] = (module, read_options(method, {}, module.OPTIONS))
    return module


class Settings:
    """A solve request's validated parts but the target, start, orientation and pole.

    What a chain solved frame after frame with the same method and options
    (:class:`ikcore.skeleton.BoundChain`) has checked once: :func:`make_settings`
    makes them, :func:`make_problem` and :func:`solve_warm` take them.
    ``oriented`` tells whether they were checked for an orientation target;
    ``run`` is the method's solver; ``pole`` the last pole that passed
    :func:`solve_warm`'s cheap check with them (``None`` before one);
    ``warm`` the method's own warm solve for the chain, if it has one (see
    :func:`solve_warm`).
    """

    __slots__ = ("chain", "method", "tolerance", "max_iterations", "oriented", "orientation_tolerance",
                 "options", "run", "pole", "warm")

    def __init__(self, chain, method, tolerance, max_iterations, oriented, orientation_tolerance, options):
        self.chain = chain
        self.method = method
        self.tolerance = tolerance
        self.max_iterations = max_iterations
        self.oriented = oriented
        self.orientation_tolerance = orientation_tolerance
        self.options = options
        module = solver_module(method)
        self.run = module.run
        self.pole = None
        self.warm = module.warm(self) if hasattr(module, "warm") else None


def make_settings(chain, method, oriented=False, tolerance=None, max_iterations=None, orientation_tolerance=None,
                  **method_options):
    """Validate a solve's settings (see :class:`Settings`; the arguments as for :func:`solve`,
    ``oriented`` whether an orientation target comes with it)."""
    if not isinstance(chain, Chain):
        raise IKError(f"chain must be an ikcore.Chain, got {type(chain).__name__}")
    module = solver_module(method)
    tolerance = 1e-3 * chain.reach if tolerance is None else check_positive(tolerance, "tolerance")
    if max_iterations is None:
        max_iterations = module.MAX_ITERATIONS
    max_iterations = check_int_range(max_iterations, "max_iterations", 1, 100000)
    if oriented and method not in ORIENTATION_METHODS:
        raise IKError(f"method {method!r} takes no orientation target; use one of "
                      f"{', '.join(ORIENTATION_METHODS)}")
    orientation_tolerance = (1e-3 if orientation_tolerance is None
                             else check_positive(orientation_tolerance, "orientation_tolerance"))
    options = read_options(method, method_options, module.OPTIONS)
    if hasattr(module, "check_problem"):
        module.check_problem(chain, options)
    return Settings(chain, method, tolerance, max_iterations, oriented, orientation_tolerance, options)


def make_problem(chain, target, method, start, tolerance, max_iterations, orientation,
                 orientation_tolerance, pole, method_options, judged=False, frames=None, settings=None):
    """Validate a solve request into a :class:`~ikcore.problem.Problem`.

    With ``judged``, ``start`` is the ``rotations`` of a :class:`Solution` that
    :func:`judge` returned for this very chain, unchanged since (the caller
    vouches for it, as :class:`ikcore.skeleton.BoundChain` does for a warm
    start): they are unit and within the limits already, so they are taken as
    they are instead of being checked and clamped again (which would move them
    by rounding only). ``frames``, with ``judged`` only, is that verdict's
    ``(world rotations, points)`` of ``start`` (see :attr:`Problem.frames`).
    With ``settings`` (from :func:`make_settings`, for ``orientation`` or its
    absence), ``chain``, ``method``, ``tolerance``, ``max_iterations``,
    ``orientation_tolerance`` and ``method_options`` are taken from them.
    """
    if settings is None:
        if (start is None and tolerance is None and max_iterations is None and orientation is None
                and orientation_tolerance is None and pole is None and not method_options and not judged):
            problem = _plain_problem(chain, target, method)
            if problem is not None:
                return problem
        settings = make_settings(chain, method, orientation is not None, tolerance, max_iterations,
                                 orientation_tolerance, **method_options)
    chain = settings.chain
    target = check_point(target, "target")
    _check_range(chain, target, "target")
    if judged:
        start = list(start)
    elif start is None:
        start = [rot.IDENTITY] * chain.size
        if chain.limited:
            start = chain.clamp(start)
    else:
        # check_rotations, then the limits (one pass).
        start = chain._start(start)
    if orientation is not None:
        orientation = check_quaternion(orientation, "orientation")
    if pole is not None:
        pole = check_point(pole, "pole")
        _check_range(chain, pole, "pole")
    return Problem(chain, target, start, settings.tolerance, settings.max_iterations, orientation,
                   settings.orientation_tolerance, pole, settings.options, frames if judged else None)


def _plain_problem(chain, target, method):
    """:func:`make_problem` for the commonest call, a target and nothing else, checked the
    cheap way; ``None`` unless the method is a loaded one without problem checks and the
    target a tuple of three floats within :data:`FARTHEST` of the root (a finite distance
    from a finite root means finite coordinates): the full checks decide every other case."""
    plain = _plain_methods.get(method) if type(method) is str else None
    if plain is None or type(chain) is not Chain or not _plain_point(target, chain):
        return None
    module, options = plain
    start = [rot.IDENTITY] * chain.size
    if chain.limited:
        start = chain.clamp(start)
    return Problem(chain, target, start, 1e-3 * chain.reach, module.MAX_ITERATIONS, None, 1e-3, None,
                   dict(options))


def _plain_point(point, chain):
    """Whether ``point`` is a tuple of three floats within :data:`FARTHEST` of ``chain``'s root (a
    finite distance from a finite root means finite coordinates): what the full checks would pass
    as it is."""
    if type(point) is not tuple or len(point) != 3:
        return False
    x, y, z = point
    return (type(x) is float and type(y) is float and type(z) is float
            and math.dist(point, chain.points[0]) <= FARTHEST)


#: Largest distance of a target or pole from the chain's root: the solvers square distances,
#: and a square must stay finite (1e150 ** 2 = 1e300).
FARTHEST = 1e150


def _check_range(chain, point, name):
    if not math.dist(point, chain.points[0]) <= FARTHEST:
        raise IKError(f"{name} {point!r} lies farther than {FARTHEST:g} from the chain's root")


def solve(chain, target, method="fabrik", *, start=None, tolerance=None, max_iterations=None,
          orientation=None, orientation_tolerance=None, pole=None, **method_options):
    """Solve ``chain`` so that its end effector reaches ``target``.

    Parameters
    ----------
    chain : Chain
    target : (x, y, z)
        World position for the end effector, within :data:`FARTHEST` of the root.
    method : str
        One of :data:`METHODS`.
    start : list of N (w, x, y, z), optional
        Rotations to start from (default the rest pose); pass the previous
        solution's rotations to track a moving target. Clamped to the limits.
    tolerance : float, optional
        Position tolerance in the chain's units (default ``1e-3 * chain.reach``).
    max_iterations : int, optional
        In ``[1, 100000]``; each method has its own default.
    orientation : (w, x, y, z), optional
        Asked world rotation ``R_{N-1}`` of the last bone.
    orientation_tolerance : float, optional
        Radians (default ``1e-3``).
    pole : (x, y, z), optional
        World point hinting the bend plane and side (two_bone, fabrik, ccd),
        within :data:`FARTHEST` of the root.
    **method_options
        The method's tuning parameters (its module's ``OPTIONS``).

    Returns
    -------
    Solution
        Positions, rotations (within the limits), status, iterations, error
        and the error history.

    Raises
    ------
    IKError
        For every invalid input, naming it.

    See :mod:`ikcore.rotation` for the rotation convention.
    """
    problem = make_problem(chain, target, method, start, tolerance, max_iterations, orientation,
                           orientation_tolerance, pole, method_options)
    outcome = _modules[method].run(problem)
    return judge(problem, method, outcome.rotations, outcome.iterations, outcome.errors, outcome.stalled,
                 outcome.settled)


def solve_from_judged(chain, target, method, start, *, frames=None, tolerance=None, max_iterations=None,
                      orientation=None, orientation_tolerance=None, pole=None, settings=None, **method_options):
    """:func:`solve` warm-started from ``start``, the rotations of a Solution :func:`solve` returned
    for ``chain`` and unchanged since (internal: see ``judged``, ``frames`` and ``settings`` in
    :func:`make_problem`). The Solution keeps its own frames for the next such call
    (``Solution.frames``)."""
    if settings is None:
        settings = make_settings(chain, method, orientation is not None, tolerance, max_iterations,
                                 orientation_tolerance, **method_options)
    return solve_warm(settings, target, orientation, pole, start, frames)


def solve_warm(settings, target, orientation, pole, start, frames):
    """:func:`solve_from_judged` with its ``settings`` made, its arguments positional (what a bound
    chain calls every frame).

    The usual request, no orientation and a target and pole that are plain points
    (see :func:`_plain_point`), is checked the cheap way; a pole that passed for
    these settings before is the same tuple (``settings.pole``) and passes
    without a look: a tuple does not change, nor does the chain's root. Any other
    request goes through :func:`make_problem`'s checks. A method may solve the
    usual request its own way, with the same result to the bit, without a
    Problem and an Outcome: a module's ``warm(settings)`` gives that solve for
    the chain, ``solve(target, pole, start, frames) -> Solution`` (``None`` for
    a request it leaves to ``run``), or ``None`` for a chain it has no such
    solve for.
    """
    chain = settings.chain
    if orientation is None and _plain_point(target, chain) and (
            pole is None or pole is settings.pole or _plain_pole(settings, pole)):
        warm = settings.warm
        if warm is not None:
            solution = warm(target, pole, start, frames)
            if solution is not None:
                return solution
        problem = Problem(chain, target, list(start), settings.tolerance, settings.max_iterations, None,
                          settings.orientation_tolerance, pole, settings.options, frames)
    else:
        problem = make_problem(chain, target, settings.method, start, None, None, orientation, None, pole, {},
                               judged=True, frames=frames, settings=settings)
    outcome = settings.run(problem)
    return judge(problem, settings.method, outcome.rotations, outcome.iterations, outcome.errors, outcome.stalled,
                 outcome.settled, outcome.worlds, keep_frames=True)


def _plain_pole(settings, pole):
    """Whether ``pole`` is a plain point for ``settings``' chain; remembered as ``settings.pole`` if so."""
    if not _plain_point(pole, settings.chain):
        return False
    settings.pole = pole
    return True


def judge(problem, method, rotations, iterations, errors, stalled, settled=None, worlds=None, keep_frames=False):
    """Turn a solver's raw result into an honest :class:`Solution`.

    The rotations are normalised and clamped to the limits once more (a no-op
    for a well-behaved solver, a guarantee for every caller), the positions are
    recomputed from them, and the status follows from the returned pose alone.
    ``settled`` (see :class:`~ikcore.problem.Outcome`) stands for that
    recomputation when the solver already had it (the points forward kinematics
    to rounding), and ``worlds`` its world rotations if it kept them. With
    ``keep_frames`` the Solution's ``frames`` hold the world rotations and
    points of its rotations (``None`` when they were not kept).
    """
    chain = problem.chain
    # Normalised, clamped (limited chains) and run through forward kinematics in one pass.
    if settled is not None:
        rotations, positions, last = settled
    else:
        worlds = [] if keep_frames else None
        if chain.limited:
            rotations, positions, last = chain._judge(rotations, worlds)
        else:
            rotations, positions, last = chain._settle(rotations, worlds)
    orientation_error = None
    if problem.orientation is not None:
        orientation_error = rot.angle_between(last, problem.orientation)
    return verdict(chain, problem.target, problem.tolerance, method, rotations, positions, iterations, errors,
                   stalled, worlds if keep_frames else None, orientation_error, problem.orientation_tolerance)


def verdict(chain, target, tolerance, method, rotations, positions, iterations, errors, stalled, worlds=None,
            orientation_error=None, orientation_tolerance=None):
    """:func:`judge`'s Solution for a pose it has checked: ``rotations`` unit and within the limits,
    ``positions`` their forward kinematics, ``worlds`` their world rotations (kept as the
    Solution's ``frames`` if given). The error is measured here; the status follows from it, the
    orientation error, the target's reach and ``stalled`` (see :class:`~ikcore.Solution`)."""
    # math.dist, not a sum of squares: squares of tiny errors underflow to 0.
    error = math.dist(positions[-1], target)
    errors = list(errors) if errors else [error]
    errors[-1] = error
    if error <= tolerance and (orientation_error is None or orientation_error <= orientation_tolerance):
        status = CONVERGED
    elif not reachable(chain, target):
        status = UNREACHABLE
    elif stalled:
        status = STALLED
    else:
        status = MAX_ITERATIONS
    solution = Solution(positions, rotations, status, iterations, error, orientation_error, errors, method)
    if worlds is not None:
        solution.frames = (worlds, positions)
    return solution


def reachable(chain, target):
    """Whether some pose of the free chain puts the effector on ``target``.

    True when the distance from the root lies within ``[min_reach, reach]``.
    """
    rx, ry, rz = chain.points[0]
    d = math.sqrt((target[0] - rx) ** 2 + (target[1] - ry) ** 2 + (target[2] - rz) ** 2)
    return chain.min_reach <= d <= chain.reach
