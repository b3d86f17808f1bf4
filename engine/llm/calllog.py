"""The model call log: one JSON line per prompt and response (or failure) under the run's directory,
appended as it happens, with secrets redacted. `engine llm-log` reads it back."""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

REDACTED = "[redacted]"
# Key shapes worth catching even when they are not ours (a key pasted into a prompt, a server echoing
# one back): OpenAI/Anthropic style secret keys and bearer tokens.
KEY_PATTERNS = (
    re.compile(r"sk-[A-Za-z0-9_\-]{12,}"),
    re.compile(r"(?i)(bearer\s+)[A-Za-z0-9._\-]{12,}"),
)
SHORTEST_SECRET = 6  # shorter "secrets" (test values, "none") would redact ordinary words


class Redactor:
    def __init__(self, secrets: Iterable[str]) -> None:
        self.secrets = sorted({s for s in secrets if len(s) >= SHORTEST_SECRET}, key=len, reverse=True)

    def text(self, value: str) -> str:
        for secret in self.secrets:
            value = value.replace(secret, REDACTED)
        for pattern in KEY_PATTERNS:
            value = pattern.sub(lambda m: (m.group(1) if m.groups() else "") + REDACTED, value)
        return value

    def data(self, value: Any) -> Any:
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, dict):
            return {key: self.data(item) for key, item in value.items()}
        if isinstance(value, list | tuple):
            return [self.data(item) for item in value]
        return value


class CallLog:
    def __init__(self, path: Path | None, secrets: Iterable[str] = ()) -> None:
        self.path = path
        self.redactor = Redactor(secrets)
        self.seq = 0
        self._lock = threading.Lock()

    def write(self, entry: dict[str, Any]) -> int:
        """Append one entry; returns its sequence number (numbers are kept even with no file)."""
        with self._lock:
            self.seq += 1
            record = {"seq": self.seq, "at": datetime.now(UTC).isoformat(timespec="milliseconds"), **entry}
            if self.path is not None:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                line = json.dumps(self.redactor.data(record), ensure_ascii=False)
                with self.path.open("a", encoding="utf-8") as handle:
                    handle.write(line + "\n")
            return self.seq
