"""Scale: a chain scaled by any factor from 1e-6 to 1e12 is solved as at scale 1, and coordinates whose
squares would overflow are refused.

Every threshold in the solvers is relative (to the reach, the tolerance, or unit vectors), so a
scaled chain takes the same steps: the same status and iterations, the pose scaled. The one limit
is chaos: a scaled chain's coordinates differ from the original's by rounding, and where a solve
stalls and restarts (perturbed poses, seeded) those differences can move a stall by an iteration,
after which the restarts go their own way. So the iterations are compared where no restart came
into it (the solve met the target before its first stall could be told), the statuses wherever
the target is met or out of reach.

The property over scales (:func:`test_iterations_match_at_any_scale`) looks further, at every method
on every shape and a limited hip-knee-ankle leg: at every scale from 1e-6 to 1e12 the same status and
the iterations within one, wherever the solve at scale 1 made no restart (a stall handed over to damped
least squares still counts: the hand-over takes no random turn) and rounding alone does not decide
the count. A long crawl (the Jacobian transpose's, hundreds of iterations) meets the tolerance so
slowly that copies differing only in the last bits of their coordinates (:data:`ROUNDING`) end
iterations apart; a target on an edge of the reach lies on either side of it once scaled.
"""

import math
import random

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import ikcore
from ikcore import BallSocket, Chain, Hinge, IKError
from ikcore import rotation as rot

from .strategies import directions, quaternions

SCALES = (1e-6, 1e-3, 1e3, 1e6, 1e9, 1e12)
#: Before this many iterations no stall is told (the stall watch's window, but near full reach).
WINDOW = 6


def shapes():
    """Chains of every kind the solvers treat apart, at scale 1."""
    z = (0.0, 0.0, 1.0)
    bent = [(0.0, 0.0, 0.0), (0.7, 0.2, 0.0), (1.2, 0.9, 0.3), (1.4, 1.8, 0.1), (2.3, 2.0, -0.4)]
    straight = [(float(i), 0.0, 0.0) for i in range(6)]
    return {
        "free": Chain(bent),
        "hinges": Chain(bent, [Hinge(z, -120, 120), Hinge((0, 1, 0), -90, 90), Hinge(z, -150, 10), Hinge(z)]),
        "balls": Chain(bent, [BallSocket(80, -40, 40), None, BallSocket(60), BallSocket(120, -90, 10)]),
        "cones": Chain(straight, [BallSocket(40)] * 5),
        "leg": Chain([(0, 0, 0), (0.5, 0.3, 0), (1.1, -0.4, 0)], [Hinge(z, -75, 45), Hinge(z, -55, 80)]),
    }


def scaled(chain, k):
    return Chain([tuple(k * c for c in p) for p in chain.points], chain.joints)


def cases(chain, rng, count=6):
    """Targets: tips of random poses (reachable), and a few anywhere within 1.3 reaches; poles."""
    out = []
    for i in range(count):
        if i % 2 == 0:
            q = chain.clamp([rot.from_axis_angle((rng.gauss(0, 1), rng.gauss(0, 1), rng.gauss(0, 1)),
                                                 rng.uniform(0.0, 2.5)) for _ in range(chain.size)])
            target = chain.forward(q)[-1]
        else:
            target = tuple(rng.uniform(-1.3, 1.3) * chain.reach for _ in range(3))
        pole = None if i % 3 else tuple(rng.uniform(-2, 2) * chain.reach for _ in range(3))
        out.append((target, pole))
    return out


@pytest.mark.parametrize("method", ikcore.METHODS)
@pytest.mark.parametrize("shape", list(shapes()))
def test_a_scaled_chain_gets_the_same_statuses_and_iterations(method, shape):
    chain = shapes()[shape]
    if method == "two_bone" and chain.size != 2:
        pytest.skip("two_bone solves two bones")
    rng = random.Random(f"{method} {shape}")
    compared = 0
    for target, pole in cases(chain, rng, 12):
        one = ikcore.solve(chain, target, method, pole=pole)
        steady = one.converged and one.iterations < WINDOW
        if not (steady or one.status == "unreachable"):
            continue
        compared += 1
        for k in SCALES:
            big = scaled(chain, k)
            other = ikcore.solve(big, tuple(k * c for c in target), method,
                                 pole=None if pole is None else tuple(k * c for c in pole))
            assert other.status == one.status, (k, target)
            if steady:
                assert other.iterations == one.iterations, (k, target)
                # (A redundant chain meets a target in many poses: rounding may pick another one of them.)
                assert other.error / k == pytest.approx(one.error, abs=1e-3 * chain.reach)
    assert compared >= 3


