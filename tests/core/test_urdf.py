"""URDF in: forward kinematics of chains read from URDF against matrices worked out here.

The shipped Panda is checked against ``ikcore.rigs.panda()`` and against its published modified
Denavit-Hartenberg table, the UR5-like arm against its standard DH table, each as a product of 4x4
matrices written in this file; random URDF chains against the direct product of their joints'
homogeneous matrices.
"""

import math
import random
from importlib import resources

import pytest
from hypothesis import given
from hypothesis import strategies as st

import ikcore
from ikcore.rigs import panda as panda_rig
from ikcore.rigs.panda import rotations as rig_rotations
from ikcore.rigs.panda import to_y_up

PANDA_URDF = resources.files("ikcore") / "data" / "panda.urdf"
UR5_URDF = resources.files("ikcore") / "data" / "ur5_like.urdf"
SCARA_URDF = resources.files("ikcore") / "data" / "scara_like.urdf"
# The Panda's published modified DH table (a, d, alpha), joints 1-7 then the flange, and its limits.
PANDA_DH = [(0, 0.333, 0), (0, 0, -math.pi / 2), (0, 0.316, math.pi / 2), (0.0825, 0, math.pi / 2),
            (-0.0825, 0.384, -math.pi / 2), (0, 0, math.pi / 2), (0.088, 0, math.pi / 2), (0, 0.107, 0)]
PANDA_LIMITS = [(-2.8973, 2.8973), (-1.7628, 1.7628), (-2.8973, 2.8973), (-3.0718, -0.0698), (-2.8973, 2.8973),
                (-0.0175, 3.7525), (-2.8973, 2.8973)]
# The UR5's published standard DH table (a, d, alpha), joints 1-6.
UR5_DH = [(0, 0.089159, math.pi / 2), (-0.425, 0, 0), (-0.39225, 0, 0), (0, 0.10915, math.pi / 2),
          (0, 0.09465, -math.pi / 2), (0, 0.0823, 0)]


def matmul(A, B):
    return [[sum(A[i][k] * B[k][j] for k in range(4)) for j in range(4)] for i in range(4)]


def modified_dh(a, d, alpha, theta):
    """RotX(alpha) TransX(a) RotZ(theta) TransZ(d)."""
    ct, st_, ca, sa = math.cos(theta), math.sin(theta), math.cos(alpha), math.sin(alpha)
    return [[ct, -st_, 0, a], [st_ * ca, ct * ca, -sa, -d * sa], [st_ * sa, ct * sa, ca, d * ca], [0, 0, 0, 1]]


def standard_dh(a, d, alpha, theta):
    """RotZ(theta) TransZ(d) TransX(a) RotX(alpha)."""
    ct, st_, ca, sa = math.cos(theta), math.sin(theta), math.cos(alpha), math.sin(alpha)
    return [[ct, -st_ * ca, st_ * sa, a * ct], [st_, ct * ca, -ct * sa, a * st_], [0, sa, ca, d], [0, 0, 0, 1]]


def dh_pose(table, angles, link):
    T = [[float(i == j) for j in range(4)] for i in range(4)]
    for (a, d, alpha), theta in zip(table, list(angles) + [0.0] * (len(table) - len(angles))):
        T = matmul(T, link(a, d, alpha, theta))
    return T


def largest_difference(A, B):
    return max(abs(A[i][j] - B[i][j]) for i in range(4) for j in range(4))


def in_limits(limits, rng):
    return [rng.uniform(lo, hi) for lo, hi in limits]


def test_the_panda_urdf_moves_as_its_dh_table_and_as_the_panda_rig():
    chain = ikcore.Chain.from_urdf(PANDA_URDF, "panda_link0", "panda_link8")
    rig, _ = panda_rig()
    assert chain.joint_names == tuple(f"panda_joint{i}" for i in range(1, 8))
    rng = random.Random(1)
    for _ in range(200):
        angles = in_limits(PANDA_LIMITS, rng)
        pose = chain.tip_pose(chain.rotations_of(angles))
        assert largest_difference(pose, dh_pose(PANDA_DH, angles, modified_dh)) <= 1e-12
        # The rig is Y up ((x, y, z) -> (x, z, -y)): its flange point is the URDF's, and its last
        # bone turns each vector as the URDF's does, the vector and its image taken Y up.
        rotations = rig_rotations(rig, angles)
        assert math.dist(rig.forward(rotations)[-1], to_y_up([pose[i][3] for i in range(3)])) <= 1e-12
        turn_rig = rig.world_rotations(rotations)[-1]
        turn_urdf = chain.world_rotations(chain.rotations_of(angles))[-1]
        for v in ((1, 0, 0), (0, 1, 0), (0, 0, 1)):
            assert math.dist(ikcore.rotation.rotate(turn_rig, to_y_up(v)),
                             to_y_up(ikcore.rotation.rotate(turn_urdf, v))) <= 1e-12
        assert max(abs(a - b) for a, b in zip(chain.joint_values(chain.rotations_of(angles)), angles)) <= 1e-12


