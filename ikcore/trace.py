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

from .problem import check_request, check_settings
from .solution import solution_of

__all__ = ["Step", "Trace", "trace"]


class Step:
    """One step of a solve: what moved, the pose after it, and a sentence that says so.

    Attributes
    ----------
    iteration : int
        The iteration the step belongs to, from 1; 0 for what comes before the
        first (the start pose, a bend out of a straight start, a start turned
        toward the pole). Never decreases along a trace: a restart or a
        hand-over counts in the iteration it ends.
    phase : str
        What kind of step:

        - ``"rotate"``: CCD turns one joint;
        - ``"backward"``, ``"forward"``: FABRIK places one bone in its backward
          (from the effector down) or forward (from the root up) pass;
        - ``"step"``: a Jacobian step (transpose, pseudo-inverse, damped least
          squares; also the finish of CCD's sweeps and of FABRIK's passes on a
          limited chain whose progress slows, and fabrik_dls's finish);
        - ``"solve"``: the two-bone closed form;
        - ``"reach"``: a target out of reach (or at its edge) met by the
          nearest pose in one step;
        - ``"setup"``: the start pose, a bend, a start turned toward the pole,
          a restart, a hand-over, the pole's final swivel
          (``detail["what"]`` says which);
        - ``"limit"``: the joint limits move the pose the solve returns;
        - ``"result"``: the last step, the pose the solve returns and its
          status.
    joint : int or None
        The joint CCD turned, or the point a FABRIK move placed along its
        bone; ``None`` for steps that move more than one.
    positions : tuple of (x, y, z)
        The ``N + 1`` points after the step (a FABRIK pass leaves bones
        stretched until it places them).
    error : float
        The effector's distance to the target after the step.
    caption : str
        One plain sentence: what the step did, with its numbers.
    detail : dict
        The step's own numbers, by phase (angles in degrees, vectors in the
        chain's frame):

        - ``rotate``: ``to_effector``, ``to_target`` (unit vectors from the
          joint), ``angle_deg`` (the turn made), ``wished_deg`` (the turn the
          directions asked for), ``axis`` (of the turn), ``clamped`` (the
          limits changed the turn), ``capped`` (``max_step_deg`` cut it);
        - ``backward``, ``forward``: ``moved`` (the point placed), ``toward``
          (its neighbour, the bone's other end), ``length`` (the bone length
          kept), ``turned_deg`` (how far the bone's direction turned),
          ``anchor`` (the end the pass starts from, moved onto the target or
          back to the root's base by the pass's first move; else ``None``);
        - ``step``: ``columns`` (one per joint: ``z_j x (p_end - p_j)``, the
          effector's motion per radian of the joint's turn about the axis
          ``axes[j]``: a hinge's axis, else the axis of its turn, ``None``
          where it did not turn), ``delta_deg`` (each joint's turn, signed
          about ``axes[j]``), ``error_vector`` (target minus effector before the
          step), ``damping`` (lambda, ``None`` for the transpose), ``alpha``
          (the transpose's step factor, else ``None``), ``scale`` (the line
          search's factor), ``secondary`` (a null-space step for secondary
          objectives);
        - ``solve``: ``sides`` (upper bone, lower bone, root to target,
          clamped into the reachable shell), ``distance`` (root to target),
          ``elbow_deg`` (the triangle's angle at the knee), ``root_deg`` (at the
          root, off the line to the target), ``knee_deg`` (the knee's angle in
          the pose taken, which limits may hold elsewhere);
        - ``setup``: ``what``; ``reach``: ``distance``, ``reach``, ``min_reach``;
        - ``result``: ``status``, ``best`` (the index of the step whose pose is
          returned, when it is not the one before).
    """

    __slots__ = ("iteration", "phase", "joint", "positions", "error", "caption", "detail")

    def __init__(self, iteration, phase, joint, positions, error, caption, detail):
        self.iteration = iteration
        self.phase = phase
        self.joint = joint
        self.positions = positions
        self.error = error
        self.caption = caption
        self.detail = detail

    def as_dict(self):
        """The step as plain data (lists for tuples): JSON-ready."""
        return {"iteration": self.iteration, "phase": self.phase, "joint": self.joint,
                "positions": [list(p) for p in self.positions], "error": self.error, "caption": self.caption,
                "detail": _plain(self.detail)}

    def __repr__(self):
        return f"Step({self.iteration}, {self.phase!r}, joint={self.joint}, error={self.error:.3g})"


class Trace:
    """What :func:`trace` returns: ``solution`` (what :func:`ikcore.solve` returns for the same
    call) and ``steps`` (the :class:`Step` list, from the start pose to the pose returned)."""

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


def trace(chain, target, method="fabrik", *, start=None, tolerance=None, max_iterations=None, orientation=None,
          orientation_tolerance=None, pole=None, secondary=None, **options):
    """Solve as :func:`ikcore.solve` does (same arguments, same checks, same
    :class:`~ikcore.Solution`) and return a :class:`Trace` of its steps.

    Raises
    ------
    IKError
        For every invalid input, naming it.
    """
    settings = check_settings(chain, method, tolerance=tolerance, max_iterations=max_iterations,
                              orientation_tolerance=orientation_tolerance, secondary=secondary, **options)
    problem = check_request(settings, target, start, orientation, pole)
    from .recorder import Recorder  # which makes Steps: imported once this module is
    recorder = Recorder(problem)
    solution = solution_of(problem, settings.module.run(problem, recorder))
    return Trace(solution, recorder.finish(solution))


def _late(step):
    """Whether ``step`` sets up the iteration after its own (counted after that one's error)."""
    return step.phase == "setup" and step.detail["what"] in ("restart", "handover")


def _plain(value):
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    return value
