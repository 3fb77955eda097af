"""What a solver receives and returns: the validated problem and its raw outcome.

Solvers live in :mod:`ikcore.solvers`, one module per method. Each module defines

``OPTIONS``
    ``{name: (default, check)}``: the method's tuning parameters; ``check(value,
    name)`` validates a given value (a ``check_*`` from :mod:`ikcore.checks`).
``MAX_ITERATIONS``
    The default iteration cap.
``run(problem) -> Outcome``
    The solve itself. It may trust every field of ``problem``: they are validated.

:func:`ikcore.solve` builds the :class:`Problem`, calls ``run`` and turns the
:class:`Outcome` into an honest :class:`ikcore.Solution`.
"""

from .errors import IKError


class Problem:
    """A validated solve request.

    Attributes
    ----------
    chain : Chain
    target : (x, y, z)
    start : list of (w, x, y, z)
        Start rotations, unit and within the joint limits.
    tolerance : float
        Position tolerance, in the chain's units.
    max_iterations : int
    orientation : (w, x, y, z) or None
        Asked world rotation of the last bone.
    orientation_tolerance : float
        Radians.
    pole : (x, y, z) or None
        A world point hinting the bend plane and side.
    options : dict
        The method's options, defaults filled in.
    """

    __slots__ = ("chain", "target", "start", "tolerance", "max_iterations", "orientation",
                 "orientation_tolerance", "pole", "options")

    def __init__(self, chain, target, start, tolerance, max_iterations, orientation=None,
                 orientation_tolerance=1e-3, pole=None, options=None):
        self.chain = chain
        self.target = target
        self.start = start
        self.tolerance = tolerance
        self.max_iterations = max_iterations
        self.orientation = orientation
        self.orientation_tolerance = orientation_tolerance
        self.pole = pole
        self.options = options or {}


class Outcome:
    """A solver's raw result, before :func:`ikcore.solve` judges it.

    Attributes
    ----------
    rotations : list of (w, x, y, z)
        Local joint rotations of the best pose found.
    iterations : int
        Iterations performed.
    errors : list of float
        The starting error, then the position error after each iteration.
    stalled : bool
        True when the solver stopped because progress stopped (not because it
        converged or ran out of iterations).
    settled : tuple or None
        Optional, for a chain without limits: ``(rotations, points, last)``,
        unit rotations (within ``1e-12``), their ``N + 1`` points and the last
        world rotation, which the verdict takes as they are instead of running
        forward kinematics again. The solver vouches that the points are
        ``chain.forward(rotations)`` to rounding, within ``1e-12 x reach``
        (``chain._settle(rotations)`` is such a tuple, exactly).
    """

    __slots__ = ("rotations", "iterations", "errors", "stalled", "settled")

    def __init__(self, rotations, iterations, errors, stalled=False, settled=None):
        self.rotations = rotations
        self.iterations = iterations
        self.errors = errors
        self.stalled = stalled
        self.settled = settled


def read_options(method, given, spec):
    """Validate ``given`` method options against ``spec``; fill defaults.

    Raises :class:`IKError` naming an option the method does not take.
    """
    out = {}
    for name in given:
        if name not in spec:
            takes = ", ".join(sorted(spec)) or "no options"
            raise IKError(f"method {method!r} takes no option {name!r} (it takes: {takes})")
    for name, (default, check) in spec.items():
        value = given.get(name)
        out[name] = default if value is None else check(value, name)
    return out
