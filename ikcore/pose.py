"""Poses as JSON: what the page's "Download pose" writes and Python reads back.

The format (version 1)::

    {"format": "ikcore-pose", "version": 1, "scene": "arm", "method": "fabrik",
     "convention": "...",
     "chains": [{"name": "arm",
                 "rest": [[x, y, z], ...],          # N + 1 rest points, root first
                 "joints": [null | {"type": "hinge", "axis": [x, y, z], "min_deg": a, "max_deg": b}
                                 | {"type": "ball", "cone_deg": c, "twist_min_deg": a, "twist_max_deg": b}
                                 | {"type": "slider", "axis": [x, y, z], "lower": a, "upper": b}],
                 "rotations": [[w, x, y, z], ...],  # N local rotations (ikcore.rotation convention)
                 "slides": [null | s, ...],         # with a slider only: each one's displacement
                 "positions": [[x, y, z], ...],     # N + 1 points, forward kinematics of the rotations
                 "frame": {"position": [x, y, z], "rotation": [w, x, y, z]},   # optional
                 "world_positions": [[x, y, z], ...]}]}                        # optional, with "frame"

Positions and rest points are in the frame the chain was solved in (a skeleton
chain's parent frame; the world for a free-standing chain). ``frame``, when
present, is that frame's world pose, and ``world_positions`` the points in the
world: ``world = frame.position + frame.rotation (position)``. Readers that only
need the chain ignore both; :func:`load_pose` checks them when they are there.

A chain with a sliding joint (:class:`~ikcore.Slider`) carries ``slides``: per joint
the slider's displacement along its axis (``null`` for the other joints), and its
bone ``i`` runs along ``rest[i + 1] - rest[i] + slides[i] axis_i`` before it turns.
"""

import json
import math
from collections.abc import Sequence

from . import rotation as rot
from .chain import Chain
from .checks import check_float, check_point, check_quaternion, check_rotations, check_vector
from .constraints import BallSocket, Hinge, Slider
from .errors import IKError
from .kinematics import Frames, pose_of

FORMAT = "ikcore-pose"
VERSION = 1
CONVENTION = ("quaternions (w, x, y, z); joint i's world rotation R_i = q_0 q_1 ... q_i; "
              "positions[i+1] = positions[i] + R_i (rest[i+1] - rest[i]); the root never moves")
#: The most chains a pose holds: the largest crowd's legs (400 spiders of 8) fit, with room.
_MAX_CHAINS = 4096


class PoseChain:
    """One chain of a pose: a :class:`~ikcore.Chain`, its rotations and positions.

    ``frame`` is the world ``(position, rotation)`` of the frame the chain lives
    in (the identity when the pose did not say), ``world_positions`` the chain's
    points in the world; ``slides`` each slider's displacement (``None`` for the
    other joints; ``None`` for a chain without sliders).
    """

    __slots__ = ("name", "chain", "rotations", "positions", "frame", "world_positions", "slides")

    def __init__(self, name, chain, rotations, positions, frame=None, slides=None):
        self.name = name
        self.chain = chain
        self.rotations = rotations
        self.slides = slides
        self.positions = positions
        self.frame = ((0.0, 0.0, 0.0), rot.IDENTITY) if frame is None else frame
        self.world_positions = to_world(self.frame, positions)

    def __repr__(self):
        return f"PoseChain({self.name!r}, bones={self.chain.size})"


class Pose:
    """A read pose: ``scene``, ``method`` and ``chains`` (a list of :class:`PoseChain`)."""

    __slots__ = ("scene", "method", "chains")

    def __init__(self, scene, method, chains):
        self.scene = scene
        self.method = method
        self.chains = chains

    def __getitem__(self, name):
        for c in self.chains:
            if c.name == name:
                return c
        raise KeyError(name)


def joint_to_json(joint):
    """A constraint as a JSON-ready dict (``None`` stays ``None``)."""
    if joint is None:
        return None
    if isinstance(joint, Hinge):
        return {"type": "hinge", "axis": list(joint.axis), "min_deg": joint.min_deg, "max_deg": joint.max_deg}
    if isinstance(joint, Slider):
        return {"type": "slider", "axis": list(joint.axis), "lower": joint.lower, "upper": joint.upper}
    return {"type": "ball", "cone_deg": joint.cone_deg, "twist_min_deg": joint.twist_min_deg,
            "twist_max_deg": joint.twist_max_deg}


