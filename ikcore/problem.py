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
    frames : tuple or None
        ``(worlds, points)``: the world rotations ``R_i`` and the points of the
        ``start`` pose, when a previous verdict computed them (a warm start
        from it); ``None`` otherwise. :meth:`~ikcore.solvers._pose.Pose.of`
        takes them instead of running forward kinematics again.
    """

    __slots__ = ("chain", "target", "start", "tolerance", "max_iterations", "orientation",
                 "orientation_tolerance", "pole", "options", "frames")

    def __init__(self, chain, target, start, tolerance, max_iterations, orientation=None,
                 orientation_tolerance=1e-3, pole=None, options=None, frames=None):
        self.chain = chain
        self.target = target
        self.start = start
        self.tolerance = tolerance
        self.max_iterations = max_iterations
        self.orientation = orientation
        self.orientation_tolerance = orientation_tolerance
        self.pole = pole
        self.options = options or {}
        self.frames = frames


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
        Optional: ``(rotations, points, last)``, unit rotations (within
        ``1e-12``; within the limits for a chain with them), their ``N + 1``
        points and the last world rotation, when the solver had them along the
        way; the verdict takes them as they are instead of running forward
        kinematics (and the limits) again. The solver vouches that the points
        are ``chain.forward(rotations)`` to rounding, within ``1e-12 x reach``:
        ``chain._settle(rotations)`` for a chain without limits and
        ``chain._judge(rotations)`` for one with them are such tuples, exactly.
    worlds : list or None
        Optional, with ``settled``: its world rotations ``R_i`` (the
        ``worlds`` list of ``chain._judge`` or ``chain._settle``).
    """

    __slots__ = ("rotations", "iterations", "errors", "stalled", "settled", "worlds")

    def __init__(self, rotations, iterations, errors, stalled=False, settled=None, worlds=None):
        self.rotations = rotations
        self.iterations = iterations
        self.errors = errors
        self.stalled = stalled
        self.settled = settled
        self.worlds = worlds


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
