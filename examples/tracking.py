"""Tracking: one chain follows a moving target frame after frame, each solve warm from the last.

A Tracker checks its method and settings once and starts every call from the pose the last one found,
so a target that moved a little costs an iteration or two.

Run: python examples/tracking.py
"""

import math

import ikcore

arm = ikcore.Chain([(0, 0, 0), (0, 1, 0), (0, 2, 0), (0, 2.3, 0)],
                   joints=[ikcore.BallSocket(cone_deg=60),
                           ikcore.Hinge(axis=(0, 0, 1), min_deg=0, max_deg=150),
                           ikcore.BallSocket(cone_deg=40)])
track = ikcore.Tracker(arm, "dls", tolerance=1e-4)

iterations = []
for frame in range(120):  # two seconds at 60 frames a second
    t = frame / 60
    target = (1.2 + 0.3 * math.cos(2 * t), 1.4 + 0.2 * math.sin(3 * t), 0.3)
    solution = track(target)
    iterations.append(solution.iterations)

print(f"last frame: {solution.status}, error {solution.error:.1e}")
print(f"iterations: first frame {iterations[0]}, most after it {max(iterations[1:])}, "
      f"mean {sum(iterations) / len(iterations):.1f}")
