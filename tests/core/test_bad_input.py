"""Every invalid input raises IKError (a ValueError) naming the offending value."""

import math

import pytest

import ikcore
from ikcore import BallSocket, Chain, Hinge, IKError

NAN, INF = float("nan"), float("inf")
ARM = [(0, 0, 0), (1, 0, 0), (2, 0, 0), (3, 0, 0)]


def test_ikerror_is_a_valueerror():
    assert issubclass(IKError, ValueError)


@pytest.mark.parametrize("points, joints, match", [
    ([(0, 0, 0)], None, "at least 2"),
    ([(0, 0, 0), (1, NAN, 0)], None, r"points\[1\]\[1\]"),
    ([(0, 0, 0), (INF, 0, 0)], None, r"points\[1\]\[0\]"),
    ([(0, 0, 0), (1, 0)], None, r"points\[1\]"),
    ([(0, 0, 0), (1, 0, 0, 0)], None, r"points\[1\]"),
    ([(0, 0, 0), ("a", 0, 0)], None, r"points\[1\]\[0\]"),
    (5, None, "points"),
    ([(0, 0, 0), (1, 0, 0), (1, 0, 0)], None, "bone 1"),
    ([(0, 0, 0), (1, 0, 0), (1 + 1e-12, 0, 0)], None, "shorter than 1e-9"),
    ([(0, 0, 0), (1e308, 0, 0), (-1e308, 0, 0)], None, "overflow"),
    (ARM, [None, None], "3 constraints"),
    (ARM, [None, None, "hinge"], r"joints\[2\]"),
    (ARM, 7, "joints"),
])
def test_bad_chains(points, joints, match):
    with pytest.raises(IKError, match=match):
        Chain(points, joints)


@pytest.fixture
def chain():
    return Chain(ARM, [Hinge((0, 0, 1), -90, 90), BallSocket(60), None])


@pytest.mark.parametrize("kwargs, match", [
    (dict(target=(1, NAN, 0)), r"target\[1\]"),
    (dict(target=(1, 0)), "target"),
    (dict(target=None), "target"),
    (dict(target=(1, 0, 0), method="newton"), "method"),
    (dict(target=(1, 0, 0), method=None), "method"),
    (dict(target=(1, 0, 0), tolerance=0), "tolerance"),
    (dict(target=(1, 0, 0), tolerance=-1e-3), "tolerance"),
    (dict(target=(1, 0, 0), tolerance=NAN), "tolerance"),
    (dict(target=(1, 0, 0), max_iterations=0), "max_iterations"),
    (dict(target=(1, 0, 0), max_iterations=100001), "max_iterations"),
    (dict(target=(1, 0, 0), max_iterations=2.5), "max_iterations"),
    (dict(target=(1, 0, 0), max_iterations=True), "max_iterations"),
    (dict(target=(1, 0, 0), start=[(1, 0, 0, 0)] * 2), "start"),
    (dict(target=(1, 0, 0), start=[(1, 0, 0, 0), (1, 0, 0, 0), (0, 0, 0, 0)]), r"start\[2\]"),
    (dict(target=(1, 0, 0), start=[(1, 0, 0, 0), (1, 0, 0, 0), (NAN, 0, 0, 0)]), r"start\[2\]"),
    (dict(target=(1, 0, 0), method="dls", orientation=(0, 0, 0, 0)), "orientation"),
    (dict(target=(1, 0, 0), method="dls", orientation=(1, 0, 0)), "orientation"),
    (dict(target=(1, 0, 0), method="dls", orientation=(1, 0, 0, 0), orientation_tolerance=0), "orientation_tolerance"),
    (dict(target=(1, 0, 0), method="ccd", orientation=(1, 0, 0, 0)), "orientation"),
    (dict(target=(1, 0, 0), pole=(0, INF, 0)), r"pole\[1\]"),
    (dict(target=(1, 0, 0), method="two_bone"), "2 bones|two_bone"),
    (dict(target=(1, 0, 0), method="fabrik", damping=0.1), "damping"),
    (dict(target=(1, 0, 0), method="dls", bogus=1), "bogus"),
])
def test_bad_solve_arguments(chain, kwargs, match):
    with pytest.raises(IKError, match=match):
        ikcore.solve(chain, **kwargs)


def test_chain_argument_must_be_a_chain():
    with pytest.raises(IKError, match="Chain"):
        ikcore.solve([(0, 0, 0), (1, 0, 0)], (1, 0, 0))


@pytest.mark.parametrize("method", ikcore.METHODS)
def test_every_method_refuses_unknown_options(method):
    chain = Chain(ARM[:3])
    with pytest.raises(IKError, match="no_such_option"):
        ikcore.solve(chain, (1, 1, 0), method, no_such_option=1)


def test_values_a_method_takes_are_checked():
    chain = Chain(ARM)
    with pytest.raises(IKError, match="damping"):
        ikcore.solve(chain, (1, 1, 0), "dls", damping=-1)
    with pytest.raises(IKError, match="damping"):
        ikcore.solve(chain, (1, 1, 0), "dls", damping=math.nan)


def test_quaternions_of_any_finite_scale_are_rotations():
    # Their norm is taken without overflow or underflow of its squares.
    from ikcore.checks import check_quaternion
    assert check_quaternion((1e200, 0.0, 0.0, 0.0)) == (1.0, 0.0, 0.0, 0.0)
    w, x, y, z = check_quaternion((1e154, 1e154, 0.0, 0.0))
    assert math.isclose(w, math.sqrt(0.5)) and math.isclose(x, math.sqrt(0.5)) and y == z == 0.0
    assert all(math.isclose(a, b) for a, b in zip(check_quaternion((3e-12, 0.0, 4e-12, 0.0)), (0.6, 0.0, 0.8, 0.0)))
    for zero in ((0.0, 0.0, 0.0, 0.0), (1e-13, 0.0, 0.0, 0.0)):
        with pytest.raises(IKError, match="non-zero quaternion"):
            check_quaternion(zero, "q")
    sol = ikcore.solve(ikcore.Chain(ARM), (1.0, 1.0, 0.0), start=[(1e200, 0.0, 0.0, 0.0)] * (len(ARM) - 1))
    assert sol.converged
