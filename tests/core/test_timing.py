"""``ikcore.rigs.timing``: the scenes' own timer, back to back and paced like an animation loop."""

import time

import pytest

from ikcore.rigs import timing


def test_measure_reports_ordered_positive_times():
    r = timing.measure("arm", frames=20, warmup=2)
    assert 0.0 < r["median_ms"] <= r["p90_ms"] <= r["max_ms"]


def test_paced_frames_start_on_the_ticks_of_their_clock():
    dt = 0.01
    t0 = time.perf_counter()
    timing.measure("arm", frames=12, warmup=1, dt=dt, paced=True)
    # Each frame waits for its tick: twelve frames span at least eleven ticks.
    assert time.perf_counter() - t0 >= 11 * dt


def test_main_refuses_an_unknown_scene(capsys):
    with pytest.raises(SystemExit, match="unknown scene 'nope'"):
        timing.main(["3", "nope"])


def test_main_prints_a_row_per_scene(capsys):
    timing.main(["--paced", "3", "arm", "race"])
    out = capsys.readouterr().out
    assert "paced at 60 per second" in out
    assert [line.split()[0] for line in out.splitlines()[1:]] == ["arm", "race"]
