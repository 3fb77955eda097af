# Your solver: step(points, target, lengths) -> the new points, called once per iteration.
#   points : the chain's N + 1 points (x, y, z), root first; target : (x, y, z)
#   lengths: the N bone lengths. Keep the root where it is and every bone its length.
# The race measures the tip's distance to the target after each call.
#
# FABRIK (forward and backward reaching): put the tip on the target and pull each
# point back to its bone's length from the next; then put the root back and pull
# each point out to its bone's length from the one before.
import math


def toward(anchor, p, length):
    """The point at `length` from `anchor` on the line toward `p`."""
    d = [p[i] - anchor[i] for i in range(3)]
    n = math.hypot(*d)
    if n == 0.0:
        d, n = [0.0, 1.0, 0.0], 1.0  # p on the anchor: any direction keeps the length
    return [anchor[i] + length * d[i] / n for i in range(3)]


def step(points, target, lengths):
    points = [list(p) for p in points]
    root = points[0]
    # Backward: from the tip, set on the target, down to the root.
    points[-1] = list(target)
    for i in reversed(range(len(lengths))):
        points[i] = toward(points[i + 1], points[i], lengths[i])
    # Forward: from the root, back in its place, up to the tip.
    points[0] = root
    for i in range(len(lengths)):
        points[i + 1] = toward(points[i], points[i + 1], lengths[i])
    return points
