"""The scenes' parts: the terrain heightfield and the scripted paths."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

import ikcore
from ikcore.rigs.paths import Hops, Lissajous, Orbit, Spin, figure_eight
from ikcore.rigs.terrain import Terrain

coords = st.floats(-30.0, 30.0)


# -- terrain -----------------------------------------------------------------------------------


def test_the_seed_chooses_the_terrain():
    a, b, c = Terrain(seed=3), Terrain(seed=3), Terrain(seed=4)
    pts = [(0.3 * i - 5.0, 0.7 * i - 4.0) for i in range(30)]
    assert [a.height(x, z) for x, z in pts] == [b.height(x, z) for x, z in pts]
    assert [a.height(x, z) for x, z in pts] != [c.height(x, z) for x, z in pts]


@given(x=coords, z=coords)
def test_heights_are_bounded_and_normals_match_the_slope(x, z):
    t = Terrain(seed=7)
    h = t.height(x, z)
    assert abs(h) <= t.amplitude
    # The analytic gradient against central differences.
    e = 1e-5
    gx = (t.height(x + e, z) - t.height(x - e, z)) / (2 * e)
    gz = (t.height(x, z + e) - t.height(x, z - e)) / (2 * e)
    n = t.normal(x, z)
    assert math.hypot(*n) == pytest.approx(1.0)
    assert n[1] > 0.0
    assert -n[0] / n[1] == pytest.approx(gx, abs=1e-6)
    assert -n[2] / n[1] == pytest.approx(gz, abs=1e-6)


@given(x=coords, z=coords)
def test_the_height_is_the_samples_to_the_last_bit(x, z):
    # height() repeats sample()'s height terms without the gradient; the walkers use one, the page the other.
    t = Terrain(seed=11)
    assert t.height(x, z) == t.sample(x, z)[0]


def test_the_terrain_is_smooth_across_lattice_lines():
    # Slope continuous: no crease where the lattice cells meet (x = k * scale).
    t = Terrain(seed=7, octaves=1)
    for k in range(-3, 4):
        x = k * t.scale
        left = t.sample(x - 1e-9, 0.37)
        right = t.sample(x + 1e-9, 0.37)
        assert left[0] == pytest.approx(right[0], abs=1e-8)
        assert left[1] == pytest.approx(right[1], abs=1e-6)


def test_the_grid_holds_the_heights_row_by_row_along_z():
    t = Terrain(seed=5, half=4.0)
    g = t.grid(9)
    assert g["resolution"] == 9 and g["step"] == 1.0 and len(g["heights"]) == 81
    assert g["heights"][2 * 9 + 7] == t.height(-4.0 + 7, -4.0 + 2)
    assert t.contains(4.0, -4.0) and not t.contains(4.1, 0.0)


@pytest.mark.parametrize("kwargs, words", [
    (dict(seed=-1), "seed"), (dict(seed=1.5), "seed"), (dict(amplitude=-1), "amplitude"),
    (dict(scale=0), "scale"), (dict(octaves=9), "octaves"), (dict(gain=1.5), "gain"),
    (dict(half=math.inf), "half"),
])
def test_bad_terrain_parameters(kwargs, words):
    with pytest.raises(ikcore.IKError, match=words):
        Terrain(**kwargs)


def test_bad_grid_resolution():
    with pytest.raises(ikcore.IKError, match="resolution"):
        Terrain().grid(1)


# -- paths -------------------------------------------------------------------------------------


def test_lissajous_is_a_sine_per_axis():
    p = Lissajous((1, 2, 3), (0.5, 0.25, 0.0), (1.0, 0.5, 2.0), (0.0, math.pi / 2, 0.0))
    assert p(0.0) == (1.0, 2.25, 3.0)
    assert p(0.25) == pytest.approx((1.5, 2.0 + 0.25 * math.cos(math.pi / 4), 3.0))
    assert p(1.7) == p(1.7)  # a function of time only
    assert p.speed_bound() == pytest.approx(math.hypot(0.5 * 2 * math.pi, 0.25 * math.pi))


def test_figure_eight_crosses_its_center_and_repeats():
    p = figure_eight((0, 1, 0), width=2.0, height=1.0, period=4.0)
    assert p(0.0)[:2] == pytest.approx((0.0, 1.0))
    assert p(2.0)[:2] == pytest.approx((0.0, 1.0), abs=1e-12)
    assert p(1.3) == pytest.approx(p(5.3))


@given(t=st.floats(0.0, 1000.0))
def test_orbit_keeps_its_distance(t):
    o = Orbit((0, 1, 0), r0=1.0, r_amp=0.2, r_freq=0.3, az_amp=1.0, el_amp=0.6)
    assert 0.8 - 1e-12 <= math.dist(o(t), (0, 1, 0)) <= 1.2 + 1e-12


def test_hops_are_repeatable_points_in_their_shell():
    a = Hops((0, 1, 0), 0.5, 1.0, period=2.0, seed=3, min_up=0.0)
    b = Hops((0, 1, 0), 0.5, 1.0, period=2.0, seed=3, min_up=0.0)
    assert [a.point(k) for k in range(20)] == [b.point(k) for k in range(20)]
    for k in range(20):
        p = a.point(k)
        assert 0.5 <= math.dist(p, (0, 1, 0)) <= 1.0 and p[1] >= 1.0
    assert a(3.9) == a.point(1) and a(4.0) == a.point(2)


def test_spin_sways_around_its_base():
    s = Spin(amp_a_deg=30.0, amp_b_deg=0.0, freq_a=0.25)
    assert ikcore.rotation.angle(s(1.0)) == pytest.approx(math.radians(30.0))
    assert s(0.0) == pytest.approx((1.0, 0.0, 0.0, 0.0))


@pytest.mark.parametrize("make, words", [
    (lambda: Lissajous((0, 0, 0), (-1, 0, 0), (1, 1, 1)), "amplitude"),
    (lambda: Lissajous((0, math.nan, 0), (1, 1, 1), (1, 1, 1)), "center"),
    (lambda: figure_eight((0, 0, 0), 1, 1, period=0), "period"),
    (lambda: Orbit((0, 0, 0), r0=1.0, r_amp=1.0, r_freq=0.1), "r_amp"),
    (lambda: Hops((0, 0, 0), 2.0, 1.0, period=1.0), "r_min"),
    (lambda: Hops((0, 0, 0), 0.5, 1.0, period=1.0, seed=-2), "seed"),
    (lambda: Spin(axis_a=(0, 0, 0)), "axis"),
    (lambda: Spin(base=(0, 0, 0, 0)), "base"),
])
def test_bad_path_parameters(make, words):
    with pytest.raises(ikcore.IKError, match=words):
        make()
