# Your solver: step(points, target, lengths) -> the new points, called once per iteration.
#   points : the chain's N + 1 points (x, y, z), root first; target : (x, y, z)
#   lengths: the N bone lengths. Keep the root where it is and every bone its length.
# The race measures the tip's distance to the target after each call.
#
# Jacobian transpose: turning joint j by a small rotation vector w moves the tip by
# w x r_j (r_j: from the joint to the tip). The transpose of that map turns each joint
# by w_j = alpha (r_j x e), e the error; alpha makes the step as good as it can be
# along the tip's motion J J^T e (Buss's choice).
import math


def sub(a, b):
    return [a[i] - b[i] for i in range(3)]


def dot(a, b):
    return sum(a[i] * b[i] for i in range(3))


def cross(a, b):
    return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]


def turn(p, pivot, w):
    """p turned about pivot by the rotation vector w (Rodrigues' formula)."""
    angle = math.hypot(*w)
    if angle == 0.0:
        return p
    k, v = [c / angle for c in w], sub(p, pivot)
    k_x_v, c, s = cross(k, v), math.cos(angle), math.sin(angle)
    return [pivot[i] + v[i] * c + k_x_v[i] * s + k[i] * dot(k, v) * (1 - c) for i in range(3)]


def step(points, target, lengths):
    tip = points[-1]
    e = sub(target, tip)
    turns = [cross(sub(tip, p), e) for p in points[:-1]]  # J^T e, joint by joint
    moves = [cross(w, sub(tip, p)) for w, p in zip(turns, points)]
    jjte = [sum(m[i] for m in moves) for i in range(3)]  # J J^T e
    if dot(jjte, jjte) == 0.0:
        return points  # no joint can move the tip toward the target
    alpha = dot(e, jjte) / dot(jjte, jjte)
    new = [list(p) for p in points]
    for j in reversed(range(len(turns))):  # tip joints first, each about its own pivot
        new[j + 1:] = [turn(p, points[j], [alpha * c for c in turns[j]]) for p in new[j + 1:]]
    return new
