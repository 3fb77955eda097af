"""Named operations on 3-vectors (tuples of three floats), for code that reads like its maths.

The solvers' inner loops, which run per joint and per iteration, write the
same arithmetic out on plain floats; everything that runs once per solve or
per step uses these.
"""

from math import atan2, sqrt


def add(a, b):
    """``a + b``."""
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


def sub(a, b):
    """``a - b``."""
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def scale(a, k):
    """``k a``."""
    return (a[0] * k, a[1] * k, a[2] * k)


def add_scaled(a, b, k):
    """``a + k b``."""
    return (a[0] + k * b[0], a[1] + k * b[1], a[2] + k * b[2])


def dot(a, b):
    """``a . b``."""
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def cross(a, b):
    """``a x b``."""
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def norm(a):
    """``|a|``."""
    return sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2])


def unit(a):
    """``a / |a|`` (``a`` non-zero)."""
    n = sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2])
    return (a[0] / n, a[1] / n, a[2] / n)


def across(a, axis):
    """``a`` without its part along the unit ``axis``: ``a - (a . axis) axis``."""
    t = a[0] * axis[0] + a[1] * axis[1] + a[2] * axis[2]
    return (a[0] - t * axis[0], a[1] - t * axis[1], a[2] - t * axis[2])


def angle(a, b):
    """The angle between ``a`` and ``b``, radians in ``[0, pi]`` (0 where either vanishes):
    ``atan2(|a x b|, a . b)``, which keeps its digits near 0 and pi where ``acos`` would not."""
    return atan2(norm(cross(a, b)), dot(a, b))


def signed_angle(axis, a, b):
    """The angle about unit ``axis`` that turns ``a`` nearest to ``b`` (both projected on the
    plane normal to ``axis``): ``atan2(axis . (a x b), a . b - (axis . a)(axis . b))``; 0 when
    either lies along the axis.

    ``s`` and ``c`` are the sine and cosine of that angle times the lengths of both projections,
    so ``|s| + |c|`` is at least their product: against ``|a| |b|``, it says how far from the
    axis the two directions lie, whatever the vectors' lengths (a chain's size)."""
    s = dot(axis, cross(a, b))
    c = dot(a, b) - dot(axis, a) * dot(axis, b)
    return atan2(s, c) if abs(s) + abs(c) > 1e-12 * norm(a) * norm(b) else 0.0


def lerp(a, b, t):
    """``a + t (b - a)``."""
    return (a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]), a[2] + t * (b[2] - a[2]))
