"""Battles the real game reached, for the tournament: the start states a user's own `engine run` kept.

A run keeps each battle's start state beside its log (runs/<run id>/battles/<battle id>.state, see
`checkpoint.keep_battle_states` and engine/battles/files.py): the game at the battle's first decision, with
the party, bag and badges the run had there. `--from-run DATA_DIR` plays every kept trainer battle (and
with `--wild` every wild one) from those states. A draw waits `draw × FRAMES_PER_DRAW` frames at that first
menu before the first decision (the game draws a random number every frame), so draw 0 is the run's own.

The states are the user's files, read where the run wrote them; nothing of them is kept but the results.
Categories are the stage (by the badges held: early 0-2, mid 3-5, late 6-8) and the kind of battle
(`boss`: gym leaders, the rival, Giovanni, the Elite Four; `trainer`; `wild`), e.g. `late_boss`.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from benchmarks.tournament_report import RUN_CATEGORIES, RUN_KINDS
from engine.battles.errors import BattleLogError
from engine.battles.files import read_battle_log
from engine.combat.enemy import BOSS_CLASSES
from engine.emulator.session import EmulatorSession
from engine.game.models import GameState

STAGES = ((2, "early"), (5, "mid"), (8, "late"))  # most badges held, stage
CATEGORIES = RUN_CATEGORIES
BOSS, TRAINER, WILD = RUN_KINDS


def stage_of(badges: int) -> str:
    return next(stage for most, stage in STAGES if badges <= most)


def category_of(state: GameState) -> str:
    """The category of the battle on screen: its stage by the badges held, and its kind."""
    stage = stage_of(len(state.progress.badge_names))
    battle = state.battle
    if battle is None or battle.kind == "wild":
        return f"{stage}_{WILD}"
    return f"{stage}_{BOSS if battle.trainer_class_name in BOSS_CLASSES else TRAINER}"


@dataclass(frozen=True)
class RunBattle:
    """One kept battle start of a run."""

    name: str  # the battle id
    state: Path
    kind: str  # the log's battle type: trainer or wild
    opponent: str

    @cached_property
    def _bytes(self) -> bytes:
        return self.state.read_bytes()

    def digest(self) -> str:
        """The state's own fingerprint: a result is reused only for the very same start."""
        return hashlib.sha256(self._bytes).hexdigest()[:12]

    def start(self, session: EmulatorSession, draw: int, frames_per_draw: int) -> None:
        session.load_state(self._bytes)
        session.tick(draw * frames_per_draw)


def run_battles(data_dirs: list[Path], wild: bool = False) -> list[RunBattle]:
    """Every battle under the data directories whose start state was kept, oldest run first; wild ones
    only with `wild`. A log that cannot be read, or whose state is gone, is left out."""
    found: list[RunBattle] = []
    for data_dir in data_dirs:
        for path in sorted(data_dir.glob("runs/*/battles/*.json")):
            try:
                log = read_battle_log(path)
            except BattleLogError:
                continue
            state = path.parent / log.start_state if log.start_state else None
            if state is None or not state.is_file():
                continue
            if log.summary.battle_type == "wild" and not wild:
                continue
            summary = log.summary
            found.append(RunBattle(summary.battle_id, state, summary.battle_type, summary.opponent))
    return found
