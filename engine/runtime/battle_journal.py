"""runs/<run id>/battles.jsonl: one line per battle that ended, its summary, in the order they ended.

A run of an hour ends thousands of battles. Kept in the run's progress, every summary would be held in
memory and written again into every checkpoint (two a battle), so checkpoints would grow with the run and
each would cost more than the last. The progress keeps only how many battles ended (and the last few);
the summaries live here, and `summary.json` reads them back at the end. A checkpoint says how many lines
count: a rollback or a resume cuts the file back to that many, as the battles after it are played again.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from pydantic import ValidationError

from engine.battles.models import BattleSummary
from engine.files import append_json_line, write_bytes_atomic
from engine.jsonl import read_objects


class BattleJournal:
    def __init__(self, path: Path) -> None:
        self.path = path

    def append(self, summary: BattleSummary) -> None:
        append_json_line(self.path, summary.model_dump(mode="json"))

    def read(self, count: int | None = None) -> list[BattleSummary]:
        """The first `count` summaries (all of them with None); a line that does not read as one (cut by
        a crash, edited by hand) is left out."""
        return self._read(count)[0]

    def _read(self, count: int | None = None) -> tuple[list[BattleSummary], bool]:
        """The summaries, and whether the file holds exactly them (no unreadable line, no cut end)."""
        lines = read_objects(self.path)
        found: list[BattleSummary] = []
        for entry in lines.entries:
            if count is not None and len(found) >= count:
                break
            try:
                found.append(BattleSummary.model_validate(entry))
            except ValidationError:
                continue
        clean = lines.skipped == 0 and len(found) == len(lines.entries) and self._ends_whole()
        return found, clean

    def _ends_whole(self) -> bool:
        try:
            with self.path.open("rb") as handle:
                handle.seek(0, 2)
                if handle.tell() == 0:
                    return True
                handle.seek(-1, 2)
                return handle.read(1) == b"\n"
        except FileNotFoundError:
            return True

    def keep(self, count: int, known: Sequence[BattleSummary] = ()) -> None:
        """Make the file hold exactly the first `count` battles: cut what a rollback undid (and any line
        a crash tore), or, for a checkpoint of an earlier version that still listed its battles
        (`known`), write them back."""
        held, clean = self._read()
        if len(held) == count and clean:
            return
        if len(held) < count and len(known) >= count:
            held = list(known)
        kept = held[:count]
        lines = "".join(json.dumps(s.model_dump(mode="json"), ensure_ascii=False) + "\n" for s in kept)
        write_bytes_atomic(self.path, lines.encode("utf-8"))
