"""A solve request, checked: what a method receives, and what it returns.

:func:`check_settings` and :func:`check_request` turn the arguments of
:func:`ikcore.solve` into a :class:`Problem` or raise :class:`~ikcore.IKError`
naming the bad one. A method's ``run(problem)`` may trust every field. It
returns an :class:`Outcome`, which :func:`ikcore.solution.solution_of` turns into the
:class:`~ikcore.Solution`.
"""

import math

from . import kinematics
from . import rotation as rot
from .chain import LARGEST, Chain
from .checks import check_int_range, check_positive, check_quaternion, check_vector
from .errors import IKError
from .mask import check_mask
from .objectives import TowardRest, check_objectives
from .solvers import ORIENTATION_METHODS, SECONDARY_METHODS, SLIDER_METHODS
from .solvers import method as method_module
from .targets import is_pose, read_target


class Settings:
    """What stays the same from one solve of a chain to the next: the method and its tuning.

    Checked once by :func:`check_settings`; a :class:`~ikcore.Tracker` keeps
    them for every frame.

    Attributes
    ----------
    chain : Chain
    method : str
    module : module
        The method's solver module (:func:`ikcore.solvers.method`).
    tolerance : float
        Position tolerance, in the chain's units.
    max_iterations : int
    orientation_tolerance : float
        Radians.
    options : dict
        The method's options, defaults filled in.
    secondary : tuple
        Secondary objectives (:mod:`ikcore.objectives`), empty unless asked.
    edge_margin : float
        How near an edge of the reach a target meets the nearest pose (see
        :attr:`Problem.at_edge`): the tolerance, less ``1e-9`` of the reach for
        rounding.
    mask : Mask or None
        The task's axis weights (:mod:`ikcore.mask`), ``None`` for every axis alike.
    """

    __slots__ = ("chain", "method", "module", "tolerance", "max_iterations", "orientation_tolerance", "options",
                 "secondary", "edge_margin", "mask")

    def __init__(self, chain, method, module, tolerance, max_iterations, orientation_tolerance, options, secondary,
                 mask=None):
        self.chain = chain
        self.method = method
        self.module = module
        self.tolerance = tolerance
        self.max_iterations = max_iterations
        self.orientation_tolerance = orientation_tolerance
        self.options = options
        self.secondary = secondary
        self.edge_margin = max(0.0, tolerance - 1e-9 * chain.reach)
        self.mask = mask


