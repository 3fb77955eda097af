"""ikcore: inverse kinematics in pure Python.

The public API, on one screen::

    chain = ikcore.Chain(points, joints=None)
    sol = ikcore.solve(chain, target, method="fabrik", ...)
    batch = ikcore.solve_batch(chain, targets, method="fabrik", ...)   # K copies at once

Rotation convention: :mod:`ikcore.rotation`.
"""

from . import rotation
from .batch import BatchSolution, solve_batch
from .chain import Chain
from .constraints import BallSocket, Constraint, Hinge
from .errors import IKError
from .solution import STATUSES, Solution
from .solve import METHODS, solve

__version__ = "0.1.0"

__all__ = [
    "BallSocket",
    "BatchSolution",
    "Chain",
    "Constraint",
    "Hinge",
    "IKError",
    "METHODS",
    "STATUSES",
    "Solution",
    "rotation",
    "solve",
    "solve_batch",
]
