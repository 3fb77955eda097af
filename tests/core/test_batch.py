"""solve_batch: per copy, what solve returns; planar legs under two_bone all at once; arrays with numpy,
lists without."""

import math
import pathlib
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import ikcore
from ikcore import IKError, batch
from ikcore.solvers.fabrik import batched as fabrik_batched
from ikcore.solvers.fabrik import batched_framed as fabrik_framed

from .strategies import chains, quaternions, targets


def straight(n):
    return ikcore.Chain([(float(i), 0.0, 0.0) for i in range(n + 1)])


def scalar(chain, tgts, method="fabrik", starts=None, **kw):
    return [ikcore.solve(chain, t, method, start=None if starts is None else list(starts[k]), **kw)
            for k, t in enumerate(tgts)]


def assert_matches(chain, got, sols, exact=False):
    """Per chain: same status and iterations, error and pose within the tolerance."""
    tol = got.tolerance
    assert len(got) == len(sols)
    for k, s in enumerate(sols):
        assert got.status[k] == s.status, k
        assert got.iterations[k] == s.iterations, k
        assert abs(got.error[k] - s.error) <= (0.0 if exact else tol), k
        pos = np.asarray(got.positions[k], dtype=float)
        assert np.abs(pos - np.array(s.positions)).max() <= (0.0 if exact else tol), k
        # The returned pose is the forward kinematics of the returned rotations.
        fk = np.array(chain.forward([tuple(q) for q in got.rotations[k]]))
        assert np.abs(fk - pos).max() <= 1e-9 * chain.reach
        norms = np.linalg.norm(np.asarray(got.rotations[k], dtype=float), axis=1)
        assert np.all(np.abs(norms - 1.0) < 1e-12)


@st.composite
def free_batches(draw, with_starts=False):
    chain = draw(chains(max_bones=7, limits=False))
    k = draw(st.integers(1, 6))
    tgts = [draw(targets(chain, far=1.4)) for _ in range(k)]
    starts = None
    if with_starts and draw(st.booleans()):
        starts = [[draw(quaternions) for _ in range(chain.size)] for _ in range(k)]
    return chain, tgts, starts


@given(free_batches(with_starts=True), st.sampled_from(["ccd", "dls"]))
def test_each_copy_is_what_solve_gives(case, method):
    """Methods without a batched kernel loop solve: exactly its results (FABRIK's kernel is held to
    solve in test_batch_fabrik)."""
    chain, tgts, starts = case
    got = ikcore.solve_batch(chain, tgts, method, starts=starts)
    assert_matches(chain, got, scalar(chain, tgts, method, starts=starts), exact=True)


@given(free_batches(), st.sampled_from([1e-6, 1e-3, 0.05]), st.integers(1, 8))
def test_tolerance_and_iteration_cap_as_in_solve(case, rel, cap):
    chain, tgts, _ = case
    tol = rel * chain.reach
    got = ikcore.solve_batch(chain, tgts, "ccd", tolerance=tol, max_iterations=cap)
    assert got.tolerance == tol
    assert_matches(chain, got, scalar(chain, tgts, "ccd", tolerance=tol, max_iterations=cap), exact=True)


def test_poles_one_for_all_or_one_each():
    chain = ikcore.Chain([(0, 0, 0), (1, 0, 0), (2, 0, 0)],
                         [ikcore.Hinge((0, 0, 1), -150, 150), ikcore.Hinge((0, 0, 1), -150, 150)])
    tgts = [(1.0, 1.0, 0.0), (1.2, -0.4, 0.0), (0.3, 0.9, 0.0)]
    up, down = (0.5, 3.0, 0.0), (0.5, -3.0, 0.0)
    for poles in (up, [up, down, up]):
        got = ikcore.solve_batch(chain, tgts, "two_bone", poles=poles)
        each = poles if isinstance(poles, list) else [poles] * 3
        want = [ikcore.solve(chain, t, "two_bone", pole=p) for t, p in zip(tgts, each)]
        assert_matches(chain, got, want)
        for k, p in enumerate(each):
            # The knee bends toward its pole.
            assert np.sign(got.positions[k][1][1] - got.positions[k][0][1] * 0) == np.sign(p[1])
    with pytest.raises(IKError, match="poles"):
        ikcore.solve_batch(chain, tgts, "two_bone", poles=[up, down])
    with pytest.raises(IKError, match=r"poles\[1\]"):
        ikcore.solve_batch(chain, tgts, "two_bone", poles=[up, (0.0, math.nan, 0.0), up])


