"""Where progress lines go: the user's terminal (stderr) and runs/<run id>/run.log."""

from __future__ import annotations

import logging
import sys
from pathlib import Path

FILE_FORMAT = "%(asctime)s %(levelname)s %(message)s"


def attach_run_logs(path: Path, level: str, *, to_stderr: bool = False) -> list[logging.Handler]:
    """Send the "engine" loggers to the run's log file (appending: the driver and the conductor actor
    share it), and with `to_stderr` also to stderr. The CLI's own stderr handler sits on the root logger;
    a Ray worker has none, so the conductor actor asks for its own and stops propagation to avoid any
    second copy of each line."""
    engine = logging.getLogger("engine")
    engine.setLevel(level)
    file_handler = logging.FileHandler(path, encoding="utf-8")
    file_handler.setFormatter(logging.Formatter(FILE_FORMAT))
    handlers: list[logging.Handler] = [file_handler]
    if to_stderr:
        stream = logging.StreamHandler(sys.stderr)
        stream.setFormatter(logging.Formatter("%(message)s"))
        handlers.append(stream)
        engine.propagate = False
    for handler in handlers:
        handler.setLevel(level)
        engine.addHandler(handler)
    return handlers


def detach_run_logs(handlers: list[logging.Handler]) -> None:
    engine = logging.getLogger("engine")
    for handler in handlers:
        engine.removeHandler(handler)
        handler.close()