def to_world(frame, points):
    """``points`` of a chain's frame in the world: ``position + rotation (p)``."""
    return rot.transform_points(points, *frame)


def _frame_from_json(data, where):
    if not isinstance(data, dict):
        raise IKError(f"{where} must be an object with position and rotation, got {data!r:.60}")
    return (check_point(data.get("position"), f"{where}.position"),
            rot.normalize(check_quaternion(data.get("rotation"), f"{where}.rotation")))


def _check_points_match(given, expected, tolerance, where):
    if not isinstance(given, list) or len(given) != len(expected):
        raise IKError(f"{where} must hold {len(expected)} points")
    for i, (p, f) in enumerate(zip(given, expected)):
        if math.dist(check_point(p, f"{where}[{i}]"), f) > tolerance:
            raise IKError(f"{where}[{i}] does not match the rotations")


def _joint_from_json(data, where):
    if data is None:
        return None
    if not isinstance(data, dict):
        raise IKError(f"{where} must be null or an object, got {data!r:.60}")
    kind = data.get("type")
    if kind == "hinge":
        return Hinge(axis=check_vector(data.get("axis"), f"{where}.axis"),
                     min_deg=check_float(data.get("min_deg"), f"{where}.min_deg"),
                     max_deg=check_float(data.get("max_deg"), f"{where}.max_deg"))
    if kind == "ball":
        return BallSocket(cone_deg=check_float(data.get("cone_deg"), f"{where}.cone_deg"),
                          twist_min_deg=check_float(data.get("twist_min_deg"), f"{where}.twist_min_deg"),
                          twist_max_deg=check_float(data.get("twist_max_deg"), f"{where}.twist_max_deg"))
    if kind == "slider":
        return Slider(axis=check_vector(data.get("axis"), f"{where}.axis"),
                      lower=check_float(data.get("lower"), f"{where}.lower"),
                      upper=check_float(data.get("upper"), f"{where}.upper"))
    raise IKError(f"{where}.type must be 'hinge', 'ball' or 'slider', got {kind!r:.60}")


def _slides_from_json(data, chain, where):
    """A chain's ``slides`` entry: ``None`` for a chain without sliders (which must have none), else per
    joint a displacement within the slider's range, ``null`` for the other joints."""
    if not chain.plan.sliders:
        if data is not None:
            raise IKError(f"{where}.slides is given, but the chain has no sliding joint")
        return None
    if not isinstance(data, list) or len(data) != chain.size:
        raise IKError(f"{where}.slides must be a list of {chain.size} (a displacement per slider, null for the "
                      f"other joints)")
    slides = []
    for j, (value, joint) in enumerate(zip(data, chain.joints)):
        if not isinstance(joint, Slider):
            if value is not None:
                raise IKError(f"{where}.slides[{j}] must be null: joint {j} is no slider")
            slides.append(None)
            continue
        s = check_float(value, f"{where}.slides[{j}]")
        if not joint.lower <= s <= joint.upper:
            raise IKError(f"{where}.slides[{j}] {s!r} is outside the slider's range [{joint.lower!r}, "
                          f"{joint.upper!r}]")
        slides.append(s)
    return slides


def dump_pose(scene: str, method: str, chains: Sequence[tuple]) -> dict:
    """The JSON-ready dict of a pose.

    Parameters
    ----------
    scene, method : str
    chains : iterable of (name, Chain, pose) or (name, Chain, pose, frame)
        ``pose``: the local rotations, or a :class:`~ikcore.kinematics.Frames` (a
        Solution's ``frames``), which a chain with sliders needs: it holds their
        displacements. Positions are computed by forward kinematics.
        ``frame``, the world ``(position, rotation)`` of the chain's frame,
        adds ``frame`` and ``world_positions`` to the chain's entry.

    Examples
    --------
    >>> import ikcore
    >>> chain = ikcore.Chain([(0, 0, 0), (0, 1, 0), (0, 2, 0)])
    >>> straight = ikcore.solve(chain, (0.0, 2.0, 0.0))
    >>> pose = ikcore.dump_pose("arm", "fabrik", [("arm", chain, straight.rotations)])
    >>> pose["scene"], pose["method"], [entry["name"] for entry in pose["chains"]]
    ('arm', 'fabrik', ['arm'])
    """
    out = []
    for name, chain, pose, *frame in chains:
        slides = pose.slides if isinstance(pose, Frames) else None
        rotations = pose.rotations if isinstance(pose, Frames) else pose
        if chain.plan.sliders and slides is None:
            raise IKError(f"chain {name!r} has a sliding joint (joint {chain.plan.sliders[0]} is a Slider): "
                          f"its pose must be Frames (a Solution's frames), which hold the slides")
        positions = chain.forward(rotations) if slides is None else pose_of(chain, rotations, slides).points
        entry = {"name": str(name), "rest": [list(p) for p in chain.points],
                 "joints": [joint_to_json(j) for j in chain.joints],
                 "rotations": [list(q) for q in rotations], "positions": [list(p) for p in positions]}
        if slides is not None:
            entry["slides"] = list(slides)
        if frame and frame[0] is not None:
            position, rotation = frame[0]
            entry["frame"] = {"position": list(position), "rotation": list(rotation)}
            entry["world_positions"] = [list(p) for p in to_world((position, rotation), positions)]
        out.append(entry)
    return {"format": FORMAT, "version": VERSION, "scene": str(scene), "method": str(method),
            "convention": CONVENTION, "chains": out}


