"""A skeleton: a body with two legs, each a chain of its own, solved in the body's frame.

Run: python examples/skeleton.py
"""

import ikcore

skeleton = ikcore.Skeleton()
skeleton.add_node("body", translation=(0.0, 1.0, 0.0))
knee = ikcore.Hinge(axis=(1, 0, 0), min_deg=0, max_deg=150)
for side, x in (("left", -0.2), ("right", 0.2)):
    # Hip, knee, foot: the points in the body's frame, hanging down from it.
    skeleton.add_chain(side, "body", [(x, 0, 0), (x, -0.5, 0.02), (x, -0.98, 0)],
                       joints=[ikcore.BallSocket(cone_deg=80), knee])

# The body moves; each foot keeps its place on the ground (targets in world coordinates).
skeleton.node("body").translation = (0.1, 0.9, 0.15)
skeleton.update()
for side, foot in (("left", (-0.2, 0.0, 0.2)), ("right", (0.3, 0.0, 0.0))):
    leg = skeleton.chain(side)
    solution = leg.solve(foot, method="two_bone")  # positions in world coordinates
    x, y, z = solution.positions[-1]
    hip = skeleton.world_position(leg.nodes[0].name)
    print(f"{side:5} foot: {solution.status}, at ({x:.3f}, {y:.3f}, {z:.3f}); "
          f"hip at ({hip[0]:.3f}, {hip[1]:.3f}, {hip[2]:.3f})")
