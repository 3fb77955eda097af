"""The batched CCD kernel (ikcore.solvers.ccd_batched) held to the per-chain reference.

Per copy: the same status as ikcore.solve, points within 1e-9 of the reach,
iterations within one, rotations unit and consistent with the points; both
paths: copies the kernel finishes and copies it hands over (a stall the
reference restarts from an arc, an edge of the reach, a straight start, the cap).
"""

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

import ikcore
from ikcore.problem import check_settings
from ikcore.solvers import ccd_batched

from .strategies import chains, quaternions, targets
from .test_batch_fabrik import every_batch_to_the_kernels, held, standard_targets, ten_bones  # noqa: F401


def reference(chain, tgts, starts=None, **kw):
    return [ikcore.solve(chain, t, "ccd", start=None if starts is None else starts[k], **kw)
            for k, t in enumerate(tgts)]


@st.composite
def batches(draw):
    chain = draw(chains(max_bones=7, limits=False))
    tgts = [draw(targets(chain, far=1.3)) for _ in range(draw(st.integers(1, 8)))]
    starts = [[draw(quaternions) for _ in range(chain.size)] for _ in tgts] if draw(st.booleans()) else None
    return chain, tgts, starts


@given(batches(), st.sampled_from([None, 1e-6, 0.05]), st.sampled_from([None, 3, 20]))
def test_each_copy_as_the_reference_gives_it(case, rel, cap):
    chain, tgts, starts = case
    kw = {"tolerance": None if rel is None else rel * chain.reach, "max_iterations": cap}
    held(chain, ikcore.solve_batch(chain, tgts, "ccd", starts=starts, **kw), reference(chain, tgts, starts, **kw))


def test_both_paths_on_the_standard_batch():
    """Most copies of the benchmark's batch are finished by the kernel; those whose sweeps crawl (the
    reference restarts them from an arc) are handed over; all agree with the reference."""
    chain = ten_bones()
    tgts = standard_targets(300)
    settings = check_settings(chain, "ccd")
    handed = ccd_batched.solve(settings, [tuple(t) for t in tgts.tolist()], tgts, None).handed
    assert 0 < handed.sum() < 0.5 * len(tgts)
    got = ikcore.solve_batch(chain, tgts, "ccd")
    held(chain, got, reference(chain, tgts.tolist()))
    assert all(got.converged)


def test_a_capped_turn_loops_solve():
    chain = ten_bones()
    settings = check_settings(chain, "ccd", max_step_deg=10.0)
    assert not ccd_batched.applies(chain, settings)
    tgts = standard_targets(5)
    got = ikcore.solve_batch(chain, tgts, "ccd", max_step_deg=10.0)
    sols = [ikcore.solve(chain, t, "ccd", max_step_deg=10.0) for t in tgts.tolist()]
    assert got.status == [s.status for s in sols] and list(got.iterations) == [s.iterations for s in sols]
