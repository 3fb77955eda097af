"""Hypothesis profiles for the core suite.

``default``: quick, for development. ``ci``: derandomized and larger, what
``./build/test`` runs. ``soak``: long runs by hand (see README, Reliability).
Choose with ``HYPOTHESIS_PROFILE=ci``.
"""

import os

from hypothesis import HealthCheck, settings

_common = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
settings.register_profile("default", max_examples=60, **_common)
settings.register_profile("ci", max_examples=300, derandomize=True, print_blob=True, **_common)
settings.register_profile("soak", max_examples=20000, **_common)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
