"""solve_batch: per chain, what solve returns; vectorised FABRIK with numpy, a loop without."""

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


@pytest.fixture(autouse=True, scope="module")
def vectorise_small_batches():
    """Small batches normally loop solve(); here they take the vectorised path, to test it."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(batch, "MIN_VECTOR_BATCH", 1)
        yield


@st.composite
def free_batches(draw, with_starts=False):
    chain = draw(chains(max_bones=7, limits=False))
    k = draw(st.integers(1, 6))
    tgts = [draw(targets(chain, far=1.4)) for _ in range(k)]
    starts = None
    if with_starts and draw(st.booleans()):
        starts = [[draw(quaternions) for _ in range(chain.size)] for _ in range(k)]
    return chain, tgts, starts


@given(free_batches(with_starts=True))
def test_vectorised_fabrik_matches_solve(case):
    chain, tgts, starts = case
    assert_matches(chain, ikcore.solve_batch(chain, tgts, starts=starts), scalar(chain, tgts, starts=starts))


@given(free_batches(), st.sampled_from([1e-6, 1e-3, 0.05]), st.integers(1, 8))
def test_tolerance_and_iteration_cap_as_in_solve(case, rel, cap):
    chain, tgts, _ = case
    tol = rel * chain.reach
    got = ikcore.solve_batch(chain, tgts, tolerance=tol, max_iterations=cap)
    assert got.tolerance == tol
    assert_matches(chain, got, scalar(chain, tgts, tolerance=tol, max_iterations=cap))


def test_standard_targets_run_vectorised(monkeypatch):
    """Reachable, off-line targets never go through the scalar solver."""
    def refuse(*args, **kwargs):
        raise AssertionError("the scalar solver was called")

    chain = straight(10)
    rng = np.random.default_rng(1)
    g = rng.standard_normal((200, 3))
    tgts = g / np.linalg.norm(g, axis=1, keepdims=True) * rng.uniform(2.0, 9.5, 200)[:, None]
    sols = scalar(chain, tgts)
    monkeypatch.setattr(batch, "solve", refuse)
    got = ikcore.solve_batch(chain, tgts)
    assert isinstance(got.positions, np.ndarray) and got.positions.shape == (200, 11, 3)
    assert got.rotations.shape == (200, 10, 4) and got.iterations.shape == (200,) and got.error.shape == (200,)
    assert_matches(chain, got, sols)
    assert got.converged.all()


def test_small_batches_loop_solve(monkeypatch):
    monkeypatch.setattr(batch, "MIN_VECTOR_BATCH", 4)
    chain = straight(5)
    tgts = [(2.0, 2.0, 1.0), (0.0, 7.0, 0.0), (-1.0, 1.0, -2.0)]
    assert_matches(chain, ikcore.solve_batch(chain, tgts), scalar(chain, tgts), exact=True)
    starts = np.tile([0.9, 0.1, 0.3, 0.2], (3, 5, 1))       # not unit: solve() normalises them
    assert_matches(chain, ikcore.solve_batch(chain, tgts, starts=starts), scalar(chain, tgts, starts=starts),
                   exact=True)
    calls = []
    monkeypatch.setattr(batch, "solve", lambda *a, **k: calls.append(1))
    ikcore.solve_batch(chain, tgts + [(1.0, 1.0, 1.0)])
    assert not calls


def test_each_chain_stops_when_it_converges():
    chain = straight(6)
    tgts = [(6.0, 0.0, 0.0),      # already there: 0 iterations
            (0.0, 9.0, 0.0),      # out of reach: stretched in one step
            (-1.0, 0.5, 0.2),
            (3.0, 3.0, 0.5),
            (5.9, 0.2, 0.0)]      # nearly straight: slow, linear convergence
    got = ikcore.solve_batch(chain, tgts, tolerance=1e-9)
    sols = scalar(chain, tgts, tolerance=1e-9)
    assert_matches(chain, got, sols)
    its = [int(i) for i in got.iterations]
    assert its[:2] == [0, 1] and len(set(its)) == 5, its
    assert got.status == ["converged", "unreachable", "converged", "converged", "converged"]
    np.testing.assert_allclose(got.positions[1][-1], [0.0, 6.0, 0.0], atol=1e-12)


def test_collinear_and_stalled_chains_go_to_the_scalar_solver():
    # Target straight behind a straight chain; a one-bone chain asked inside its
    # sphere (unreachable, FABRIK stalls); an ordinary target beside them.
    chain = straight(4)
    tgts = [(-2.0, 0.0, 0.0), (2.0, 1.0, 0.0), (1.0, 1e-12, 0.0)]
    assert_matches(chain, ikcore.solve_batch(chain, tgts), scalar(chain, tgts))
    one = straight(1)
    got = ikcore.solve_batch(one, [(0.3, 0.2, 0.0), (0.0, 2.0, 0.0)])
    sols = scalar(one, [(0.3, 0.2, 0.0), (0.0, 2.0, 0.0)])
    assert_matches(one, got, sols)
    assert got.status == ["unreachable", "unreachable"]


def test_warm_starts_track_a_moving_target():
    chain = straight(8)
    tgts = np.array([[3.0, 4.0, 1.0], [-2.0, 2.0, 2.0], [5.0, -3.0, -1.0]])
    first = ikcore.solve_batch(chain, tgts, tolerance=1e-6)
    moved = tgts + 0.05
    got = ikcore.solve_batch(chain, moved, starts=first.rotations, tolerance=1e-6)
    assert_matches(chain, got, scalar(chain, moved, starts=first.rotations, tolerance=1e-6))
    assert max(got.iterations) < max(ikcore.solve_batch(chain, moved, tolerance=1e-6).iterations)
    # A start already within tolerance comes back unchanged.
    same = ikcore.solve_batch(chain, tgts, starts=first.rotations, tolerance=1e-6)
    assert list(same.iterations) == [0, 0, 0]
    np.testing.assert_allclose(same.rotations, first.rotations, rtol=0, atol=1e-15)
    np.testing.assert_array_equal(same.rotations, [s.rotations for s in scalar(chain, tgts, starts=first.rotations,
                                                                                tolerance=1e-6)])


@pytest.mark.parametrize("method", ["ccd", "dls", "pseudo_inverse"])
def test_other_methods_loop_solve(method):
    chain = straight(5)
    tgts = [(2.0, 2.0, 1.0), (0.0, 7.0, 0.0), (-1.0, 1.0, -2.0)]
    assert_matches(chain, ikcore.solve_batch(chain, tgts, method), scalar(chain, tgts, method), exact=True)


@given(st.data())
def test_limited_chains_loop_solve(data):
    chain = data.draw(chains(max_bones=5))
    tgts = [data.draw(targets(chain)) for _ in range(3)]
    got = ikcore.solve_batch(chain, tgts, max_iterations=20)
    # Limited chains are solved one by one with solve: identical results.
    assert_matches(chain, got, scalar(chain, tgts, max_iterations=20), exact=chain.limited)


def test_two_bone_and_method_options():
    chain = straight(2)
    tgts = [(1.0, 1.0, 0.0), (0.0, 0.0, 3.0)]
    got = ikcore.solve_batch(chain, tgts, "two_bone")
    assert_matches(chain, got, scalar(chain, tgts, "two_bone"), exact=True)
    got = ikcore.solve_batch(chain, tgts, "dls", damping=0.05)
    assert_matches(chain, got, scalar(chain, tgts, "dls", damping=0.05), exact=True)


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
