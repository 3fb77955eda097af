"""The solvers, one module or package per algorithm family, and the pieces they share.

Methods (each module gives ``OPTIONS``, ``MAX_ITERATIONS``, what it takes, and
``run(problem, steps=None) -> Outcome``; an iterative one also its stall watch's
``WINDOW``):

- :mod:`~.ccd`: cyclic coordinate descent;
- :mod:`~.fabrik`: forward and backward reaching;
- :mod:`~.jacobian`: the Jacobian transpose, pseudo-inverse and damped least squares;
- :mod:`~.two_bone`: the analytic two-bone solve;
- :mod:`~.fabrik_dls`: FABRIK's reach, then damped least squares to finish.

Shared pieces, named for what they do:

- :mod:`~.loop`: the iteration loop of the iterative methods (keep the best pose,
  stop when met, restart when stalled);
- :mod:`~.restarts`: stall detection and perturbed restarts;
- :mod:`~.degenerate`: starts the passes cannot leave (a chain straight along its target);
- :mod:`~.reach`: targets at or beyond the chain's reach;
- :mod:`~.pole`: the pole swivel (which side a chain bends to).

Forward kinematics is :mod:`ikcore.kinematics`, joint limits :mod:`ikcore.plan`
and :mod:`ikcore.constraints`.
"""

import importlib

from ..checks import check_choice

METHODS = ("ccd", "fabrik", "jacobian_transpose", "pseudo_inverse", "dls", "two_bone", "fabrik_dls")
#: The methods that meet an orientation target for the last bone (their module's ``ORIENTATION``).
ORIENTATION_METHODS = ("jacobian_transpose", "pseudo_inverse", "dls", "fabrik_dls")
#: The methods that take secondary objectives (their module's ``SECONDARY``).
SECONDARY_METHODS = ORIENTATION_METHODS
#: The methods that move sliders, prismatic joints (their module's ``SLIDERS``).
SLIDER_METHODS = ("jacobian_transpose", "pseudo_inverse", "dls", "fabrik_dls")

# The module of each method (the three Jacobian methods are modules of one package).
_MODULES = {
    "ccd": "ccd",
    "fabrik": "fabrik",
    "jacobian_transpose": "jacobian.transpose",
    "pseudo_inverse": "jacobian.pseudo_inverse",
    "dls": "jacobian.dls",
    "two_bone": "two_bone",
    "fabrik_dls": "fabrik_dls",
}
_loaded = {}


def method(name):
    """The module that implements method ``name`` (one of :data:`METHODS`)."""
    module = _loaded.get(name)
    if module is None:
        check_choice(name, "method", METHODS)
        module = _loaded[name] = importlib.import_module(f"{__name__}.{_MODULES[name]}")
    return module
