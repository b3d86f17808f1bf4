"""A model's notes for one scope: one markdown file it rewrites whole, at most NOTES_LIMIT characters.

A rewrite is refused, with the old notes kept and the reason in one line, when it is empty, too long, or
holds what the injection screen finds (the notes are shown to the model at every later step, so a planted
instruction would travel into every prompt). The file is replaced atomically: a reader sees the old notes
or the new ones, never half.
"""

from __future__ import annotations

import logging
from pathlib import Path

from engine.files import StorageError, write_bytes_atomic
from engine.procedural.screening import screen
from engine.procedural.verdict import Verdict

log = logging.getLogger("engine.procedural")
NOTES_LIMIT = 2_500
NOTES_FILE = "notes.md"


def clean(text: str) -> str:
    """One line ending, no trailing blanks on lines, none around the text."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return "\n".join(line.rstrip() for line in lines).strip()


class Notes:
    def __init__(self, path: Path) -> None:
        self.path = path
        self._unreadable_said = False

    def read(self) -> str:
        """The notes, '' when there are none (or the file cannot be read: said once in the log)."""
        try:
            return self.path.read_text(encoding="utf-8", errors="replace").strip()
        except FileNotFoundError:
            return ""
        except OSError as exc:
            if not self._unreadable_said:
                log.warning("notes %s unreadable, shown as none: %s", self.path, exc.strerror or exc)
                self._unreadable_said = True
            return ""

    def check(self, text: str) -> str | None:
        """Why `text` may not become the notes, or None."""
        if not text:
            return "empty notes"
        if len(text) > NOTES_LIMIT:
            return f"{len(text):,} characters, over the {NOTES_LIMIT:,} limit"
        return screen(text)

    def rewrite(self, text: str) -> Verdict:
        """Replace the notes with `text` (cleaned) if it passes `check`; else keep the old notes."""
        new = clean(text)
        if reason := self.check(new):
            return Verdict.no(f"notes not rewritten ({reason}); the old notes are kept")
        if new == self.read():
            return Verdict.yes(f"notes unchanged ({len(new):,} of {NOTES_LIMIT:,} characters)")
        try:
            write_bytes_atomic(self.path, (new + "\n").encode("utf-8"))
        except StorageError as exc:
            return Verdict.no(f"notes not rewritten ({exc.reason}); the old notes are kept")
        return Verdict.yes(f"notes rewritten ({len(new):,} of {NOTES_LIMIT:,} characters)")
