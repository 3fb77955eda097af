"""FABRIK on a chain of cones about a straight rest line, in point space.

When every limited joint is a ball joint without a twist limit and every
limited bone rests along its parent (a tentacle, a rope, a tail, a spine), a
cone limit is a limit on the bend between two bones alone: joint ``i``'s swing
is the angle between bone ``i - 1`` (for joint 0, the rest direction ``d_0``
of the fixed frame) and bone ``i``, whatever the twist. The passes then need
points only, and the limits are met exactly by clamping directions:

- **backward** (tip to root): the effector goes onto the target; bone ``i``
  points from the new ``p_{i+1}`` toward the old ``p_i``, turned into the cone
  of joint ``i + 1`` about bone ``i + 1``, already placed (the limit met from
  the child's side, as Aristidou & Lasenby do);
- **forward** (root to tip): bone ``i`` points from the new ``p_i`` toward its
  backward-pass place, turned into the cone of joint ``i`` about bone
  ``i - 1``, just placed.

A direction ``l`` outside the cone of half-angle ``c`` about ``a`` goes onto
its rim, toward ``l``: ``a cos c + o sin c / |o|`` with ``o = l - (l.a) a``.

**Spreading the offsets.** Before each pass the offset that pass corrects is
spread along the chain: the backward pass moves every point ``p_i`` by
``s_i (t - p_N)``, the forward pass by ``(1 - s_i) (p_0^* - p_0)``, with
``s_i`` the fraction of the chain's length from the root to ``p_i`` (the
offsets are capped at :data:`SPREAD` of the reach). Plain passes turn only
the bones next to the end they start from; with cones those bones pin on
their limits, a pinned run then swings as one rigid lever (a small offset
at one end becomes a large one at the other, and the error rises from one
pass to the next), and under tracking the bends pile up at the ends until
the chain curls up. Spread offsets turn every bone a little instead: a
tracked chain keeps a smooth curl, and one iteration a frame follows a
moving target.

Positions become rotations once, at the end, as for free chains (shortest arc
per bone from a reference pose, whose twist is kept); the bends, hence the
swings, are those of the points.
"""

import math
import random

from .. import rotation as rot
from ..problem import Outcome
from . import _pose, _surgery
from ._limits import BALL, FREE
from ._pose import Pose, Progress

# Largest spread offset, as a fraction of the reach: a tracking step moves far less; a cold
# solve's first passes, whose offsets are as large as the chain, stay close to plain passes.
SPREAD = 0.05
# Rest directions within this of parallel count as one line.
_PARALLEL = 1e-12
# A bend's cosine this far inside its cone's rim passes the verdict's cone test whatever the
# rounding of the rotations (see settle()).
_RIM = 1e-9
# The relative rounding of a float (2^-52), and the share of _RIM the points' rounding may take
# before the rim test stops vouching for the limits (see _rims()).
_GRAIN = 2.0 ** -52
_COARSE = 1.0 / 16.0


