# Your solver: step(points, target, lengths) -> the new points, called once per iteration.
#   points : the chain's N + 1 points (x, y, z), root first; target : (x, y, z)
#   lengths: the N bone lengths. Keep the root where it is and every bone its length.
# The race measures the tip's distance to the target after each call; it stops when
# the tip is within the tolerance, when the error stops falling, or at the cap.
#
# Instead of points, step may return the N joint rotations: unit quaternions
# (w, x, y, z), each relative to the rest pose (the chain straight up, +y), joint i
# turning bone i and everything after it (as ikcore.Chain.forward takes them).
# Define step(points, target, lengths, chain) to get the ikcore.Chain as well:
# chain.points (the rest pose), chain.joints (its limits: none here), chain.reach.
#
# print() writes under the editor. A run that takes over a second is stopped.
import math


def step(points, target, lengths):
    # Move the points toward the target here. As it is, nothing moves: the
    # race reports "stalled" after a few iterations.
    return points
