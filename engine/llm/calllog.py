"""The model call log: one JSON line per prompt and response (or failure) under the run's directory,
appended as it happens, with secrets redacted. `engine llm-log` reads it back.

The file holds whole prompts, so it is created readable by its owner only. Writing it never stops a
decision: an answer already paid for is worth more than its log line, so a failed append (a full disk,
a read-only directory) is counted in `lost` and warned about once."""

from __future__ import annotations

import json
import logging
import os
import threading
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from engine.llm.redact import Redactor

__all__ = ["OWNER_ONLY", "CallLog", "Redactor"]

log = logging.getLogger("engine.llm")
OWNER_ONLY = 0o600  # for a new file; an existing one keeps the mode its owner gave it
APPEND = os.O_WRONLY | os.O_APPEND | os.O_CREAT


class CallLog:
    def __init__(self, path: Path | None, secrets: Iterable[str] | Redactor = ()) -> None:
        self.path = path
        self.redactor = secrets if isinstance(secrets, Redactor) else Redactor(secrets)
        self.seq = 0
        self.lost = 0  # entries that could not be appended
        self._lock = threading.Lock()

    def write(self, entry: dict[str, Any]) -> int:
        """Append one entry; returns its sequence number (numbers are kept even with no file). Never
        raises."""
        with self._lock:
            self.seq += 1
            record = {"seq": self.seq, "at": datetime.now(UTC).isoformat(timespec="milliseconds"), **entry}
            if self.path is not None:
                self._append(self.path, json.dumps(self.redactor.data(record), ensure_ascii=False) + "\n")
            return self.seq

    def _append(self, path: Path, line: str) -> None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            # A model's text may hold a lone surrogate: written escaped, it stays valid JSON.
            descriptor = os.open(path, APPEND, OWNER_ONLY)
            with os.fdopen(descriptor, "a", encoding="utf-8", errors="backslashreplace") as handle:
                handle.write(line)
        except OSError as exc:
            self.lost += 1
            if self.lost == 1:
                log.warning(
                    "model call log %s cannot be written (%s): decisions go on, lost lines are counted "
                    "(llm_log_lines_lost)",
                    path,
                    exc,
                )
