"""The playground: the reader's solver raced against ikcore's, headless (ikcore.rigs.race_solvers),
the templates it starts from, and the scene the page shows."""

import ast
import math
import signal
import time

import pytest

from ikcore.rigs import make_scene, race_solvers, standard_targets
from ikcore.rigs.templates import TEMPLATES, source
from ikcore.rigs.solver_race import playground_chain
from ikcore import IKError

TARGETS = standard_targets()


@pytest.fixture(scope="module")
def races():
    solvers = {f"my_{name}": source(name) for name in TEMPLATES}
    return race_solvers(solvers, TARGETS, methods=("ccd", "fabrik", "jacobian_transpose"), max_iterations=300,
                        budget=60.0)  # the machine may be busy: this test is about iterations, not time


def test_the_standard_targets_are_mostly_within_reach_and_some_beyond():
    chain = playground_chain()
    beyond = [t for t in TARGETS if not chain.reachable(t)]
    assert len(TARGETS) == 40 and len(beyond) == 5


@pytest.mark.parametrize("name", ["ccd", "fabrik", "jacobian_transpose"])
def test_each_template_converges_on_every_standard_target_within_reach(races, name):
    chain = playground_chain()
    for target, race in zip(TARGETS, races):
        run = race[f"my_{name}"]
        want = "converged" if chain.reachable(target) else "unreachable"
        assert run.status == want, (target, run)
        assert run.errors[-1] <= (1e-3 * chain.reach if want == "converged" else run.errors[0])


@pytest.mark.parametrize("name", ["ccd", "fabrik"])
def test_ccd_and_fabrik_templates_end_as_ikcore_does(races, name):
    same = sum(race[f"my_{name}"].status == race[name].status for race in races)
    assert same >= 0.95 * len(races)


def test_the_empty_template_stalls_and_says_so(races):
    assert {race["my_empty"].status for race in races} <= {"stalled", "unreachable"}
    assert all(race["my_empty"].iterations <= 11 for race in races)


@pytest.mark.parametrize("name", TEMPLATES)
def test_templates_are_short_and_state_the_contract(name):
    text = source(name)
    assert text.startswith("# Your solver: step(points, target, lengths)")
    code = [line for line in text.splitlines() if line.strip() and not line.strip().startswith("#")]
    assert (3 if name == "empty" else 15) <= len(code) <= 30, len(code)
    assert any(isinstance(n, ast.FunctionDef) and n.name == "step" for n in ast.parse(text).body)


def test_source_refuses_an_unknown_template():
    with pytest.raises(IKError, match="template"):
        source("newton")


def run_one(code, target=(0.5, 0.8, 0.3), **kw):
    return race_solvers({"mine": code}, [target], methods=("fabrik",), **kw)[0]


def test_per_iteration_errors_and_the_same_start_as_ikcore():
    race = run_one(source("fabrik"), max_iterations=50)
    mine, theirs = race["mine"], race["fabrik"]
    assert mine.errors[0] == pytest.approx(theirs.errors[0])
    assert len(mine.errors) == mine.iterations + 1
    assert mine.errors[-1] <= 1.5e-3 and mine.status == "converged"


def test_a_function_races_as_its_source_does():
    namespace = {}
    exec(source("ccd"), namespace)
    a = run_one(namespace["step"])["mine"]
    b = run_one(source("ccd"))["mine"]
    assert a.errors == b.errors and a.status == b.status


@pytest.mark.parametrize("code, words", [
    ("def step(points, target, lengths):\n    return [(float('nan'), 0.0, 0.0)] * len(points)\n", "NaN"),
    ("def step(points, target, lengths):\n    return points[:-1]\n", "returned 6 points; the chain has 7"),
    ("def step(points, target, lengths):\n    return [(x, 1.1 * y, z) for x, y, z in points]\n",
     "bone 0 (point 0 to 1) is 0.275 long; it must stay 0.25"),
    ("def step(points, target, lengths):\n    return [(x + 0.1, y, z) for x, y, z in points]\n", "the root moved"),
    ("def step(points, target, lengths):\n    return 3\n", "step returned int"),
    ("def step(points, target, lengths):\n    return [('a', 0, 0)] * 7\n", "not three numbers"),
])
def test_a_solver_returning_no_pose_is_flagged_with_what_it_did(code, words):
    run = run_one(code)["mine"]
    assert run.status == "invalid"
    assert words in run.message and run.message.startswith("iteration 1:")
    assert run.line == 1


def test_rotations_are_taken_as_a_pose():
    code = "def step(points, target, lengths):\n    return [(1.0, 0.0, 0.0, 0.0)] * len(lengths)\n"
    run = run_one(code)["mine"]
    assert run.status == "stalled" and run.message is None


def test_an_exception_is_told_with_its_line():
    code = "import math\n\ndef step(points, target, lengths):\n    x = 1\n    return x / 0\n"
    run = run_one(code)["mine"]
    assert (run.status, run.line) == ("error", 5)
    assert run.message == "ZeroDivisionError: division by zero"


