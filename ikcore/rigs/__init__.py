"""The page's scenes, pure Python and headless: arm, tentacles, spider, race, robot, crowd, steps, playground,
humanoid.

Start with :mod:`ikcore.rigs.scene`, which states the per-frame contract the
page relies on. The pieces: :mod:`~ikcore.rigs.terrain` (a seeded heightfield),
:mod:`~ikcore.rigs.paths` (scripted target paths), :mod:`~ikcore.rigs.gait`
(feet stepping in groups; :mod:`~ikcore.rigs.phase_gait` a
crowd's, on a clock per walker), :mod:`~ikcore.rigs.frames` (the chains' frames in the
page's buffer: :func:`to_world`), :mod:`~ikcore.rigs.panda` (a Panda-like 7-joint
arm: :func:`panda`), :mod:`~ikcore.rigs.urdf_arms` (the arms shipped as URDF files:
:func:`urdf_arm`), and one module per scene. The playground's race, headless:
:func:`race_solvers` (the reader's solvers against ikcore's methods on :func:`standard_targets`),
its templates in :mod:`~ikcore.rigs.templates`.

The scene names and the statuses the page's shared array carries:

>>> from ikcore import rigs
>>> sorted(rigs.SCENES)
['arm', 'crowd', 'humanoid', 'playground', 'race', 'robot', 'spider', 'steps', 'tentacles']
>>> rigs.CHAIN_SCENES
('arm', 'tentacles', 'spider', 'race', 'robot', 'steps', 'playground', 'humanoid')
>>> sorted(rigs.URDF_ARMS)
['panda', 'scara_like', 'ur5_like']
>>> rigs.STATUS_CODES
('converged', 'unreachable', 'max_iterations', 'stalled', 'running', 'error', 'invalid', 'timeout')
"""

from .frames import to_world
from .panda import panda
from .paths import Hops, Lissajous, Spin, figure_eight
from .solver_race import race_solvers, standard_targets
from .scene import CHAIN_SCENES, SCENES, STATUS_CODES, Scene, make_scene
from .terrain import Terrain
from .urdf_arms import URDF_ARMS, urdf_arm

__all__ = ["CHAIN_SCENES", "Hops", "Lissajous", "SCENES", "STATUS_CODES", "Scene", "Spin", "Terrain",
           "URDF_ARMS", "figure_eight", "make_scene", "panda", "race_solvers", "standard_targets", "to_world",
           "urdf_arm"]
