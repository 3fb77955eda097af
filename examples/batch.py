"""A batch: one leg solved for a thousand targets in one call (numpy arrays in and out when numpy is
installed; plain lists otherwise).

Run: python examples/batch.py
"""

import math
import random

import ikcore

leg = ikcore.Chain([(0, 0, 0), (0.5, 0, 0), (0.5, -0.6, 0)],
                   joints=[ikcore.Hinge(axis=(0, 0, 1), min_deg=-120, max_deg=120),
                           ikcore.Hinge(axis=(0, 0, 1), min_deg=-170, max_deg=170)])
rng = random.Random(7)
targets = []
for _ in range(1000):
    angle, distance = rng.uniform(-1.4, 0.2), rng.uniform(0.3, 1.0)
    targets.append((distance * math.cos(angle), distance * math.sin(angle), 0.0))

batch = ikcore.solve_batch(leg, targets, method="two_bone")
counts = batch.counts()
print(f"{len(targets)} targets: " + ", ".join(f"{n} {status}" for status, n in sorted(counts.items())))
print(f"first effector: ({batch.positions[0][-1][0]:.3f}, {batch.positions[0][-1][1]:.3f})")