class Problem:
    """A checked solve request.

    Attributes
    ----------
    chain : Chain
    target : (x, y, z)
    start : Frames
        The start pose: unit rotations within the limits, their world rotations
        and points (:mod:`ikcore.kinematics`).
    start_error : float
        The start's distance to the target.
    distance : float
        The target's distance from the chain's root, which decides where it
        lies against the reach (:attr:`nearest`, :attr:`at_edge`).
    nearest : (x, y, z) or None
        For a position target outside the shell ``min_reach <= |p - root| <=
        reach`` that the chain without limits sweeps, the shell's point
        nearest it (on the line from the root to the target); else ``None``.
        Limits only shrink the shell, so an effector there is the best any
        pose can do.
    free : bool
        A position target for a chain without limits: any pose whose tip lies
        the target's distance from the root, turned about the root, meets it.
    at_edge : bool
        Whether the chain without limits meets the target best by its nearest
        pose (:func:`~ikcore.solvers.reach.nearest_pose`): the target lies
        outside the shell, or so near either of its edges (within
        :attr:`Settings.edge_margin`) that the pose meets it, where steps would
        crawl (the chain almost straight, or almost folded).
    start_met : bool
        Whether the start already meets the target (:meth:`met`): a method
        then returns it as it is.
    orientation : (w, x, y, z) or None
        Asked world rotation of the last bone.
    pole : (x, y, z) or None
        A point hinting the bend plane and side.
    settings : Settings
        And, for short, its ``tolerance``, ``max_iterations``,
        ``orientation_tolerance``, ``options``, ``secondary`` and ``mask``.
    frame : (w, x, y, z) or None
        With a mask and an orientation target, the asked rotation of the tip frame, whose
        axes the mask's orientation weights are about.
    secondary_state : SecondaryState or None
        What the secondary steps of the solve that returned the start pose left
        for the next (:class:`ikcore.solvers.jacobian.secondary.SecondaryState`: the
        cost at which they ended with nothing left to gain, the length of the
        next step), which a :class:`~ikcore.Tracker` hands on from
        :attr:`Outcome.secondary_state`; ``None``: not known.
    """

    __slots__ = ("chain", "target", "start", "start_error", "distance", "start_met", "orientation", "pole",
                 "settings", "tolerance", "max_iterations", "orientation_tolerance", "options", "secondary",
                 "secondary_state", "nearest", "free", "at_edge", "mask", "frame")

    def __init__(self, settings, target, start, orientation=None, pole=None):
        self.settings = settings
        self.chain = settings.chain
        self.target = target
        self.start = start
        self.mask = mask = settings.mask
        self.orientation = orientation
        self.frame = None if mask is None or orientation is None else rot.multiply(orientation,
                                                                                self.chain.tip_rotation)
        self.start_error = self.error_of(start.points[-1])
        self.distance = math.dist(target, self.chain.points[0])
        self.pole = pole
        self.tolerance = settings.tolerance
        self.max_iterations = settings.max_iterations
        self.orientation_tolerance = settings.orientation_tolerance
        self.options = settings.options
        self.secondary = settings.secondary
        self.secondary_state = None
        self.start_met = self.start_error <= self.tolerance and (orientation is None or self.met(start))
        # Outside the shell the chain without limits sweeps, the shell's point nearest the target (at
        # the root itself, every point at min_reach is as near: no one of them to aim at).
        chain, d = self.chain, self.distance
        self.free = chain.plan.free and orientation is None and mask is None
        self.nearest = None
        if orientation is None and mask is None and not chain.min_reach <= d <= chain.reach and d > 0.0:
            r = chain.reach if d > chain.reach else chain.min_reach
            self.nearest = tuple(a + (t - a) * (r / d) for a, t in zip(chain.points[0], target))
        margin = settings.edge_margin
        self.at_edge = mask is None and (d >= chain.reach - margin or (chain.min_reach > 0.0 and d <= chain.min_reach + margin))

    def error(self, frames):
        """The effector's distance to the target in ``frames`` (over the asked axes, with a mask)."""
        return self.error_of(frames.points[-1])

    def error_of(self, point):
        """``point``'s distance to the target (over the asked axes, with a mask)."""
        if self.mask is None:
            return math.dist(point, self.target)
        return self.mask.position_error(self.target, point)

    def orientation_error(self, frames):
        """Radians between the last bone's rotation in ``frames`` and the asked one, over the asked
        axes with a mask (``None`` if none is asked)."""
        if self.orientation is None:
            return None
        if self.mask is None:
            return rot.angle_between(frames.worlds[-1], self.orientation)
        return self.mask.orientation_error(self.frame, self.orientation, frames.worlds[-1])

    @property
    def orientation_weight(self):
        """``c``: the length that weighs one radian of orientation error against distance,
        ``tolerance / orientation_tolerance`` kept within ``[0.1, 10] x reach``, so that both errors
        count alike measured in their tolerances."""
        reach = self.chain.reach
        return min(max(self.tolerance / self.orientation_tolerance, 0.1 * reach), 10.0 * reach)

    def score(self, frames):
        """How far ``frames`` is from meeting the problem: the error, with an orientation target
        together with its weighted angle (``hypot(error, c angle)``)."""
        error = self.error(frames)
        if self.orientation is None:
            return error
        return math.hypot(error, self.orientation_weight * self.orientation_error(frames))

    def met(self, frames):
        """Whether ``frames`` meets the target within the tolerances: the test the Solution's status comes from."""
        if self.mask is not None:
            return self.error(frames) <= self.tolerance and (
                self.orientation is None or self.orientation_error(frames) <= self.orientation_tolerance)
        if not math.dist(frames.points[-1], self.target) <= self.tolerance:
            return False
        return self.orientation is None or \
            rot.angle_between(frames.worlds[-1], self.orientation) <= self.orientation_tolerance

    def with_start(self, start):
        """The same problem from another start pose (Frames): a method that hands over to another
        part way asks it this way."""
        return Problem(self.settings, self.target, start, self.orientation, self.pole)


