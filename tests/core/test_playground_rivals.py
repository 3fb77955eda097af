"""The playground's ``rivals``: which of ikcore's methods race the reader's solver. A parameter of the kind
``subset`` (a set of names out of a list), which the scene checks as it checks any parameter; the lanes, their
targets and the layout follow it."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ikcore import IKError
from ikcore.rigs import make_scene
from ikcore.rigs.race import RACERS
from ikcore.rigs.scene import check_param

SPEC = {"kind": "subset", "choices": list(RACERS)}
FAST = "def step(points, target, lengths):\n    print('ran')\n    return points\n"


def settle(scene, frames=10):
    for _ in range(frames):
        scene.step(0.05)
    replay = scene.params["replay"]
    scene.set_params(replay=False)
    scene.step(0.0)
    scene.set_params(replay=replay)


def lane_names(scene):
    return [lane["method"] for lane in scene.state()["race"]["lanes"]]


def test_the_spec_offers_every_racer_and_the_default_is_the_templates_methods():
    scene = make_scene("playground")
    assert scene.layout()["param_specs"]["rivals"] == SPEC
    assert scene.params["rivals"] == ("ccd", "fabrik", "jacobian_transpose")
    assert scene.state()["params"]["rivals"] == ("ccd", "fabrik", "jacobian_transpose")


@settings(max_examples=300, deadline=None)
@given(value=st.one_of(
    st.lists(st.sampled_from(RACERS), max_size=8),
    st.lists(st.sampled_from(RACERS), min_size=1, unique=True).map(tuple),
    st.lists(st.one_of(st.sampled_from(RACERS), st.sampled_from(["two_bone", "CCD", "", "ccd "]), st.integers(),
                       st.none(), st.lists(st.just("ccd"), max_size=1)), max_size=4),
    st.sampled_from(["ccd", "ccd,fabrik", "", None, 3, {"ccd": True}, {"ccd"}, b"ccd"])))
def test_a_subset_is_a_nonempty_set_of_the_choices_kept_in_their_order(value):
    fits = (isinstance(value, (list, tuple)) and len(value) > 0
            and all(isinstance(v, str) and v in RACERS for v in value) and len(set(value)) == len(value))
    if fits:
        assert check_param(SPEC, value, "rivals") == tuple(m for m in RACERS if m in value)
    else:
        with pytest.raises(IKError, match="^rivals"):
            check_param(SPEC, value, "rivals")


@pytest.mark.parametrize("value, words", [
    ("ccd", "rivals must be a list of names out of ccd, fabrik, jacobian_transpose, pseudo_inverse, dls, "
            "fabrik_dls; got 'ccd'"),
    ([], "rivals must name at least one of ccd, fabrik"),
    (["ccd", "fabrik", "ccd"], "rivals names 'ccd' twice"),
    (["ccd", "two_bone"], "rivals: 'two_bone' is not one of ccd, fabrik"),
    ([1], "rivals: 1 is not one of"),
    (42, "rivals must be a list of names out of"),
])
def test_bad_rivals_are_refused_by_name_and_change_nothing(value, words):
    scene = make_scene("playground")
    settle(scene)
    before = (scene.revision, lane_names(scene), dict(scene.params), len(scene.allocate()))
    with pytest.raises(IKError) as refused:
        scene.set_params(rivals=value, rate=30)
    assert str(refused.value).startswith(words), str(refused.value)
    assert (scene.revision, lane_names(scene), dict(scene.params), len(scene.allocate())) == before


def test_the_lanes_follow_the_rivals_in_a_new_layout():
    scene = make_scene("playground")
    settle(scene)
    revision = scene.revision
    scene.set_params(rivals=["dls", "fabrik", "pseudo_inverse", "fabrik_dls"])  # any order: kept in RACERS'
    assert scene.params["rivals"] == ("fabrik", "pseudo_inverse", "dls", "fabrik_dls")
    assert scene.revision == revision + 1
    layout = scene.layout()
    assert layout["revision"] == revision + 1
    assert [c["name"] for c in layout["chains"]] == ["yours", "fabrik", "pseudo_inverse", "dls", "fabrik_dls"]
    assert [t["name"] for t in layout["targets"]] == ["target", "target@fabrik", "target@pseudo_inverse",
                                                      "target@dls", "target@fabrik_dls"]
    # The buffer of the new layout is written whole; the arrangements stand the five lanes.
    buf = scene.allocate()
    settle(scene)
    assert scene.write(buf) == len(buf) == layout["size"]
    assert all(len(a["roots"]) == 5 for a in layout["race"]["arrangements"])
    lanes = scene.state()["race"]["lanes"]
    assert [lane["method"] for lane in lanes] == ["yours", "fabrik", "pseudo_inverse", "dls", "fabrik_dls"]
    assert all(lane["status"] == "converged" for lane in lanes), lanes
    # Each rival's lane solved its own method: its curve is ikcore's run of that method.
    assert lanes[1]["errors"] != lanes[3]["errors"]
    # Every lane's target stands where lane 0's does, moved by its root.
    chains = scene.state()["chains"]
    for k, chain in enumerate(chains):
        assert math.dist(chain["effector"], chain["target"]) <= 1e-3 * 1.5 + 1e-9, (k, chain)
    # The same set again, in another order: nothing changes.
    scene.set_params(rivals=("fabrik_dls", "dls", "pseudo_inverse", "fabrik"))
    assert scene.revision == revision + 1
    # One rival: two lanes.
    scene.set_params(rivals=["ccd"])
    assert scene.revision == revision + 2 and lane_names(scene) == ["yours", "ccd"]
    settle(scene)
    assert [lane["status"] for lane in scene.state()["race"]["lanes"]] == ["converged", "converged"]


def test_every_racer_at_once():
    scene = make_scene("playground")
    scene.set_params(rivals=list(RACERS))
    settle(scene)
    assert lane_names(scene) == ["yours", *RACERS]
    assert len(scene.state()["chains"]) == 1 + len(RACERS)


def test_other_rivals_race_the_code_that_ran_and_keep_the_target():
    scene = make_scene("playground")
    scene.run_code(FAST)
    settle(scene)
    scene.set_target("target", (-0.3, 0.8, 0.4))
    settle(scene)
    runs, source = scene.runs_of_code, scene.source
    scene.set_params(rivals=["fabrik", "dls"])
    # The code is not loaded again (its top level does not run again), but the reader's lane races again.
    assert (scene.runs_of_code, scene.source) == (runs, source)
    race = scene.state()["race"]
    assert race["lanes"][0]["status"] == "running" and race["elapsed"] == 0.0  # replayed from the start
    settle(scene)
    state = scene.state()
    assert state["playground"]["status"] == "stalled" and state["playground"]["runs"] == runs
    assert state["targets"]["target"] == {"position": [-0.3, 0.8, 0.4], "orientation": None, "pinned": True,
                                          "held": True}
    assert state["chains"][2]["target"] == pytest.approx([-0.3 + 2 * 0.73 * 1.5, 0.8, 0.4])


def test_code_that_ran_out_of_time_is_not_run_again_by_other_rivals():
    scene = make_scene("playground")
    scene.run_code("def step(points, target, lengths):\n    while True:\n        pass\n")
    settle(scene)
    assert scene.state()["playground"]["status"] == "timeout"
    scene.set_params(rivals=["dls"])
    settle(scene, 3)
    play = scene.state()["playground"]
    assert play["status"] == "timeout" and "until you press Run" in play["message"]


def test_a_template_and_rivals_chosen_together():
    scene = make_scene("playground")
    scene.run_code(FAST)
    settle(scene)
    scene.set_params(template="fabrik", rivals=["fabrik"])
    assert "FABRIK" in scene.source and lane_names(scene) == ["yours", "fabrik"]
    settle(scene)
    lanes = scene.state()["race"]["lanes"]
    assert [lane["status"] for lane in lanes] == ["converged", "converged"]
    # The template's FABRIK is the textbook's: the same first error as ikcore's from the same start.
    assert lanes[0]["errors"][0] == pytest.approx(lanes[1]["errors"][0])


def test_columns_above_the_lanes_stand_them_in_one_row():
    scene = make_scene("playground")
    scene.set_params(rivals=["ccd"], columns=7)
    layout = scene.layout()
    assert [a["columns"] for a in layout["race"]["arrangements"]] == list(range(1, 8))
    one_row = {a["columns"]: a["roots"] for a in layout["race"]["arrangements"]}
    assert all(roots == one_row[2] for c, roots in one_row.items() if c >= 2)
    chains = scene.state()["chains"]
    assert chains[1]["target"][2] == pytest.approx(chains[0]["target"][2])  # the same row
    # Six rivals in rows of two: three rows; fewer lanes than a row's room keep theirs.
    scene.set_params(rivals=list(RACERS), columns=2)
    roots = [tuple(r) for r in next(a for a in scene.layout()["race"]["arrangements"] if a["columns"] == 2)["roots"]]
    assert len({z for _, _, z in roots}) == 4  # seven lanes in rows of two: four rows
