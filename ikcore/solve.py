"""``solve``: one entry point for every method. A checked problem, the method, the Solution."""

from collections.abc import Sequence

from .chain import Chain
from .hints import Quaternion, Rotations, Target, Vector3
from .kinematics import Frames
from .objectives import Objective
from .problem import check_request, settings_of
from .solution import Solution, solution_of
from .solvers import METHODS, ORIENTATION_METHODS

__all__ = ["METHODS", "ORIENTATION_METHODS", "solve"]


def solve(chain: Chain, target: Target, method: str = "fabrik", *, start: Rotations | Frames | None = None,
          tolerance: float | None = None, max_iterations: int | None = None, orientation: Quaternion | None = None,
          orientation_tolerance: float | None = None, pole: Vector3 | None = None,
          secondary: Sequence[Objective] | None = None, mask: Sequence[float] | None = None,
          **options: float) -> Solution:
    """Solve ``chain`` so that its end effector reaches ``target``.

    Parameters
    ----------
    chain : Chain
    target : (x, y, z), 4x4 matrix, or (position, 3x3 rotation matrix)
        Position for the end effector, within :data:`ikcore.problem.FARTHEST`
        of the root; or a pose for the chain's tip frame (nested sequences or
        numpy arrays), which asks its orientation too (:mod:`ikcore.targets`;
        for a chain from a URDF, the tip link's or tool's pose in the base link's
        frame). A pose target takes no ``orientation``.
    method : str
        One of :data:`METHODS`.
    start : list of N (w, x, y, z), or Frames, optional
        Rotations to start from (default the rest pose), made unit and put
        within the limits; or a previous Solution's ``frames``, taken as they
        are (to track a moving target).
    tolerance : float, optional
        Position tolerance in the chain's units (default ``1e-3 * chain.reach``).
    max_iterations : int, optional
        In ``[1, 100000]``; each method has its own default.
    orientation : (w, x, y, z), optional
        Asked world rotation ``R_{N-1}`` of the last bone (jacobian_transpose,
        pseudo_inverse, dls, fabrik_dls).
    orientation_tolerance : float, optional
        Radians (default ``1e-3``).
    pole : (x, y, z), optional
        A point hinting the bend plane and side, within ``FARTHEST`` of the root.
    secondary : list of objectives, optional
        Secondary objectives (:mod:`ikcore.objectives`) served in the null space
        of the task (dls, pseudo_inverse, fabrik_dls, jacobian_transpose).
    mask : 3 or 6 weights, optional
        Weights of the task's axes ``(x, y, z[, rx, ry, rz])``: position along the
        chain's axes, orientation about the target tip frame's; 0 ignores an axis
        (``(1, 1, 1, 1, 1, 0)``: a tool's roll left free). The status and errors
        measure only the asked axes (:mod:`ikcore.mask`; dls, pseudo_inverse,
        jacobian_transpose, fabrik_dls).
    **options
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

    Examples
    --------
    >>> import ikcore
    >>> chain = ikcore.Chain([(0, 0, 0), (0, 1, 0), (0, 2, 0)])
    >>> solution = ikcore.solve(chain, (1.0, 1.0, 0.0), method="dls", tolerance=1e-6)
    >>> solution.status, [round(c, 6) for c in solution.effector]
    ('converged', [1.0, 1.0, 0.0])
    """
    settings = settings_of(chain, method, tolerance, max_iterations, orientation_tolerance, secondary, options, mask)
    problem = check_request(settings, target, start, orientation, pole)
    return solution_of(problem, settings.module.run(problem))
