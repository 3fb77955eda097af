"""Degenerate geometry, for every method: targets at the root, on the chain, straight
behind it, at exactly full and minimum reach, a hair from where the effector already
is; poles on the target or on the root-target line; starts folded back on themselves;
coordinates a billion units from the origin.

Every solve keeps the invariants (:func:`.invariants.check_invariants`); on free
chains, reachable targets are met by every method that iterates to convergence
(and by the closed form).
"""

import math

import pytest

import ikcore
from ikcore import BallSocket, Chain, Hinge
from ikcore import rotation as rot
from ikcore.solve import ORIENTATION_METHODS

from .invariants import check_invariants

# Methods that must meet every reachable target of a free chain (two_bone: in closed form).
CONVERGING = ("ccd", "fabrik", "pseudo_inverse", "dls", "fabrik_dls", "two_bone")
X = (1.0, 0.0, 0.0)


def unit(v):
    n = math.sqrt(sum(c * c for c in v))
    return tuple(c / n for c in v)


SLANT = unit((0.3, -0.5, 0.81))


def polyline(lengths, directions, root=(0.0, 0.0, 0.0)):
    points = [root]
    for length, d in zip(lengths, directions):
        points.append(tuple(p + length * c for p, c in zip(points[-1], unit(d))))
    return points


def free_chains(method, offset=(0.0, 0.0, 0.0)):
    """Free chains for ``method``: straight, bent in 3D, and one with a long bone (min_reach > 0)."""
    if method == "two_bone":
        return {
            "straight": Chain(polyline([1.0, 1.0], [X, X], offset)),
            "bent": Chain(polyline([1.2, 0.7], [X, (0.2, 1.0, 0.3)], offset)),
            "long_bone": Chain(polyline([2.0, 0.5], [SLANT, (1.0, -0.2, 0.1)], offset)),
        }
    return {
        "straight": Chain(polyline([1.0] * 4, [X] * 4, offset)),
        "bent": Chain(polyline([0.7, 1.3, 0.4, 1.0, 0.9], [X, (1, 1, 0), (0, 1, 1), (-1, 0.2, 1), (0.3, -1, 0.2)],
                               offset)),
        "long_bone": Chain(polyline([3.0, 0.6, 0.9], [SLANT, X, (0.0, 1.0, 0.0)], offset)),
    }


def limited_chains(method):
    """The same shapes with limits: hinges (one range wrapping past 180) and ball joints."""
    shapes = free_chains(method)
    out = {}
    for name, chain in shapes.items():
        n = chain.size
        hinges = [Hinge((0.0, 0.0, 1.0), -120.0, 120.0), Hinge((0.0, 1.0, 0.0), 150.0, 210.0)] * n
        balls = [BallSocket(60.0, -30.0, 30.0), BallSocket(180.0, 170.0, 190.0)] * n
        out[name + "+hinges"] = Chain(chain.points, hinges[:n])
        out[name + "+balls"] = Chain(chain.points, balls[:n])
    return out


def folded_start(chain):
    """Every bone after the first turned back on its parent: the chain doubles over itself."""
    out = [rot.IDENTITY]
    for d in chain.directions[1:]:
        p = rot.perpendicular(d)
        out.append((0.0, p[0], p[1], p[2]))
    return out


def along(chain, distance, direction):
    d = unit(direction)
    return tuple(r + distance * c for r, c in zip(chain.points[0], d))


def mid(a, b, t=0.5):
    return tuple(x + t * (y - x) for x, y in zip(a, b))


