"""Axis masks: a task that weighs or ignores some of its position or orientation axes.

``mask=(x, y, z, rx, ry, rz)`` weighs each axis of the task: the position's
along the chain's own axes, the orientation's about the axes of the target's
tip frame (the asked rotation of the tip frame, :mod:`ikcore.targets`), so that
``(1, 1, 1, 1, 1, 0)`` leaves a tool's roll about its own z free. A weight of 0
ignores the axis; the others scale it in the steps. Three weights mask the
position alone.

The Jacobian methods take a mask as a change of the task's rows: with ``T`` the
``m x m`` matrix that takes the error ``e`` (position, then ``c`` times the
orientation's world rotation vector) to its weighted components,
``T = diag(w_p, w_o A^T)`` (``A``'s columns the target frame's axes), the
masked task is ``T J w = T e``; its ``J J^T`` is ``T (J J^T) T^T`` and its
``J^T y`` is ``J^T (T^T y)``, so the joint-by-joint products serve it as they
are (:class:`MaskedJacobian`). An ignored axis's row is all zero: it is set to
the identity's, with nothing to meet, so that the system stays well posed.

The status measures only what was asked (:meth:`Mask.position_error`,
:meth:`Mask.orientation_error`): the distance over the position axes of
non-zero weight, the angle over the orientation axes of non-zero weight.

>>> import ikcore
>>> chain = ikcore.Chain([(0, 0, 0), (0, 1, 0), (0, 2, 0)])
>>> solution = ikcore.solve(chain, (5.0, 1.0, 0.0), "dls", mask=(0, 1, 1), tolerance=1e-9)  # x ignored
>>> solution.status, [round(c, 6) + 0.0 for c in solution.effector][1:]
('converged', [1.0, 0.0])
"""

from math import sqrt

from . import rotation as rot
from .checks import check_float
from .errors import IKError


class Mask:
    """A checked axis mask: six weights, and what the status measures.

    Attributes
    ----------
    weights : tuple of 6 float
        ``(x, y, z, rx, ry, rz)``, each at least 0.
    position_full : bool
        Every position axis is asked: the reach tells what is out of reach.
    """

    __slots__ = ("weights", "position_full")

    def __init__(self, weights):
        self.weights = weights
        self.position_full = all(w > 0.0 for w in weights[:3])

    def __repr__(self):
        return f"Mask({self.weights!r})"

    def position_error(self, target, point):
        """The distance from ``point`` to ``target`` over the asked position axes."""
        return sqrt(sum((t - p) ** 2 for t, p, w in zip(target, point, self.weights) if w > 0.0))

    def orientation_error(self, frame, asked, reached):
        """The angle from the ``reached`` world rotation of the last bone to the ``asked`` one, over
        the asked axes of the target's tip ``frame`` (a unit quaternion): the rotation vector of
        ``asked reached^-1``, in that frame, less its ignored components."""
        x, y, z = local_rotation_vector(frame, asked, reached)
        return sqrt(sum(v * v for v, w in zip((x, y, z), self.weights[3:]) if w > 0.0))


def local_rotation_vector(frame, asked, reached):
    """The rotation vector that turns ``reached`` into ``asked`` (world), in ``frame``'s axes."""
    w, x, y, z = rot.multiply(asked, rot.conjugate(reached))
    if w < 0.0:
        w, x, y, z = -w, -x, -y, -z
    s = sqrt(x * x + y * y + z * z)
    k = rot.angle((w, x, y, z)) / s if s > 0.0 else 0.0
    return rot.rotate(rot.conjugate(frame), (k * x, k * y, k * z))


def check_mask(value):
    """``value`` (3 or 6 weights, each finite and at least 0, some above 0) as a :class:`Mask`;
    ``None`` stays ``None``. Three weights leave the orientation's axes at 1."""
    if value is None:
        return None
    try:
        weights = list(value)
    except TypeError:
        raise IKError(f"mask must be 3 or 6 weights (x, y, z[, rx, ry, rz]), got {value!r}") from None
    if len(weights) not in (3, 6):
        raise IKError(f"mask must be 3 or 6 weights (x, y, z[, rx, ry, rz]), got {len(weights)}")
    weights = [check_float(w, f"mask[{i}]") for i, w in enumerate(weights)]
    if any(w < 0.0 for w in weights) or not any(w > 0.0 for w in weights):
        raise IKError(f"mask weights must be at least 0, and some above 0; got {weights!r}")
    return Mask(tuple(weights) + (1.0, 1.0, 1.0)[:6 - len(weights)])


class MaskedJacobian:
    """A :class:`~ikcore.solvers.jacobian.joints.JointJacobian` seen through a mask's ``T`` (see
    the module docstring): its ``gram``, ``transpose`` and ``apply`` are the masked task's; all
    else is the Jacobian's own."""

    def __init__(self, jac, rows):
        self.jac = jac
        # The rows of T by their non-zero entries (a position row has one, an orientation row up
        # to three): an ignored axis's row has none.
        self.rows = [[(k, t) for k, t in enumerate(row) if t != 0.0] for row in rows]

    def __getattr__(self, name):
        return getattr(self.jac, name)

    def gram(self):
        """``T (J J^T) T^T``, an ignored axis's row and column the identity's."""
        G, rows = self.jac.gram(), self.rows
        m = len(rows)
        out = [[0.0] * m for _ in range(m)]
        for a in range(m):
            row_a = rows[a]
            if not row_a:
                out[a][a] = 1.0
                continue
            for b in range(a, m):
                v = 0.0
                for k, ta in row_a:
                    Gk = G[k]
                    for j, tb in rows[b]:
                        v += ta * Gk[j] * tb
                out[a][b] = out[b][a] = v
        return out

    def transpose(self, y):
        """``J^T (T^T y)``."""
        z = [0.0] * len(self.rows)
        for row, ya in zip(self.rows, y):
            for k, t in row:
                z[k] += t * ya
        return self.jac.transpose(z)

    def apply(self, turns):
        """``T (J w)``."""
        v = self.jac.apply(turns)
        return [sum(t * v[k] for k, t in row) for row in self.rows]


def task_rows(mask, m, frame):
    """The rows of ``T`` for a task of ``m`` rows: the position weights, then the orientation's
    weights times the target tip ``frame``'s axes (the rows of ``A^T``)."""
    rows = []
    for i in range(3):
        row = [0.0] * m
        row[i] = mask.weights[i]
        rows.append(row)
    if m == 6:
        for i, axis in enumerate(((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))):
            a = rot.rotate(frame, axis)
            w = mask.weights[3 + i]
            rows.append([0.0, 0.0, 0.0, w * a[0], w * a[1], w * a[2]])
    return rows


def masked_residual(rows, e):
    """``T e``."""
    return [sum(t * x for t, x in zip(row, e)) for row in rows]
