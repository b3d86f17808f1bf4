"""Finding a battle's log and start state under the data directory (runs/<run id>/battles/)."""

from __future__ import annotations

import glob
from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from engine.battles.models import BattleLog
from engine.replay.errors import BattleLogError


@dataclass(frozen=True)
class LoggedBattle:
    path: Path  # the log's JSON file
    log: BattleLog
    start_state: bytes  # the PyBoy save state taken at the battle's first decision


def battle_log_path(data_dir: Path, battle_id: str) -> Path:
    runs = data_dir / "runs"
    if not runs.is_dir():
        raise BattleLogError(
            f"no runs/ folder in {data_dir}: is --data-dir the folder `engine run` wrote to?"
        )
    # Escaped: a battle id is a name, never a pattern (and never a path).
    found = sorted(runs.glob(f"*/battles/{glob.escape(battle_id)}.json"))
    if not found:
        raise BattleLogError(f"no battle log {battle_id}.json in {runs}/*/battles/")
    if len(found) > 1:
        places = ", ".join(str(path.parent.parent.name) for path in found)
        raise BattleLogError(f"battle {battle_id} is logged in several runs ({places}): keep one")
    return found[0]


def _read_log(path: Path) -> BattleLog:
    try:
        return BattleLog.model_validate_json(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise BattleLogError(f"cannot read the battle log {path}: {exc.strerror}") from exc
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "(top level)"
        raise BattleLogError(f"{path} is not a battle log: {where}: {first['msg']}") from exc


def _read_state(log_path: Path, log: BattleLog) -> bytes:
    if log.start_state is None:
        raise BattleLogError(f"{log_path} names no start state: the battle cannot be replayed")
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


def find_battle_log(data_dir: Path, battle_id: str) -> LoggedBattle:
    """The log of `battle_id` from any run under `data_dir`, with its start state read."""
    if not battle_id or "/" in battle_id or "\\" in battle_id or battle_id in (".", ".."):
        raise BattleLogError(f"--battle {battle_id!r}: expected a battle id like <run id>-b001")
    path = battle_log_path(data_dir, battle_id)
    log = _read_log(path)
    return LoggedBattle(path=path, log=log, start_state=_read_state(path, log))
