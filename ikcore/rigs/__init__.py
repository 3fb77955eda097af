"""The page's scenes, pure Python and headless: arm, tentacles, spider, race, robot.

Start with :mod:`ikcore.rigs.scene`, which states the per-frame contract the
page relies on. The pieces: :mod:`~ikcore.rigs.terrain` (a seeded heightfield),
:mod:`~ikcore.rigs.paths` (scripted target paths), :mod:`~ikcore.rigs.gait`
(feet stepping in groups), :mod:`~ikcore.rigs.frames` (the chains' frames in the
page's buffer: :func:`to_world`), :mod:`~ikcore.rigs.panda` (a Panda-like 7-joint
arm: :func:`panda`), and one module per scene.
"""

from .frames import to_world
from .panda import panda
from .paths import Hops, Lissajous, Spin, figure_eight
from .scene import SCENES, STATUS_CODES, Scene, make_scene
from .terrain import Terrain

__all__ = ["Hops", "Lissajous", "SCENES", "STATUS_CODES", "Scene", "Spin", "Terrain", "figure_eight", "make_scene",
           "panda", "to_world"]
