"""Procedural terrain: a smooth, seeded heightfield (Y up, as in three.js).

The height is fractal value noise: on each octave, seeded random values sit on
an integer lattice and are blended with the quintic fade
``f(t) = t^3 (6 t^2 - 15 t + 10)``, whose first and second derivatives vanish at
the lattice lines, so the surface is smooth (C2) everywhere. Octave ``k`` has
``2^k`` times the frequency and ``gain^k`` times the amplitude of the first::

    h(x, z) = amplitude * sum_k gain^k v(2^k x / scale, 2^k z / scale) / sum_k gain^k

Because the fade has a closed-form derivative, so does ``h``: the normal is
``normalize(-dh/dx, 1, -dh/dz)``, exact, with no finite differences.

The same seed gives the same terrain on every machine (``random.Random`` is
specified to be reproducible for a given seed).
"""

import math
import random
from array import array

from ..checks import check_float, check_int_range, check_positive
from ..errors import IKError

_SIZE = 256  # lattice period (per octave)
_MASK = _SIZE - 1


class Terrain:
    """A heightfield ``y = height(x, z)`` over the square ``[-half, half]^2``.

    Parameters
    ----------
    seed : int
        Chooses the terrain.
    amplitude : float
        Largest height above or below zero.
    scale : float
        Size of the largest features (world units per lattice cell).
    octaves : int
        Number of noise layers, in ``[1, 8]``.
    gain : float
        Amplitude ratio between successive octaves, in ``(0, 1]``.
    half : float
        Half the side of the square the terrain is defined and drawn over.

    Examples
    --------
    >>> from ikcore.rigs import Terrain
    >>> ground = Terrain(seed=7)
    >>> round(ground.height(0.0, 0.0), 3), ground.height(1.3, -2.2) == Terrain(seed=7).height(1.3, -2.2)
    (-0.193, True)
    """

    def __init__(self, seed=7, amplitude=0.35, scale=3.5, octaves=3, gain=0.45, half=12.0):
        seed = check_int_range(seed, "terrain seed", 0, 2**31 - 1)
        self.amplitude = check_float(amplitude, "terrain amplitude")
        if self.amplitude < 0.0:
            raise IKError(f"terrain amplitude must be >= 0, got {amplitude!r}")
        self.scale = check_positive(scale, "terrain scale")
        self.octaves = check_int_range(octaves, "terrain octaves", 1, 8)
        self.gain = check_positive(gain, "terrain gain")
        if self.gain > 1.0:
            raise IKError(f"terrain gain must be in (0, 1], got {gain!r}")
        self.half = check_positive(half, "terrain half")
        self.seed = seed
        rng = random.Random(seed)
        perm = list(range(_SIZE))
        rng.shuffle(perm)
        self._perm = perm + perm
        self._values = [rng.uniform(-1.0, 1.0) for _ in range(_SIZE)]
        # The value at lattice hash p + j, looked up once here rather than twice per corner per query.
        self._corners = [self._values[p] for p in self._perm]
        total = sum(self.gain ** k for k in range(self.octaves))
        # Per octave: (frequency, amplitude, lattice offset so octaves do not line up, amplitude x
        # frequency for the gradient; the offset is a float so that adding it converts nothing).
        self._layers = []
        for k in range(self.octaves):
            freq = (2.0 ** k) / self.scale
            amp = self.amplitude * self.gain ** k / total
            self._layers.append((freq, amp, float(37 * k), amp * freq))

    def __repr__(self):
        return (f"Terrain(seed={self.seed}, amplitude={self.amplitude!r}, scale={self.scale!r}, "
                f"octaves={self.octaves}, gain={self.gain!r}, half={self.half!r})")

    def contains(self, x, z):
        """Whether ``(x, z)`` lies on the drawn square."""
        return -self.half <= x <= self.half and -self.half <= z <= self.half

    def height(self, x, z):
        """Height at ``(x, z)`` (any finite point; the noise extends past the square).

        The height of :meth:`sample`, the same float, without working out the
        gradient: the walkers ask for heights every frame.
        """
        return self._noise(x, z, False)[0]

    def normal(self, x, z):
        """Unit surface normal at ``(x, z)``, pointing up."""
        _, gx, gz = self.sample(x, z)
        n = math.sqrt(gx * gx + 1.0 + gz * gz)
        return (-gx / n, 1.0 / n, -gz / n)

    def sample(self, x, z):
        """``(height, dh/dx, dh/dz)`` at ``(x, z)``."""
        return self._noise(x, z, True)

    def _noise(self, x, z, gradient):
        # Per octave, the lattice cell around (x, z): the point's place in it (fu, fw), their fades
        # (su, sw) and the bilinear blend of the corner values, v00 + k1 su + k2 sw + k3 su sw; with
        # ``gradient`` its derivatives too (else they stay 0). One loop serves both callers: a
        # generator of the cells would cost more than the arithmetic per height.
        perm = self._perm
        corners = self._corners
        h = gx = gz = 0.0
        for freq, amp, shift, slope in self._layers:
            u = x * freq + shift
            w = z * freq - shift
            iu = math.floor(u)  # an int already
            iw = math.floor(w)
            fu = u - iu
            fw = w - iw
            i0 = iu & _MASK
            j0 = iw & _MASK
            a = perm[i0] + j0
            b = perm[i0 + 1] + j0
            v00 = corners[a]
            v01 = corners[a + 1]
            v10 = corners[b]
            k1 = v10 - v00
            k2 = v01 - v00
            k3 = v00 - v10 - v01 + corners[b + 1]
            su = fu * fu * fu * (fu * (fu * 6.0 - 15.0) + 10.0)
            sw = fw * fw * fw * (fw * (fw * 6.0 - 15.0) + 10.0)
            h += amp * (v00 + k1 * su + k2 * sw + k3 * su * sw)
            if gradient:
                du = 30.0 * fu * fu * (fu - 1.0) * (fu - 1.0)
                dw = 30.0 * fw * fw * (fw - 1.0) * (fw - 1.0)
                gx += slope * du * (k1 + k3 * sw)
                gz += slope * dw * (k2 + k3 * su)
        return h, gx, gz

    def grid(self, resolution=97):
        """Heights on a regular grid over the square, for drawing.

        Parameters
        ----------
        resolution : int
            Samples per side, in ``[2, 1025]``.

        Returns
        -------
        dict
            ``{"half", "resolution", "step", "heights"}``: ``heights`` is an
            ``array('d')`` of ``resolution**2`` values, row by row along ``z``
            (``heights[r * resolution + c]`` is at ``x = -half + c * step``,
            ``z = -half + r * step``), the layout of a three.js
            ``PlaneGeometry`` rotated to lie in XZ.
        """
        n = check_int_range(resolution, "terrain grid resolution", 2, 1025)
        step = 2.0 * self.half / (n - 1)
        heights = array("d", bytes(8 * n * n))
        for r in range(n):
            z = -self.half + r * step
            for c in range(n):
                heights[r * n + c] = self.height(-self.half + c * step, z)
        return {"half": self.half, "resolution": n, "step": step, "heights": heights}
