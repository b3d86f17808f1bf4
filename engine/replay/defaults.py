"""Defaults shared by the library and the command line (kept apart so `engine --help` imports no
emulator)."""

from __future__ import annotations

import os

DEFAULT_MAX_DECISIONS = 200  # per rollout: far more than any battle needs; a loop ends as unfinished
MAX_DEFAULT_WORKERS = 4


def default_workers() -> int:
    return min(MAX_DEFAULT_WORKERS, os.cpu_count() or 1)
