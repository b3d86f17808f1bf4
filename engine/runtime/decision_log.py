"""decisions.jsonl: one line per decision, plus a line for each rollback and resume.

Nothing is ever deleted or rewritten. When a run goes back to a checkpoint, the decisions made after it
stay where they are, and a `rollback` (or `resume`) line says from which byte offset on they no longer
count: `read_decisions` marks them `rolled_back`. A line torn by a killed process (no newline at the end)
is closed before anything is appended, and skipped when read.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.jsonl import read_objects

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
    return [
        entry for entry in read_objects(path, start=offset).entries if entry.get("kind") not in RESTART_KINDS
    ]


def read_decisions(path: Path) -> list[dict[str, Any]]:
    """Every readable entry in order, decisions that a later rollback undid marked `"rolled_back": true`."""
    entries: list[tuple[int, dict[str, Any]]] = []
    for line in read_objects(path).lines:
        entry = line.entry
        if entry.get("kind") in RESTART_KINDS:
            _mark_rolled_back(entries, _after_offset(entry, line.offset))
        entries.append((line.offset, entry))
    return [entry for _, entry in entries]


def _after_offset(restart: dict[str, Any], own_offset: int) -> int:
    # A restart line whose offset is missing or not a number undoes nothing: its own offset is past every
    # entry read so far.
    after = restart.get("after_offset")
    return after if isinstance(after, int) and not isinstance(after, bool) else own_offset


def _mark_rolled_back(entries: list[tuple[int, dict[str, Any]]], after: int) -> None:
    for start, entry in entries:
        if start >= after and entry.get("kind") not in RESTART_KINDS:
            entry["rolled_back"] = True
