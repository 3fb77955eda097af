"""ikcore: inverse kinematics in pure Python.

The public API, on one screen::

    chain = ikcore.Chain(points, joints=None)
    sol = ikcore.solve(chain, target, method="fabrik", ...)
    batch = ikcore.solve_batch(chain, targets, method="fabrik", ...)   # K copies at once
    skel = ikcore.Skeleton(); leg = skel.add_chain("leg", parent, points, joints)
    track = leg.tracker("two_bone", pole=p, local=True); sol = track(target)   # every frame
    pose = ikcore.load_pose(json_text)                                   # the page's "Download pose"

Scenes the page animates: :mod:`ikcore.rigs`.

Rotation convention: :mod:`ikcore.rotation`.
"""

from . import rotation
from .batch import BatchSolution, solve_batch
from .chain import Chain
from .constraints import BallSocket, Constraint, Hinge
from .errors import IKError
from .pose import dump_pose, load_pose
from .skeleton import BoundChain, Node, Skeleton
from .solution import STATUSES, Solution
from .solve import METHODS, solve
from .tracker import Tracker

__version__ = "0.1.0"

__all__ = [
    "BallSocket",
    "BatchSolution",
    "BoundChain",
    "Chain",
    "Constraint",
    "Hinge",
    "IKError",
    "METHODS",
    "Node",
    "STATUSES",
    "Skeleton",
    "dump_pose",
    "load_pose",
    "Solution",
    "Tracker",
    "rotation",
    "solve",
    "solve_batch",
]