#: The shapes, and a hip, a knee and an ankle hanging down: a ball hip twisting within 45 degrees either
#: way, a knee bending one way only and an ankle about the same axis. (Not one of :func:`shapes`, whose
#: steady solves take exactly the same iterations: the leg's pseudo-inverse steps pass near singular
#: poses, where rounding moves a step's error by a few percent; met at one scale, it may take one more
#: step at another.)
SHAPES = {**shapes(), "hip-knee-ankle": Chain([(0, 0, 0), (0, -0.45, 0), (0, -0.87, 0), (0, -1.0, 0)],
                                              [BallSocket(100, -45, 45), Hinge((1, 0, 0), 0, 150),
                                               Hinge((1, 0, 0), -45, 45)])}


@st.composite
def scaled_problems(draw, method):
    """A chain of :data:`SHAPES` (two bones for ``two_bone``), a target (the tip of a pose within the
    limits, or a point within 1.3 reaches), a pole or none, and a scale from 1e-6 to 1e12."""
    name = draw(st.sampled_from([n for n, c in SHAPES.items() if method != "two_bone" or c.size == 2]))
    chain = SHAPES[name]
    if draw(st.booleans()):
        target = chain.forward(chain.clamp([draw(quaternions) for _ in range(chain.size)]))[-1]
    else:
        target = tuple(draw(st.floats(0.0, 1.3)) * chain.reach * c for c in draw(directions))
    pole = draw(st.none() | st.tuples(*[st.floats(-2.0, 2.0).map(lambda c: c * chain.reach)] * 3))
    return name, target, pole, 10.0 ** draw(st.floats(-6.0, 12.0))


#: Scales that change the coordinates by rounding alone: where these take another count than scale 1,
#: rounding decides it, and no scale can be held to it.
#: Several probes, since a chaotic solve (pseudo-inverse steps near a singular pose) may keep its
#: count under one perturbation and change it under the next.
ROUNDING = tuple(1.0 + sign * 2.0 ** -bits for bits in (42, 45, 48, 50) for sign in (1.0, -1.0))


def solve_scaled(chain, target, method, pole, k):
    """The Solution of ``chain``, ``target`` and ``pole`` scaled by ``k``."""
    return ikcore.solve(scaled(chain, k), tuple(k * c for c in target), method,
                        pole=None if pole is None else tuple(k * c for c in pole))


def same_course(one, other):
    """Whether ``other`` has ``one``'s status, and its iterations within one."""
    return other.status == one.status and abs(other.iterations - one.iterations) <= 1


@pytest.mark.parametrize("method", ikcore.METHODS)
@given(data=st.data())
def test_iterations_match_at_any_scale(method, data):
    name, target, pole, drawn = data.draw(scaled_problems(method))
    chain = SHAPES[name]
    distance = math.dist(target, chain.points[0])
    assume(min(abs(distance - chain.reach), abs(distance - chain.min_reach)) > 1e-9 * chain.reach)
    traced = ikcore.trace(chain, target, method=method, pole=pole)
    assume(not any(s.phase == "setup" and s.detail["what"] == "restart" for s in traced.steps))
    one = traced.solution
    assume(all(same_course(one, solve_scaled(chain, target, method, pole, k)) for k in ROUNDING))
    for k in (*SCALES, drawn):
        other = solve_scaled(chain, target, method, pole, k)
        assert same_course(one, other), (name, k, one, other)


def test_coordinates_whose_squares_overflow_are_refused():
    with pytest.raises(IKError, match="overflow"):
        Chain([(0.0, 0.0, 0.0), (1e153, 0.0, 0.0)])
    with pytest.raises(IKError, match="reach"):
        Chain([(0.0, 0.0, 0.0), (1e150, 0.0, 0.0), (0.0, 0.0, 0.0), (1e150, 0.0, 0.0)])
    with pytest.raises(IKError, match="reach"):
        Chain([(0.0, 0.0, 0.0), (1e-101, 0.0, 0.0)])
    # The largest allowed chain still solves, without overflow.
    chain = Chain([(0.0, 0.0, 0.0), (5e149, 0.0, 0.0), (1e150, 0.0, 0.0)])
    for method in ikcore.METHODS:
        sol = ikcore.solve(chain, (3e149, 4e149, 1e149), method)
        assert sol.converged and all(math.isfinite(c) for p in sol.positions for c in p), method