def test_planar_legs_without_numpy_give_the_same_lists():
    chain = ikcore.Chain([(0, 0, 0), (1, 0, 0), (2, 0, 0)],
                         [ikcore.Hinge((0, 0, 1), -150, 150), ikcore.Hinge((0, 0, 1), -150, 150)])
    tgts = [(1.0, 1.0, 0.0), (1.2, -0.4, 0.0), (0.3, 0.9, 0.0), (5.0, 0.0, 0.0)]
    with_numpy = ikcore.solve_batch(chain, tgts, "two_bone", poles=(0.5, 3.0, 0.0))
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(batch, "np", None)
        got = ikcore.solve_batch(chain, tgts, "two_bone", poles=(0.5, 3.0, 0.0))
    assert isinstance(got.positions, list) and isinstance(got.rotations[0], list)
    assert got.status == with_numpy.status and got.iterations == [1] * 4
    assert np.allclose(got.positions, with_numpy.positions, atol=1e-12)
    assert np.allclose(got.rotations, with_numpy.rotations, atol=1e-12)
    assert got.error == with_numpy.error.tolist()


def test_warm_starts_track_a_moving_target():
    chain = straight(6)
    tgts = [(3.0, 2.0, 1.0), (-1.0, 4.0, 0.5), (2.0, -2.0, -2.0)]
    first = ikcore.solve_batch(chain, tgts)
    moved = [tuple(c + 0.01 for c in t) for t in tgts]
    again = ikcore.solve_batch(chain, moved, starts=first.rotations)
    assert list(again.converged) == [True, True, True]
    assert max(again.iterations) <= 3


@given(st.data())
def test_limited_chains_are_what_solve_gives(data):
    # (Chains a batched kernel takes are held to solve in test_batch_fabrik.)
    chain = data.draw(chains(max_bones=5, limits=True).filter(
        lambda c: not fabrik_batched.applies(c) and not fabrik_framed.applies(c)))
    tgts = [data.draw(targets(chain)) for _ in range(data.draw(st.integers(1, 4)))]
    got = ikcore.solve_batch(chain, tgts, "fabrik")
    assert_matches(chain, got, scalar(chain, tgts, "fabrik"), exact=True)


@given(free_batches(with_starts=True))
def test_without_numpy_the_batch_loops_solve(case):
    chain, tgts, starts = case
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(batch, "np", None)
        got = ikcore.solve_batch(chain, tgts, starts=starts)
    assert isinstance(got.positions, list) and isinstance(got.iterations, list)
    assert_matches(chain, got, scalar(chain, tgts, starts=starts), exact=True)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(batch, "np", None)
        assert isinstance(got.converged, list)


def test_numpy_is_optional():
    """With numpy unimportable, ikcore imports and solve_batch loops solve(), returning lists."""
    code = ("import sys; sys.modules['numpy'] = None\n"
            "import ikcore\n"
            "b = ikcore.solve_batch(ikcore.Chain([(0, 0, 0), (1, 0, 0), (2, 0, 0)]), [(1, 1, 0)] * 200)\n"
            "assert isinstance(b.positions, list) and b.converged == [True] * 200, b\n")
    root = pathlib.Path(ikcore.__file__).resolve().parent.parent
    done = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


