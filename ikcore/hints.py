"""The names of the public API's type hints: what a point, a rotation and a pose are.

A point or vector is any sequence of three floats ``(x, y, z)`` (a tuple, a list, a numpy
row); a rotation is a unit quaternion ``(w, x, y, z)`` (:mod:`ikcore.rotation`); a pose is
one rotation per joint. A target is a point, or a pose for the tip frame (a 4x4 homogeneous
matrix, or a position and a 3x3 rotation matrix: :mod:`ikcore.targets`). What the solvers
return is made of tuples of floats.
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
#: A 4x4 homogeneous matrix (four rows of four), or a 3x3 rotation matrix.
Matrix = Sequence[Sequence[float]]
#: A target: a point ``(x, y, z)``, a 4x4 pose, or ``(position, 3x3 rotation)``.
Target = Vector3 | Matrix | tuple[Vector3, Matrix]
#: A frame (a tool's): a 4x4 homogeneous matrix, or ``(position, quaternion (w, x, y, z))``.
Frame = Matrix | tuple[Vector3, Quaternion]
