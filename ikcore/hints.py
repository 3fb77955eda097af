"""The names of the public API's type hints: what a point, a rotation and a pose are.

A point or vector is any sequence of three floats ``(x, y, z)`` (a tuple, a list, a numpy
row); a rotation is a unit quaternion ``(w, x, y, z)`` (:mod:`ikcore.rotation`); a pose is
one rotation per joint. What the solvers return is made of tuples of floats.
"""

from collections.abc import Sequence

#: ``(x, y, z)``: a point or a direction.
Vector3 = Sequence[float]
#: ``(w, x, y, z)``: a unit quaternion.
Quaternion = Sequence[float]
#: One rotation per joint, root first.
Rotations = Sequence[Quaternion]
#: What the solvers hand back: a point as a tuple.
Point = tuple[float, float, float]