def test_empty_batch():
    chain = straight(3)
    got = ikcore.solve_batch(chain, [])
    assert len(got) == 0 and got.positions.shape == (0, 4, 3) and got.rotations.shape == (0, 3, 4)
    # The planar legs' batch too, with or without a pole.
    leg = ikcore.Chain([(0, 0, 0), (1, 0, 0), (2, 0, 0)], [ikcore.Hinge((0, 0, 1))] * 2)
    for pole in (None, (1.0, 1.0, 0.0)):
        got = ikcore.solve_batch(leg, [], "two_bone", poles=pole)
        assert len(got) == 0 and got.positions.shape == (0, 3, 3) and got.rotations.shape == (0, 2, 4)


def test_result_summary():
    chain = straight(3)
    got = ikcore.solve_batch(chain, [(1.0, 1.0, 0.0), (9.0, 0.0, 0.0)])
    assert got.counts() == {"converged": 1, "unreachable": 1}
    assert list(got.converged) == [True, False]
    assert "chains=2" in repr(got) and "unreachable=1" in repr(got)


NAN = math.nan


@pytest.mark.parametrize("use_numpy", [True, False])
@pytest.mark.parametrize("args, kwargs, match", [
    (("arm", [(1, 1, 0)]), {}, "chain must be an ikcore.Chain"),
    ((None, 5), {}, "targets"),
    ((None, [(1, 1, 0), (1, NAN, 0)]), {}, r"targets\[1\]\[1\]"),
    ((None, [(1, 1, 0), (1, 1)]), {}, r"targets\[1\]"),
    ((None, [(1, 1, "x")]), {}, r"targets\[0\]\[2\]"),
    ((None, [(1, 1, True)]), {}, r"targets\[0\]\[2\]"),
    ((None, [(1, 1, 0)]), {"starts": [[(1, 0, 0, 0)] * 3] * 2}, "starts must hold 1"),
    ((None, [(1, 1, 0)]), {"starts": [[(1, 0, 0, 0)] * 2]}, r"starts\[0\] must hold 3"),
    ((None, [(1, 1, 0)]), {"starts": [[(1, 0, 0, 0), (0, 0, 0, 0), (1, 0, 0, 0)]]}, r"starts\[0\]\[1\]"),
    ((None, [(1, 1, 0)]), {"starts": [[(1, 0, 0, 0), (1, 0, NAN, 0), (1, 0, 0, 0)]]}, r"starts\[0\]\[1\]\[2\]"),
    ((None, [(1, 1, 0)]), {"tolerance": 0.0}, "tolerance"),
    ((None, [(1, 1, 0)]), {"max_iterations": 0}, "max_iterations"),
    ((None, [(1, 1, 0)], "newton"), {}, "method"),
    ((None, [(1, 1, 0)], "two_bone"), {}, "two_bone"),
    ((None, [(1, 1, 0)]), {"poles": [(0, 1, 0)] * 2}, "poles"),
    ((None, [(1e200, 1, 0)]), {}, r"targets\[0\]"),
    ((None, [(1, 1, 0), (1, 1, 10 ** 400)]), {}, r"targets\[1\]\[2\]"),
    ((None, [(1, 1, 0)]), {"damping": 0.1}, "damping"),
])
def test_bad_input(monkeypatch, use_numpy, args, kwargs, match):
    if not use_numpy:
        monkeypatch.setattr(batch, "np", None)
    chain = straight(3)
    args = (args[0] if args[0] is not None else chain,) + args[1:]
    with pytest.raises(IKError, match=match):
        ikcore.solve_batch(*args, **kwargs)


def test_bad_input_arrays():
    chain = straight(3)
    with pytest.raises(IKError, match=r"targets\[2\]\[0\]"):
        ikcore.solve_batch(chain, np.array([[1.0, 1, 0], [1, 1, 0], [np.inf, 0, 0]]))
    with pytest.raises(IKError, match="targets"):
        ikcore.solve_batch(chain, np.ones((2, 2, 3)))
    with pytest.raises(IKError, match=r"starts\[1\]\[2\]"):
        starts = np.zeros((2, 3, 4))
        starts[:, :, 0] = 1.0
        starts[1, 2, 0] = 0.0
        ikcore.solve_batch(chain, np.ones((2, 3)), starts=starts)
