"""ikcore: inverse kinematics in pure Python.

The public API, on one screen::

    chain = ikcore.Chain(points, joints=None)                            # rest points, limits
    sol = ikcore.solve(chain, target, method="fabrik", ...)               # one solve: a Solution with a status
    t = ikcore.trace(chain, target, method="ccd", ...); t.steps           # the same solve, step by step
    sol = ikcore.solve(arm, p, "dls", orientation=R, secondary=[ikcore.AwayFromLimits()])  # redundancy spent
    track = ikcore.Tracker(chain, "fabrik", pole=p); sol = track(target)  # every frame, warm
    legs = ikcore.LegTracker(leg); legs.resize(800); legs.solve(tol)     # many planar legs, every frame
    batch = ikcore.solve_batch(chain, targets, method="two_bone", ...)    # K copies at once
    skel = ikcore.Skeleton(); leg = skel.add_chain("leg", parent, points, joints)
    sol = leg.solve(target) ; track = leg.tracker("two_bone", pole=p, local=True)
    pose = ikcore.load_pose(json_text)                                   # the page's "Download pose"
    robot = ikcore.Chain.from_urdf(urdf, "base_link", "tool0")           # a URDF's joints, Z up
    sol = ikcore.solve(robot, pose_4x4, "dls"); sol.joint_values         # poses as matrices, radians
    sol = ikcore.solve(robot, pose_4x4, "dls", mask=(1, 1, 1, 1, 1, 0))  # the tool's roll left free

Joint limits: :class:`Hinge`, :class:`BallSocket`; a sliding joint: :class:`Slider` (:mod:`ikcore.constraints`).
Secondary objectives for the Jacobian methods, ``secondary=[...]``: :class:`TowardRest`,
:class:`AwayFromLimits`, :class:`AvoidSphere` (:mod:`ikcore.objectives`).
Scenes the page animates: :mod:`ikcore.rigs`. Rotation convention: :mod:`ikcore.rotation`.
Forward kinematics: :mod:`ikcore.kinematics`. The solvers, one family a package: :mod:`ikcore.solvers`.

The methods :func:`solve` takes, and the statuses a solve ends with:

>>> import ikcore
>>> ikcore.METHODS
('ccd', 'fabrik', 'jacobian_transpose', 'pseudo_inverse', 'dls', 'two_bone', 'fabrik_dls')
>>> ikcore.STATUSES
('converged', 'unreachable', 'max_iterations', 'stalled')
"""

from . import kinematics, rotation
from .batch import BatchSolution, solve_batch
from .bound import BoundChain, BoundTracker
from .chain import Chain
from .constraints import BallSocket, Constraint, Hinge, Slider
from .errors import IKError
from .kinematics import Frames
from .objectives import AvoidSphere, AwayFromLimits, Objective, TowardRest
from .pose import dump_pose, load_pose
from .skeleton import Node, Skeleton
from .solution import STATUSES, Solution
from .solve import METHODS, solve
from .solvers.two_bone.leg_tracker import LegTracker
from .trace import Step, Trace, trace
from .tracker import Tracker

__version__ = "0.1.0"

__all__ = [
    "AvoidSphere",
    "AwayFromLimits",
    "BallSocket",
    "BatchSolution",
    "BoundChain",
    "BoundTracker",
    "Chain",
    "Constraint",
    "Frames",
    "Hinge",
    "IKError",
    "LegTracker",
    "METHODS",
    "Node",
    "Objective",
    "STATUSES",
    "Skeleton",
    "Slider",
    "Solution",
    "Step",
    "TowardRest",
    "Trace",
    "Tracker",
    "dump_pose",
    "kinematics",
    "load_pose",
    "rotation",
    "solve",
    "solve_batch",
    "trace",
]
