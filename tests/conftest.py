"""Shared test set-up.

On CI (the CI environment variable set) hypothesis runs derandomized: the same examples every
run, so a landing never depends on luck; locally it explores new examples each run.
"""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, database=None)
if os.environ.get("CI"):
    settings.load_profile("ci")
