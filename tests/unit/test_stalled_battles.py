"""Battles that go nowhere: a choice repeated at a position that never changes is replaced (a run where
running is allowed, else the other legal actions in turn), a changing battle is left alone, and a wild
ghost the SILPH_SCOPE has not shown is run from at once."""

from __future__ import annotations

from engine.game.actions import Run, SwitchTo, UseMove, legal_actions
from engine.game.capture import load_capture
from engine.game.models import GameState
from engine.game.ram import RED_BLUE
from engine.game.state import decode_state
from engine.tactician.rule_based import ActionDecision
from engine.tactician.stall import STALLED, StallGuard
from engine.tactician.tactician import Tactician
from engine.world.models import WildTable
from tests.conftest import GEN1_FIXTURES
from tests.support.tiny_world import TinyMap, build_world


def wild() -> GameState:
    return decode_state(load_capture(GEN1_FIXTURES / "red_wild_main_menu"), RED_BLUE)


def brock() -> GameState:
    return decode_state(load_capture(GEN1_FIXTURES / "red_brock_main_menu"), RED_BLUE)


def test_a_choice_repeated_where_nothing_changes_becomes_a_run_in_the_wild() -> None:
    state, guard = wild(), StallGuard()
    legal = legal_actions(state)
    chosen = ActionDecision(action=UseMove(slot=0), reason="the best move")
    picks = [guard.check(state, "b1", legal, chosen).action for _ in range(STALLED + 1)]
    assert picks[:STALLED] == [chosen.action] * STALLED
    assert picks[STALLED] == Run()


def test_in_a_trainer_battle_the_other_legal_actions_are_tried_in_turn() -> None:
    state, guard = brock(), StallGuard()
    legal = legal_actions(state)
    assert Run() not in legal
    first = next(action for action in legal if isinstance(action, UseMove))
    chosen = ActionDecision(action=first, reason="the best move")
    picks = [guard.check(state, "b2", legal, chosen).action for _ in range(3 * STALLED)]
    assert picks[STALLED] != first and picks[STALLED] in legal
    assert picks[2 * STALLED] != picks[STALLED]  # the next one after as many more


def test_a_battle_that_moves_or_a_new_battle_is_left_alone() -> None:
    state, guard = wild(), StallGuard()
    legal = legal_actions(state)
    chosen = ActionDecision(action=UseMove(slot=0), reason="the best move")
    for turn in range(3 * STALLED):
        enemy = state.battle.enemy.model_copy(update={"hp": 50 - turn})  # type: ignore[union-attr]
        moving = state.model_copy(update={"battle": state.battle.model_copy(update={"enemy": enemy})})  # type: ignore[union-attr]
        assert guard.check(moving, "b3", legal, chosen) is chosen
    for battle in range(3 * STALLED):  # the same position, but each a battle of its own
        assert guard.check(state, f"other{battle}", legal, chosen) is chosen


def test_an_unseen_ghost_is_run_from_at_once() -> None:
    state = wild()
    tower = state.model_copy(
        update={"overworld": state.overworld.model_copy(update={"map_name": "POKEMON_TOWER_3F"})}
    )
    choice = Tactician().choose_battle(tower, None, battle_id="ghost")
    assert choice.action == Run() and "SILPH_SCOPE" in choice.reason


def met_walking(state: GameState) -> Tactician:
    """A tactician whose world has the wild Pokémon of `state` in its map's grass."""
    here, enemy = state.overworld.map_id, state.battle.enemy  # type: ignore[union-attr]
    art = ("#" * 6, *("#....#" for _ in range(4)), "#" * 6)
    world = build_world(TinyMap(here, "FIELD", art))
    world.wild = {here: WildTable(rate=25, slots=((enemy.level, enemy.species_name or "?"),))}  # type: ignore[union-attr]
    return Tactician(world=world)


def test_a_wild_battle_the_plan_needs_nothing_from_is_run_from_when_our_member_is_faster() -> None:
    state = wild()
    tactician = met_walking(state)
    tactician.pilot.wants_experience = lambda _state: False  # type: ignore[method-assign]
    ours = state.battle.player  # type: ignore[union-attr]
    fast = ours.model_copy(update={"stats": ours.stats.model_copy(update={"speed": 999})})  # type: ignore[union-attr]
    quick = state.model_copy(update={"battle": state.battle.model_copy(update={"player": fast})})  # type: ignore[union-attr]
    assert tactician.choose_battle(quick, None, battle_id="w1").action == Run()
    slow = ours.model_copy(update={"stats": ours.stats.model_copy(update={"speed": 1})})  # type: ignore[union-attr]
    caught = state.model_copy(update={"battle": state.battle.model_copy(update={"player": slow})})  # type: ignore[union-attr]
    assert tactician.choose_battle(caught, None, battle_id="w2").action != Run()  # might not get away
    tactician.pilot.wants_experience = lambda _state: True  # type: ignore[method-assign]
    assert tactician.choose_battle(quick, None, battle_id="w3").action != Run()  # the plan wants the fight


def test_a_wild_pokemon_a_script_put_there_is_never_run_from() -> None:
    state = wild()
    tactician = Tactician(world=met_walking(state).pilot.world)
    enemy = state.battle.enemy.model_copy(update={"level": 30})  # type: ignore[union-attr]
    scripted = state.model_copy(update={"battle": state.battle.model_copy(update={"enemy": enemy})})  # type: ignore[union-attr]
    tactician.pilot.wants_experience = lambda _state: False  # type: ignore[method-assign]
    assert tactician.choose_battle(scripted, None, battle_id="w4").action != Run()  # not a grass slot


def test_two_positions_that_take_turns_are_a_stall_too_and_a_switch_gives_way_to_an_attack() -> None:
    state, guard = brock(), StallGuard()
    switch = SwitchTo(slot=1)  # the fixture's party is one member: the switch is only named
    legal = [*legal_actions(state), switch]
    chosen = ActionDecision(action=switch, reason="keeps more of the party's HP")
    other = state.model_copy(update={"battle": state.battle.model_copy(update={"player": None})})  # type: ignore[union-attr]
    picks = [guard.check(s, "b4", legal, chosen).action for _ in range(STALLED + 1) for s in (state, other)]
    assert picks[: 2 * STALLED] == [switch] * (2 * STALLED)  # each position seen STALLED times: left alone
    assert isinstance(picks[2 * STALLED], UseMove)  # the ninth visit: an attack instead of the switch
