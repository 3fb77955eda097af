"""Section ``instructions``: FABRIK's cold solve against the floor in executed machine instructions.

On a shared machine a solve's time moves by 10% or more from one process to the
next, and the floor's with it, though not in step: the wall-clock ratio of the
``cpython`` section tells changes of a few percent apart only over many runs.
Under valgrind (callgrind) the count of machine instructions the interpreter
executes for a solve is the same in every run: it measures what the solve asks
of the interpreter, apart from the state of the machine.

It does not measure what the machine makes of those instructions. A solve that
runs through more of the interpreter (more functions, objects and kinds of
operation than the floor's one loop over float lists) also misses the caches
and the branch predictor more often. callgrind simulates both (a 32 KiB level-1
instruction and data cache and a simple predictor): the table gives those
misses too, which tell why the wall-clock ratio exceeds the instruction ratio.

Per N: 20 of the standard targets, each solved once as the warm-up (imports,
the chain's plan), then 1 and 5 rounds of all 20 in two runs; the difference
over the 80 extra solves is the count per solve, so start-up cancels out.
``PYTHONHASHSEED=0``: the same dictionaries, and the same count, every run; one
BLAS thread: numpy's idle threads would add their own instructions.
"""

import gc
import os
import shutil
import subprocess
import sys
import tempfile

from .report import table

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TARGETS = 20
ROUNDS = (1, 5)
SIZES = (10, 30)
EVENTS = ("Ir", "Dr", "Dw", "I1mr", "D1mr", "D1mw", "ILmr", "DLmr", "DLmw", "Bc", "Bcm", "Bi", "Bim")


def drive(kind, n, rounds):
    """What runs under valgrind: ``rounds`` rounds of cold solves of the first :data:`TARGETS`
    standard targets, by the floor (``kind == "floor"``) or by ``ikcore.solve`` (FABRIK)."""
    import ikcore

    from . import problems, reference
    chain = problems.free_chain(n)
    targets = problems.targets_3d(n)[:TARGETS]
    if kind == "floor":
        xs, zeros, lengths = [float(i) for i in range(n + 1)], [0.0] * (n + 1), [1.0] * n

        def one(target):
            reference.fabrik_floor(xs, zeros, zeros, lengths, target, 1e-3 * n, 100)
    else:
        def one(target):
            ikcore.solve(chain, target)
    for target in targets:
        one(target)
    gc.collect()
    gc.disable()
    for _ in range(rounds):
        for target in targets:
            one(target)


def count(kind, n, rounds):
    """callgrind's event totals for one :func:`drive` run."""
    env = {**os.environ, "PYTHONHASHSEED": "0", "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        subprocess.run(["valgrind", "--tool=callgrind", "--cache-sim=yes", "--branch-sim=yes",
                        f"--callgrind-out-file={out}", sys.executable, "-m", "tests.bench.instructions",
                        kind, str(n), str(rounds)],
                       cwd=ROOT, check=True, capture_output=True, env=env)
        with open(out, encoding="utf-8") as f:
            return summary(f.read())


def summary(text):
    """``{event: total}`` from the ``events:`` and ``summary:`` lines of a callgrind output file."""
    names = values = None
    for line in text.splitlines():
        if line.startswith("events:"):
            names = line.split()[1:]
        elif line.startswith("summary:"):
            values = [int(v) for v in line.split()[1:]]
    if names is None or values is None:
        raise ValueError("not a callgrind output file: no events or summary line")
    return dict(zip(names, values))


def per_solve(kind, n):
    """Each event per solve: the difference between the two runs of :data:`ROUNDS`, over their extra solves."""
    few, many = (count(kind, n, r) for r in ROUNDS)
    solves = (ROUNDS[1] - ROUNDS[0]) * TARGETS
    return {event: (many[event] - few[event]) / solves for event in EVENTS}


def section(cfg):
    """Run the section; return (markdown, data)."""
    title = "## FABRIK against the floor in instructions (callgrind)"
    if shutil.which("valgrind") is None:
        return f"{title}\n\nvalgrind is not installed (`apt-get install valgrind`): not measured.", {}
    rows, data = [], {}
    for n in (s for s in SIZES if s in cfg.sizes):
        floor, solve = per_solve("floor", n), per_solve("fabrik", n)
        data[n] = {"floor": floor, "fabrik": solve, "ratio": solve["Ir"] / floor["Ir"]}
        for name, c in (("floor (plain lists)", floor), ("ikcore.solve fabrik", solve)):
            rows.append([n, name, f"{c['Ir'] / 1e3:,.1f}",
                         "1.00x" if c is floor else f"{c['Ir'] / floor['Ir']:.2f}x",
                         f"{c['I1mr']:,.0f}", f"{c['D1mr'] + c['D1mw']:,.0f}", f"{c['Bcm'] + c['Bim']:,.0f}"])
    # The module docstring's paragraphs after the first, each on one line.
    about = [" ".join(p.split()) for p in __doc__.split("\n\n")[1:]]
    md = [title, "", "\n\n".join(about), "",
          table(["N", "", "thousand instructions / solve", "vs floor", "L1 instruction misses / solve",
                 "L1 data misses / solve", "branch mispredictions / solve"], rows)]
    return "\n".join(md), data


if __name__ == "__main__":
    drive(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
