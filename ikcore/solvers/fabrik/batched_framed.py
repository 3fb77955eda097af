"""FABRIK with joint frames over K copies of a chain of hinges at once, on numpy arrays.

The passes of :mod:`.framed` for a chain whose every joint is a hinge (a robot
arm, a finger, a leg of hinges about any axes), on joint-major arrays: local
rotations ``Q`` and world rotations ``R`` ``(N, K, 4)``, points ``P``
``(N + 1, K, 3)``. Each step places one bone of every copy at once:

- **backward** (from the target): bone ``i`` goes toward its old place, its
  hinge angle the one about the axis ``a`` that turns the rest bone ``d``
  nearest the wanted direction seen in the parent's frame from the last
  forward pass, clamped into its range: ``R_i = R_{i-1} rot(a, theta)``;
- **forward** (from the root): the same toward the points the backward pass
  left, each parent's frame the one just placed: ``R_i = R_{i-1} q_i``,
  ``p_{i+1} = p_i + L_i R_i d_i``. Rotations, frames and points agree exactly.

**Which copies the kernel finishes.** Those the plain passes bring to their
target. As for chains on points (:mod:`.batched`), a copy whose target lies out
of reach or nearer than the chain folds, whose start is straight on the
target's line, whose progress stalls, that runs out of iterations, or whose
passes meet a point on its neighbour is handed over to the reference; so is
one whose passes slow down (an iteration from the second on that leaves the
error above :attr:`~.FramedSearch.SLOW` of the last): the reference hands it
to damped least squares (:mod:`~ikcore.solvers.handover`).
"""

import numpy as np

from ...batched.hinges import rotation, signed_angle
from ...batched.quaternions import conjugate, multiply, turn
from ...batched.turning import iterate_copies, joint_arrays, joint_copies
from ...batched.watch import Watches
from ...plan import HINGE
from . import HORIZON, WINDOW, FramedSearch
from .batched import RATE, opening

_IDENTITY = np.array([1.0, 0.0, 0.0, 0.0])


def applies(chain):
    """Whether the kernel takes ``chain``: every joint a hinge."""
    return all(joint.kind == HINGE for joint in chain.plan.joints)


def solve(settings, targets, goals, starts):
    """FABRIK with frames on K copies of ``settings.chain`` (a chain of hinges; see the module
    docstring). Arguments and result as :func:`.batched.solve`."""
    chain, tol = settings.chain, settings.tolerance
    count, n = len(targets), chain.size
    frames = [chain.plan.rest] * count if starts is None else starts
    error, distance, met, handed = opening(settings, frames, targets, goals, starts is None)
    state = joint_arrays(frames, count, n)
    iterations = np.zeros(count, dtype=int)
    active = np.flatnonzero(~met & ~handed)
    if len(active):
        watches = Watches(error[active], tol, np.full(len(active), WINDOW), np.full(len(active), HORIZON), RATE)
        iterate_copies(HingePasses(chain).iterate, state, active, goals, watches, settings.max_iterations,
                       iterations, handed, slow=FramedSearch.SLOW)
    return joint_copies(state, goals, iterations, handed)


class HingePasses:
    """The passes with frames of a chain of hinges, over K copies (see the module docstring)."""

    def __init__(self, chain):
        self.hinges = [joint.constraint for joint in chain.plan.joints]
        self.bones = [np.array(d, dtype=float) for d in chain.directions]
        self.lengths = [float(v) for v in chain.lengths]
        self.root = np.array(chain.points[0], dtype=float)

    def iterate(self, state, target):
        """One iteration: the backward pass from ``target``, then the forward pass toward the points
        it left."""
        self.backward(state, target)
        self.forward(state, state.points.copy())

    def forward(self, state, wanted):
        """Root to tip: each bone of ``state`` (rotations, worlds, points) turned toward the next
        ``wanted`` point, seen in the frame of the parent just placed."""
        rotations, worlds, points = state
        parent = np.broadcast_to(_IDENTITY, worlds.shape[1:])
        p = np.broadcast_to(self.root, points.shape[1:])
        points[0] = self.root
        for i, (hinge, bone, length) in enumerate(zip(self.hinges, self.bones, self.lengths)):
            u = _direction(wanted[i + 1] - p, turn(worlds[i], bone))
            q = rotation(hinge, signed_angle(np.array(hinge.axis), np.broadcast_to(bone, u.shape),
                                             turn(conjugate(parent), u)))
            rotations[i] = q
            parent = worlds[i] = multiply(parent, q)
            p = points[i + 1] = p + turn(parent, bone) * length

    def backward(self, state, target):
        """Tip to root: each bone of ``state`` placed from the target, its wanted direction limited
        in its parent's frame from the last forward pass."""
        rotations, worlds, points = state
        parents = np.concatenate((np.broadcast_to(_IDENTITY, (1,) + worlds.shape[1:]), worlds[:-1]))
        p = target
        for i in range(len(self.hinges) - 1, -1, -1):
            hinge, bone, parent = self.hinges[i], self.bones[i], parents[i]
            u = _direction(p - points[i], turn(worlds[i], bone))
            frame = multiply(parent, rotation(hinge, signed_angle(np.array(hinge.axis), np.broadcast_to(bone, u.shape),
                                                                  turn(conjugate(parent), u))))
            rotations[i] = multiply(conjugate(parent), frame)
            worlds[i] = frame
            points[i + 1] = p
            p = p - turn(frame, bone) * self.lengths[i]
        points[0] = p


def _direction(v, fallback):
    """``v`` made unit, or ``fallback`` where it is (almost) zero."""
    n = np.sqrt(np.einsum("kj,kj->k", v, v))
    far = n > 1e-300
    return np.where(far[:, None], v / np.where(far, n, 1.0)[:, None], fallback)
