"""A first solve: a four-point chain reaches for a target with FABRIK.

Run: python examples/first_solve.py
"""

import ikcore

# A chain of three bones standing up the y axis: its rest points, root first.
chain = ikcore.Chain([(0, 0, 0), (0, 1, 0), (0, 2, 0), (0, 2.5, 0)])
solution = ikcore.solve(chain, (1.0, 1.5, 0.5), method="fabrik")

print(f"status:     {solution.status}")           # converged: the effector is within the tolerance
print(f"iterations: {solution.iterations}")
print(f"error:      {solution.error:.2e}")          # the effector's distance to the target
print("effector:   ({:.3f}, {:.3f}, {:.3f})".format(*solution.positions[-1]))

# A target out of reach is said so, not faked: the chain points at it as far as it can.
far = ikcore.solve(chain, (5.0, 0.0, 0.0), method="fabrik")
print(f"far target: {far.status}, {far.error:.2f} short")
