"""Finding a battle's log and start state under the data directory (runs/<run id>/battles/)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from engine.battles.errors import BattleLogError
from engine.battles.files import battle_log_path, not_kept, read_battle_log
from engine.battles.models import BattleLog


@dataclass(frozen=True)
class LoggedBattle:
    path: Path  # the log's JSON file
    log: BattleLog
    start_state: bytes  # the PyBoy save state taken at the battle's first decision


def _read_state(log_path: Path, log: BattleLog) -> bytes:
    if log.start_state is None:
        raise BattleLogError(not_kept(log))
    path = log_path.parent / log.start_state
    try:
        data = path.read_bytes()
    except FileNotFoundError as exc:
        raise BattleLogError(f"the battle's start state {path} is missing") from exc
    except OSError as exc:
        raise BattleLogError(f"cannot read the start state {path}: {exc.strerror}") from exc
    if not data:
        raise BattleLogError(f"the start state {path} is empty")
    return data


def battle_at(path: Path) -> LoggedBattle:
    """The log at `path` (runs/<run id>/battles/<battle id>.json), with its start state read."""
    log = read_battle_log(path)
    return LoggedBattle(path=path, log=log, start_state=_read_state(path, log))


def find_battle_log(data_dir: Path, battle_id: str) -> LoggedBattle:
    """The log of `battle_id` from any run under `data_dir`, with its start state read."""
    if not battle_id or "/" in battle_id or "\\" in battle_id or battle_id in (".", ".."):
        raise BattleLogError(f"--battle {battle_id!r}: expected a battle id like <run id>-b001")
    return battle_at(battle_log_path(data_dir, battle_id))
