"""decisions.jsonl: one line per decision, plus a line for each rollback and resume.

Nothing is ever deleted or rewritten. When a run goes back to a checkpoint, the decisions made after it
stay where they are, and a `rollback` (or `resume`) line says from which byte offset on they no longer
count: `read_decisions` marks them `rolled_back`. A line torn by a killed process (no newline at the end)
is closed before anything is appended, and skipped when read.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

RESTART_KINDS = ("rollback", "resume")


def log_size(path: Path) -> int:
    try:
        return path.stat().st_size
    except FileNotFoundError:
        return 0


def close_torn_line(path: Path) -> bool:
    """End a last line that a killed process left unfinished, so the next entry starts on its own line."""
    if log_size(path) == 0:
        return False
    with path.open("rb+") as handle:
        handle.seek(-1, 2)
        if handle.read(1) == b"\n":
            return False
        handle.write(b"\n")
    return True


def lines_after(path: Path, offset: int) -> list[dict[str, Any]]:
    """The decision entries written after byte `offset` (readable ones, restarts left out)."""
    if not path.is_file():
        return []
    with path.open("rb") as handle:
        handle.seek(offset)
        tail = handle.read()
    return [entry for entry in _parse(tail.splitlines()) if entry.get("kind") not in RESTART_KINDS]


def read_decisions(path: Path) -> list[dict[str, Any]]:
    """Every readable entry in order, decisions that a later rollback undid marked `"rolled_back": true`."""
    if not path.is_file():
        return []
    entries: list[tuple[int, dict[str, Any]]] = []
    offset = 0
    for raw in path.read_bytes().splitlines(keepends=True):
        parsed = _parse([raw])
        if parsed:
            entry = parsed[0]
            if entry.get("kind") in RESTART_KINDS:
                _mark_rolled_back(entries, int(entry.get("after_offset", offset)))
            entries.append((offset, entry))
        offset += len(raw)
    return [entry for _, entry in entries]


def _mark_rolled_back(entries: list[tuple[int, dict[str, Any]]], after: int) -> None:
    for start, entry in entries:
        if start >= after and entry.get("kind") not in RESTART_KINDS:
            entry["rolled_back"] = True


def _parse(raws: list[bytes]) -> list[dict[str, Any]]:
    entries = []
    for raw in raws:
        try:
            entry = json.loads(raw)
        except ValueError:
            continue  # a line torn by a killed process
        if isinstance(entry, dict):
            entries.append(entry)
    return entries
