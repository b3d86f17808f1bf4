"""`checkpoint.keep_battle_states` in an in-process run with the fixture-backed emulator (its one battle is
a wild battle won): which start states stay once the battle is over, what the battle log says, and the
one line a replay of a battle without its state gets."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest

from engine.battles.errors import BattleLogError
from engine.battles.files import not_kept, read_battle_log
from engine.config import config_from_mapping
from engine.emulator.state_file import missing_state
from engine.layout import RunPaths
from engine.replay.logs import find_battle_log
from engine.runtime.local import run_local
from engine.runtime.options import RunOptions
from tests.conftest import GEN1_FIXTURES
from tests.support.chaos import LONG_BATTLE
from tests.support.fake_emulator import FakeEmulator


def play(tmp_path: Path, policy: str) -> tuple[RunPaths, str]:
    paths = RunPaths(tmp_path, "r1")
    paths.create()
    config = config_from_mapping({"checkpoint": {"keep_battle_states": policy}})
    options = RunOptions(rom=Path("scripted.gb"), max_battles=1,
                         keep_battle_states=config.checkpoint.keep_battle_states)  # fmt: skip
    emulator = partial(FakeEmulator, fixtures=GEN1_FIXTURES, script=LONG_BATTLE)
    summary = run_local(config, options, paths, emulator_factory=emulator)
    (battle,) = summary.battles
    assert (battle.battle_type, battle.outcome) == ("wild", "victory")
    return paths, battle.battle_id


def test_by_default_every_battle_keeps_its_start_state(tmp_path: Path) -> None:
    paths, battle_id = play(tmp_path, "all")
    assert paths.battle_start_state(battle_id).read_bytes().startswith(b"fake state")
    assert read_battle_log(paths.battle_log(battle_id)).start_state == f"{battle_id}.state"
    assert find_battle_log(tmp_path, battle_id).start_state.startswith(b"fake state")


@pytest.mark.parametrize("policy", ["trainer_and_losses", "none"])
def test_a_wild_battle_won_keeps_none_when_asked_and_says_so(tmp_path: Path, policy: str) -> None:
    paths, battle_id = play(tmp_path, policy)
    state = paths.battle_start_state(battle_id)
    assert not state.exists() and list(paths.battles.glob("*.state")) == []
    log = read_battle_log(paths.battle_log(battle_id))
    assert log.start_state is None and len(log.decisions) == log.summary.decisions  # the log is whole
    with pytest.raises(BattleLogError) as caught:
        find_battle_log(tmp_path, battle_id)  # engine replay, counterfactuals included
    assert str(caught.value) == not_kept(log)
    assert "has no start state" in str(caught.value) and "\n" not in str(caught.value)
    assert missing_state(state).endswith(f"({not_kept(log)})")  # --state, inspect, goto, plain-state
