"""Shared pytest configuration.

Hypothesis profiles:

* ``ci`` (default): 50 examples, no deadline, derandomized, so runs are
  reproducible and timing-independent on the CI machine.
* ``dev``: more examples with a random seed, for hunting bugs locally.

Choose one with the ``HYPOTHESIS_PROFILE`` environment variable, e.g.
``HYPOTHESIS_PROFILE=dev .venv/bin/pytest``.
"""

import os

from hypothesis import settings

settings.register_profile("ci", max_examples=50, deadline=None, derandomize=True)
settings.register_profile("dev", max_examples=500, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
