"""The Jacobian family's steps: the columns, computed here independently, and the limits' own steps.

Column ``j`` of a step is ``z_j x (p_end - p_j)``, in world coordinates, for the axis ``z_j`` the joint
turned about: a hinge's axis in the world (its parent's world rotation applied to it), or for a free
joint the axis of the turn it made. This file computes both from the rotations of the poses before and
after the step (``solve`` stopped after as many iterations), with forward kinematics of its own.
"""

import math
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

import ikcore

from .strategies import random_direction, seeds

METHODS = ("jacobian_transpose", "pseudo_inverse", "dls")
WINDOW = 6


def mul(a, b):
    aw, ax, ay, az = a
    bw, bx, by, bz = b
    return (aw * bw - ax * bx - ay * by - az * bz, aw * bx + ax * bw + ay * bz - az * by,
            aw * by - ax * bz + ay * bw + az * bx, aw * bz + ax * by - ay * bx + az * bw)


def conj(q):
    return (q[0], -q[1], -q[2], -q[3])


def apply(q, v):
    return mul(mul(q, (0.0, *v)), conj(q))[1:]


def cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def kinematics(points, rotations):
    """World rotations and points of local ``rotations`` of a chain at rest on ``points``."""
    worlds, out, world = [], [points[0]], (1.0, 0.0, 0.0, 0.0)
    for i, q in enumerate(rotations):
        world = mul(world, q)
        worlds.append(world)
        offset = tuple(b - a for a, b in zip(points[i], points[i + 1]))
        out.append(tuple(p + d for p, d in zip(out[-1], apply(world, offset))))
    return worlds, out


@st.composite
def hinged_chains(draw):
    """Chains of 2 to 6 bones in random directions, each joint free or a hinge about a random axis
    with no range limit (no step is clamped), and a reachable target."""
    rng = random.Random(draw(seeds))
    n = draw(st.integers(2, 6))
    points = [(0.0, 0.0, 0.0)]
    for _ in range(n):
        d = random_direction(rng)
        points.append(tuple(p + rng.uniform(0.3, 1.0) * c for p, c in zip(points[-1], d)))
    joints = [ikcore.Hinge(random_direction(rng), -180.0, 180.0) if rng.random() < 0.6 else None for _ in range(n)]
    chain = ikcore.Chain(points, joints)
    target = tuple(rng.uniform(0.1, 0.8) * chain.reach * c for c in random_direction(rng))
    return chain, target


@given(hinged_chains(), st.sampled_from(METHODS))
def test_the_columns_are_z_cross_the_lever_to_the_effector(problem, method):
    chain, target = problem
    traced = ikcore.trace(chain, target, method, max_iterations=12)
    steps = [s for s in traced.steps if s.phase == "step"]
    # Step k is iteration k and ends on the pose of the solve stopped after k up to the first restart,
    # and while no budget could make one: the stall watch looks every WINDOW iterations (a solve of a
    # smaller budget sees a crawl sooner, and restarts after the step that ends its window).
    plain = []
    for k, step in enumerate(steps[:WINDOW], 1):
        if step.iteration != k or any(s.phase == "setup" for s in traced.steps[1:traced.steps.index(step)]):
            break
        plain.append(step)
    poses = [list(ikcore.kinematics.rest(chain).rotations)]
    for k in range(1, len(plain) + 1):
        poses.append(list(ikcore.solve(chain, target, method, max_iterations=k).rotations))
    for k, step in enumerate(plain):
        before, after = poses[k], poses[k + 1]
        worlds, points = kinematics(chain.points, before)
        assert max(math.dist(p, q) for p, q in zip(kinematics(chain.points, after)[1], step.positions)) < 1e-9
        end = points[-1]
        for j, joint in enumerate(chain.joints):
            parent = worlds[j - 1] if j else (1.0, 0.0, 0.0, 0.0)
            turn = mul(after[j], conj(before[j]))
            angle = 2.0 * math.atan2(math.hypot(*turn[1:]), abs(turn[0]))
            if joint is not None:
                z = apply(parent, joint.axis)
            elif angle > 1e-9:
                axis = turn[1:] if turn[0] >= 0.0 else tuple(-c for c in turn[1:])
                z = apply(parent, tuple(c / math.hypot(*axis) for c in axis))
            else:
                assert step.detail["axes"][j] is None and step.detail["columns"][j] == (0.0, 0.0, 0.0)
                continue
            column = cross(z, tuple(a - b for a, b in zip(end, points[j])))
            assert math.dist(column, step.detail["columns"][j]) <= 1e-7 * chain.reach, (j, column, step.detail)
            assert math.dist(z, step.detail["axes"][j]) <= 1e-7
            assert abs(abs(step.detail["delta_deg"][j]) - math.degrees(angle)) <= 1e-6


def test_each_method_names_its_step_and_its_numbers():
    chain = ikcore.Chain([(0.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 2.0, 0.0), (0.0, 2.5, 0.0)])
    target = (1.0, 1.5, 0.4)
    firsts = {m: ikcore.trace(chain, target, m).steps[1] for m in METHODS}
    details = {m: step.detail for m, step in firsts.items()}
    assert details["jacobian_transpose"]["damping"] is None and details["jacobian_transpose"]["alpha"] > 0.0
    assert firsts["jacobian_transpose"].caption.startswith("Jacobian transpose step (alpha = ")
    assert details["dls"]["alpha"] is None and details["dls"]["damping"] == pytest.approx(0.03 * 2.5)
    assert firsts["dls"].caption.startswith("Damped least squares step (lambda = 0.075)")
    # The pseudo-inverse is damped only as far as a refused step needs (from 1e-3 of the reach).
    assert details["pseudo_inverse"]["alpha"] is None and details["pseudo_inverse"]["damping"] < 1e-2 * 2.5
    assert firsts["pseudo_inverse"].caption.startswith("Pseudo-inverse step")
    for detail in details.values():
        # The error vector at the effector: target minus effector before the step.
        assert detail["error_vector"] == pytest.approx((1.0, -1.0, 0.4))
        assert len(detail["columns"]) == len(detail["delta_deg"]) == len(detail["axes"]) == 3


def test_the_limits_take_back_what_a_step_pushed_past_them():
    arm = ikcore.Chain([(0.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 2.0, 0.0), (0.0, 2.3, 0.0)],
                       joints=[ikcore.BallSocket(cone_deg=60), ikcore.Hinge((0, 0, 1), 0, 150),
                               ikcore.BallSocket(cone_deg=40, twist_min_deg=-30, twist_max_deg=30)])
    traced = ikcore.trace(arm, (1.2, 1.4, 0.3), "dls")
    steps = traced.steps
    held = [k for k, s in enumerate(steps) if s.phase == "limit"]
    assert held
    for k in held:
        step, before = steps[k], steps[k - 1]
        assert before.phase == "step" and step.iteration == before.iteration
        joints = step.detail["joints"]
        assert joints and step.positions != before.positions
        # Points before the first joint held stay where the step put them.
        assert all(math.dist(p, q) < 1e-12 for p, q in zip(step.positions[:joints[0] + 1], before.positions))
        assert max(math.dist(p, q) for p, q in zip(step.positions, before.positions)) > 1e-9 * arm.reach
        assert all(f"joint{'s' if len(joints) > 1 else ''} " in step.caption and str(j) in step.caption
                   for j in joints)
    # A free chain's steps are never held.
    free = ikcore.trace(arm.free(), (1.2, 1.4, 0.3), "dls")
    assert not any(s.phase == "limit" for s in free.steps)