def test_the_panda_limits_are_the_published_ones():
    chain = ikcore.Chain.from_urdf(PANDA_URDF, "panda_link0", "panda_link8")
    for joint, (lo, hi) in zip(chain.joints, PANDA_LIMITS):
        assert math.radians(joint.min_deg) == pytest.approx(lo, abs=1e-15)
        assert math.radians(joint.max_deg) == pytest.approx(hi, abs=1e-15)


def test_the_ur5_like_urdf_moves_as_its_dh_table():
    chain = ikcore.Chain.from_urdf(UR5_URDF, "base_link", "flange")
    assert chain.size == 6
    rng = random.Random(2)
    for _ in range(200):
        angles = [rng.uniform(-math.pi, math.pi) for _ in range(6)]
        pose = chain.tip_pose(chain.rotations_of(angles))
        assert largest_difference(pose, dh_pose(UR5_DH, angles, standard_dh)) <= 1e-12


def test_the_scara_like_urdf_moves_as_its_dh_table():
    """Standard DH rows (a, d, alpha); the quill's row slides: its d is the joint value, its theta 0."""
    chain = ikcore.Chain.from_urdf(SCARA_URDF, "base_link", "flange")
    assert [type(joint).__name__ for joint in chain.joints] == ["Hinge", "Hinge", "Slider", "Hinge"]
    rng = random.Random(6)
    for _ in range(200):
        q1, q2, d3, q4 = rng.uniform(-1.8, 1.8), rng.uniform(-2.6, 2.6), rng.uniform(0.0, 0.21), rng.uniform(-3, 3)
        T = dh_pose([(0.325, 0.4, 0)], [q1], standard_dh)
        for a, d, alpha, theta in [(0.275, 0, math.pi, q2), (0, d3, 0, 0.0), (0, 0.05, 0, q4)]:
            T = matmul(T, standard_dh(a, d, alpha, theta))
        pose = chain.pose_at([q1, q2, d3, q4])
        assert largest_difference(chain.tip_pose(pose), T) <= 1e-12
        assert chain.joint_values(pose)[2] == d3


def test_fixed_joints_fold_into_the_tip_frame():
    """The hand's centre point: 0.1034 beyond the flange, turned -45 degrees about the flange's z."""
    tcp = ikcore.Chain.from_urdf(PANDA_URDF, "panda_link0", "panda_hand_tcp")
    assert tcp.size == 7
    offset = [[math.cos(-math.pi / 4), -math.sin(-math.pi / 4), 0, 0], [math.sin(-math.pi / 4), math.cos(-math.pi / 4), 0, 0],
              [0, 0, 1, 0.1034], [0, 0, 0, 1]]
    rng = random.Random(3)
    for _ in range(50):
        angles = in_limits(PANDA_LIMITS, rng)
        expected = matmul(dh_pose(PANDA_DH, angles, modified_dh), offset)
        assert largest_difference(tcp.tip_pose(tcp.rotations_of(angles)), expected) <= 1e-12


@pytest.mark.parametrize("tool", ["matrix", "quaternion"])
def test_a_tool_frame_moves_the_target_to_the_tool_point(tool):
    """A tool given as a 4x4 or a position and quaternion: the chain's tip is the tool's frame."""
    flange = ikcore.Chain.from_urdf(PANDA_URDF, "panda_link0", "panda_link8")
    turn = ikcore.rotation.from_axis_angle((1, 2, 3), 0.7)
    m = ikcore.rotation.to_matrix(turn)
    offset = [[m[0], m[1], m[2], 0.01], [m[3], m[4], m[5], -0.02], [m[6], m[7], m[8], 0.15], [0, 0, 0, 1]]
    given_tool = offset if tool == "matrix" else ((0.01, -0.02, 0.15), turn)
    with_tool = ikcore.Chain.from_urdf(PANDA_URDF, "panda_link0", "panda_link8", tool=given_tool)
    rng = random.Random(4)
    for _ in range(50):
        angles = in_limits(PANDA_LIMITS, rng)
        expected = matmul([list(row) for row in flange.tip_pose(flange.rotations_of(angles))], offset)
        assert largest_difference(with_tool.tip_pose(with_tool.rotations_of(angles)), expected) <= 1e-12


