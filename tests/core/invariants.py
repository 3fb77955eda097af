"""The invariants every solve keeps, checked on a returned Solution.

Shared by the property tests, the fuzzing and the degenerate-geometry tests.
"""

import math

import ikcore
from ikcore import kinematics
from ikcore.checks import check_rotations


IDENTITY = (1.0, 0.0, 0.0, 0.0)


def rounding(chain, *points):
    """The absolute rounding of coordinates as large as the chain's (and ``points``).

    Float coordinates carry about 1e-16 of their magnitude: a bone of length 1 a
    billion units from the origin cannot be placed to better than ~1e-7.
    """
    big = max((abs(c) for p in (*chain.points, *points) for c in p), default=0.0)
    return 1e-14 * (big + chain.reach)


def check_invariants(chain, target, sol, start=None, orientation=None, tolerance=None,
                     max_iterations=None, orientation_tolerance=None):
    """Assert everything a :class:`ikcore.Solution` promises for this solve.

    Root fixed, bone lengths kept (1e-9 relative, plus the coordinates' own
    rounding), unit rotations, positions equal to forward kinematics, limits
    held (1e-9 rad), no NaN or inf, an honest status, error and history, and
    no more iterations than allowed.
    """
    reach = chain.reach
    tol = 1e-3 * reach if tolerance is None else tolerance
    otol = 1e-3 if orientation_tolerance is None else orientation_tolerance
    pts = sol.positions
    ulp = rounding(chain, *pts, target)
    assert len(pts) == chain.size + 1 and len(sol.rotations) == chain.size
    assert all(math.isfinite(c) for p in pts for c in p), "non-finite position"
    assert all(math.isfinite(c) for q in sol.rotations for c in q), "non-finite rotation"
    assert all(math.isfinite(e) for e in sol.errors), "non-finite error history"
    assert math.isfinite(sol.error)
    assert sol.orientation_error is None or math.isfinite(sol.orientation_error)
    assert pts[0] == chain.points[0], "the root moved"
    for i, length in enumerate(chain.lengths):
        assert math.isclose(math.dist(pts[i], pts[i + 1]), length, rel_tol=1e-9,
                            abs_tol=max(1e-12 * reach, ulp)), f"bone {i} changed length"
    for q in sol.rotations:
        assert math.isclose(sum(c * c for c in q), 1.0, rel_tol=1e-12)
    for p, f in zip(pts, chain.forward(sol.rotations)):
        assert math.dist(p, f) <= max(1e-12 * max(1.0, reach), ulp), "positions differ from FK"
    assert max(chain.violations(sol.rotations), default=0.0) <= 1e-9, "limits exceeded"
    # Honest status.
    assert sol.status in ikcore.STATUSES
    assert math.isclose(sol.error, math.dist(pts[-1], target), rel_tol=1e-12, abs_tol=1e-12 * reach)
    assert sol.errors[-1] == sol.error
    assert (orientation is None) == (sol.orientation_error is None)
    ok_orientation = sol.orientation_error is None or sol.orientation_error <= otol
    assert sol.converged == (sol.error <= tol and ok_orientation)
    if not sol.converged:
        assert (sol.status == "unreachable") == (not chain.reachable(target))
    assert 0 <= sol.iterations <= (max_iterations or 100000)
    assert len(sol.errors) == sol.iterations + 1, "the history is the start's error, then one per iteration"
    # The history starts at the error of the start pose: checked, made unit and limited as solve() makes
    # it (in that order: a half turn's hinge angle hangs on the last bit of it).
    first = kinematics.pose_of(chain, check_rotations(start or [IDENTITY] * chain.size, chain.size)).points[-1]
    assert math.isclose(sol.errors[0], math.dist(first, target), rel_tol=1e-9,
                        abs_tol=max(1e-9 * reach, ulp))
