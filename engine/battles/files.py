"""Battle logs on disk: runs/<run id>/battles/<battle id>.json, beside the battle's start state (unless
the run kept none for such a battle: `checkpoint.keep_battle_states`)."""

from __future__ import annotations

import glob
from pathlib import Path

from pydantic import ValidationError

from engine.battles.errors import BattleLogError
from engine.battles.models import BattleLog, BattleSummary
from engine.config import KeepBattleStates


def read_battle_log(path: Path) -> BattleLog:
    """The battle log at `path`, or a BattleLogError saying why not (one place parses them all)."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise BattleLogError(f"no battle log at {path}") from None
    except OSError as exc:
        raise BattleLogError(f"cannot read the battle log {path}: {exc.strerror or exc}") from exc
    try:
        return BattleLog.model_validate_json(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "the file"
        raise BattleLogError(f"{path} is not a battle log ({where}: {first['msg']})") from exc


def battle_log_path(data_dir: Path, battle_id: str) -> Path:
    """Where `battle_id` is logged, in whichever run of `data_dir` played it."""
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


def keeps_start_state(policy: KeepBattleStates, summary: BattleSummary) -> bool:
    """Whether a battle that ended as `summary` says keeps its start state. The states worth keeping are
    the ones a replay learns from: trainer battles (the same trainer is met again) and battles lost; a
    wild battle won or fled is met again in another form anyway."""
    if policy == "all":
        return True
    if policy == "none":
        return False
    return summary.battle_type == "trainer" or summary.outcome in ("defeat", "draw")


def not_kept(log: BattleLog) -> str:
    """The one line for a battle whose start state the run did not keep."""
    summary = log.summary
    return (
        f"battle {summary.battle_id} ({summary.battle_type}, {summary.outcome}) has no start state: its run "
        "did not keep one for such a battle (checkpoint.keep_battle_states), so it cannot be replayed or "
        "played from"
    )


def dropped_start_state(state: Path) -> str | None:
    """Why `state`, a battle's start state that is not there, is missing: the `not_kept` line when the
    battle log beside it says the run did not keep it; None otherwise."""
    log_path = state.with_suffix(".json")
    if state.suffix != ".state" or not log_path.is_file():
        return None
    try:
        log = read_battle_log(log_path)
    except BattleLogError:
        return None
    return not_kept(log) if log.start_state is None else None
