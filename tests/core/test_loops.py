"""Every loop in the solvers is bounded: no solve runs past its iteration budget, no inner loop
forever, whatever a faulty joint or a singular system does; and a faulty joint is named."""

import math
import signal
import time

import pytest

import ikcore
from ikcore import BallSocket, Chain, Constraint, Hinge, IKError
from ikcore import rotation as rot
from ikcore.rigs.baselines import joint_seconds
from ikcore.solvers import jacobian
from ikcore.solvers.jacobian import linalg

CHAIN = [(0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (2.0, 0.5, 0.0), (2.5, 1.5, 0.5)]


class Frozen(Constraint):
    """A joint that never moves: every step that turns it is undone."""

    def clamp(self, q, bone):
        return rot.IDENTITY

    def violation(self, q, bone):
        return rot.angle(q)


class Faulty(Constraint):
    """A user's constraint gone wrong: NaN, a raise, or no quaternion at all."""

    def __init__(self, fault):
        self.fault = fault

    def clamp(self, q, bone):
        if self.fault == "raise":
            raise ZeroDivisionError("a bug in the user's clamp")
        if self.fault == "nan":
            return (math.nan, 0.0, 0.0, 0.0)
        if self.fault == "zero":
            return (0.0, 0.0, 0.0, 0.0)
        return "not a quaternion"

    def violation(self, q, bone):
        return 0.0


#: Seconds of one joint of a forward pass timed in this process: the unit of the bounds on time below
#: (some 0.8 us where they were set: 12 million of them about 10 s), whatever the machine's speed.
JOINT = joint_seconds()


def timed(call, joints=12_000_000):
    """``call()`` and its CPU seconds; an AssertionError where it runs past ``joints`` joints of a
    forward pass (a loop that does not end fails the test instead of stalling it)."""
    limit = joints * JOINT

    def overrun(signum, frame):
        raise AssertionError(f"still running after {limit:.1f} CPU seconds: an unbounded loop")

    previous = signal.signal(signal.SIGVTALRM, overrun)
    signal.setitimer(signal.ITIMER_VIRTUAL, limit)
    t0 = time.process_time()
    try:
        out = call()
    finally:
        signal.setitimer(signal.ITIMER_VIRTUAL, 0.0)
        signal.signal(signal.SIGVTALRM, previous)
    return out, time.process_time() - t0


@pytest.mark.parametrize("method", ikcore.METHODS)
def test_a_frozen_chain_stops_within_its_budget(method):
    # Every step refused (the attempts of a Jacobian step, the restarts of every method): the solve
    # still ends, within its iteration budget, honest about it.
    joints = [Frozen()] * (2 if method == "two_bone" else 3)
    chain = Chain(CHAIN[: len(joints) + 1], joints)
    for budget in (1, 7, None):
        sol, seconds = timed(lambda: ikcore.solve(chain, (0.5, 1.5, 0.5), method, max_iterations=budget))
        assert sol.status in ("stalled", "max_iterations") and sol.rotations == [rot.IDENTITY] * chain.size
        assert sol.iterations <= (budget or ikcore.solvers.method(method).MAX_ITERATIONS)
        assert seconds < 6_000_000 * JOINT


@pytest.mark.parametrize("fault", ["nan", "raise", "zero", "shape"])
@pytest.mark.parametrize("method", ikcore.METHODS)
def test_a_faulty_joint_is_named_never_a_hang(method, fault):
    joints = [None, Faulty(fault)] + ([] if method == "two_bone" else [None])
    chain = Chain(CHAIN[: len(joints) + 1], joints)
    with pytest.raises(IKError, match="joint 1's constraint"):
        timed(lambda: ikcore.solve(chain, (0.5, 1.5, 0.5), method))


def test_a_singular_system_is_damped_a_bounded_number_of_times(monkeypatch):
    # The Jacobian's m x m solve refused however damped (a pose no finite damping rescues): an error,
    # after a bounded number of tries, not a loop.
    tries = []

    def never(A, b, shift):
        tries.append(shift)
        assert len(tries) < 1000, "damped without end"
        return None

    monkeypatch.setattr(linalg, "solve_spd_unrolled", never)
    monkeypatch.setattr(jacobian, "solve_spd_unrolled", never, raising=False)
    import ikcore.solvers.jacobian as package
    monkeypatch.setattr(package, "solve_spd_unrolled", never)
    with pytest.raises(IKError, match="singular"):
        ikcore.solve(Chain(CHAIN), (0.5, 1.5, 0.5), "dls")
    assert 0 < len(tries) <= 40


@pytest.mark.parametrize("method", ["pseudo_inverse", "dls", "jacobian_transpose"])
def test_joints_on_their_limits_drop_each_axis_at_most_once(method, monkeypatch):
    # A step that pushes joints through their limits is solved again without those axes, once per
    # axis at most: count the Jacobians built for each step.
    chain = Chain(CHAIN, [Hinge((0, 0, 1), 0, 0.001), BallSocket(0.001, -0.001, 0.001), Hinge((0, 1, 0), 0, 0.001)])
    built = []
    real = jacobian.JointJacobian.gram

    def counted(self):
        built.append(1)
        return real(self)

    monkeypatch.setattr(jacobian.JointJacobian, "gram", counted)
    sol, _ = timed(lambda: ikcore.solve(chain, (0.0, 2.5, 1.0), method, max_iterations=3))
    assert sol.iterations <= 3
    # Three joints on their limits: at most 1 + 4 solves a try, ten tries an iteration, three iterations.
    assert len(built) <= 3 * jacobian.MAX_ATTEMPTS * 5


@pytest.mark.parametrize("method", ["pseudo_inverse", "dls", "fabrik_dls"])
def test_the_secondary_steps_end_within_the_budget(method):
    chain = Chain([(float(i), 0.0, 0.0) for i in range(7)])
    for budget in (1, 5, 50):
        sol, _ = timed(lambda: ikcore.solve(chain, (2.0, 3.0, 1.0), method, max_iterations=budget,
                                            rest_weight=1.0))
        assert sol.iterations <= budget and len(sol.errors) == sol.iterations + 1


@pytest.mark.parametrize("method", ["ccd", "fabrik", "pseudo_inverse", "dls", "jacobian_transpose", "fabrik_dls"])
def test_a_hopeless_solve_gives_up_before_its_budget(method):
    # Limits that forbid the target: once restarts stop paying, the solve stops, stalled, without
    # spending the whole budget.
    chain = Chain(CHAIN, [Hinge((0, 0, 1), -5, 5)] * 3)
    sol, _ = timed(lambda: ikcore.solve(chain, (-1.0, -1.0, 0.0), method, max_iterations=5000))
    assert sol.status == "stalled" and sol.iterations < 5000
