"""Speed benchmark of ikcore (not part of the default test run).

Run it with ``python -m tests.bench.run`` from the repository root; see
``python -m tests.bench.run --help`` and ``docs/benchmarks.md``.
"""
