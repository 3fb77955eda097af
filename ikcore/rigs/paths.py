"""Scripted target paths: deterministic functions of time.

Every path is a callable ``path(t) -> (x, y, z)``; the same ``t`` always gives
the same point, so a scene replays identically and tests can predict it.
"""

import math
import random

from .. import rotation as rot
from ..checks import check_float, check_int_range, check_point, check_positive, check_quaternion
from ..errors import IKError


class Lissajous:
    """``c + a * sin(2 pi f t + phi)``, per axis.

    Parameters
    ----------
    center : (x, y, z)
    amplitude : (ax, ay, az)
        Half the extent along each axis (>= 0).
    frequency : (fx, fy, fz)
        Hertz, per axis. Small integer ratios close the curve (1:2 is a
        figure eight, 3:2 a pretzel).
    phase : (px, py, pz)
        Radians.

    Examples
    --------
    >>> from ikcore.rigs import Lissajous
    >>> path = Lissajous((0, 1, 0), amplitude=(1, 0.5, 0), frequency=(0.25, 0.5, 0))
    >>> [round(c, 6) + 0.0 for c in path(0.0)], [round(c, 6) + 0.0 for c in path(1.0)]
    ([0.0, 1.0, 0.0], [1.0, 1.0, 0.0])
    """

    def __init__(self, center, amplitude, frequency, phase=(0.0, 0.0, 0.0)):
        self.center = check_point(center, "path center")
        self.amplitude = check_point(amplitude, "path amplitude")
        if min(self.amplitude) < 0.0:
            raise IKError(f"path amplitude must be >= 0 on each axis, got {amplitude!r}")
        self.frequency = check_point(frequency, "path frequency")
        self.phase = check_point(phase, "path phase")
        self._w = tuple(2.0 * math.pi * f for f in self.frequency)

    def __repr__(self):
        return (f"Lissajous(center={self.center!r}, amplitude={self.amplitude!r}, "
                f"frequency={self.frequency!r}, phase={self.phase!r})")

    def __call__(self, t):
        c, a, w, p = self.center, self.amplitude, self._w, self.phase
        return (c[0] + a[0] * math.sin(w[0] * t + p[0]),
                c[1] + a[1] * math.sin(w[1] * t + p[1]),
                c[2] + a[2] * math.sin(w[2] * t + p[2]))

    def speed_bound(self):
        """An upper bound of the path's speed (units per second)."""
        return math.sqrt(sum((ai * wi) ** 2 for ai, wi in zip(self.amplitude, self._w)))

    def farthest(self, point):
        """An upper bound of the distance from ``point`` to any point of the path."""
        d = math.dist(self.center, check_point(point, "point"))
        return d + math.sqrt(sum(ai * ai for ai in self.amplitude))

    def nearest(self, point):
        """A lower bound of the distance from ``point`` to any point of the path."""
        d = math.dist(self.center, check_point(point, "point"))
        return max(0.0, d - math.sqrt(sum(ai * ai for ai in self.amplitude)))


class Orbit:
    """A point swinging around ``center`` at a varying distance.

    Azimuth (about +y, from ``forward``), elevation and radius each follow a
    sine (angles in radians, frequencies in hertz)::

        az(t) = az0 + az_amp sin(2 pi az_freq t)
        el(t) = el0 + el_amp sin(2 pi el_freq t + el_phase)
        r(t)  = r0 + r_amp sin(2 pi r_freq t)

    so the distance from ``center`` stays within ``r0 +- r_amp``: a path kept
    within reach of a chain rooted at ``center`` by construction.
    """

    def __init__(self, center, r0, r_amp, r_freq, az0=0.0, az_amp=0.5, az_freq=0.07, el0=0.0, el_amp=0.3,
                 el_freq=0.11, el_phase=0.0):
        self.center = check_point(center, "orbit center")
        self.r0 = check_positive(r0, "orbit r0")
        self.r_amp = check_float(r_amp, "orbit r_amp")
        if not 0.0 <= self.r_amp < self.r0:
            raise IKError(f"orbit r_amp must be in [0, r0), got {r_amp!r}")
        values = [check_float(v, f"orbit {n}") for v, n in
                  ((r_freq, "r_freq"), (az0, "az0"), (az_amp, "az_amp"), (az_freq, "az_freq"), (el0, "el0"),
                   (el_amp, "el_amp"), (el_freq, "el_freq"), (el_phase, "el_phase"))]
        (self.r_freq, self.az0, self.az_amp, self.az_freq, self.el0, self.el_amp, self.el_freq,
         self.el_phase) = values

    def __call__(self, t):
        tau = 2.0 * math.pi * t
        az = self.az0 + self.az_amp * math.sin(self.az_freq * tau)
        el = self.el0 + self.el_amp * math.sin(self.el_freq * tau + self.el_phase)
        r = self.r0 + self.r_amp * math.sin(self.r_freq * tau)
        c = self.center
        ce = math.cos(el)
        return (c[0] + r * ce * math.cos(az), c[1] + r * math.sin(el), c[2] - r * ce * math.sin(az))


