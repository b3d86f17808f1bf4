"""The arena's folder: one result file per played cell, written as the cell ends, and its run's files.

    OUT/cells/<key>.json            the cell's CellResult (its summary, node, attempts, lessons)
    OUT/cells/<key>.failed.json     why a cell could not be played (played again by the next rerun)
    OUT/runs/<run id>/...           the run's decisions, battle logs, model calls and log
                                    (`engine stats --data-dir OUT --all` reads them)

A rerun of the same command reads `cells/` first and plays only the cells without a result whose
fingerprint matches, so an arena stopped half-way (Ctrl-C, a lost driver) carries on where it was.
"""

from __future__ import annotations

import logging
from pathlib import Path

from pydantic import ValidationError

from engine.arena.cell import CellResult, PlayedCell
from engine.arena.errors import ArenaError
from engine.arena.matrix import Cell
from engine.files import write_bytes_atomic, write_json_atomic
from engine.frozen import Frozen

log = logging.getLogger("engine.arena")


class CellFailure(Frozen):
    cell: Cell
    error: str
    attempts: int


class ArenaFolder:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.cells = root / "cells"
        self.runs = root / "runs"

    def create(self) -> None:
        if self.root.exists() and not self.root.is_dir():
            raise ArenaError(f"--out {self.root} is a file, not a folder")
        try:
            self.cells.mkdir(parents=True, exist_ok=True)
            self.runs.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ArenaError(f"cannot create the arena folder {self.root}: {exc.strerror}") from exc

    def finished(self, cells: list[Cell]) -> dict[str, CellResult]:
        """The results already here for these cells, played with the same settings."""
        found: dict[str, CellResult] = {}
        for cell in cells:
            result = self._read(self.cells / f"{cell.key}.json")
            if result is None:
                continue
            if result.cell.fingerprint != cell.fingerprint:
                log.info("arena: cell %s was played with other settings: playing it again", cell.key)
                continue
            found[cell.key] = result
        return found

    def _read(self, path: Path) -> CellResult | None:
        if not path.is_file():
            return None
        try:
            return CellResult.model_validate_json(path.read_bytes())
        except (OSError, ValidationError) as exc:
            log.warning("arena: %s unreadable (%s): the cell is played again", path.name, type(exc).__name__)
            return None

    def keep(self, played: PlayedCell) -> CellResult:
        """The run's files first, then the result: a result on disk means its files are there too."""
        result = played.result
        run_dir = self.runs / result.summary.run_id
        for name, data in played.files.items():
            write_bytes_atomic(run_dir / name, data)
        write_json_atomic(self.cells / f"{result.cell.key}.json", result.model_dump(mode="json"))
        (self.cells / f"{result.cell.key}.failed.json").unlink(missing_ok=True)
        return result

    def keep_failure(self, failure: CellFailure) -> None:
        write_json_atomic(self.cells / f"{failure.cell.key}.failed.json", failure.model_dump(mode="json"))

    def run_dir(self, result: CellResult) -> Path:
        return self.runs / result.summary.run_id
