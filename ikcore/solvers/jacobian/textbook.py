"""Damped least squares in its textbook form: the matrix ``J``, ``J J^T + lambda^2 I``, the solve.

For a pose, each joint ``j`` at ``p_j`` contributes a block of columns to the
Jacobian, one per world axis ``a`` it turns about (a hinge its own axis
``h_j = R_{j-1} a_j``; any other joint the three world axes)::

    column(j, a) = [ a x r_j ]      r_j = e - p_j, the joint's lever
                   [  c a    ]      (orientation rows, with an orientation target)

and a step of damped least squares (Wampler; Nakamura and Hanafusa) is::

    A = J J^T + lambda^2 I          (m x m, m = 3 or 6)
    A y = e                         (Cholesky)
    theta = J^T y                   (one angle per column)
    w_j = sum over j's columns of theta_a a

:class:`~.joints.JointJacobian` and :func:`~.linalg.solve_spd_unrolled` compute
the same products without forming ``J`` (per joint in closed form, the solve
unrolled): docs/develop/performance.md says what that saves. Tests hold them to this
form; the solvers run them.
"""

from math import sqrt

from ...plan import HINGE
from ...rotation import rotate

WORLD_AXES = ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))


def jacobian(chain, frames, c=0.0, oriented=False):
    """``(J, columns)``: the Jacobian of ``frames`` as ``m`` rows, built joint by joint, and per column
    its ``(joint, axis)``."""
    e = frames.points[-1]
    columns, blocks = [], []
    for j, joint in enumerate(chain.plan.joints):
        r = tuple(ei - pi for ei, pi in zip(e, frames.points[j]))
        if joint.kind == HINGE:
            axes = (rotate(frames.worlds[j - 1], joint.axis) if j else joint.axis,)
        else:
            axes = WORLD_AXES
        for a in axes:
            moved = (a[1] * r[2] - a[2] * r[1], a[2] * r[0] - a[0] * r[2], a[0] * r[1] - a[1] * r[0])
            blocks.append([*moved, c * a[0], c * a[1], c * a[2]] if oriented else list(moved))
            columns.append((j, a))
    m = 6 if oriented else 3
    J = [[block[i] for block in blocks] for i in range(m)]
    return J, columns


def cholesky_solve(A, b):
    """``y`` with ``A y = b`` for a symmetric positive definite ``A``: ``A = L L^T``, then
    ``L z = b`` and ``L^T y = z``."""
    m = len(b)
    L = [[0.0] * m for _ in range(m)]
    for i in range(m):
        for k in range(i + 1):
            s = A[i][k] - sum(L[i][t] * L[k][t] for t in range(k))
            L[i][k] = sqrt(s) if i == k else s / L[k][k]
    z = [0.0] * m
    for i in range(m):
        z[i] = (b[i] - sum(L[i][t] * z[t] for t in range(i))) / L[i][i]
    y = [0.0] * m
    for i in reversed(range(m)):
        y[i] = (z[i] - sum(L[t][i] * y[t] for t in range(i + 1, m))) / L[i][i]
    return y


def dls_turns(J, columns, e, damping, joints):
    """One step of damped least squares: per joint its world turn ``w_j`` (``None`` for a joint
    without columns) for the error ``e`` and the damping ``lambda``."""
    m = len(J)
    A = [[sum(a * b for a, b in zip(J[i], J[k])) + (damping * damping if i == k else 0.0) for k in range(m)]
         for i in range(m)]
    y = cholesky_solve(A, e)
    theta = [sum(J[i][n] * y[i] for i in range(m)) for n in range(len(columns))]
    turns = [None] * joints
    for t, (j, a) in zip(theta, columns):
        w = turns[j] or (0.0, 0.0, 0.0)
        turns[j] = (w[0] + t * a[0], w[1] + t * a[1], w[2] + t * a[2])
    return turns
