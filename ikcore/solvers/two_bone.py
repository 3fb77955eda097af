"""The analytic two-bone solver: law of cosines, exact in one step.

For bones of lengths ``l1``, ``l2`` and a target at distance ``d`` from the root,
clamped into the reachable shell ``[|l1 - l2|, l1 + l2]``, the angle ``alpha``
between the root-target line ``u`` and the upper bone is::

    cos(alpha) = (l1^2 + d^2 - l2^2) / (2 l1 d)

The knee goes to ``root + l1 (cos(alpha) u + sin(alpha) k)``, with ``k`` the unit
bend direction normal to ``u``, and the tip to ``root + d u``. ``k`` is chosen,
first that applies:

1. toward the ``pole`` (a world point): the bend plane holds root, target and
   pole, the knee on the pole's side;
2. the start pose's bend plane, its normal turned to hold ``u``, the knee on the
   same side as before;
3. for a straight start, toward where the upper bone pointed;
4. the rest pose's bend plane; 5. any perpendicular of ``u`` (deterministic).

Out of reach the chain is stretched straight at the target (too far) or folded
toward it (nearer than ``|l1 - l2|``). Each bone then turns by the shortest arc
from its start direction (its twist kept), the lower bone in its parent's frame,
so the knee turns as a hinge when the bend plane is kept. Joint limits are
applied after; if they move the tip, the error says so (and the outcome is
"stalled": the limits are a wall the closed form cannot pass).

No options. Convention: :mod:`ikcore.rotation`.
"""

import math

from .. import rotation as rot
from ..errors import IKError
from ..problem import Outcome

OPTIONS = {}
MAX_ITERATIONS = 1


def check_problem(chain, orientation, options):
    """Refuse chains that are not two bones, and orientation targets."""
    if chain.size != 2:
        raise IKError(f"method 'two_bone' needs a chain of exactly 2 bones, got {chain.size}")
    if orientation is not None:
        raise IKError(f"method 'two_bone' takes no orientation target, got orientation={orientation!r}")


def _sub(a, b):
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def _cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def _across(v, u, eps):
    """The unit part of ``v`` normal to unit ``u``, or None when it is (nearly) zero."""
    t = v[0] * u[0] + v[1] * u[1] + v[2] * u[2]
    x, y, z = v[0] - t * u[0], v[1] - t * u[1], v[2] - t * u[2]
    n = math.sqrt(x * x + y * y + z * z)
    if n <= eps:
        return None
    return (x / n, y / n, z / n)


def _bend_direction(u, root, knee, tip, rest, pole, eps):
    """The unit direction ``k`` normal to ``u`` that the knee bends toward (see module notes)."""
    if pole is not None:
        k = _across(_sub(pole, root), u, eps)
        if k is not None:
            return k
    for a, b, c in ((root, knee, tip), rest):
        normal = _across(_cross(_sub(b, a), _sub(c, a)), u, eps * eps)
        if normal is not None:
            return _cross(u, normal)
        if b is knee:
            k = _across(_sub(knee, root), u, eps)
            if k is not None:
                return k
    return rot.perpendicular(u)


def run(problem):
    """Solve ``problem`` in closed form (one iteration)."""
    chain = problem.chain
    root = chain.points[0]
    l1, l2 = chain.lengths
    d0, d1 = chain.directions
    q0, q1 = problem.start
    # The start's points: a warm start's verdict kept them.
    start = chain._forward([q0, q1]) if problem.frames is None else problem.frames[1]
    knee, tip = start[1], start[2]
    target = problem.target
    eps = 1e-9 * chain.reach

    v = _sub(target, root)
    d = math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2])
    if d > eps:
        u = (v[0] / d, v[1] / d, v[2] / d)
    else:
        # Target at the root: any direction serves; keep the tip's, else one across the upper bone.
        w = _sub(tip, root)
        n = math.sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2])
        u = (w[0] / n, w[1] / n, w[2] / n) if n > eps else rot.perpendicular(_sub(knee, root))
    dc = min(max(d, abs(l1 - l2)), l1 + l2)
    cos_a = (l1 * l1 + dc * dc - l2 * l2) / (2.0 * l1 * dc) if dc > eps else 0.0
    cos_a = min(1.0, max(-1.0, cos_a))
    sin_a = math.sqrt(1.0 - cos_a * cos_a)
    k = _bend_direction(u, root, knee, tip, chain.points, problem.pole, eps)

    b0 = (cos_a * u[0] + sin_a * k[0], cos_a * u[1] + sin_a * k[1], cos_a * u[2] + sin_a * k[2])
    new_knee = (root[0] + l1 * b0[0], root[1] + l1 * b0[1], root[2] + l1 * b0[2])
    new_tip = (root[0] + dc * u[0], root[1] + dc * u[1], root[2] + dc * u[2])
    b1 = _sub(new_tip, new_knee)

    # Shortest arcs from the start directions: the upper bone in the world, the lower in its parent's frame.
    r0 = rot.normalize(rot.multiply(rot.between(rot.rotate(q0, d0), b0), q0))
    lower = rot.rotate(rot.conjugate(r0), b1)
    r1 = rot.normalize(rot.multiply(rot.between(rot.rotate(q1, d1), lower), q1))
    # The verdict's own check (clamped to the limits, forward kinematics), done here: the error
    # after the limits says whether they stopped the closed form, and the verdict takes it as is.
    worlds = []
    settled = chain._judge([r0, r1], worlds) if chain.limited else chain._settle([r0, r1], worlds)
    error = math.dist(settled[1][2], target)
    # Only limits can keep the closed form from its best pose; then progress is at a wall.
    best = max(d - (l1 + l2), abs(l1 - l2) - d, 0.0)
    stalled = chain.limited and error > max(problem.tolerance, best + eps)
    return Outcome(settled[0], 1, [math.dist(tip, target), error], stalled, settled, worlds)
