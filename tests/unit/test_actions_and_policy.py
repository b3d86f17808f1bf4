"""Legal action sets and the rule-based policy's choices on the ground-truth fixtures."""

from __future__ import annotations

import pytest

from engine.game.actions import LearnMove, Run, SendNext, Struggle, SwitchTo, UseMove, describe, legal_actions
from engine.game.capture import load_capture
from engine.game.models import GameState
from engine.game.ram import RED_BLUE
from engine.game.state import decode_state
from engine.tactician.rule_based import Fairness, RuleBasedPolicy, hp_bar_fraction
from tests.conftest import GEN1_FIXTURES


def fixture_state(name: str) -> GameState:
    return decode_state(load_capture(GEN1_FIXTURES / name), RED_BLUE)


def test_a_move_with_no_pp_is_never_offered() -> None:
    state = fixture_state("red_brock_move_menu_0pp")
    assert state.battle is not None and state.battle.player is not None
    assert state.battle.player.moves[2].pp == 0
    assert legal_actions(state) == [UseMove(slot=0), UseMove(slot=1)]


def test_no_running_from_trainers_and_no_switching_to_fainted_or_active() -> None:
    trainer = legal_actions(fixture_state("red_brock_active_slot1"))
    assert Run() not in trainer
    assert [a for a in trainer if isinstance(a, SwitchTo)] == [SwitchTo(slot=0)]  # PIKACHU; slot 1 is out
    wild = legal_actions(fixture_state("red_wild_main_menu"))
    assert Run() in wild


def test_after_a_faint_only_healthy_members_can_come_out() -> None:
    state = fixture_state("red_brock_bring_out_which")
    assert legal_actions(state) == [SendNext(slot=1)]  # CATERPIE in slot 0 has fainted
    assert legal_actions(fixture_state("red_wild_use_next_mon_prompt")) == [SendNext(slot=1), Run()]


def test_no_choices_outside_decision_points() -> None:
    for name in ("red_brock_used_move_text", "red_bedroom_overworld", "red_mom_dialog"):
        assert legal_actions(fixture_state(name)) == []


def test_struggle_when_every_move_is_empty() -> None:
    state = fixture_state("red_wild_main_menu")
    assert state.battle is not None and state.battle.player is not None
    empty = state.battle.player.model_copy(
        update={"moves": tuple(m.model_copy(update={"pp": 0}) for m in state.battle.player.moves)}
    )
    starved = state.model_copy(update={"battle": state.battle.model_copy(update={"player": empty})})
    assert legal_actions(starved)[0] == Struggle()


@pytest.mark.parametrize("fairness", list(Fairness))
@pytest.mark.parametrize(
    ("fixture", "expected"),
    [
        ("red_brock_main_menu", "use BUBBLE"),  # 4x against ROCK/GROUND
        ("red_brock_move_menu_0pp", "use TACKLE"),  # BUBBLE has no PP; TAIL WHIP deals nothing
        ("blue_misty_move_menu", "use VINE_WHIP"),  # STAB, super effective on STARYU
        ("red_wild_enemy_paralyzed", "use QUICK_ATTACK"),  # THUNDERSHOCK is resisted by ODDISH
        ("red_wild_use_next_mon_prompt", "send out WARTORTLE"),
        ("red_learn_move_prompt", "forget move 2"),  # BUBBLE replaces TAIL WHIP
        ("red_evolution", "let it evolve"),
    ],
)
def test_policy_choices(fixture: str, expected: str, fairness: Fairness) -> None:
    state = fixture_state(fixture)
    decision = RuleBasedPolicy(fairness).decide(state)
    assert decision is not None
    assert decision.action in legal_actions(state)
    assert describe(decision.action, state) == expected
    assert decision.reason


def test_policy_switches_out_of_a_bad_matchup() -> None:
    """PIKACHU (ELECTRIC) facing GEODUDE (ROCK/GROUND): THUNDERSHOCK does nothing, GEODUDE's GROUND hits
    2x; WARTORTLE on the bench wins easily."""
    state = fixture_state("red_brock_party_menu")
    assert state.battle is not None
    pikachu = next(m for m in state.party if m.species_name == "PIKACHU")
    player = state.battle.player
    assert player is not None
    as_pikachu = player.model_copy(
        update={
            "species_id": pikachu.species_id,
            "species_name": "PIKACHU",
            "type1": pikachu.type1, "type2": pikachu.type2,
            "type1_name": pikachu.type1_name, "type2_name": pikachu.type2_name,
            "moves": pikachu.moves, "stats": pikachu.stats, "level": pikachu.level,
        }
    )  # fmt: skip
    battle = state.battle.model_copy(update={"player": as_pikachu, "player_active_slot": pikachu.slot})
    at_menu = state.model_copy(update={"battle": battle, "decision_point": "battle_main_menu"})
    decision = RuleBasedPolicy().decide(at_menu)
    assert decision is not None
    assert describe(decision.action, at_menu) == "switch to WARTORTLE"


def test_policy_keeps_old_moves_when_the_offer_is_weaker() -> None:
    state = fixture_state("red_learn_move_prompt")
    weaker = state.model_copy(
        update={"screen": state.screen.model_copy(update={"text": ("move to make room", "for GROWL?")})}
    )
    decision = RuleBasedPolicy().decide(weaker)
    assert decision is not None and decision.action == LearnMove(forget_slot=None)


def test_hp_bar_rounds_down_to_pixels_but_never_shows_empty_for_a_live_member() -> None:
    assert hp_bar_fraction(33, 33) == 1.0
    assert hp_bar_fraction(16, 33) == 23 / 48
    assert hp_bar_fraction(1, 200) == 1 / 48
    assert hp_bar_fraction(0, 33) == 0.0
