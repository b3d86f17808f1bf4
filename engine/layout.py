"""Where a run keeps its files under the data directory.

DATA_DIR/checkpoints/           checkpoints of every run
DATA_DIR/memory/                lessons learned (shared by runs; a collection per harness level and model)
DATA_DIR/procedural/<scope>/    a model's notes.md and skills/*.md per harness level and model
DATA_DIR/runs/<run id>/         summary.json, run.log, decisions.jsonl, battles.jsonl, llm.jsonl,
                                journey.json, battles/<battle id>.json (+ .state: the battle's start),
                                reflections/<battle id>.json
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from engine.errors import UserInputError


def new_run_id(now: datetime | None = None) -> str:
    """Sortable by start time, unique enough for one machine: 20261122-101500-3fa9."""
    stamp = (now or datetime.now(UTC)).strftime("%Y%m%d-%H%M%S")
    return f"{stamp}-{secrets.token_hex(2)}"


@dataclass(frozen=True)
class RunPaths:
    data_dir: Path
    run_id: str

    @property
    def checkpoints(self) -> Path:
        return self.data_dir / "checkpoints"

    @property
    def memory(self) -> Path:
        return self.data_dir / "memory"

    @property
    def procedural(self) -> Path:
        """Notes and skill libraries, one folder per (harness level, model): engine.procedural."""
        return self.data_dir / "procedural"

    @property
    def run_dir(self) -> Path:
        return self.data_dir / "runs" / self.run_id

    @property
    def battles(self) -> Path:
        return self.run_dir / "battles"

    @property
    def summary(self) -> Path:
        return self.run_dir / "summary.json"

    @property
    def log(self) -> Path:
        return self.run_dir / "run.log"

    @property
    def decisions(self) -> Path:
        return self.run_dir / "decisions.jsonl"

    @property
    def battle_journal(self) -> Path:
        """Every battle that ended, its summary a line (engine.runtime.battle_journal)."""
        return self.run_dir / "battles.jsonl"

    @property
    def llm_log(self) -> Path:
        return self.run_dir / "llm.jsonl"

    def battle_log(self, battle_id: str) -> Path:
        return self.battles / f"{battle_id}.json"

    def reflection(self, battle_id: str) -> Path:
        """The reflection report Reflection writes once it has thought about the battle."""
        return self.run_dir / "reflections" / f"{battle_id}.json"

    def battle_start_state(self, battle_id: str) -> Path:
        """The emulator's state at the battle's first decision: a PyBoy save state, usable with --state."""
        return self.battles / f"{battle_id}.state"

    def create(self) -> None:
        if self.data_dir.exists() and not self.data_dir.is_dir():
            raise UserInputError(f"--data-dir {self.data_dir} is a file, not a directory")
        try:
            for folder in (self.checkpoints, self.memory, self.battles):
                folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise UserInputError(f"cannot create the data directory {self.data_dir}: {exc.strerror}") from exc