def figure_eight(center, width, height, period, depth=0.0, phase=0.0):
    """A figure eight in the plane ``z = center.z`` (swaying ``depth`` along z).

    It crosses itself at ``center``; one loop takes ``period`` seconds.

    Examples
    --------
    >>> from ikcore.rigs import figure_eight
    >>> path = figure_eight((0, 1, 0), width=2.0, height=1.0, period=4.0)
    >>> [[round(c, 6) + 0.0 for c in path(t)] for t in (0.0, 1.0, 2.0)]
    [[0.0, 1.0, 0.0], [1.0, 1.0, 0.0], [0.0, 1.0, 0.0]]
    """
    period = check_positive(period, "figure eight period")
    width = check_float(width, "figure eight width")
    height = check_float(height, "figure eight height")
    depth = check_float(depth, "figure eight depth")
    f = 1.0 / period
    return Lissajous(center, (abs(width) / 2.0, abs(height) / 2.0, abs(depth) / 2.0), (f, 2.0 * f, f),
                     (phase, 2.0 * phase, phase + math.pi / 2.0))


def _check_axis(value, name):
    axis = check_point(value, name)
    if math.sqrt(axis[0] ** 2 + axis[1] ** 2 + axis[2] ** 2) < 1e-12:
        raise IKError(f"{name} must be non-zero, got {value!r}")
    return axis


class Spin:
    """An orientation path: a rest rotation swaying about two axes.

    ``q(t) = base * rot(axis_a, amp_a sin(2 pi f_a t)) * rot(axis_b, amp_b sin(2 pi f_b t))``.

    Examples
    --------
    >>> from ikcore.rigs import Spin
    >>> spin = Spin()
    >>> spin(0.0), round(sum(c * c for c in spin(3.7)), 9)
    ((1.0, 0.0, 0.0, 0.0), 1.0)
    """

    def __init__(self, base=rot.IDENTITY, axis_a=(0.0, 1.0, 0.0), amp_a_deg=30.0, freq_a=0.1,
                 axis_b=(1.0, 0.0, 0.0), amp_b_deg=20.0, freq_b=0.13):
        self.base = check_quaternion(base, "spin base")
        self.axis_a = _check_axis(axis_a, "spin axis_a")
        self.axis_b = _check_axis(axis_b, "spin axis_b")
        self.amp_a = math.radians(check_float(amp_a_deg, "spin amp_a_deg"))
        self.amp_b = math.radians(check_float(amp_b_deg, "spin amp_b_deg"))
        self.freq_a = check_float(freq_a, "spin freq_a")
        self.freq_b = check_float(freq_b, "spin freq_b")

    def __call__(self, t):
        qa = rot.from_axis_angle(self.axis_a, self.amp_a * math.sin(2.0 * math.pi * self.freq_a * t))
        qb = rot.from_axis_angle(self.axis_b, self.amp_b * math.sin(2.0 * math.pi * self.freq_b * t))
        return rot.multiply(self.base, rot.multiply(qa, qb))


class Hops:
    """A seeded sequence of points in a spherical shell, one per ``period`` seconds.

    Point ``k`` lies at distance ``U[r_min, r_max]`` from ``center`` in a random
    direction with ``y >= center.y + min_up * distance`` (above a tilted floor).
    ``path(t)`` is point ``floor(t / period)``: the target holds still, then
    jumps. The points are drawn from ``random.Random(seed)`` in order, so they
    are the same on every run.

    Examples
    --------
    >>> import math
    >>> from ikcore.rigs import Hops
    >>> hops = Hops((0, 0, 0), r_min=0.5, r_max=1.0, period=2.0, seed=3)
    >>> hops(0.0) == hops(1.9), hops(0.0) == hops(2.0)  # holds still, then jumps
    (True, False)
    >>> 0.5 <= math.dist(hops(0.0), (0, 0, 0)) <= 1.0
    True
    """

    def __init__(self, center, r_min, r_max, period, seed=1, min_up=-0.2):
        self.center = check_point(center, "hops center")
        self.r_min = check_positive(r_min, "hops r_min")
        self.r_max = check_positive(r_max, "hops r_max")
        if self.r_min > self.r_max:
            raise IKError(f"hops r_min ({r_min!r}) must not exceed r_max ({r_max!r})")
        self.period = check_positive(period, "hops period")
        self.min_up = check_float(min_up, "hops min_up")
        self._rng = random.Random(check_int_range(seed, "hops seed", 0, 2**31 - 1))
        self._points = []

    def point(self, k):
        """The ``k``-th point (``k >= 0``)."""
        while len(self._points) <= k:
            self._points.append(self._draw())
        return self._points[k]

    def index(self, t):
        """Which point holds at time ``t``."""
        return max(0, int(math.floor(t / self.period)))

    def __call__(self, t):
        return self.point(self.index(t))

    def _draw(self):
        rng = self._rng
        while True:
            x, y, z = rng.gauss(0.0, 1.0), rng.gauss(0.0, 1.0), rng.gauss(0.0, 1.0)
            n = math.sqrt(x * x + y * y + z * z)
            if n > 1e-6 and y / n >= self.min_up:
                break
        r = rng.uniform(self.r_min, self.r_max)
        c = self.center
        return (c[0] + r * x / n, c[1] + r * y / n, c[2] + r * z / n)