def load_pose(source: str | bytes | dict) -> "Pose":
    """Read a pose from a JSON string, bytes, file object or parsed dict.

    Every chain is rebuilt and checked: its positions must equal the forward
    kinematics of its rotations (to ``1e-6 x reach``).

    Raises
    ------
    IKError
        Malformed JSON, another format or version, or any invalid value.

    Examples
    --------
    >>> import json, ikcore
    >>> chain = ikcore.Chain([(0, 0, 0), (0, 1, 0), (0, 2, 0)])
    >>> text = json.dumps(ikcore.dump_pose("arm", "fabrik", [("arm", chain, [(1.0, 0.0, 0.0, 0.0)] * 2)]))
    >>> [round(c, 6) for c in ikcore.load_pose(text)["arm"].positions[-1]]
    [0.0, 2.0, 0.0]
    """
    if hasattr(source, "read"):
        source = source.read()
    if isinstance(source, (str, bytes, bytearray)):
        try:
            source = json.loads(source)
        except (ValueError, RecursionError) as exc:
            # (Arrays nested deeper than the parser's recursion limit end in RecursionError.)
            raise IKError(f"pose is not valid JSON: {str(exc):.200}") from None
    if not isinstance(source, dict):
        raise IKError("pose must be a JSON object")
    if source.get("format") != FORMAT:
        raise IKError(f"pose format must be {FORMAT!r}, got {source.get('format')!r:.60}")
    if source.get("version") != VERSION:
        raise IKError(f"pose version {source.get('version')!r:.20} is not supported (expected {VERSION})")
    entries = source.get("chains")
    if not isinstance(entries, list) or not 1 <= len(entries) <= _MAX_CHAINS:
        raise IKError(f"pose chains must be a list of 1 to {_MAX_CHAINS} chains")
    chains = []
    for k, entry in enumerate(entries):
        where = f"chains[{k}]"
        if not isinstance(entry, dict):
            raise IKError(f"{where} must be an object")
        joints = entry.get("joints")
        if joints is not None and not isinstance(joints, list):
            raise IKError(f"{where}.joints must be a list")
        joints = None if joints is None else [_joint_from_json(j, f"{where}.joints[{i}]") for i, j in enumerate(joints)]
        chain = Chain(entry.get("rest"), joints)
        rotations = check_rotations(entry.get("rotations"), chain.size, f"{where}.rotations")
        slides = _slides_from_json(entry.get("slides"), chain, where)
        positions = chain.forward(rotations) if slides is None else pose_of(chain, rotations, slides).points
        tolerance = 1e-6 * chain.reach
        if entry.get("positions") is not None:
            _check_points_match(entry["positions"], positions, tolerance, f"{where}.positions")
        frame = None
        if entry.get("frame") is not None:
            frame = _frame_from_json(entry["frame"], f"{where}.frame")
        elif entry.get("world_positions") is not None:
            raise IKError(f"{where}.world_positions needs {where}.frame")
        item = PoseChain(str(entry.get("name", f"chain{k}")), chain, rotations, positions, frame, slides)
        if entry.get("world_positions") is not None:
            _check_points_match(entry["world_positions"], item.world_positions, tolerance,
                                 f"{where}.world_positions")
        chains.append(item)
    return Pose(str(source.get("scene", "")), str(source.get("method", "")), chains)
