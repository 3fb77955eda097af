"""A crowd's bodies: each rides over its own feet, as the spider's body does.

A walker's footing (where its feet stand, or will once they land) changes only
when one of its groups lifts: then, and only then, the least-squares plane
through its eight footing points gives the body's aim, a unit normal ``n*``
(tilted :data:`~ikcore.rigs.spider.MAX_TILT` at most) and a height ``y*``,
the points' mean height plus :data:`~ikcore.rigs.spider.HEIGHT`
(:func:`ikcore.rigs.spider.ground_plane`). Every frame the body eases towards
that aim, so a step landing does not jolt it::

    w = min(1, EASE dt)
    n <- normalize(n + w (n* - n)),    y <- y + w (y* - y)

Its rotation tilts the walker's heading onto that normal: the yaw about +y by
the heading ``h``, then the shortest arc from +y to ``n``::

    q = between(+y, n) yaw(h),    between(+y, n) = normalize(1 + n_y, n_z, 0, -n_x)

(the product written out, with the zero terms of both factors left out). The
state is flat lists, one entry per walker.
"""

import math

from .spider import HEIGHT, ground_plane

#: How fast (per second) the body eases towards its aim.
EASE = 6.0


class Bodies:
    """Height, tilt and rotation of each walker's body (see the module docstring).

    Attributes
    ----------
    y : list of float
        The body's height (its x and z are the walker's).
    qw, qx, qy, qz : list of float
        Its rotation, a unit quaternion.
    """

    def __init__(self):
        self.count = 0
        self.y, self.nx, self.ny, self.nz = [], [], [], []
        self.aim_y, self.aim_nx, self.aim_ny, self.aim_nz = [], [], [], []
        self.qw, self.qx, self.qy, self.qz = [], [], [], []

    def resize(self, count, walkers, gait):
        """Keep the first ``count`` bodies; new ones start on their aim (no easing in)."""
        columns = (self.y, self.nx, self.ny, self.nz, self.aim_y, self.aim_nx, self.aim_ny, self.aim_nz,
                   self.qw, self.qx, self.qy, self.qz)
        for column in columns:
            del column[count:]
        for k in range(self.count, count):
            for column in columns:
                column.append(0.0)
            self._aim(k, gait)
            self.y[k], self.nx[k], self.ny[k], self.nz[k] = (self.aim_y[k], self.aim_nx[k], self.aim_ny[k],
                                                            self.aim_nz[k])
        self.count = count
        self.update(0.0, walkers, gait)

    def _aim(self, k, gait):
        """Walker ``k``'s aim from its footing: the plane through its feet's landing points."""
        first = gait.legs * k
        footing = [(gait.land_x[n], gait.land_y[n], gait.land_z[n]) for n in range(first, first + gait.legs)]
        (nx, ny, nz), mean = ground_plane(footing)
        self.aim_nx[k], self.aim_ny[k], self.aim_nz[k] = nx, ny, nz
        self.aim_y[k] = mean + HEIGHT

    def update(self, dt, walkers, gait):
        """Aim the bodies whose footing changed, ease every body towards its aim, turn it."""
        for k in gait.changed:
            self._aim(k, gait)
        w = min(1.0, EASE * dt)  # none at dt = 0: a resize turns the bodies without moving them
        ys, nxs, nys, nzs = self.y, self.nx, self.ny, self.nz
        aim_ys, aim_nxs, aim_nys, aim_nzs = self.aim_y, self.aim_nx, self.aim_ny, self.aim_nz
        qws, qxs, qys, qzs = self.qw, self.qx, self.qy, self.qz
        headings = walkers.heading
        for k in range(self.count):
            ys[k] += w * (aim_ys[k] - ys[k])
            nx = nxs[k] + w * (aim_nxs[k] - nxs[k])
            ny = nys[k] + w * (aim_nys[k] - nys[k])
            nz = nzs[k] + w * (aim_nzs[k] - nzs[k])
            r = 1.0 / math.sqrt(nx * nx + ny * ny + nz * nz)
            nx, ny, nz = nxs[k], nys[k], nzs[k] = nx * r, ny * r, nz * r
            # between(+y, n): (1 + n_y, n_z, 0, -n_x) normalised. For a unit n its squared norm is
            # 2 (1 + n_y): the half-angle form, w = cos(theta / 2) = sqrt((1 + n_y) / 2) with cos theta
            # = n_y, and the axis part (n_z, 0, -n_x) / (2 w) (n_y > 0: the tilt is limited).
            tw = math.sqrt(0.5 * (1.0 + ny))
            t = 0.5 / tw
            tx, tz = nz * t, -nx * t
            half = 0.5 * headings[k]
            c, s = math.cos(half), math.sin(half)
            qws[k], qxs[k], qys[k], qzs[k] = tw * c, tx * c - tz * s, tw * s, tx * s + tz * c
