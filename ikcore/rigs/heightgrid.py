"""The ground as the page draws it: a terrain's heights on a grid, between them the drawn triangles.

The page draws a terrain from :meth:`Terrain.grid <ikcore.rigs.terrain.Terrain.grid>`:
``resolution x resolution`` heights, ``step`` apart, laid into a three.js
``PlaneGeometry`` whose cells are each cut into two triangles along the
diagonal from ``(c, r + 1)`` to ``(c + 1, r)``. A walker whose feet land on
:meth:`HeightGrid.height` lands on that drawn surface exactly, not on the
smooth noise a few millimetres off it. In the cell at column ``c``, row ``r``,
with ``u, v`` in ``[0, 1]`` the point's place across it along x and z, and
``h00, h10, h01, h11`` the heights at its corners (``h10`` one step along x)::

    u + v <= 1:   h = h00 + u (h10 - h00) + v (h01 - h00)
    u + v >  1:   h = h11 + (1 - u) (h01 - h11) + (1 - v) (h10 - h11)

Both planes hold the diagonal's two corners, so the surface is continuous.
Points off the square take the height of its nearest edge.
"""

import math


class HeightGrid:
    """A terrain's drawn surface (see the module docstring).

    Parameters
    ----------
    grid : dict
        :meth:`Terrain.grid <ikcore.rigs.terrain.Terrain.grid>`'s ``{"half",
        "resolution", "step", "heights"}``, kept as it is (the page draws the
        same heights).
    """

    def __init__(self, grid):
        self.grid = grid
        self.half = grid["half"]
        self.step = grid["step"]
        self.resolution = grid["resolution"]
        self.heights = grid["heights"]
        # The far edge in steps, and the farthest cell index (its far corners are the grid's last).
        self._edge = float(self.resolution - 1)
        self._last = self.resolution - 2

    def height(self, x, z):
        """The drawn height at ``(x, z)``."""
        # The point in steps from the near corner, brought onto the square (off it, the nearest
        # edge); then its cell, the last one for a point on the far edge, and its place across it.
        edge, last = self._edge, self._last
        fx = min(max((x + self.half) / self.step, 0.0), edge)
        fz = min(max((z + self.half) / self.step, 0.0), edge)
        c = min(math.floor(fx), last)
        r = min(math.floor(fz), last)
        u = fx - c
        v = fz - r
        h = self.heights
        i = r * self.resolution + c
        h10 = h[i + 1]
        h01 = h[i + self.resolution]
        if u + v <= 1.0:
            h00 = h[i]
            return h00 + u * (h10 - h00) + v * (h01 - h00)
        h11 = h[i + self.resolution + 1]
        return h11 + (1.0 - u) * (h01 - h11) + (1.0 - v) * (h10 - h11)
