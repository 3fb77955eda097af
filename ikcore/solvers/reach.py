"""Targets at the edge of a chain's reach, and beyond it.

A chain without limits reaches every point whose distance ``d`` from the root
lies within ``[min_reach, reach]``, and only those:

- **beyond** (``d > reach``), its best pose points every bone at the target;
  **too near** (``d < min_reach``, one bone longer than all the others
  together), the long bone points at the target and every other bone straight
  back. :func:`nearest_pose` gives the nearer of the two, in one step; it
  depends on the target alone, so a target tracked out of reach does not
  jitter. It also meets a target within the tolerance of either edge
  (:attr:`ikcore.problem.Problem.at_edge`);
- **near full reach** the chain is almost straight, and the geometric methods
  crawl there: each CCD turn or FABRIK pass moves the tip by an amount that
  shrinks with the chain's bend. Yet any pose whose tip lies ``d`` from the
  root, turned rigidly about the root, meets the target. :func:`arc_to`
  builds one: every joint bent by the same angle, in the plane of the chain's
  current bend, so that the chord of the arc is ``d``; then turned onto the
  target. CCD and FABRIK take it when a free chain's progress stalls.
"""

import math

from .. import rotation as rot
from ..kinematics import pose_from_points
from ..problem import Outcome
from ..vectors import across, add, add_scaled, norm, scale, sub, unit

#: Most steps :func:`_bend` takes (halving the bracket alone meets the angle to rounding in about 55).
BEND_STEPS = 64


def nearest_pose(chain, target, points):
    """The points of the free chain's pose nearest an unreachable ``target`` (see the module
    docstring): every bone along the target's direction ``u``, or the longest along it and the
    others back, whichever puts the tip nearer. ``points`` (the current pose) give the direction
    when the target sits on the root.

    Along ``u`` the stretched tip lies at ``reach``, the folded one at ``2 L - reach`` (``L`` the
    longest bone): at ``min_reach`` where that is positive, behind the root where it is not. The
    target at ``d`` takes the nearer of the two, which for a target within the tolerance of
    either edge meets it.
    """
    root = points[0]
    d = math.dist(target, root)
    if d > 1e-12 * chain.reach:
        u = scale(sub(target, root), 1.0 / d)
    else:
        tip = sub(points[-1], root)
        u = unit(tip) if norm(tip) > 1e-12 * chain.reach else chain.directions[0]
    longest = max(chain.lengths)
    beyond = abs(d - chain.reach) <= abs(d - (2.0 * longest - chain.reach))
    out = [root]
    for length in chain.lengths:
        out.append(add_scaled(out[-1], u, length if beyond or length == longest else -length))
    return out


def nearest_frames(problem, start):
    """The :class:`~ikcore.kinematics.Frames` of :func:`nearest_pose` for ``problem``'s target, each
    bone turned from its direction in ``start`` (Frames) by the shortest arc."""
    chain = problem.chain
    return pose_from_points(chain, start, nearest_pose(chain, problem.target, start.points))


def in_one_step(problem, frames, errors, steps=None):
    """The :class:`~ikcore.problem.Outcome` of a solve that ends on one step to ``frames``: the
    nearest pose at an edge of the reach or beyond it (``errors``: the history before the step;
    ``steps``: the step hook, which records it). The method takes no further step, so where the
    pose misses a reachable target (a limited chain kept from one at exactly full reach) the solve
    is stalled, never out of iterations."""
    if steps is not None:
        steps.reach(frames.points)
    return Outcome(frames, 1, [*errors, problem.error(frames)], stalled=True)