class Outcome:
    """A method's result, before it is made a Solution (:func:`ikcore.solution.solution_of`).

    Attributes
    ----------
    frames : Frames
        The pose it returns, made unit and limited (:func:`ikcore.kinematics.pose_of`).
    iterations : int
    errors : list of float
        The start's error, then the error after each iteration.
    stalled : bool
        The method stopped because progress stopped.
    secondary_state : SecondaryState or None
        What the secondary steps left for the next solve from ``frames``
        (:class:`ikcore.solvers.jacobian.secondary.SecondaryState`); ``None`` where
        none were taken.
    met : bool
        The iterations stopped on a pose that meets the target, or, out of
        reach, on the nearest point the chain reaches (:func:`ikcore.solvers.loop.iterate`).
    """

    __slots__ = ("frames", "iterations", "errors", "stalled", "secondary_state", "met")

    def __init__(self, frames, iterations, errors, stalled=False, secondary_state=None, met=False):
        self.frames = frames
        self.iterations = iterations
        self.errors = errors
        self.stalled = stalled
        self.secondary_state = secondary_state
        self.met = met


#: Farthest a target or pole may lie from the chain's root (see :data:`ikcore.chain.LARGEST`).
FARTHEST = LARGEST


def read_options(method, given, spec):
    """Validate ``given`` method options against ``spec`` (``{name: (default, check)}``); fill defaults.

    Raises :class:`IKError` naming an option the method does not take.
    """
    for name in given:
        if name not in spec:
            takes = ", ".join(sorted(spec)) or "no options"
            raise IKError(f"method {method!r} takes no option {name!r} (it takes: {takes})")
    out = {}
    for name, (default, check) in spec.items():
        value = given.get(name)
        out[name] = default if value is None else check(value, name)
    return out


def check_settings(chain, method, *, tolerance=None, max_iterations=None, orientation_tolerance=None,
                   secondary=None, mask=None, **options):
    """Check a solve's settings (arguments as for :func:`ikcore.solve`) into :class:`Settings`."""
    return settings_of(chain, method, tolerance, max_iterations, orientation_tolerance, secondary, options, mask)


def settings_of(chain, method, tolerance, max_iterations, orientation_tolerance, secondary, options, mask=None):
    """:func:`check_settings` with every argument given, the method's options as one dict.

    A method's defaults, the commonest request, are checked once per chain and
    kept on its plan (:attr:`ikcore.plan.Plan.settings`).
    """
    if not isinstance(chain, Chain):
        raise IKError(f"chain must be an ikcore.Chain, got {type(chain).__name__}")
    if (type(method) is str and tolerance is None and max_iterations is None and orientation_tolerance is None
            and secondary is None and not options and mask is None):
        found = chain.plan.settings.get(method)
        if found is None:
            found = chain.plan.settings[method] = make_settings(chain, method)
        return found
    return make_settings(chain, method, tolerance, max_iterations, orientation_tolerance, secondary, options, mask)


