"""Hypothesis profiles for the core suite.

``default``: quick, for development. ``ci``: derandomized and larger, what
``./build/test`` runs. ``soak``: long runs by hand (see docs/develop/reliability.md).
Choose with ``HYPOTHESIS_PROFILE=ci``.

``FUZZ_EXAMPLES`` is the number of examples per method of the fuzz test
(``test_fuzz.py``) under the loaded profile, or the environment variable of that
name; other tests take the profile's ``max_examples`` unless they set their own.

A soak run (new random examples each time; a failure is saved in ``.hypothesis/``
and replayed first by the next run, and printed with a blob to reproduce it)::

    HYPOTHESIS_PROFILE=soak python -m pytest tests/core/test_fuzz.py -q --hypothesis-show-statistics
"""

import os

from hypothesis import HealthCheck, settings

PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "default")

_common = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                                     HealthCheck.data_too_large])
settings.register_profile("default", max_examples=60, **_common)
settings.register_profile("ci", max_examples=300, derandomize=True, print_blob=True, **_common)
settings.register_profile("soak", max_examples=20000, print_blob=True, **_common)
settings.load_profile(PROFILE)

FUZZ_EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", 0)) or {"default": 150, "ci": 2000, "soak": 100000}.get(
    PROFILE, settings.default.max_examples)
