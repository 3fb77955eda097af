"""``trace``: a solve, step by step, as the algorithm took it.

``ikcore.trace`` is called like :func:`ikcore.solve` and runs the very same
code: the method's ``run(problem, steps=recorder)``, whose step hooks
(:mod:`ikcore.recorder`) note each move as it happens. The hooks only read, so
``trace(...).solution == solve(...)`` (status, iterations, positions, rotations
and errors), and a trace costs what the solve costs plus the copies of the
poses it keeps::

    t = ikcore.trace(chain, (1.0, 1.5, 0.5), method="ccd")
    for step in t.steps:
        print(step.iteration, step.phase, step.joint, round(step.error, 4), step.caption)
"""

from collections.abc import Sequence

from .chain import Chain
from .hints import Quaternion, Rotations, Target, Vector3
from .kinematics import Frames
from .objectives import Objective
from .problem import check_request, check_settings
from .recorder import Recorder
from .solution import solution_of
from .step import Step

__all__ = ["Step", "Trace", "trace"]


class Trace:
    """What :func:`trace` returns: ``solution`` (what :func:`ikcore.solve` returns for the same
    call) and ``steps`` (the :class:`Step` list, from the start pose to the pose returned).

    Examples
    --------
    >>> import ikcore
    >>> chain = ikcore.Chain([(0, 0, 0), (0, 1, 0), (0, 2, 0)])
    >>> traced = ikcore.trace(chain, (1.0, 1.0, 0.0), method="ccd")
    >>> traced.steps[0].phase, traced.steps[-1].phase, traced.solution.status
    ('setup', 'result', 'converged')
    """

    __slots__ = ("solution", "steps")

    def __init__(self, solution, steps):
        self.solution = solution
        self.steps = steps

    def __len__(self):
        return len(self.steps)

    def poses(self):
        """The positions after each iteration: ``poses()[k]`` is the pose after ``k`` iterations,
        whose error is ``solution.errors[k]``; the start first, the pose returned last.

        The pose after iteration ``k`` is that of its last step, but for a restart or a hand-over
        that ends it: the error of iteration ``k`` is counted before them, and they set up the
        next one.
        """
        steps = self.steps
        if not self.solution.iterations:
            return [steps[-1].positions]
        body = steps[1:-1]
        out = [steps[0].positions]
        # ``carry``: the pose after every step so far, which the next iteration starts from.
        carry, i = out[0], 0
        for k in range(1, self.solution.iterations):
            pose = carry
            while i < len(body) and body[i].iteration <= k:
                step = body[i]
                carry = step.positions
                if step.iteration < k or not _late(step):
                    pose = step.positions
                i += 1
            out.append(pose)
        out.append(steps[-1].positions)
        return out

    def __repr__(self):
        return f"Trace({self.solution!r}, steps={len(self.steps)})"


def trace(chain: Chain, target: Target, method: str = "fabrik", *, start: Rotations | Frames | None = None,
          tolerance: float | None = None, max_iterations: int | None = None, orientation: Quaternion | None = None,
          orientation_tolerance: float | None = None, pole: Vector3 | None = None,
          secondary: Sequence[Objective] | None = None, mask: Sequence[float] | None = None,
          **options: float) -> Trace:
    """Solve as :func:`ikcore.solve` does (same arguments, same checks, same
    :class:`~ikcore.Solution`) and return a :class:`Trace` of its steps.

    Raises
    ------
    IKError
        For every invalid input, naming it.

    Examples
    --------
    >>> import ikcore
    >>> chain = ikcore.Chain([(0, 0, 0), (0, 1, 0), (0, 2, 0)])
    >>> traced = ikcore.trace(chain, (1.0, 1.0, 0.0), method="fabrik")
    >>> traced.solution.status, [step.phase for step in traced.steps][:2]
    ('converged', ['setup', 'backward'])
    """
    settings = check_settings(chain, method, tolerance=tolerance, max_iterations=max_iterations,
                              orientation_tolerance=orientation_tolerance, secondary=secondary, mask=mask,
                              **options)
    problem = check_request(settings, target, start, orientation, pole)
    recorder = Recorder(problem)
    solution = solution_of(problem, settings.module.run(problem, recorder))
    return Trace(solution, recorder.finish(solution))


def _late(step):
    """Whether ``step`` sets up the iteration after its own (counted after that one's error)."""
    return step.phase == "setup" and step.detail["what"] in ("restart", "handover")
