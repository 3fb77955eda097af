"""AvoidSphere: every bone of the chain clear of a sphere."""

from math import sqrt

from ..checks import check_float, check_point
from ..chain import Chain
from ..errors import IKError
from ..hints import Vector3
from ..kinematics import Frames
from ..rotation import perpendicular
from ..vectors import cross, norm, sub, unit
from .base import Objective, check_weight


class AvoidSphere(Objective):
    """Keeps every bone (each a segment between two joint points) at least ``radius`` from
    ``center``, wherever the task allows.

    Parameters
    ----------
    center : (x, y, z)
        In the chain's own frame (the frame of its rest points). It may be
        moved later: ``sphere.center = (x, y, z)`` (checked the same way).
    radius : float >= 0
    weight : float >= 0
    margin : float >= 0, optional
        How far beyond ``radius`` bones are pushed (default a quarter of
        ``radius``): a bone within ``rho = radius + margin`` of the centre costs,
        so that the bones settle clear of the sphere, not on it.

    A bone at distance ``d`` from the centre (its nearest point ``c``) costs
    ``((rho - d) / rho)^2`` while ``d < rho``, nothing beyond. Turning joint
    ``j`` by a small world rotation vector ``w`` moves ``c`` (on a bone after
    the joint) by ``w x (c - p_j)``, so the cost by ``((c - p_j) x f) . w``
    with ``f`` the cost's gradient at ``c``, summed over those bones.

    The measure is the *clearance*: the smallest distance from the chain's
    bones to the centre, minus ``radius`` (negative while a bone is inside).

    Examples
    --------
    >>> import ikcore
    >>> chain = ikcore.Chain([(0, 0, 0), (0, 1, 0), (0, 2, 0)])
    >>> sphere = ikcore.AvoidSphere((0.0, 1.0, 0.0), radius=0.25)
    >>> round(sphere.measure(chain, ikcore.kinematics.rest(chain)), 3)
    -0.25
    """

    def __init__(self, center: Vector3, radius: float, weight: float = 1.0, margin: float | None = None) -> None:
        self.center = center
        radius = check_float(radius, "radius")
        if radius < 0.0:
            raise IKError(f"radius must be >= 0, got {radius!r}")
        self.radius = radius
        self.margin = 0.25 * radius if margin is None else check_weight(margin, "margin")
        self.weight = check_weight(weight)

    @property
    def center(self):
        """The sphere's centre, ``(x, y, z)``: settable (checked)."""
        return self._center

    @center.setter
    def center(self, value):
        self._center = check_point(value, "center")

    def __repr__(self):
        return (f"AvoidSphere(center={self._center!r}, radius={self.radius!r}, weight={self.weight!r}, "
                f"margin={self.margin!r})")

    def cost(self, chain, frames):
        rho = self.radius + self.margin
        if rho <= 0.0:
            return 0.0
        total = 0.0
        for d, _, _ in nearest_points(frames.points, self._center):
            if d < rho:
                total += ((rho - d) / rho) ** 2
        return total

    def gradient(self, chain, frames):
        rho = self.radius + self.margin
        points = frames.points
        out = [None] * chain.size
        if rho <= 0.0:
            return out
        ox, oy, oz = self._center
        # From the tip back: the sums over the bones after joint j of f (the cost's gradient at each
        # bone's nearest point c) and of c x f; then g_j = sum (c - p_j) x f = sum c x f - p_j x sum f.
        fx = fy = fz = mx = my = mz = 0.0
        touched = False
        for i, (d, c, side) in reversed(list(enumerate(nearest_points(points, self._center)))):
            if d < rho:
                touched = True
                # f = d cost / d c = -2 (rho - d) / rho^2 times the unit vector from the centre to c.
                k = -2.0 * (rho - d) / (rho * rho)
                ux, uy, uz = side if side is not None else ((c[0] - ox) / d, (c[1] - oy) / d, (c[2] - oz) / d)
                gx, gy, gz = k * ux, k * uy, k * uz
                fx += gx
                fy += gy
                fz += gz
                mx += c[1] * gz - c[2] * gy
                my += c[2] * gx - c[0] * gz
                mz += c[0] * gy - c[1] * gx
            if touched:
                px, py, pz = points[i]
                out[i] = (mx - (py * fz - pz * fy), my - (pz * fx - px * fz), mz - (px * fy - py * fx))
        return out

    def measure(self, chain: Chain, frames: Frames) -> float:
        return clearance(frames.points, self._center, self.radius)


def clearance(points, center, radius):
    """The smallest distance from the segments between consecutive ``points`` to ``center``, minus
    ``radius``."""
    return min(d for d, _, _ in nearest_points(points, center)) - radius


def nearest_points(points, center):
    """Per segment between consecutive ``points``: ``(d, c, side)``, its point ``c`` nearest
    ``center`` and their distance ``d``; ``side`` the way out when the centre lies on the segment
    (``d = 0``; else ``None``), a unit vector across it (see :func:`way_out`)."""
    ox, oy, oz = center
    out = []
    for i, ((ax, ay, az), (bx, by, bz)) in enumerate(zip(points, points[1:])):
        sx, sy, sz = bx - ax, by - ay, bz - az
        t = ((ox - ax) * sx + (oy - ay) * sy + (oz - az) * sz) / (sx * sx + sy * sy + sz * sz)
        t = 0.0 if t < 0.0 else (1.0 if t > 1.0 else t)
        c = (ax + t * sx, ay + t * sy, az + t * sz)
        dx, dy, dz = c[0] - ox, c[1] - oy, c[2] - oz
        d = sqrt(dx * dx + dy * dy + dz * dz)
        out.append((d, c, way_out(points, i, t) if d == 0.0 else None))
    return out


def way_out(points, i, t):
    """A unit vector across segment ``i`` (from ``points[i]`` to ``points[i + 1]``) at its parameter
    ``t``: at a point two segments share, the normal of their plane, the same for both, so that
    bones meeting on the centre are pushed the same way; elsewhere any vector across the segment."""
    j = i + 1 if t == 1.0 else (i if t == 0.0 else None)
    if j is not None and 0 < j < len(points) - 1:
        u, v = sub(points[j], points[j - 1]), sub(points[j + 1], points[j])
        n = cross(u, v)
        if norm(n) > 1e-9 * norm(u) * norm(v):
            return unit(n)
    return perpendicular(sub(points[i + 1], points[i]))
