"""The pole swivel: which side a chain bends to.

A chain that reaches a point can bend many ways: turning its interior about
the line from the root to the effector moves neither end. A *pole* is a point
that picks the way: after solving, :func:`swivel` turns the interior points
toward it. It moves no end point and keeps every bone's length, so the
effector stays where the solve put it.

1. All interior points turn together about the root-effector line, by the
   angle that brings their mean offset from the line onto the half-plane
   holding the pole (:func:`face`).
2. Each interior point then turns about the line through its two neighbours,
   onto the half-plane holding the pole: a knee points at it.

A planar chain must stay in its plane: there each turn is a half turn (a
mirror image within the plane) or none.
"""

from math import sqrt

from .. import rotation as rot
from ..kinematics import rotations_along, pose_of
from ..problem import Outcome


def _across(v, origin, n):
    """``v - origin`` without its part along the unit ``n``: ``(x, y, z, along)``."""
    x, y, z = v[0] - origin[0], v[1] - origin[1], v[2] - origin[2]
    t = x * n[0] + y * n[1] + z * n[2]
    return x - t * n[0], y - t * n[1], z - t * n[2], t


def face(points, pole, size, planar=False):
    """``points`` with the interior turned together toward ``pole`` about the first-last line
    (step 1 of the module docstring). Unchanged when the points or the pole lie on that
    line, or when the ends are closer than ``1e-12 size``."""
    n = len(points) - 1
    first, last = points[0], points[-1]
    lx, ly, lz = last[0] - first[0], last[1] - first[1], last[2] - first[2]
    length = sqrt(lx * lx + ly * ly + lz * lz)
    if n < 2 or length <= 1e-12 * size:
        return points
    axis = (lx / length, ly / length, lz / length)
    mean = tuple(sum(p[k] for p in points[1:n]) / (n - 1) for k in range(3))
    mx, my, mz, _ = _across(mean, first, axis)
    vx, vy, vz, _ = _across(pole, first, axis)
    nm = sqrt(mx * mx + my * my + mz * mz)
    nv = sqrt(vx * vx + vy * vy + vz * vz)
    if nm < 1e-9 * length or nv < 1e-9 * length:
        return points
    # The turn about the axis taking m's direction to v's: cos = m.v, sin = axis.(m x v).
    ax, ay, az = axis
    c = (mx * vx + my * vy + mz * vz) / (nm * nv)
    s = (ax * (my * vz - mz * vy) + ay * (mz * vx - mx * vz) + az * (mx * vy - my * vx)) / (nm * nv)
    if planar:
        if c >= 0.0:
            return points
        c, s = -1.0, 0.0
    out = [first]
    for p in points[1:n]:
        ux, uy, uz = p[0] - first[0], p[1] - first[1], p[2] - first[2]
        t = (ux * ax + uy * ay + uz * az) * (1.0 - c)
        # Rodrigues: u cos + (axis x u) sin + axis (axis . u)(1 - cos)
        out.append((first[0] + ux * c + (ay * uz - az * uy) * s + ax * t,
                    first[1] + uy * c + (az * ux - ax * uz) * s + ay * t,
                    first[2] + uz * c + (ax * uy - ay * ux) * s + az * t))
    out.append(last)
    return out


def swivel(points, pole, size, planar=False):
    """``points`` turned toward ``pole`` (the module docstring's two steps); ends and bone
    lengths kept. ``size`` (the chain's reach) scales what counts as a point on a line."""
    points = face(points, pole, size, planar)
    out = list(points)
    for i in range(1, len(out) - 1):
        a, b = out[i - 1], out[i + 1]
        nx, ny, nz = b[0] - a[0], b[1] - a[1], b[2] - a[2]
        nn = sqrt(nx * nx + ny * ny + nz * nz)
        if nn <= 1e-12 * size:
            continue
        axis = (nx / nn, ny / nn, nz / nn)
        # The point and the pole, split along the neighbours' line and across it.
        ux, uy, uz, t = _across(out[i], a, axis)
        vx, vy, vz, _ = _across(pole, a, axis)
        # Once more for the pole: near the line, v is a small difference of large vectors and keeps a
        # trace along it, which the scale below would magnify (the bones would change length).
        vx, vy, vz, _ = _across((vx, vy, vz), (0.0, 0.0, 0.0), axis)
        nu = sqrt(ux * ux + uy * uy + uz * uz)
        nv = sqrt(vx * vx + vy * vy + vz * vz)
        if nu < 1e-9 * nn or nv < 1e-9 * nn:
            continue
        if planar:
            if ux * vx + uy * vy + uz * vz >= 0.0:
                continue
            k = -1.0
            vx, vy, vz = ux, uy, uz
        else:
            k = nu / nv
        cx, cy, cz = a[0] + t * axis[0], a[1] + t * axis[1], a[2] + t * axis[2]
        out[i] = (cx + k * vx, cy + k * vy, cz + k * vz)
    return out


def swivel_toward_pole(problem, outcome, steps=None):
    """``outcome`` swivelled toward ``problem.pole`` (none: as it is), where the turn keeps the
    target as well met: met, or, for an outcome that does not meet it, a score
    (:meth:`ikcore.problem.Problem.score`) no larger.

    The swivelled points become rotations by the shortest arc from the
    outcome's pose (:func:`ikcore.kinematics.rotations_along`), then the limits apply.
    With an orientation target only the bones up to the last one turn (about
    the line from the root to the last bone's start), and the last bone keeps
    its world rotation.
    """
    if problem.pole is None:
        return outcome
    chain, frames = problem.chain, outcome.frames
    planar = chain.plan.plane is not None
    if problem.orientation is None:
        rotations = rotations_along(chain, frames, swivel(frames.points, problem.pole, chain.reach, planar))[0]
    else:
        wrist = swivel(frames.points[:-1], problem.pole, chain.reach, planar)
        rotations, worlds = rotations_along(chain, frames, [*wrist, frames.points[-1]])
        if chain.size > 1:
            rotations[-1] = rot.multiply(rot.conjugate(worlds[-2]), frames.worlds[-1])
    turned_frames = pose_of(chain, rotations)
    if not problem.met(turned_frames) and (problem.met(frames) or problem.score(turned_frames) > problem.score(frames)):
        return outcome
    if steps is not None:
        steps.setup(turned_frames.points, "pole", iteration=max(outcome.iterations, 1))
    errors = list(outcome.errors)
    if outcome.iterations == 0:
        errors.append(problem.error(turned_frames))
    return Outcome(turned_frames, max(outcome.iterations, 1), errors, outcome.stalled)