@pytest.mark.parametrize("form", ["matrix", "quaternion"])
@pytest.mark.parametrize("source, tip", [(PANDA_URDF, "panda_link8"), (SCARA_URDF, "flange")])
def test_a_base_frame_places_the_robot_in_the_world(source, tip, form):
    """The base link stands turned and moved in the world: each pose is the base's matrix times the pose
    in the base link's frame, at the same joint values, and a world target is met at them."""
    plain = ikcore.Chain.from_urdf(source, "panda_link0" if tip == "panda_link8" else "base_link", tip)
    turn = ikcore.rotation.from_axis_angle((0.3, -1, 0.4), 2.1)
    m = ikcore.rotation.to_matrix(turn)
    base = [[m[0], m[1], m[2], 1.5], [m[3], m[4], m[5], -0.7], [m[6], m[7], m[8], 0.25], [0, 0, 0, 1]]
    given_base = base if form == "matrix" else ((1.5, -0.7, 0.25), turn)
    placed = ikcore.Chain.from_urdf(source, "panda_link0" if tip == "panda_link8" else "base_link", tip,
                                    base=given_base)
    assert placed.joint_names == plain.joint_names
    rng = random.Random(5)
    for _ in range(30):
        values = [rng.uniform(j.lower, j.upper) if isinstance(j, ikcore.Slider)
                  else rng.uniform(max(-math.pi, math.radians(j.min_deg)), min(math.pi, math.radians(j.max_deg)))
                  for j in plain.joints]
        expected = matmul(base, [list(row) for row in plain.tip_pose(plain.pose_at(values))])
        posed = placed.pose_at(values)
        assert largest_difference(placed.tip_pose(posed), expected) <= 1e-12
        assert max(abs(a - b) for a, b in zip(placed.joint_values(posed), values)) <= 1e-12
    solution = ikcore.solve(placed, expected, "dls", tolerance=1e-6)
    assert solution.converged
    assert largest_difference(solution.pose, expected) <= 1e-5


def test_a_bad_base_is_refused():
    with pytest.raises(ikcore.IKError, match="base must be"):
        ikcore.Chain.from_urdf(PANDA_URDF, "panda_link0", "panda_link8", base=[[1, 0, 0], [0, 1, 0], [0, 0, 1]])
    with pytest.raises(ikcore.IKError, match="base quaternion"):
        ikcore.Chain.from_urdf(PANDA_URDF, "panda_link0", "panda_link8", base=((0, 0, 0), (0, 0, 0, 0)))


def test_the_data_files_ship_in_the_wheel_config():
    """pyproject.toml's package data names the URDF files (a wheel without them breaks the rigs)."""
    import pathlib
    import tomllib
    pyproject = tomllib.loads((pathlib.Path(__file__).parents[2] / "pyproject.toml").read_text())
    patterns = pyproject["tool"]["setuptools"]["package-data"]["ikcore"]
    assert "data/*.urdf" in patterns


# ---------------------------------------------------------------------------------------------
# Random URDF chains: origins, rpy, axes, limits, fixed joints.

def rodrigues(axis, angle):
    x, y, z = axis
    c, s, t = math.cos(angle), math.sin(angle), 1 - math.cos(angle)
    return [[t * x * x + c, t * x * y - s * z, t * x * z + s * y, 0], [t * x * y + s * z, t * y * y + c, t * y * z - s * x, 0],
            [t * x * z - s * y, t * y * z + s * x, t * z * z + c, 0], [0, 0, 0, 1]]


