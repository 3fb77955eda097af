"""Damped least squares as the solvers run it (the Jacobian per joint in closed form, the unrolled
m x m solve) against its textbook form (the matrix J, J J^T + lambda^2 I, a Cholesky solve):
the same turns, on seeded random poses of chains with hinges, ball joints and free joints."""

import math
import random

import pytest

from ikcore import BallSocket, Chain, Hinge
from ikcore import kinematics
from ikcore.solvers.jacobian import StepRule
from ikcore.solvers.jacobian import textbook
from ikcore.solvers.jacobian.joints import JointJacobian
from ikcore.solvers.jacobian.linalg import solve_spd_unrolled


def random_unit(rng):
    while True:
        v = [rng.gauss(0.0, 1.0) for _ in range(3)]
        n = math.hypot(*v)
        if n > 1e-3:
            return tuple(c / n for c in v)


def random_chain(rng):
    n = rng.randint(1, 7)
    points, p = [(0.0, 0.0, 0.0)], (0.0, 0.0, 0.0)
    for _ in range(n):
        d = random_unit(rng)
        p = tuple(a + rng.uniform(0.3, 1.5) * b for a, b in zip(p, d))
        points.append(p)
    kinds = [None, Hinge(random_unit(rng), -170.0, 170.0), BallSocket(90.0)]
    return Chain(points, [rng.choice(kinds) for _ in range(n)])


def random_pose(rng, chain):
    rotations = []
    for _ in range(chain.size):
        axis, angle = random_unit(rng), rng.uniform(-1.0, 1.0)
        rotations.append((math.cos(0.5 * angle), *(math.sin(0.5 * angle) * c for c in axis)))
    return kinematics.pose_of(chain, rotations)


@pytest.mark.parametrize("oriented", [False, True])
@pytest.mark.parametrize("seed", range(40))
def test_the_solvers_step_is_the_textbook_step(seed, oriented):
    rng = random.Random(seed)
    chain = random_chain(rng)
    frames = random_pose(rng, chain)
    c = rng.uniform(0.1, 2.0) if oriented else 0.0
    e = [rng.uniform(-1.0, 1.0) for _ in range(6 if oriented else 3)]
    damping = rng.uniform(0.01, 0.5) * chain.reach

    jac = JointJacobian(chain, frames, c, oriented)
    turns, used = StepRule(chain.reach).with_secondary(jac, e, None, damping)
    J, columns = textbook.jacobian(chain, frames, c, oriented)
    expected = textbook.dls_turns(J, columns, e, damping, chain.size)

    assert used == damping
    scale = max(math.hypot(*w) for w in expected if w is not None)
    for got, want in zip(turns, expected):
        assert got is not None and want is not None
        assert math.dist(got, want) <= 1e-9 * scale, (got, want)


@pytest.mark.parametrize("seed", range(20))
def test_the_products_are_the_textbook_products(seed):
    rng = random.Random(1000 + seed)
    chain = random_chain(rng)
    frames = random_pose(rng, chain)
    jac = JointJacobian(chain, frames, 0.7, True)
    J, columns = textbook.jacobian(chain, frames, 0.7, True)
    gram = [[sum(a * b for a, b in zip(J[i], J[k])) for k in range(6)] for i in range(6)]
    size = max(abs(v) for row in gram for v in row)
    assert all(abs(a - b) <= 1e-12 * size for r, s in zip(jac.gram(), gram) for a, b in zip(r, s))
    # The unrolled solve and the Cholesky solve of J J^T + lambda^2 I.
    lam2 = 0.01 * size
    b = [rng.uniform(-1.0, 1.0) for _ in range(6)]
    shifted = [[v + (lam2 if i == k else 0.0) for k, v in enumerate(row)] for i, row in enumerate(gram)]
    y = solve_spd_unrolled(gram, b, lam2)
    want = textbook.cholesky_solve(shifted, b)
    assert max(abs(p - q) for p, q in zip(y, want)) <= 1e-9 * max(map(abs, want))