class Passes:
    """A cone chain's constants for the passes, as plain floats and lists.

    Build it with :meth:`of`, which says whether the chain is a cone chain.

    Attributes
    ----------
    n : int
        Bones.
    back_rows, fore_rows : list of tuple
        What each step of a pass reads, in the order it reads them: backward,
        bone ``i`` from the tip, ``(i, b_i, L_i, cos_{i+1}, sin_{i+1})`` (the
        child's cone; ``-2.0``, never clamped, for the last bone); forward, bone
        ``i`` from the root, ``(i + 1, f_{i+1}, L_i, cos_i, sin_i)``. ``L`` are
        the bone lengths, ``cos`` and ``sin`` those of each joint's cone
        (``-2.0`` and ``0.0`` for a free joint), ``b`` and ``f`` each point's
        share of the offset the backward and the forward pass spread. One tuple
        unpacked a step instead of four list look-ups.
    root, axis : (x, y, z)
        The root point and the rest direction of bone 0.
    cap : float
        Largest spread offset (:data:`SPREAD` of the reach).
    rims : list of float or None
        See :func:`_rims`.
    kept : tuple or None
        ``(points, xs, ys, zs)``: the points :func:`settle` last handed the
        verdict of this chain, and the lists it zipped them from (never written
        to since); a warm start from those very points takes the lists instead
        of transposing the tuples again.
    """

    __slots__ = ("n", "back_rows", "fore_rows", "root", "axis", "cap", "rims", "kept")

    @classmethod
    def of(cls, chain, table):
        """The passes of ``chain`` (``table`` its :func:`~._pose.limit_table`), or
        ``None`` unless every limit is a twist-free cone and each limited bone
        rests along its parent (see the module docstring)."""
        cosines, sines = [], []
        directions = chain.directions
        for i, row in enumerate(table):
            if row[0] == FREE:
                # Never clamped: every cosine is above -2.
                cosines.append(-2.0)
                sines.append(0.0)
                continue
            if row[0] != BALL or not row[6]:
                return None
            if i:
                (ax, ay, az), (bx, by, bz) = directions[i - 1], directions[i]
                if ax * bx + ay * by + az * bz < 1.0 - _PARALLEL:
                    return None
            cosines.append(math.cos(row[7]))
            sines.append(math.sin(row[7]))
        passes = cls()
        n = passes.n = chain.size
        lengths = chain.lengths
        fractions = [0.0]
        total = 0.0
        for length in lengths:
            total += length
            fractions.append(total / chain.reach)
        # Per point, the share of the offset each pass spreads onto it (none on the end it starts
        # from, nor on the end it puts back in place).
        back = [0.0] + fractions[1:n] + [0.0]
        fore = [0.0] + [1.0 - f for f in fractions[1:n]] + [0.0]
        # The backward pass limits bone i by its child's cone, joint i + 1's (none for the last).
        child_cosines, child_sines = cosines[1:] + [-2.0], sines[1:] + [0.0]
        passes.back_rows = [(i, back[i], lengths[i], child_cosines[i], child_sines[i])
                            for i in range(n - 1, -1, -1)]
        passes.fore_rows = [(i + 1, fore[i + 1], lengths[i], cosines[i], sines[i]) for i in range(n)]
        passes.root = chain.points[0]
        passes.axis = chain.directions[0]
        passes.cap = SPREAD * chain.reach
        passes.rims = _rims(chain)
        passes.kept = None
        return passes

    def backward(self, xs, ys, zs, target):
        """Spread the effector's offset, then the backward pass, in place (each point spread as
        the pass reads it: the same sums as a spreading loop first)."""
        n = self.n
        sqrt = math.sqrt
        tx, ty, tz = target
        ex, ey, ez = tx - xs[n], ty - ys[n], tz - zs[n]
        m = sqrt(ex * ex + ey * ey + ez * ez)
        if m > self.cap:
            m = self.cap / m
            ex, ey, ez = ex * m, ey * m, ez * m
        x, y, z = tx, ty, tz
        xs[n], ys[n], zs[n] = x, y, z
        # The child's direction (c, s: its joint's cone, read with the bone); none for the last bone.
        ax, ay, az = self.axis
        for i, f, length, c, s in self.back_rows:
            bx, by, bz = x - (xs[i] + f * ex), y - (ys[i] + f * ey), z - (zs[i] + f * ez)
            d = sqrt(bx * bx + by * by + bz * bz)
            if d > 1e-300:
                bx, by, bz = bx / d, by / d, bz / d
            else:
                # The new child sits on the old point: any direction; the child's keeps the bend 0.
                bx, by, bz = ax, ay, az
            if c > -1.0:
                k = bx * ax + by * ay + bz * az
                if k < c:
                    ox, oy, oz = bx - k * ax, by - k * ay, bz - k * az
                    # Once more: near the axis's opposite, o is a small difference and keeps a trace
                    # along the axis, which 1 / |o| would magnify (the bone would change length).
                    k = ox * ax + oy * ay + oz * az
                    ox, oy, oz = ox - k * ax, oy - k * ay, oz - k * az
                    no = sqrt(ox * ox + oy * oy + oz * oz)
                    if no < 1e-12:
                        ox, oy, oz = rot.perpendicular((ax, ay, az))
                        no = 1.0
                    k = s / no
                    bx, by, bz = ax * c + ox * k, ay * c + oy * k, az * c + oz * k
            x -= length * bx
            y -= length * by
            z -= length * bz
            xs[i], ys[i], zs[i] = x, y, z
            ax, ay, az = bx, by, bz

    def forward(self, xs, ys, zs, aim=None):
        """Spread the root's offset, then the forward pass, in place (each point spread as the
        pass reads it).

        With ``aim`` (a unit vector) every bone is wanted along it instead of
        toward the next point (nothing is spread).
        """
        sqrt = math.sqrt
        rx, ry, rz = self.root
        if aim is None:
            ex, ey, ez = rx - xs[0], ry - ys[0], rz - zs[0]
            m = sqrt(ex * ex + ey * ey + ez * ez)
            if m > self.cap:
                m = self.cap / m
                ex, ey, ez = ex * m, ey * m, ez * m
        x, y, z = rx, ry, rz
        xs[0], ys[0], zs[0] = x, y, z
        # The parent's direction: joint 0's cone is about the rest direction of bone 0.
        ax, ay, az = self.axis
        for j, f, length, c, s in self.fore_rows:
            if aim is None:
                bx, by, bz = (xs[j] + f * ex) - x, (ys[j] + f * ey) - y, (zs[j] + f * ez) - z
                d = sqrt(bx * bx + by * by + bz * bz)
                if d > 1e-300:
                    bx, by, bz = bx / d, by / d, bz / d
                else:
                    bx, by, bz = ax, ay, az
            else:
                bx, by, bz = aim
            if c > -1.0:
                k = bx * ax + by * ay + bz * az
                if k < c:
                    ox, oy, oz = bx - k * ax, by - k * ay, bz - k * az
                    # Once more: near the axis's opposite, o is a small difference and keeps a trace
                    # along the axis, which 1 / |o| would magnify (the bone would change length).
                    k = ox * ax + oy * ay + oz * az
                    ox, oy, oz = ox - k * ax, oy - k * ay, oz - k * az
                    no = sqrt(ox * ox + oy * oy + oz * oz)
                    if no < 1e-12:
                        ox, oy, oz = rot.perpendicular((ax, ay, az))
                        no = 1.0
                    k = s / no
                    bx, by, bz = ax * c + ox * k, ay * c + oy * k, az * c + oz * k
            x += length * bx
            y += length * by
            z += length * bz
            xs[j], ys[j], zs[j] = x, y, z
            ax, ay, az = bx, by, bz


