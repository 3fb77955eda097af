"""Pose JSON: written, read back, checked."""

import json
import math

import pytest

import ikcore
from ikcore import rotation as rot
from ikcore.pose import dump_pose, load_pose


def arm():
    return ikcore.Chain([(0, 0, 0), (0, 1, 0), (0, 2, 0), (0, 2.5, 0)],
                        [ikcore.BallSocket(60, -45, 45), ikcore.Hinge((1, 0, 0), 0, 150), None])


def test_round_trip_through_json_text():
    chain = arm()
    qs = [rot.from_axis_angle((0, 0, 1), 0.3), rot.from_axis_angle((1, 0, 0), 1.0), rot.IDENTITY]
    text = json.dumps(dump_pose("arm", "fabrik", [("arm", chain, qs)]))
    pose = load_pose(text)
    assert pose.scene == "arm" and pose.method == "fabrik"
    back = pose["arm"]
    assert back.chain.points == chain.points
    assert repr(back.chain.joints) == repr(chain.joints)
    for a, b in zip(back.rotations, qs):
        assert rot.angle_between(a, b) < 1e-12
    for p, f in zip(back.positions, chain.forward(qs)):
        assert math.dist(p, f) < 1e-12


def test_a_solution_exports_and_reloads():
    chain = arm()
    sol = ikcore.solve(chain, (0.5, 1.5, 0.8), "dls")
    pose = load_pose(json.dumps(dump_pose("arm", "dls", [("arm", chain, sol.rotations)])))
    assert math.dist(pose["arm"].positions[-1], sol.positions[-1]) < 1e-12


@pytest.mark.parametrize("mutate, match", [
    (lambda d: d.update(format="other"), "format"),
    (lambda d: d.update(version=2), "version"),
    (lambda d: d.update(chains=[]), "chains"),
    (lambda d: d["chains"][0].update(rotations=[[1, 0, 0, 0]]), "rotations"),
    (lambda d: d["chains"][0]["positions"][2].__setitem__(0, 9.0), "positions"),
    (lambda d: d["chains"][0]["joints"].__setitem__(0, {"type": "screw"}), "type"),
    (lambda d: d["chains"][0]["rest"][1].__setitem__(0, float("nan")), "rest|points"),
])
def test_bad_poses_raise(mutate, match):
    data = dump_pose("arm", "ccd", [("arm", arm(), [rot.IDENTITY] * 3)])
    mutate(data)
    with pytest.raises(ikcore.IKError, match=match):
        load_pose(data)


def test_not_json_raises():
    with pytest.raises(ikcore.IKError, match="JSON"):
        load_pose("{not json")
    # Nested past the parser's recursion limit.
    with pytest.raises(ikcore.IKError, match="JSON"):
        load_pose("[" * 100000 + "]" * 100000)


def test_a_number_too_large_for_a_float_is_refused_by_name():
    # JSON hands a long run of digits over as an integer beyond a float's range.
    data = dump_pose("arm", "ccd", [("arm", arm(), [rot.IDENTITY] * 3)])
    data["chains"][0]["rest"][1][0] = 10 ** 400
    with pytest.raises(ikcore.IKError, match="too large for a float"):
        load_pose(json.dumps(data))