def cases(chain):
    """``(name, kwargs)`` for the degenerate solves of ``chain`` (target, start, pole)."""
    root, tip = chain.points[0], chain.points[-1]
    reach = chain.reach
    rest_dir = unit([b - a for a, b in zip(root, tip)]) if math.dist(root, tip) > 1e-9 * reach else X
    behind = tuple(-c for c in rest_dir)
    out = [("at_root", dict(target=root))]
    for k in range(1, chain.size):
        out.append((f"at_joint_{k}", dict(target=chain.points[k])))
    for i in range(chain.size):
        out.append((f"mid_bone_{i}", dict(target=mid(chain.points[i], chain.points[i + 1]))))
    out += [
        ("behind_half_reach", dict(target=along(chain, 0.5 * reach, behind))),
        ("behind_full_reach", dict(target=along(chain, reach, behind))),
        ("behind_beyond_reach", dict(target=along(chain, 2.0 * reach, behind))),
        ("full_reach_ahead", dict(target=along(chain, reach, rest_dir))),
        ("full_reach_slant", dict(target=along(chain, reach, SLANT))),
        ("full_reach_plus_1e-12", dict(target=along(chain, reach * (1.0 + 1e-12), SLANT))),
        ("full_reach_minus_1e-12", dict(target=along(chain, reach * (1.0 - 1e-12), SLANT))),
        ("min_reach", dict(target=along(chain, chain.min_reach, SLANT))),
        ("min_reach_minus_1e-12", dict(target=along(chain, max(0.0, chain.min_reach - 1e-12 * reach), SLANT))),
        ("root_plus_1e-12", dict(target=along(chain, 1e-12 * reach, SLANT))),
        ("tip_plus_1e-12", dict(target=tuple(t + 1e-12 * reach * c for t, c in zip(tip, SLANT)))),
        ("folded_start_to_rest_tip", dict(target=tip, start=folded_start(chain))),
        ("folded_start_to_root", dict(target=root, start=folded_start(chain))),
        ("folded_start_to_mid_reach", dict(target=along(chain, 0.5 * reach, SLANT), start=folded_start(chain))),
    ]
    target = along(chain, 0.6 * reach, (0.2, 1.0, -0.4))
    out += [
        ("pole_on_target", dict(target=target, pole=target)),
        ("pole_on_root", dict(target=target, pole=root)),
        ("pole_on_line_between", dict(target=target, pole=mid(root, target))),
        ("pole_on_line_beyond", dict(target=target, pole=mid(root, target, 3.0))),
        ("pole_on_line_behind", dict(target=target, pole=mid(root, target, -2.0))),
        ("pole_on_target_straight_behind", dict(target=along(chain, 0.5 * reach, behind),
                                                pole=along(chain, 0.5 * reach, behind))),
        ("pole_on_root_at_root", dict(target=root, pole=root)),
    ]
    return out


def case_names(method):
    """The names of the cases some chain of ``method`` has."""
    return sorted({name for chain in free_chains(method).values() for name, _ in cases(chain)})


def solve_case(chain, method, kwargs):
    sol = ikcore.solve(chain, method=method, **kwargs)
    check_invariants(chain, kwargs["target"], sol, kwargs.get("start"))
    return sol


def run_case(method, name, chains, converge):
    """Solve case ``name`` on each of ``chains``; with ``converge``, reachable targets must be met."""
    ran = 0
    for shape, chain in chains.items():
        for case_name, kwargs in cases(chain):
            if case_name != name:
                continue
            ran += 1
            sol = solve_case(chain, method, kwargs)
            if converge and method in CONVERGING and chain.reachable(kwargs["target"]):
                assert sol.converged, (shape, sol, sol.errors[-5:])
            if not chain.reachable(kwargs["target"]) and not sol.converged:
                assert sol.status == "unreachable"
    return ran


def method_cases():
    return [(method, name) for method in ikcore.METHODS for name in case_names(method)]


@pytest.mark.parametrize("method, name", method_cases())
def test_free_chain(method, name):
    assert run_case(method, name, free_chains(method), converge=True)


@pytest.mark.parametrize("method, name", method_cases())
def test_limited_chain(method, name):
    assert run_case(method, name, limited_chains(method), converge=False)


@pytest.mark.parametrize("method, name", method_cases())
def test_a_billion_units_from_the_origin(method, name):
    """Root at 1e9: coordinates keep ~1e-7 of a unit, yet bones of ~1 hold and targets are met.

    (Offsets of 1e-12 are lost in the rounding there: those targets fall on the edge itself.)
    """
    assert run_case(method, name, free_chains(method, (1e9, -2e9, 3e9)), converge=True)


@pytest.mark.parametrize("method", ORIENTATION_METHODS)
@pytest.mark.parametrize("name", ["at_root", "behind_full_reach", "min_reach", "folded_start_to_root"])
def test_orientation_at_degenerate_targets(method, name):
    """An orientation asked with a degenerate position target: invariants hold."""
    for shape, chain in free_chains(method).items():
        for case_name, kwargs in cases(chain):
            if case_name != name:
                continue
            for orientation in (rot.IDENTITY, (0.0, 1.0, 0.0, 0.0), rot.from_axis_angle(SLANT, 2.0)):
                sol = ikcore.solve(chain, method=method, orientation=orientation, **kwargs)
                check_invariants(chain, kwargs["target"], sol, kwargs.get("start"), orientation)