def run(problem, table, passes, arcs_from, max_restarts, window, rate, patience, kick, seed, collinear):
    """FABRIK on a cone chain (see the module docstring).

    Parameters
    ----------
    problem : Problem
    table : list
        :func:`~._pose.limit_table` of the chain.
    passes : Passes
        :meth:`Passes.of` the chain.
    arcs_from : callable
        :func:`~._fabrik_arcs.arcs_from`: points to rotations, twist from a reference
        pose, and the last world rotation (``None`` where an arc is imprecise or, with
        ``rims``, a bend misses its rim).
    max_restarts : int or None
        Restarts from a perturbed best pose allowed when progress stops (None: no cap).
    window, rate, patience, kick, seed, collinear
        The stagnation rule, restart kick (radians), restart seed and collinearity
        threshold (fraction of the reach), as for the other FABRIK paths.
    """
    chain = problem.chain
    n = chain.size
    reach = chain.reach
    target = tx, ty, tz = problem.target
    tol = problem.tolerance
    pole = problem.pole
    sqrt = math.sqrt
    # The reference pose rotations are measured from: its world rotations and points, never
    # changed. A warm start takes the verdict's frames as they are (no Pose: its lists of local
    # and world rotations would only be read back as tuples).
    frames = problem.frames
    if frames is None:
        starts, rxs, rys, rzs = _reference(Pose(chain, problem.start))
    else:
        starts, points = frames
        kept = passes.kept
        if kept is not None and kept[0] is points:
            # The points the last solve of this chain settled on (see settle()).
            _, rxs, rys, rzs = kept
        else:
            rxs, rys, rzs = map(list, zip(*points))
    xs, ys, zs = rxs[:], rys[:], rzs[:]
    error = sqrt((xs[n] - tx) ** 2 + (ys[n] - ty) ** 2 + (zs[n] - tz) ** 2)
    errors = [error]
    if error <= tol:
        return Outcome(list(problem.start), 0, errors)

    rx, ry, rz = chain.points[0]
    dx, dy, dz = tx - rx, ty - ry, tz - rz
    distance = sqrt(dx * dx + dy * dy + dz * dz)
    beyond = distance >= reach
    # The best pose so far is the start, even when the iterations start from a bent one: the
    # reference points, which nothing writes to (a better pose is kept in new lists).
    best = error
    bxs, bys, bzs = rxs, rys, rzs
    # The error the stall watch starts from: the start's, or that of the pose made below.
    start_error = error
    if pole is not None or (not beyond and _surgery.collinear(xs, ys, zs, collinear * reach, target)):
        # Leave a straight line (the passes would keep every point on it), and start toward the pole.
        if _surgery.collinear(xs, ys, zs, collinear * reach):
            bent = Pose.of(problem)
            _surgery.bend(chain, table, bent, pole, target)
            starts, rxs, rys, rzs = _reference(bent)
            xs, ys, zs = rxs[:], rys[:], rzs[:]
        else:
            _surgery.swivel(xs, ys, zs, pole, reach)
            passes.forward(xs, ys, zs)
        start_error = sqrt((xs[n] - tx) ** 2 + (ys[n] - ty) ** 2 + (zs[n] - tz) ** 2)
    # Built at the first iteration that does not converge (most warm solves converge in one).
    progress = None
    rng = None
    restarts = 0
    stalled = False
    iterations = 0
    while iterations < problem.max_iterations:
        iterations += 1
        if beyond:
            # Out of reach: every bone aimed straight at the target, within its cone, in one step.
            # The pose depends on the target alone (the start stays only if it is nearer), so
            # re-solving a moving target does not jitter.
            passes.forward(xs, ys, zs, (dx / distance, dy / distance, dz / distance))
            error = sqrt((xs[n] - tx) ** 2 + (ys[n] - ty) ** 2 + (zs[n] - tz) ** 2)
            errors.append(error)
            if error < best:
                # The loop ends: the points stand as the best pose (the pole turn below copies them).
                best = error
                bxs, bys, bzs = xs, ys, zs
            break
        passes.backward(xs, ys, zs, target)
        passes.forward(xs, ys, zs)
        error = sqrt((xs[n] - tx) ** 2 + (ys[n] - ty) ** 2 + (zs[n] - tz) ** 2)
        errors.append(error)
        if error < best:
            best = error
            if error <= tol:
                # Converged: the loop ends, and the points stand as the best pose without a copy.
                bxs, bys, bzs = xs, ys, zs
                break
            # A copy: the next passes write to xs, ys, zs.
            bxs, bys, bzs = xs[:], ys[:], zs[:]
        if progress is None:
            progress = Progress(start_error, window, rate, patience)
        if progress.update(error):
            if progress.hopeless or (max_restarts is not None and restarts >= max_restarts):
                # Restarts keep failing, or none is allowed: the best pose stands.
                stalled = True
                break
            restarts += 1
            rng = rng or random.Random(seed)
            kicked = _pose.perturb(chain, table, arcs_from(chain, starts, rxs, rys, rzs, bxs, bys, bzs)[0],
                                   rng, kick)
            starts, rxs, rys, rzs = _reference(Pose(chain, kicked))
            xs, ys, zs = rxs[:], rys[:], rzs[:]
    if pole is not None:
        # Turned toward the pole, then the cones again: kept where the effector stays as near.
        xs, ys, zs = bxs[:], bys[:], bzs[:]
        _surgery.swivel(xs, ys, zs, pole, reach)
        passes.forward(xs, ys, zs)
        if sqrt((xs[n] - tx) ** 2 + (ys[n] - ty) ** 2 + (zs[n] - tz) ** 2) <= max(best, tol):
            bxs, bys, bzs = xs, ys, zs
    worlds = []
    rotations, last = arcs_from(chain, starts, rxs, rys, rzs, bxs, bys, bzs, worlds, passes.rims)
    settled = settle(passes, rotations, last, bxs, bys, bzs)
    return Outcome(rotations, iterations, errors, stalled, settled, worlds if settled else None)


