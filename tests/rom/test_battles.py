"""Real battles, played to the end by the closed-loop executor and the rule-based policy."""

from __future__ import annotations

import pytest

from engine.emulator.session import EmulatorSession
from engine.game.battle import BattleResult, play_battle
from engine.game.executor import BattleExecutor
from engine.tactician.rule_based import RuleBasedPolicy
from tests.support.scenarios import set_party, set_party_exp, set_party_hp, start_battle, state_of

# Medium-slow growth (pret data/growth_rates.asm): 6/5·n³ − 15·n² + 100·n − 140 EXP at level n.
SQUIRTLE_EXP_FOR_LEVEL_8 = 314


def play(game: EmulatorSession) -> BattleResult:
    return play_battle(BattleExecutor(game), RuleBasedPolicy())


def actions(result: BattleResult) -> list[str]:
    return [record.action for record in result.decisions]


def test_wild_battle(game: EmulatorSession) -> None:
    set_party(game, [("SQUIRTLE", 8)])
    start_battle(game, "RATTATA", 6)
    result = play(game)
    assert (result.outcome, result.battle_type, result.opponent) == ("victory", "wild", "RATTATA")
    assert state_of(game).battle is None


@pytest.mark.parametrize(
    ("party", "trainer", "number"),
    [
        ([("SQUIRTLE", 13)], "BROCK", 1),
        ([("IVYSAUR", 24), ("PIKACHU", 22)], "MISTY", 1),
    ],
    ids=["brock", "misty"],
)
def test_gym_leaders(game: EmulatorSession, party: list[tuple[str, int]], trainer: str, number: int) -> None:
    set_party(game, party)
    start_battle(game, trainer, number)
    result = play(game)
    assert (result.outcome, result.battle_type, result.opponent) == (
        "victory",
        "trainer",
        f"{trainer} #{number}",
    )


def test_badly_matched_lead_switches_out(game: EmulatorSession) -> None:
    set_party(game, [("PIKACHU", 14), ("SQUIRTLE", 14)])
    start_battle(game, "BROCK", 1)
    result = play(game)
    assert result.outcome == "victory"
    assert actions(result)[0] == "switch to SQUIRTLE"


def test_faint_then_next_member(game: EmulatorSession) -> None:
    set_party(game, [("RATTATA", 4), ("WARTORTLE", 20)])
    set_party_hp(game, 0, 1)
    start_battle(game, "PIDGEY", 12)
    result = play(game)
    assert result.outcome == "victory"
    assert "send out WARTORTLE" in actions(result)


def test_learn_move_prompt_replaces_a_weak_move(game: EmulatorSession) -> None:
    set_party(game, [("SQUIRTLE", 7, ["TACKLE", "TAIL_WHIP", "GROWL", "LEER"])])
    set_party_exp(game, 0, SQUIRTLE_EXP_FOR_LEVEL_8 - 1)
    start_battle(game, "RATTATA", 3)
    result = play(game)
    assert result.outcome == "victory"
    learned = [r for r in result.decisions if r.point.value == "learn_move_prompt"]
    assert len(learned) == 1 and learned[0].action.startswith("forget move")
    moves = [m.name for m in state_of(game).party[0].moves]
    assert "BUBBLE" in moves and "TACKLE" in moves


def test_evolution_after_battle(game: EmulatorSession) -> None:
    set_party(game, [("CHARMANDER", 15)])
    set_party_exp(game, 0, 4096)  # medium slow, level 16 needs 3,963: the first win levels up
    start_battle(game, "PIDGEY", 3)
    result = play(game)
    assert result.outcome == "victory"
    assert "let it evolve" in actions(result)
    assert state_of(game).party[0].species_name == "CHARMELEON"
