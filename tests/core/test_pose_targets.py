"""Poses in the robot's convention: 4x4 targets (or position + rotation matrix) for the tip frame,
solutions in joint values."""

import math
import random
from importlib import resources

import pytest

import ikcore

DATA = resources.files("ikcore") / "data"
ARMS = {"panda": (DATA / "panda.urdf", "panda_link0", "panda_hand_tcp"),
        "ur5_like": (DATA / "ur5_like.urdf", "base_link", "flange"),
        "scara_like": (DATA / "scara_like.urdf", "base_link", "flange")}


def arm(name):
    return ikcore.Chain.from_urdf(*ARMS[name])


def limits(chain):
    return [(j.lower, j.upper) if isinstance(j, ikcore.Slider) else (math.radians(j.min_deg), math.radians(j.max_deg))
            for j in chain.joints]


def random_values(chain, rng):
    # A full hinge (range of a turn or more) is drawn over one turn.
    return [rng.uniform(max(lo, -math.pi), min(hi, math.pi)) for lo, hi in limits(chain)]


def within(values, chain):
    return all(lo - 1e-9 <= v <= hi + 1e-9 for v, (lo, hi) in zip(values, limits(chain)))


def pose_error(A, B):
    """Position distance and rotation angle between two 4x4 poses."""
    position = math.dist([A[i][3] for i in range(3)], [B[i][3] for i in range(3)])
    trace = sum(A[0][i] * B[0][i] + A[1][i] * B[1][i] + A[2][i] * B[2][i] for i in range(3))
    return position, math.acos(max(-1.0, min(1.0, (trace - 1.0) / 2.0)))


@pytest.mark.parametrize("name", sorted(ARMS))
def test_dls_meets_4x4_targets_made_by_forward_kinematics_within_the_limits(name):
    chain = arm(name)
    rng = random.Random(5)
    for _ in range(60):
        target = chain.tip_pose(chain.pose_at(random_values(chain, rng)))
        solution = ikcore.solve(chain, target, "dls", tolerance=1e-4)
        assert solution.status == "converged", solution
        assert within(solution.joint_values, chain)
        position, angle = pose_error(solution.pose, target)
        assert position <= 1e-4 and angle <= 1e-3
        # The joint values pose the chain as the solution does.
        again = chain.tip_pose(chain.pose_at(solution.joint_values))
        assert max(abs(a - b) for u, v in zip(again, solution.pose) for a, b in zip(u, v)) <= 1e-12


def test_a_pose_given_as_numpy_or_as_position_and_rotation_is_the_same_target():
    np = pytest.importorskip("numpy")
    chain = arm("panda")
    target = chain.tip_pose(chain.rotations_of([0.1, -0.5, 0.2, -2.0, 0.3, 1.8, 0.4]))
    nested = ikcore.solve(chain, target, "dls")
    matrix = np.array(target)
    assert ikcore.solve(chain, matrix, "dls") == nested
    assert ikcore.solve(chain, (matrix[:3, 3], matrix[:3, :3]), "dls") == nested
    assert ikcore.solve(chain, ([row[3] for row in target[:3]], [row[:3] for row in target[:3]]), "dls") == nested


def test_the_tracker_takes_4x4_targets():
    chain = arm("ur5_like")
    track = ikcore.Tracker(chain, "dls", tolerance=1e-4)
    values = [0.3, -1.0, 1.2, -0.5, 0.8, 0.1]
    for k in range(10):
        values[0] += 0.01
        target = chain.tip_pose(chain.rotations_of(values))
        solution = track(target)
        assert solution.converged and within(solution.joint_values, chain)


def test_for_a_chain_of_points_a_pose_is_the_turn_from_rest():
    chain = ikcore.Chain([(0, 0, 0), (0, 1, 0), (0, 2, 0)])
    bends = [ikcore.rotation.from_axis_angle((0, 0, 1), 0.3), ikcore.rotation.from_axis_angle((1, 0, 1), 0.4)]
    turn = chain.world_rotations(bends)[-1]
    x, y, z = chain.forward(bends)[-1]
    m = ikcore.rotation.to_matrix(turn)
    pose = [[m[0], m[1], m[2], x], [m[3], m[4], m[5], y], [m[6], m[7], m[8], z], [0, 0, 0, 1]]
    as_pose = ikcore.solve(chain, pose, "dls", tolerance=1e-6)
    as_turn = ikcore.solve(chain, (x, y, z), "dls", tolerance=1e-6, orientation=turn)
    assert as_pose.status == as_turn.status == "converged"
    assert math.dist(as_pose.effector, as_turn.effector) <= 1e-9
    assert ikcore.rotation.angle_between(as_pose.frames.worlds[-1], as_turn.frames.worlds[-1]) <= 1e-9


def test_solution_joint_values_follow_the_urdf_order():
    chain = arm("panda")
    values = [0.1, -0.5, 0.2, -2.0, 0.3, 1.8, 0.4]
    solution = ikcore.solve(chain, chain.tip_pose(chain.rotations_of(values)), "dls", tolerance=1e-6,
                            start=chain.rotations_of(values))
    assert chain.joint_names == tuple(f"panda_joint{i}" for i in range(1, 8))
    assert solution.iterations == 0
    assert max(abs(a - b) for a, b in zip(solution.joint_values, values)) <= 1e-12


@pytest.mark.parametrize("target, options, says", [
    ([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0.5], [0, 0, 0, 1]], {"orientation": (1, 0, 0, 0)}, "no orientation="),
    ([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0.5], [0, 0, 0, 1]], {"method": "fabrik"}, "takes no pose target"),
    ([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0.5], [1, 0, 0, 1]], {}, "last row"),
    ([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, math.nan], [0, 0, 0, 1]], {}, "finite"),
    ([[1, 0.1, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0.5], [0, 0, 0, 1]], {}, "orthonormal"),
    ([[0, 1, 0, 0], [1, 0, 0, 0], [0, 0, 1, 0.5], [0, 0, 0, 1]], {}, "reflection"),
    (((0, 0, 0.5), [[1, 0, 0], [0, 1, 0]]), {}, "3 components|3x3"),
    ([[1, 0, 0], [0, 1, 0], [0, 0, 1], [0, 0, 0]], {}, "4 components"),
])
def test_bad_pose_targets_are_refused(target, options, says):
    chain = arm("panda")
    method = options.pop("method", "dls")
    with pytest.raises(ikcore.IKError, match=says):
        ikcore.solve(chain, target, method, **options)
