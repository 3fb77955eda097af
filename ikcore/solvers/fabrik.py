"""FABRIK: forward and backward reaching inverse kinematics (Aristidou & Lasenby 2011).

One iteration moves points, never angles:

- **backward** (tip to root): the effector goes onto the target; each point then
  goes onto the line from its new child toward its old place, one bone length
  away: ``p_i <- p_{i+1} + L_i (p_i - p_{i+1}) / |p_i - p_{i+1}|``;
- **forward** (root to tip): the root goes back to its fixed place; each point
  goes onto the line from its new parent toward its backward-pass place:
  ``p_{i+1} <- p_i + L_i (p_{i+1} - p_i) / |p_{i+1} - p_i|``.

Bone lengths hold exactly after every pass. A target beyond reach gives the
chain stretched straight at it in one step (one nearer than the chain can
fold gives its nearest fold, :func:`~._surgery.reach_out`). A planar chain (hinges without
range limits about one axis, rest bones across it) is solved the same way in
its plane, aiming at the target's projection on it.

**Rotations.** Positions become rotations once, at the end: bone ``i`` turns by
the shortest arc from its start direction ``s_i`` to its final direction
``b_i``, ``R_i = arc(s_i, b_i) S_i`` (world rotations; the start pose's twist is
kept), and ``q_i = R_{i-1}^{-1} R_i`` (convention in :mod:`ikcore.rotation`).
For a chain without limits the verdict takes the final points as the pose:
they are the forward kinematics of those rotations to rounding (within
``1e-12`` of the reach; where a bone turned within 0.8 degrees of a half turn
the arc is less precise, and the verdict runs the forward kinematics itself).

**Joint limits.** A limited chain is solved with the limits inside both passes.
The forward pass re-poses each bone by rotation (:func:`~._pose.follow`): the
shortest arc onto its wanted direction, then the joint's limits (hinge: the
angle about its current world axis nearest the wanted direction, clamped;
ball: swing clamped into the cone, twist into its range), so positions and
rotations agree and the limits hold exactly. The backward pass bends each
wanted direction the same way, in the parent's frame of the last forward pass.
Constrained FABRIK can pin a joint on its limit and stop improving; when the
error has not fallen for a few iterations the solve restarts from the best
pose, randomly perturbed (seeded: every solve is repeatable). A chain whose
only limits are twist-free cones about a straight rest line (a tentacle) is
solved in point space, its offsets spread along it before each pass
(:mod:`~._fabrik_cones`).

**Where FABRIK is weak.** Hinges whose axes differ from joint to joint: the
backward pass limits each bone in its parent's frame of the previous forward
pass, which is stale when the parent turns about another axis. On six hinges
about random axes across the bones, FABRIK converges on 64% of reachable
targets where CCD converges on 92% and DLS on 98% (``tests/core/test_fabrik.py``
holds that figure); prefer those methods for such chains. Hinges about one or
two axes (legs, planar arms) and cone chains converge on 96% or more.

**Option** ``max_restarts`` (default ``None``: no cap) bounds those restarts.
A restart lands anywhere near the best pose, so a chain tracking a moving
target frame to frame would jump; with ``max_restarts=0`` a solve that stops
improving returns its best pose, near the start, with its honest status.

**Degenerate starts.** When the chain and the target lie on one line (a straight
chain with the target on it or straight behind it) every point stays on that
line; the chain is first bent slightly off it.

**Pole.** A world point hinting the bend side: after solving, the interior
points turn together about the root-effector line toward it, then each about
its neighbours' line (:func:`~._surgery.swivel`); neither moves the effector or
changes a bone length. A planar chain only flips within its plane. A limited
chain starts turned toward the pole, and the final turn is kept only where the
limits let the effector stay as near.

**Where.** :func:`run` picks the solve: a chain without limits, or of hinges
without range limits about one axis, :mod:`~._fabrik_free`; a cone chain,
:mod:`~._fabrik_cones`; any other limited chain, :mod:`~._fabrik_limited`.
Points become rotations in :mod:`~._fabrik_arcs`; the tuning the solves share
(restarts, straight chains) is :mod:`~._fabrik_tuning`.
"""

from ..checks import check_int_range
from . import _fabrik_cones, _limits
from ._fabrik_arcs import arcs_from
from ._fabrik_free import run as run_free
from ._fabrik_limited import run as run_limited
from ._fabrik_tuning import COLLINEAR, KICK, PATIENCE, RATE, SEED, WINDOW
from ._limits import FREE
from ._per_chain import per_chain


def _check_restarts(value, name):
    return check_int_range(value, name, 0, 100000)


OPTIONS = {"max_restarts": (None, _check_restarts)}
MAX_ITERATIONS = 100


def run(problem):
    """Solve ``problem`` by FABRIK; see the module docstring."""
    chain = problem.chain
    if not chain.limited:
        return run_free(problem)
    table, normal, cones, route = _layout(chain)
    if route is _CONES:
        return _fabrik_cones.run(problem, table, cones, arcs_from, problem.options.get("max_restarts"),
                                 WINDOW, RATE, PATIENCE, KICK, SEED, COLLINEAR)
    if route is _FREE:
        return run_free(problem)
    if route is _PLANAR:
        # Hinges without range limits about one axis: the free solve, in their plane (the verdict
        # still clamps to the hinges: _fabrik_arcs.settled_along hands it no pose for a limited chain).
        return run_free(problem, normal)
    return run_limited(problem, table, normal)


# The solve a limited chain takes (see run); decided once per chain.
_FREE, _PLANAR, _CONES, _LIMITED = "free", "planar", "cones", "limited"


def _layout_of(chain):
    """A chain's limit table, plane normal, cone passes and route."""
    table = _limits.limit_table(chain)
    normal = _limits.plane_normal(chain, table)
    cones = _fabrik_cones.Passes.of(chain, table)
    if all(row[0] == FREE for row in table):
        route = _FREE
    elif normal is not None and all(row[6] for row in table):
        route = _PLANAR
    elif cones is not None:
        route = _CONES
    else:
        route = _LIMITED
    return table, normal, cones, route


_layout = per_chain(_layout_of)
