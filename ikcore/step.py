"""One step of a traced solve (:func:`ikcore.trace`): the pose after one move of the algorithm."""


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
          where it did not turn; a slider's column is its world axis
          ``axes[j]``, the effector's motion per unit of its slide),
          ``delta_deg`` (each joint's turn, signed about ``axes[j]``; 0 for a
          slider), ``slides`` (a chain with sliders only: each slider's slide
          along ``axes[j]``, in the chain's units; ``None`` for the other joints), ``error_vector`` (target minus effector before the
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

    Examples
    --------
    >>> import ikcore
    >>> chain = ikcore.Chain([(0, 0, 0), (0, 1, 0), (0, 2, 0)])
    >>> step = ikcore.trace(chain, (1.0, 1.0, 0.0), method="fabrik").steps[1]
    >>> step.iteration, step.phase, step.joint, step.detail["turned_deg"]
    (1, 'backward', 1, 90.0)
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


def _plain(value):
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    return value