def origin_matrix(xyz, rpy):
    r, p, y = rpy
    Rx = [[1, 0, 0, 0], [0, math.cos(r), -math.sin(r), 0], [0, math.sin(r), math.cos(r), 0], [0, 0, 0, 1]]
    Ry = [[math.cos(p), 0, math.sin(p), 0], [0, 1, 0, 0], [-math.sin(p), 0, math.cos(p), 0], [0, 0, 0, 1]]
    Rz = [[math.cos(y), -math.sin(y), 0, 0], [math.sin(y), math.cos(y), 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]
    R = matmul(Rz, matmul(Ry, Rx))
    for i in range(3):
        R[i][3] = xyz[i]
    return R


coordinate = st.floats(-1.0, 1.0, allow_nan=False)
angle = st.floats(-math.pi, math.pi, allow_nan=False)
axis = st.tuples(coordinate, coordinate, coordinate).filter(lambda v: math.hypot(*v) > 0.1)


@st.composite
def urdf_joints(draw):
    count = draw(st.integers(1, 7))
    joints = []
    for _ in range(count):
        kind = draw(st.sampled_from(["revolute", "revolute", "continuous", "prismatic", "fixed"]))
        xyz = draw(st.sampled_from([(0.0, 0.0, 0.0), None])) or draw(st.tuples(coordinate, coordinate, coordinate))
        lo, hi = sorted((draw(angle), draw(angle)))
        joints.append((kind, xyz, draw(st.tuples(angle, angle, angle)), draw(axis), lo, hi))
    # The last link, the tip, some way beyond the last joint.
    joints.append(("fixed", draw(st.tuples(coordinate, coordinate, coordinate).filter(lambda v: math.hypot(*v) > 0.1)),
                   draw(st.tuples(angle, angle, angle)), (1.0, 0.0, 0.0), 0.0, 0.0))
    if all(kind == "fixed" for kind, *_ in joints):
        joints[0] = ("continuous", *joints[0][1:])
    return joints


def urdf_text(joints):
    lines = ['<robot name="random">'] + [f'<link name="l{i}"/>' for i in range(len(joints) + 1)]
    for i, (kind, xyz, rpy, ax, lo, hi) in enumerate(joints):
        limit = f'<limit lower="{lo!r}" upper="{hi!r}" effort="1" velocity="1"/>' if kind in ("revolute", "prismatic") else ""
        lines.append(f'<joint name="j{i}" type="{kind}"><parent link="l{i}"/><child link="l{i + 1}"/>'
                     f'<origin xyz="{" ".join(map(repr, xyz))}" rpy="{" ".join(map(repr, rpy))}"/>'
                     f'<axis xyz="{" ".join(map(repr, ax))}"/>{limit}</joint>')
    return "\n".join(lines + ["</robot>"])


def slide(axis, d):
    T = [[float(i == j) for j in range(4)] for i in range(4)]
    for i in range(3):
        T[i][3] = axis[i] * d
    return T


@given(urdf_joints(), st.randoms(use_true_random=False))
def test_random_urdf_chains_move_as_the_product_of_their_joint_matrices(joints, rng):
    """Revolute, continuous, prismatic and fixed joints: the chain's tip pose at random joint values
    is the product of the joints' origins and their turns (Rodrigues) or slides, to 1e-12."""
    chain = ikcore.Chain.from_urdf(urdf_text(joints), "l0", f"l{len(joints)}")
    moving = [j for j in joints if j[0] != "fixed"]
    assert chain.joint_names == tuple(f"j{i}" for i, j in enumerate(joints) if j[0] != "fixed")
    values = [rng.uniform(lo, hi) if kind in ("revolute", "prismatic") else rng.uniform(-math.pi, math.pi)
              for kind, _, _, _, lo, hi in moving]
    T = [[float(i == j) for j in range(4)] for i in range(4)]
    rest = T
    k = 0
    for kind, xyz, rpy, ax, _, _ in joints:
        T = matmul(T, origin_matrix(xyz, rpy))
        rest = matmul(rest, origin_matrix(xyz, rpy))
        if kind == "fixed":
            continue
        n = math.hypot(*ax)
        unit = [c / n for c in ax]
        if kind != "prismatic":
            # The chain's point for this joint lies on the joint's axis line at rest (it may slide along it).
            world_axis = [sum(rest[i][c] * unit[c] for c in range(3)) for i in range(3)]
            d = [chain.points[k][i] - rest[i][3] for i in range(3)]
            along = sum(a * b for a, b in zip(d, world_axis))
            assert math.dist(d, [along * a for a in world_axis]) <= 1e-12
        T = matmul(T, slide(unit, values[k]) if kind == "prismatic" else rodrigues(unit, values[k]))
        k += 1
    pose = chain.pose_at(values)
    assert largest_difference(chain.tip_pose(pose), T) <= 1e-12
    for got, value, (kind, *_, lo, hi) in zip(chain.joint_values(pose), values, moving):
        if kind == "prismatic":
            assert got == value
        else:
            assert abs(ikcore.rotation.wrap_angle(got - value)) <= 1e-9
        if kind in ("revolute", "prismatic"):
            assert lo - 1e-9 <= got <= hi + 1e-9
