"""The build scripts' messages (build/lib.sh say and die): plain text in a log file, bold and red only on a
terminal."""

import os
import pty
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = f". {ROOT / 'build' / 'lib.sh'}; say built; die broken"


def test_no_colour_codes_when_not_a_terminal():
    run = subprocess.run(["bash", "-c", SCRIPT], capture_output=True, text=True, env={**os.environ, "NO_COLOR": ""})
    assert run.returncode == 1
    assert run.stderr == "[ikcore] built\n[ikcore] error: broken\n"


def test_colour_codes_on_a_terminal():
    # stderr is a pseudo-terminal here, as in a shell.
    leader, follower = pty.openpty()
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    run = subprocess.run(["bash", "-c", SCRIPT], stderr=follower, stdout=subprocess.DEVNULL, env=env)
    os.close(follower)
    out = os.read(leader, 4096).decode()
    os.close(leader)
    assert run.returncode == 1
    assert "\x1b[1m[ikcore]\x1b[0m built" in out and "\x1b[1;31m[ikcore] error:\x1b[0m broken" in out