def test_a_syntax_error_is_told_with_its_line():
    run = run_one("def step(points, target, lengths):\n    return (points\n\nx = 1\n")["mine"]
    assert run.status == "error" and run.line in (2, 4)
    assert run.message.startswith("SyntaxError")


def test_a_source_without_step_says_what_to_define():
    run = run_one("def solve(points):\n    return points\n")["mine"]
    assert run.status == "error" and "define a function step(points, target, lengths)" in run.message


@pytest.mark.parametrize("code, line", [
    ("def step(points, target, lengths):\n    while True: pass\n", 2),
    ("def step(points, target, lengths):\n    n = 0\n    while True:\n        n += 1\n", None),
    ("def step(points, target, lengths):\n    while True:\n        try:\n            pass\n"
     "        except Exception:\n            pass\n", None),
    ("x = 0\nwhile True:\n    x += 1\n", None),
])
def test_an_endless_loop_is_stopped_within_two_seconds(code, line):
    def hung(signum, frame):
        raise AssertionError("the endless loop was not stopped within 10 s")

    # A budget that never stops the loop fails the test instead of hanging it.
    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(10)
    t0 = time.perf_counter()
    try:
        run = run_one(code, budget=1.0)["mine"]
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    took = time.perf_counter() - t0
    assert run.status == "timeout" and "stopped after 1 s" in run.message
    assert took < 2.0
    if line is not None:
        assert run.line == line


def test_a_slow_solver_runs_out_of_its_budget_between_iterations():
    code = "import time\ndef step(points, target, lengths):\n    time.sleep(0.3)\n    return points\n"
    run = run_one(code, budget=0.5, max_iterations=20)["mine"]
    assert run.status == "timeout" and run.iterations <= 2


def test_solver_names_must_not_be_raced_methods():
    with pytest.raises(IKError, match="also methods"):
        race_solvers({"fabrik": source("fabrik")}, TARGETS[:1], methods=("fabrik",))


def test_what_the_code_prints_is_kept_in_the_scene():
    scene = make_scene("playground")
    scene.run_code("print('hello', 3)\ndef step(points, target, lengths):\n    return points\n")
    scene.step(0.01)
    assert scene.state()["playground"]["output"] == "hello 3\n"


# -- the scene --------------------------------------------------------------------------------------


def settle(scene, frames=8):
    for _ in range(frames):
        scene.step(0.05)
    scene.set_params(replay=False)
    scene.step(0.0)


def test_the_scene_races_the_template_against_the_rivals():
    scene = make_scene("playground")
    settle(scene)
    lanes = scene.state()["race"]["lanes"]
    assert [lane["method"] for lane in lanes] == ["yours", "ccd", "fabrik", "jacobian_transpose"]
    assert all(lane["status"] == "converged" for lane in lanes), lanes
    # The reader's CCD is ikcore's CCD's textbook: from the same start, the same first error.
    assert lanes[0]["errors"][0] == pytest.approx(lanes[1]["errors"][0])
    # Its chain is drawn where its run ended: the tip on the target.
    chains = scene.state()["chains"]
    assert math.dist(chains[0]["effector"], chains[0]["target"]) <= 1.5e-3


def test_run_code_races_again_and_a_template_replaces_the_code():
    scene = make_scene("playground")
    settle(scene)
    scene.run_code("def step(points, target, lengths):\n    return 1 / 0\n")
    settle(scene)
    play = scene.state()["playground"]
    assert (play["status"], play["line"], play["runs"]) == ("error", 2, 2)
    scene.set_params(template="fabrik")
    settle(scene)
    assert scene.state()["playground"]["status"] == "converged"
    assert "FABRIK" in scene.source


def test_a_run_out_of_time_is_not_run_again_by_a_drag():
    scene = make_scene("playground")
    scene.run_code("def step(points, target, lengths):\n    while True:\n        pass\n")
    t0 = time.perf_counter()
    settle(scene)
    assert time.perf_counter() - t0 < 2.5
    assert scene.state()["playground"]["status"] == "timeout"
    t0 = time.perf_counter()
    scene.set_target("target", (0.3, 0.9, 0.1))
    settle(scene)
    assert time.perf_counter() - t0 < 0.5
    play = scene.state()["playground"]
    assert play["status"] == "timeout" and "until you press Run" in play["message"] and play["line"] in (2, 3)


def test_dragging_races_every_lane_again_from_rest():
    scene = make_scene("playground")
    settle(scene)
    scene.set_target("target", (-0.4, 0.7, 0.5))
    states = []
    for _ in range(4):
        scene.step(0.0)
        states.append([lane["status"] for lane in scene.state()["race"]["lanes"]])
    assert states[0][1:] == ["running"] * 3  # one lane a frame
    settle(scene)
    for lane in scene.state()["race"]["lanes"]:
        assert lane["status"] == "converged"


def test_the_code_must_be_text_of_bounded_length():
    scene = make_scene("playground")
    with pytest.raises(Exception, match="text"):
        scene.run_code(3)
    with pytest.raises(Exception, match="at most"):
        scene.run_code("#" * 30000)
