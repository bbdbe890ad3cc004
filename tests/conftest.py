"""Shared pytest configuration.

Hypothesis profiles:

* ``ci`` (default): 50 examples, no deadline, derandomized, so runs are
  reproducible and timing-independent on the CI machine.
* ``dev``: more examples with a random seed, for hunting bugs locally.
* ``mutation``: a fifth of ``ci``'s examples, for mutmut's first pass over thousands of mutants
  (``scripts/mutation.py``; the survivors are then run against the whole suite under ``ci``).

Choose one with the ``HYPOTHESIS_PROFILE`` environment variable, e.g.
``HYPOTHESIS_PROFILE=dev .venv/bin/pytest``.
"""

import os

from hypothesis import settings

settings.register_profile("ci", max_examples=50, deadline=None, derandomize=True)
settings.register_profile("dev", max_examples=500, deadline=None)
settings.register_profile("mutation", max_examples=10, deadline=None, derandomize=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

# The command line speaks the language of the environment's locale (issue 38). The tests that
# read its English words must not depend on the machine's locale: they run in the C locale, and
# a test of another language says so in the environment it gives the command.
for _name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
    os.environ.pop(_name, None)
os.environ["LANG"] = "C.UTF-8"
