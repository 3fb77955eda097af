"""Python time per frame of each scene, as the page spends it (``step`` + ``write``).

Run ``python -m ikcore.rigs.timing [frames] [scene ...]`` for a table of the
median and 90th percentile over ``frames`` frames at 60 frames per second (after
60 frames of warm-up), with each scene's defaults. Times are the thread's CPU
time (``time.thread_time``), which other busy processes disturb far less than
wall-clock time; the median of a quiet machine is the same either way.
"""

import sys
import time

from .scene import SCENES, make_scene


def measure(name, frames=600, warmup=60, dt=1.0 / 60.0, **params):
    """Time ``frames`` frames of scene ``name``; return ``{"median_ms", "p90_ms", "max_ms"}``."""
    scene = make_scene(name)
    if params:
        scene.set_params(**params)
    buf = scene.allocate()
    for _ in range(warmup):
        scene.step(dt)
        scene.write(buf)
    times = []
    # Pyodide has no per-thread clock; its one thread makes wall-clock time the same measure there.
    clock = getattr(time, "thread_time", time.perf_counter)
    for _ in range(frames):
        t0 = clock()
        scene.step(dt)
        scene.write(buf)
        times.append(clock() - t0)
    times.sort()
    return {"median_ms": 1e3 * times[len(times) // 2], "p90_ms": 1e3 * times[int(0.9 * (len(times) - 1))],
            "max_ms": 1e3 * times[-1]}


def main(argv):
    frames = int(argv[0]) if argv and argv[0].isdigit() else 600
    names = [a for a in argv if not a.isdigit()] or list(SCENES)
    print(f"{'scene':<10} {'median ms':>10} {'p90 ms':>8} {'max ms':>8}   ({frames} frames, step + write)")
    for name in names:
        r = measure(name, frames)
        print(f"{name:<10} {r['median_ms']:>10.3f} {r['p90_ms']:>8.3f} {r['max_ms']:>8.3f}")


if __name__ == "__main__":
    main(sys.argv[1:])