def _reference(pose):
    """A :class:`~._pose.Pose` as a reference for :func:`~._fabrik_arcs.arcs_from`: its world
    rotations as tuples, and its point lists."""
    return list(zip(pose.rw, pose.rx, pose.ry, pose.rz)), pose.xs, pose.ys, pose.zs


def settle(passes, rotations, last, xs, ys, zs):
    """The verdict's ``(rotations, points, last world rotation)`` for the cone chain's
    ``rotations``, from the pass that made them: the points they were built from and their last
    world rotation ``last``, instead of forward kinematics once more; ``passes.kept`` keeps those
    points with ``xs, ys, zs`` for a warm start from them (nothing writes to the lists after the
    solve: the next one copies them). ``None`` (the verdict then normalises, clamps and runs
    forward kinematics itself) where ``last`` is ``None``: an arc lost precision, or a bend comes
    within :data:`_RIM` of its cone's rim (``arcs_from`` tests the bends against ``passes.rims``
    as it goes); or where there are no ``rims``: some cone limits twist, or the points are too
    coarse for the rim test (:func:`_rims`).

    Why that is the verdict's own result, to rounding: each rotation is a product of unit
    quaternions, and ``R_i d_i`` is bone ``i``'s direction ``b_i``, which the arc was built to give
    (to about ``1e-13`` of a turn, the arcs' worst rounding above FABRIK's precision cut,
    ``_fabrik_arcs._PRECISE_ARC``), so the points are
    ``chain.forward(rotations)``; on a straight rest line joint ``i``'s swing is the angle between
    ``b_{i-1}`` (``d_0`` for the root) and ``b_i``, so a bend clear of the rim by :data:`_RIM` in
    its cosine passes the verdict's cone test ``d . (q d) >= cos(cone) + 1e-15`` whatever those
    last digits (``tests/core/test_warm_frames.py`` holds both). The bends are tested on the
    bones as they are, ``D_{i-1} . D_i >= (cos + _RIM) L_{i-1} L_i`` (:func:`_rims`).
    """
    if last is None or passes.rims is None:
        return None
    points = list(zip(xs, ys, zs))
    passes.kept = (points, xs, ys, zs)
    return rotations, points, last


