"""Reading back the engine's JSON Lines files (decisions.jsonl, llm.jsonl): one JSON object a line.

These files are appended to while things happen, so a killed process can leave a last line cut anywhere,
even in the middle of a multi-byte character, and a person may edit one by hand. One bad line must cost
that line, never the file: each line is decoded and parsed on its own, and whatever is not a JSON object
is counted as skipped so that a reader can say how much it could not use.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

NEWLINE = b"\n"


@dataclass(frozen=True)
class JsonLine:
    offset: int  # where the line starts in the file, in bytes: rollbacks point into the log by offset
    entry: dict[str, Any]


@dataclass(frozen=True)
class JsonLines:
    lines: tuple[JsonLine, ...]
    skipped: int  # lines that held something but not a readable JSON object

    @property
    def entries(self) -> list[dict[str, Any]]:
        return [line.entry for line in self.lines]


def parse_object(raw: bytes) -> dict[str, Any] | None:
    """One line's object, or None if it is not strict UTF-8 JSON holding an object."""
    try:
        value = json.loads(raw.decode("utf-8"))
    # ValueError covers bad UTF-8, bad JSON and integers too long to convert; the C parser recurses once
    # per nesting level, so a line of brackets raises RecursionError, and a huge line may not fit at all.
    except (ValueError, RecursionError, MemoryError):
        return None
    return value if isinstance(value, dict) else None


def _raw_lines(handle: BinaryIO, start: int) -> Iterator[tuple[int, bytes]]:
    # Split on b"\n" only (what JSON Lines means by a line): a stray b"\r" is JSON whitespace, not an end.
    offset = start
    for raw in handle:
        yield offset, raw
        offset += len(raw)


def read_objects(path: Path, start: int = 0, last: int | None = None) -> JsonLines:
    """The objects of the file from byte `start` on (the last `last` of them if given), in order.

    A missing file reads as empty; an unreadable one raises OSError, which the caller words for its user.
    Blank lines are not counted as skipped: they hold no entry to lose (an editor may add one at the end).
    """
    if not path.is_file():
        return JsonLines((), 0)
    kept: deque[JsonLine] = deque(maxlen=last)
    skipped = 0
    with path.open("rb") as handle:
        handle.seek(start)
        for offset, raw in _raw_lines(handle, start):
            if not raw.strip():
                continue
            entry = parse_object(raw)
            if entry is None:
                skipped += 1
            else:
                kept.append(JsonLine(offset, entry))
    return JsonLines(tuple(kept), skipped)


def skipped_note(skipped: int) -> str:
    """How a command tells its user about the lines it could not read."""
    return f"{skipped} unreadable line{'' if skipped == 1 else 's'} skipped"
