"""What a scene's frame is measured against: work timed in the same runtime, in the same run.

A frame's time in milliseconds says as much about the machine (a shared one
runs at a different speed every hour, a reader's laptop at its own) as about
the scene. Its time over the time of a fixed piece of work, measured in the
same runtime moments apart, says how much the scene asks of that runtime. The
baselines:

- **an empty frame**: the page's call a frame on a scene with nothing in it
  (:class:`EmptyScene`: no chains, no targets; its clock advances and its
  buffer, which holds nothing, is written). What every frame of the page costs
  before a scene does anything: the bridge's round trip and the frame's
  bookkeeping.
- **the forward pass** of a scene's chains (:func:`forward_pass`): one
  :func:`ikcore.kinematics.frames` of every chain at its current pose, the
  world rotations and points an iteration of a solver builds. A solve's time
  over it is the number of forward passes the solve is worth.
- **the bare legs** of a crowd (:func:`bare_legs`): the textbook two-bone maths
  (:func:`bare_two_bone`) over flat lists, for the crowd's own legs and their
  current targets and poles: the least any solve of those legs costs in this
  runtime, with no rotations, limits, statuses, walking, gait or bodies.

:func:`baseline` picks a scene's own (the bare legs for a crowd, the forward
pass for the others); :func:`seconds_per_call` times any of them.
"""

import math
import time

from .. import kinematics
from .panda import panda
from .scene import Scene


class EmptyScene(Scene):
    """A scene with nothing in it: its frame is the page's frame without a scene's work."""

    name = "empty"

    def bounds(self):
        # Nothing to hold: the unit box about the origin.
        return {"min": [-1.0, -1.0, -1.0], "max": [1.0, 1.0, 1.0]}


def bare_two_bone(xs, ys, zs, px, py, pz, l1, l2, knees, feet):
    """Solve each leg ``k`` of bones ``l1``, ``l2`` from the origin for the target ``(xs[k], ys[k],
    zs[k])``, its knee bent toward the pole ``(px[k], py[k], pz[k])``; knee and foot points go into
    ``knees[k]`` and ``feet[k]``.

    With ``d`` the distance to the target (held within the reachable shell), the law of cosines
    gives the hip's angle ``a`` between the target's direction ``u`` and the thigh:
    ``cos a = (l1^2 + d^2 - l2^2) / (2 l1 d)``. The knee lies in the plane of ``u`` and the pole,
    along ``cos a u + sin a k`` where ``k`` is the pole's part across ``u``, made unit.
    """
    sqrt = math.sqrt
    least, most = abs(l1 - l2), l1 + l2
    for k in range(len(xs)):
        x, y, z = xs[k], ys[k], zs[k]
        d = sqrt(x * x + y * y + z * z)
        dc = min(max(d, least), most)
        ca = (l1 * l1 + dc * dc - l2 * l2) / (2.0 * l1 * dc)
        sa = sqrt(max(0.0, 1.0 - ca * ca))
        ux, uy, uz = x / d, y / d, z / d
        p, q, r = px[k], py[k], pz[k]
        t = p * ux + q * uy + r * uz
        kx, ky, kz = p - t * ux, q - t * uy, r - t * uz
        n = sqrt(kx * kx + ky * ky + kz * kz)
        kx, ky, kz = kx / n, ky / n, kz / n
        knees[k] = (l1 * (ca * ux + sa * kx), l1 * (ca * uy + sa * ky), l1 * (ca * uz + sa * kz))
        feet[k] = (dc * ux, dc * uy, dc * uz)


def bare_legs(crowd):
    """A call that solves ``crowd``'s legs (:class:`~ikcore.rigs.crowd.CrowdScene`) with
    :func:`bare_two_bone`: every leg's current target and pole, from its femur's root, the leg's
    bone lengths. Returns ``(call, legs)``.

    The crowd gives its legs' targets in their planes' coordinates (from the femur's root, see
    :mod:`~ikcore.rigs.crowd_legs`); the poles are taken there too, the same points in the same
    frame."""
    legs = crowd.legs
    leg = legs.kernels[crowd.params["constraints"]]
    # Its own numbers, each column made at once (new floats, not the crowd's objects).
    xs, ys, zs = ([c + 0.0 for c in column] for column in legs.tracked.targets)
    px, py, pz = ([c + 0.0 for c in column] for column in zip(*(leg.in_plane(p) for p in zip(*legs.poles))))
    knees, feet = [None] * legs.count, [None] * legs.count
    l1, l2 = leg.l1, leg.l2

    def call():
        bare_two_bone(xs, ys, zs, px, py, pz, l1, l2, knees, feet)
        return feet
    return call, legs.count


def forward_pass(scene):
    """A call that runs one forward pass (:func:`ikcore.kinematics.frames`) of every chain of
    ``scene`` at its current pose. Returns ``(call, chains)``."""
    posed = [(limb.bound.chain, list(limb.bound.rotations)) for limb in scene.limbs]

    def call():
        return [kinematics.frames(chain, rotations) for chain, rotations in posed]
    return call, len(posed)


def baseline(scene):
    """``(what, call)``: the baseline ``scene``'s frame is measured against (see the module
    docstring), named for a reader, and the call that runs it once."""
    if hasattr(scene, "legs") and hasattr(scene.legs, "kernels"):
        call, count = bare_legs(scene)
        return f"the bare two-bone maths for its {count} legs", call
    if not scene.limbs:
        raise ValueError(f"scene {scene.name!r} has no chains to run a forward pass of")
    call, count = forward_pass(scene)
    return f"one forward pass of its {count} chain{'s' if count != 1 else ''}", call


def joint_seconds():
    """Seconds of one joint of a forward pass of the Panda-like 7-joint arm at its ready pose
    (:func:`ikcore.rigs.panda`; a rotation composed and a point placed): a unit of this runtime's
    speed, for bounds on time that hold on any machine."""
    arm, ready = panda()
    return seconds_per_call(lambda: kinematics.frames(arm, ready), least=0.005) / arm.size


def seconds_per_call(call, calls=None, least=0.02):
    """Seconds one ``call()`` takes: the least of 5 batches, each of ``calls`` calls timed as a whole
    (``None``: as many as take ``least`` seconds, so that a coarse clock, such as a browser's
    0.1 ms, rounds each batch by a small part of it). The same work every time: other work on the
    machine can only add to a batch's time, so the least is the nearest to the call's own. Timed
    on the thread's CPU clock where there is one, else on the wall clock (Pyodide: one thread)."""
    clock = _clock()
    if calls is None:
        calls = 1
        while True:
            t0 = clock()
            for _ in range(calls):
                call()
            if clock() - t0 >= least or calls >= 1 << 20:
                break
            calls *= 2
    batches = []
    for _ in range(5):
        t0 = clock()
        for _ in range(calls):
            call()
        batches.append((clock() - t0) / calls)
    return min(batches)


def _clock():
    """The thread's CPU clock, where the platform keeps one per thread, else the wall clock."""
    try:
        time.thread_time()
        return time.thread_time
    except (OSError, AttributeError):
        return time.perf_counter