def _rims(chain):
    # Per bone, the least dot product of its bone with the one before (the root's rest direction,
    # unit, for the first) that passes settle(): (cos + _RIM) L_{i-1} L_i, -inf for a free joint;
    # None when some cone limits twist, or when the points are too coarse for the test (its
    # verdict is never settled here).
    #
    # A bone is the difference of two points, each rounded to about ulp(|p|) <= _GRAIN x scale
    # (scale: the root's largest coordinate plus the reach, which bounds every point's), so its
    # dot product with the one before is off by up to about 2 _GRAIN x scale / L of L_{i-1} L_i,
    # and the rotations built from the bones are off by as much. Far from the origin, the short
    # bones' test would then no longer be clear of the rim by _RIM whatever the rounding, and the
    # limits could be missed by that much: there the verdict clamps instead.
    shortest = min(chain.lengths)
    scale = max(abs(c) for c in chain.points[0]) + chain.reach
    if 2.0 * _GRAIN * scale > _COARSE * _RIM * shortest:
        return None
    rims = []
    before = 1.0
    for (c, inside), length in zip(chain._cones, chain.lengths):
        if c is None:
            rims.append(-math.inf)
        elif inside is None:
            return None
        else:
            rims.append((inside + _RIM) * before * length)
        before = length
    return rims