def make_settings(chain, method, tolerance=None, max_iterations=None, orientation_tolerance=None, secondary=None,
                  options=None, mask=None):
    """:func:`check_settings` for a checked ``chain``: every argument checked here."""
    options = options or {}
    module = method_module(method)
    tolerance = 1e-3 * chain.reach if tolerance is None else check_positive(tolerance, "tolerance")
    max_iterations = check_int_range(module.MAX_ITERATIONS if max_iterations is None else max_iterations,
                                     "max_iterations", 1, 100000)
    orientation_tolerance = (1e-3 if orientation_tolerance is None
                             else check_positive(orientation_tolerance, "orientation_tolerance"))
    options = read_options(method, options, module.OPTIONS)
    if hasattr(module, "check_chain"):
        module.check_chain(chain)
    secondary = _check_secondary(method, module, secondary)
    if chain.plan.sliders:
        _check_sliders(chain, method, module, secondary, options)
    if options.get("rest_weight"):
        secondary = (*secondary, TowardRest(options["rest_weight"]))
    mask = check_mask(mask)
    if mask is not None and not getattr(module, "MASK", False):
        raise IKError(f"method {method!r} takes no mask; use one of {', '.join(SLIDER_METHODS)}")
    return Settings(chain, method, module, tolerance, max_iterations, orientation_tolerance, options, secondary,
                    mask)


def _check_sliders(chain, method, module, secondary, options):
    """An :class:`IKError` for what a chain with sliders cannot take yet: a method that does not
    move them, secondary objectives."""
    joint = chain.plan.sliders[0]
    if not getattr(module, "SLIDERS", False):
        raise IKError(f"method {method!r} cannot move a sliding joint (joint {joint} is a Slider); use one "
                      f"of {', '.join(SLIDER_METHODS)}")
    if secondary or options.get("rest_weight"):
        raise IKError(f"secondary objectives do not take sliding joints yet (joint {joint} is a Slider)")


def _check_secondary(method, module, secondary):
    if secondary is None:
        return ()
    secondary = check_objectives(secondary)
    if secondary and not getattr(module, "SECONDARY", False):
        raise IKError(f"method {method!r} takes no secondary objectives; use one of "
                      f"{', '.join(SECONDARY_METHODS)}")
    return secondary


def check_request(settings, target, start=None, orientation=None, pole=None):
    """Check what changes from one solve to the next into a :class:`Problem`.

    ``target``: a point, or a pose for the chain's tip frame (:mod:`ikcore.targets`).
    ``start``: rotations (checked, made unit, put within the limits) or
    :class:`~ikcore.kinematics.Frames` taken as they are (a previous
    Solution's, which are unit and limited already); ``None`` for the rest pose.
    """
    chain = settings.chain
    pose = not (type(target) is tuple and len(target) == 3) and is_pose(target)
    if pose:
        target, orientation = read_target(chain, target, orientation)
    target = check_vector(target, "target")
    if orientation is not None:
        if not getattr(settings.module, "ORIENTATION", False):
            given = "pose target (a pose holds an orientation)" if pose else "orientation target"
            raise IKError(f"method {settings.method!r} takes no {given}; use one of "
                          f"{', '.join(ORIENTATION_METHODS)}")
        orientation = check_quaternion(orientation, "orientation")
    if pole is not None:
        if not getattr(settings.module, "POLE", False):
            raise IKError(f"method {settings.method!r} takes no pole; use one of ccd, fabrik, two_bone, "
                          f"jacobian_transpose, pseudo_inverse, dls, fabrik_dls")
        pole = check_target(chain, pole, "pole")
        if chain.plan.sliders:
            raise IKError(f"a pole does not take sliding joints yet (joint {chain.plan.sliders[0]} is a Slider)")
    if start is None:
        start = chain.plan.rest
    elif not isinstance(start, kinematics.Frames):
        start = chain.plan.start(start)
    mask = settings.mask
    if mask is not None and orientation is None and any(w != 1.0 for w in mask.weights[3:]):
        raise IKError(f"mask {mask.weights!r} weighs orientation axes, but the target asks no orientation")
    problem = Problem(settings, target, start, orientation, pole)
    if not problem.distance <= FARTHEST:
        raise _too_far(target, "target")
    return problem


def check_target(chain, point, name):
    """``point`` as a tuple of floats, within :data:`FARTHEST` of the chain's root."""
    point = check_vector(point, name)
    if not math.dist(point, chain.points[0]) <= FARTHEST:
        raise _too_far(point, name)
    return point


def _too_far(point, name):
    return IKError(f"{name} {point!r} lies farther than {FARTHEST:g} from the chain's root")
