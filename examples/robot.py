"""The robot: a Panda-like 7-joint arm holds its hand's pose while it spends its spare freedom on
secondary objectives (keep clear of an obstacle, keep away from the joint limits).

Run: python examples/robot.py
"""

import ikcore
from ikcore.rigs import panda
from ikcore.rigs.panda import rotations

arm, ready = panda()  # the arm (Franka's published kinematics and limits) and its ready pose
pose = rotations(arm, [0.0, -0.3, 0.0, -2.2, 0.0, 1.9, 0.8])  # joint angles (radians)
hand, hand_rotation = arm.forward(pose)[-1], arm.world_rotations(pose)[-1]

plain = ikcore.solve(arm, hand, "dls", orientation=hand_rotation, start=ready, tolerance=1e-4)
obstacle = ikcore.AvoidSphere(plain.positions[3], radius=0.1)  # a sphere right on the elbow
limits = ikcore.AwayFromLimits(weight=0.05)
clear = ikcore.solve(arm, hand, "dls", orientation=hand_rotation, start=ready, tolerance=1e-4,
                     secondary=[obstacle, limits])

for name, solution in (("plain", plain), ("with objectives", clear)):
    print(f"{name:16} {solution.status}, hand error {solution.error:.1e} m, "
          f"obstacle clearance {obstacle.measure(arm, solution.frames):+.3f} m, "
          f"limit margin {limits.measure(arm, solution.frames):.3f}")
