"""Where progress lines go: the user's terminal (stderr) and runs/<run id>/run.log."""

from __future__ import annotations

import logging
import sys
from pathlib import Path

FILE_FORMAT = "%(asctime)s %(levelname)s %(message)s"


class TerminalFormatter(logging.Formatter):
    """One line per record on the user's terminal: a traceback (a bug of ours) goes to run.log only."""

    def format(self, record: logging.LogRecord) -> str:
        message = record.getMessage()
        if record.exc_info and record.exc_info[0] is not None:
            message += f" ({record.exc_info[0].__name__}; the traceback is in run.log)"
        return message


def terminal_handler() -> logging.Handler:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(TerminalFormatter())
    return handler


class RunLogHandler(logging.FileHandler):
    """run.log. A write that fails (a full disk) silences this file, not the run: the terminal still gets
    every line, and logging's own error report (a traceback per record) would only add noise there."""

    def __init__(self, path: Path) -> None:
        super().__init__(path, encoding="utf-8")
        self.failed = False

    def emit(self, record: logging.LogRecord) -> None:
        if not self.failed:
            super().emit(record)

    def handleError(self, record: logging.LogRecord) -> None:
        self.failed = True


def attach_run_logs(path: Path, level: str, *, to_stderr: bool = False) -> list[logging.Handler]:
    """Send the "engine" loggers to the run's log file (appending: the driver and the conductor actor
    share it), and with `to_stderr` also to stderr. The CLI's own stderr handler sits on the root logger;
    a Ray worker has none, so the conductor actor asks for its own and stops propagation to avoid any
    second copy of each line."""
    engine = logging.getLogger("engine")
    engine.setLevel(level)
    file_handler = RunLogHandler(path)
    file_handler.setFormatter(logging.Formatter(FILE_FORMAT))
    handlers: list[logging.Handler] = [file_handler]
    if to_stderr:
        handlers.append(terminal_handler())
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
