# Your solver: step(points, target, lengths) -> the new points, called once per iteration.
#   points : the chain's N + 1 points (x, y, z), root first; target : (x, y, z)
#   lengths: the N bone lengths. Keep the root where it is and every bone its length.
# The race measures the tip's distance to the target after each call.
#
# CCD (cyclic coordinate descent): from the joint nearest the tip down to the root,
# turn the rest of the chain about the joint so that the tip points at the target.
import math


def sub(a, b):
    return [a[i] - b[i] for i in range(3)]


def cross(a, b):
    return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]


def turn(p, pivot, axis, angle):
    """p turned by angle about the unit axis through pivot (Rodrigues' formula)."""
    v = sub(p, pivot)
    c, s = math.cos(angle), math.sin(angle)
    k_x_v = cross(axis, v)
    k_dot_v = sum(axis[i] * v[i] for i in range(3))
    return [pivot[i] + v[i] * c + k_x_v[i] * s + axis[i] * k_dot_v * (1 - c) for i in range(3)]


def step(points, target, lengths):
    points = [list(p) for p in points]
    for j in reversed(range(len(lengths))):
        to_tip, to_target = sub(points[-1], points[j]), sub(target, points[j])
        axis = cross(to_tip, to_target)
        sin_n = math.hypot(*axis)  # |to_tip| |to_target| sin(angle)
        if sin_n < 1e-12:
            continue  # tip and target in line with the joint: no turn about it helps
        angle = math.atan2(sin_n, sum(to_tip[i] * to_target[i] for i in range(3)))
        axis = [a / sin_n for a in axis]
        points[j + 1:] = [turn(p, points[j], axis, angle) for p in points[j + 1:]]
    return points
