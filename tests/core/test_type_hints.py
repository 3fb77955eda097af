"""The public API carries type hints a type checker can read (and ships ``py.typed``, PEP 561)."""

import inspect
import typing
from pathlib import Path

import pytest

import ikcore

#: The public callables: the functions of ``ikcore`` and the public methods of its classes a user calls.
FUNCTIONS = [ikcore.solve, ikcore.trace, ikcore.solve_batch, ikcore.load_pose, ikcore.dump_pose]
METHODS = {
    ikcore.Chain: ["__init__", "forward", "world_rotations", "clamp", "violations", "distance_to", "reachable",
                   "from_urdf", "joint_values", "pose_at", "rotations_of", "tip_pose"],
    ikcore.Slider: ["__init__"],
    ikcore.Hinge: ["__init__"],
    ikcore.BallSocket: ["__init__"],
    ikcore.Tracker: ["__init__", "__call__", "reset"],
    ikcore.Skeleton: ["add_node", "add_chain", "node", "chain", "world_position", "world_rotation", "to_world",
                      "to_local", "update"],
    ikcore.BoundChain: ["solve", "tracker"],
    ikcore.AvoidSphere: ["__init__", "measure"],
    ikcore.AwayFromLimits: ["__init__", "measure"],
    ikcore.TowardRest: ["__init__"],
    ikcore.BatchSolution: ["counts"],
}
CALLABLES = FUNCTIONS + [getattr(cls, name) for cls, names in METHODS.items() for name in names]


@pytest.mark.parametrize("function", CALLABLES, ids=lambda f: f.__qualname__)
def test_every_parameter_and_the_return_is_hinted(function):
    hints = typing.get_type_hints(function)  # resolves every name: a hint that cannot be read fails here
    for name, parameter in inspect.signature(function).parameters.items():
        if name == "self":
            continue
        assert name in hints, f"{function.__qualname__}: {name} has no hint"
    assert "return" in hints, f"{function.__qualname__}: no return hint"


def test_the_package_says_it_is_typed():
    assert (Path(ikcore.__file__).parent / "py.typed").is_file()