def arc_to(chain, target, points):
    """Points of a free chain with the tip on ``target``: a uniform arc turned onto it (see the
    module docstring), bulging to the side the chain ``points`` bend to now. ``None`` when the
    target lies too far inside the reach for such an arc (or outside it)."""
    root = points[0]
    d = math.dist(target, root)
    lengths = chain.lengths
    if not chain.min_reach <= d <= chain.reach or d <= 1e-12 * chain.reach:
        return None
    top = min(math.pi, 1.6 * math.pi / chain.size)
    x, y, _, _ = _chord(lengths, top)
    if math.hypot(x, y) > d:
        return None
    angle = _bend(lengths, d, top)
    x, y, _, _ = _chord(lengths, angle)
    heading = math.atan2(y, x)
    u = scale(sub(target, root), 1.0 / d)
    # The side the chain bends to now: the mean interior point, across the root-target line.
    interior = points[1:-1] or points[-1:]
    mean = scale(tuple(map(math.fsum, zip(*interior))), 1.0 / len(interior))
    side = across(sub(mean, root), u)
    # Once more: a mean point nearly on the line leaves a small difference that keeps a trace along
    # u, which unit() would magnify (each bone's direction would come out short of unit).
    side = across(side, u)
    side = unit(side) if norm(side) > 1e-9 * chain.reach else rot.perpendicular(u)
    # In plane coordinates (along u, toward -side), bone i points at angle i a - heading: the chord then
    # lies along u, and the arc, turning toward -side, bulges toward side.
    v = scale(side, -1.0)
    out = [root]
    for i, bone in enumerate(lengths):
        b = angle * i - heading
        out.append(add_scaled(out[-1], add(scale(u, math.cos(b)), scale(v, math.sin(b))), bone))
    return out


def _chord(lengths, angle):
    """The chord of bones turning by ``angle`` each, the first along 0, and its derivative in the
    angle: ``C = sum_i L_i (cos ia, sin ia)`` and ``C' = sum_i i L_i (-sin ia, cos ia)``, as ``(x, y,
    dx, dy)``. Bone ``i``'s direction is bone ``i - 1``'s turned by ``a`` (one product of unit
    complex numbers a bone, no sine: rounding grows by an ulp or so a bone)."""
    c, s = math.cos(angle), math.sin(angle)
    x = y = dx = dy = 0.0
    u, v = 1.0, 0.0
    for i, length in enumerate(lengths):
        x += length * u
        y += length * v
        dx -= i * length * v
        dy += i * length * u
        u, v = u * c - v * s, v * c + u * s
    return x, y, dx, dy


def _bend(lengths, d, top):
    """The angle ``a`` in ``(0, top]`` whose uniform arc has the chord ``d``, the chord's length
    falling from the reach at 0 to at most ``d`` at ``top``: Newton's method on ``|C(a)| = d``, with
    ``d|C|/da = C . C' / |C|``, inside a bracket each step narrows; a step that would leave it
    halves the bracket instead. Quadratic near the root: a handful of steps where halving the
    bracket alone takes fifty; it stops once ``|C|`` meets ``d`` within the chord's rounding (an
    ulp of the reach a bone, at least ``1e-15 d``), and after :data:`BEND_STEPS` at most.

    The first guess is the small angle's: ``|C|^2 = sum_ij L_i L_j cos((i - j) a)``, so ``|C| ~ R (1 -
    a^2 V / 2)`` with ``R`` the reach and ``V`` the variance of the bone index ``i`` weighed by the
    lengths, and ``a ~ sqrt(2 (1 - d / R) / V)``."""
    reach = sum(lengths)
    mean = sum(i * length for i, length in enumerate(lengths)) / reach
    spread = sum((i - mean) ** 2 * length for i, length in enumerate(lengths)) / reach
    # The chord's own rounding, about an ulp of the reach a bone: r cannot be told from d closer.
    close = max(1e-15 * d, 2.2e-16 * len(lengths) * reach)
    low, high = 0.0, top
    # (d may pass this sum of the lengths by its rounding: the chain's reach is their exact sum.)
    a = min(math.sqrt(2.0 * max(0.0, 1.0 - d / reach) / spread), 0.5 * top) if spread > 0.0 else 0.5 * top
    for _ in range(BEND_STEPS):
        x, y, dx, dy = _chord(lengths, a)
        r = math.hypot(x, y)
        if abs(r - d) <= close:
            break
        if r > d:
            low = a
        else:
            high = a
        slope = (x * dx + y * dy) / r
        step = a - (r - d) / slope if slope < 0.0 else high
        a = step if low < step < high else 0.5 * (low + high)
    return a

