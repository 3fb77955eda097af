"""Python time per frame of each scene, as the page spends it (``step`` + ``write``).

Run ``python -m ikcore.rigs.timing [--paced] [frames] [scene ...]`` for a table of
the median and 90th percentile over ``frames`` frames at 60 frames per second
(after 60 frames of warm-up), with each scene's defaults, and each frame's
median over the scene's baseline (:mod:`ikcore.rigs.baselines`) timed in the
same process: the figure to compare across machines.

Back to back (the default) the frames run one after the other: the figure of the
work alone. ``--paced`` leaves the thread idle until the next 1/60 s tick before
each frame, as an animation loop does; where an idle core loses its caches (a
virtual machine whose host runs other work there, a power-saving core), each
frame then starts cold and costs more, and that is what a page sees. Times are
the thread's CPU time (``time.thread_time``), which other busy processes
disturb far less than wall-clock time; the median of a quiet machine is the same
either way.
"""

import statistics
import sys
import time

from . import baselines
from .scene import SCENES, make_scene

FRAME = 1.0 / 60.0


def measure(name, frames=600, warmup=60, dt=FRAME, paced=False, **params):
    """Time ``frames`` frames of scene ``name``; return ``{"median_ms", "p90_ms", "max_ms"}``.

    With ``paced``, each frame starts on the next tick of a ``dt`` clock, the
    thread sleeping until then (see the module notes).
    """
    scene, buf = _warm(name, warmup, dt, params)
    times = sorted(frame_times(scene, buf, frames, dt, paced))
    return {"median_ms": 1e3 * times[len(times) // 2], "p90_ms": 1e3 * times[int(0.9 * (len(times) - 1))],
            "max_ms": 1e3 * times[-1]}


def against_baseline(name, frames=200, rounds=5, warmup=60, dt=FRAME, **params):
    """Scene ``name``'s frame over its baseline (:func:`ikcore.rigs.baselines.baseline`), both timed
    in this runtime in ``rounds`` that take the two in turn (``frames`` frames back to back, then the
    baseline as the frames left the scene), so that the machine's speed falls on both alike.

    Returns ``{"what", "ratio", "rounds"}``: what the baseline is, the median over the rounds of the
    frame's median over the baseline, and each round's ``(frame ms, baseline ms)``.
    """
    scene, buf = _warm(name, warmup, dt, params)
    rows = []
    for _ in range(rounds):
        frame = statistics.median(frame_times(scene, buf, frames, dt))
        what, call = baselines.baseline(scene)
        rows.append((1e3 * frame, 1e3 * baselines.seconds_per_call(call)))
    return {"what": what, "ratio": statistics.median(f / b for f, b in rows), "rounds": rows}


def _warm(name, warmup, dt, params):
    """A new scene ``name`` with ``params``, its buffer, after ``warmup`` frames."""
    scene = make_scene(name)
    if params:
        scene.set_params(**params)
    buf = scene.allocate()
    for _ in range(warmup):
        scene.step(dt)
        scene.write(buf)
    return scene, buf


def frame_times(scene, buf, frames, dt=FRAME, paced=False):
    """The seconds of each of ``frames`` frames of ``scene`` (``step`` + ``write`` into ``buf``), on
    the thread's CPU clock (Pyodide has none: its one thread makes wall-clock time the same measure
    there); with ``paced``, each frame on the next tick of a ``dt`` clock."""
    times = []
    clock = getattr(time, "thread_time", time.perf_counter)
    tick = time.perf_counter() + dt
    for _ in range(frames):
        if paced:
            wait = tick - time.perf_counter()
            if wait > 0.0:
                time.sleep(wait)
            tick += dt
        t0 = clock()
        scene.step(dt)
        scene.write(buf)
        times.append(clock() - t0)
    return times


def main(argv):
    paced = "--paced" in argv
    argv = [a for a in argv if a != "--paced"]
    frames = int(argv[0]) if argv and argv[0].isdigit() else 600
    names = [a for a in argv if not a.isdigit()] or list(SCENES)
    unknown = [n for n in names if n not in SCENES]
    if unknown:
        raise SystemExit(f"unknown scene {unknown[0]!r}; the scenes: {', '.join(SCENES)}")
    how = "paced at 60 per second" if paced else "back to back"
    print(f"{'scene':<10} {'median ms':>10} {'p90 ms':>8} {'max ms':>8} {'x baseline':>11}   "
          f"({frames} frames {how}, step + write; baseline back to back)")
    for name in names:
        r = measure(name, frames, paced=paced)
        against = against_baseline(name, min(frames, 200), rounds=3)
        print(f"{name:<10} {r['median_ms']:>10.3f} {r['p90_ms']:>8.3f} {r['max_ms']:>8.3f} "
              f"{against['ratio']:>10.1f}x   {against['what']}")


if __name__ == "__main__":
    main(sys.argv[1:])
