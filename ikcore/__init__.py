"""ikcore: inverse kinematics in pure Python.

The public API, on one screen::

    chain = ikcore.Chain(points, joints=None)
    sol = ikcore.solve(chain, target, method="fabrik", ...)

Rotation convention: :mod:`ikcore.rotation`.
"""

from . import rotation
from .chain import Chain
from .constraints import BallSocket, Constraint, Hinge
from .errors import IKError
from .solution import STATUSES, Solution
from .solve import METHODS, solve

__version__ = "0.1.0"

__all__ = [
    "BallSocket",
    "Chain",
    "Constraint",
    "Hinge",
    "IKError",
    "METHODS",
    "STATUSES",
    "Solution",
    "rotation",
    "solve",
]
