"""Each script of examples/ runs in a fresh interpreter and prints what it is there to show."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
#: Per script: lines its output must hold (a solve that went wrong would print another status).
EXPECTED = {
    "first_solve.py": ["status:     converged", "far target: unreachable"],
    "tracking.py": ["last frame: converged"],
    "skeleton.py": ["left  foot: converged, at (-0.200, 0.000, 0.200)",
                    "right foot: converged, at (0.300, 0.000, 0.000)"],
    "robot.py": ["plain            converged", "obstacle clearance -0.100 m", "with objectives  converged"],
    "batch.py": ["1000 targets: 1000 converged"],
}


def test_every_example_is_run_here():
    assert sorted(p.name for p in EXAMPLES.glob("*.py")) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_example_runs_and_prints_its_result(name):
    done = subprocess.run([sys.executable, str(EXAMPLES / name)], capture_output=True, text=True, timeout=120,
                          cwd=ROOT)
    assert done.returncode == 0, done.stderr
    for line in EXPECTED[name]:
        assert line in done.stdout, f"{name} printed:\n{done.stdout}"
    assert "nan" not in done.stdout.lower()


def test_tracking_is_warm_after_its_first_frame():
    out = subprocess.run([sys.executable, str(EXAMPLES / "tracking.py")], capture_output=True, text=True,
                         timeout=120, check=True).stdout
    most = int(out.split("most after it ", 1)[1].split(",", 1)[0])
    assert most <= 3, out


def test_the_robot_clears_the_obstacle_with_its_objectives():
    out = subprocess.run([sys.executable, str(EXAMPLES / "robot.py")], capture_output=True, text=True,
                         timeout=120, check=True).stdout
    line = next(row for row in out.splitlines() if row.startswith("with objectives"))
    assert float(line.split("obstacle clearance ", 1)[1].split(" m", 1)[0]) > 0, out
