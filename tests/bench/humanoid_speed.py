"""The humanoid scene's Python time a frame against the spider's, in CPython, in one run.

    python -m tests.bench.humanoid_speed [frames]

Both scenes are made, warmed up for 120 frames, then stepped and written frame
about frame (one humanoid frame, one spider frame, ...) for ``frames`` frames
(default 600) at 60 fps; each frame's ``step`` plus ``write`` is timed with
``time.perf_counter`` and the ratio of the medians printed. The page's goal (a
humanoid frame at most twice a spider frame) is measured in the page; this is
the same ratio in CPython.
"""

import gc
import statistics
import sys
import time

from ikcore.rigs import make_scene


def frame_times(frames=600, method="fabrik"):
    """``(humanoid ms, spider ms)`` medians over ``frames`` interleaved frames."""
    humanoid, spider = make_scene("humanoid"), make_scene("spider")
    humanoid.set_params(method=method)
    scenes = (humanoid, spider)
    bufs = [scene.allocate() for scene in scenes]
    for _ in range(120):
        for scene, buf in zip(scenes, bufs):
            scene.step(1 / 60)
            scene.write(buf)
    times = ([], [])
    gc.disable()
    try:
        for _ in range(frames):
            for scene, buf, out in zip(scenes, bufs, times):
                t0 = time.perf_counter()
                scene.step(1 / 60)
                scene.write(buf)
                out.append(time.perf_counter() - t0)
    finally:
        gc.enable()
    return 1e3 * statistics.median(times[0]), 1e3 * statistics.median(times[1])


def main(argv=None):
    args = sys.argv[1:] if argv is None else argv
    frames = int(args[0]) if args else 600
    for method in ("fabrik", "ccd", "dls", "fabrik_dls", "two_bone"):
        h, s = frame_times(frames, method)
        print(f"{method:>10}: humanoid {h:.3f} ms, spider {s:.3f} ms a frame (medians of {frames}): "
              f"ratio {h / s:.2f}")


if __name__ == "__main__":
    main()
