"""A bug's traceback goes to run.log; the user's terminal gets one line naming the error."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from engine.runtime.logs import attach_run_logs, detach_run_logs


def test_a_traceback_goes_to_the_file_and_one_line_to_the_terminal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log_file = tmp_path / "run.log"
    engine_logger = logging.getLogger("engine")
    propagate = engine_logger.propagate
    handlers = attach_run_logs(log_file, "INFO", to_stderr=True)
    try:
        try:
            raise KeyError("slot")
        except KeyError:
            logging.getLogger("engine.reflection").exception("reflection on b001 failed")
        logging.getLogger("engine.run").info("battle 1: victory")
    finally:
        detach_run_logs(handlers)
        engine_logger.propagate = propagate
    assert capsys.readouterr().err.splitlines() == [
        "reflection on b001 failed (KeyError; the traceback is in run.log)",
        "battle 1: victory",
    ]
    written = log_file.read_text(encoding="utf-8")
    assert "Traceback (most recent call last)" in written and "KeyError: 'slot'" in written
