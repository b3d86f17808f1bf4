"""The moves an enemy is seen to use are its own. wEnemyMoveNum is zeroed only when a fainted foe's
successor comes out, so a battle's first foe shows the move used last in the battle before: it is not
counted as seen until the foe has moved (a VICTREEBEL taken to know REFLECT in place of RAZOR LEAF looked
harmless to a WARTORTLE it then knocked out)."""

from __future__ import annotations

from engine.game.assessment import Fairness
from engine.game.models import GameState
from engine.game.tables import game_data
from engine.tactician.lookahead import Lookahead
from tests.unit.test_actions_and_policy import fixture_state


def with_enemy_move(state: GameState, name: str) -> GameState:
    assert state.battle is not None
    move_id = game_data().moves_by_name[name].id if name else 0
    return state.model_copy(update={"battle": state.battle.model_copy(update={"enemy_move_id": move_id})})


def enemy_moves(lookahead: Lookahead, state: GameState) -> set[str]:
    duel = lookahead.duel(state)
    assert duel is not None
    return {game_data().moves_by_id[m].name for m in duel.them.fighter.moves}


def test_the_move_in_ram_as_a_foe_comes_out_is_not_its_own() -> None:
    brock = fixture_state("red_brock_main_menu")  # GEODUDE L12 in front
    lookahead = Lookahead(Fairness.VISIBLE_ONLY)
    first = enemy_moves(lookahead, with_enemy_move(brock, "REFLECT"))
    assert "REFLECT" not in first and "TACKLE" in first
    assert "REFLECT" not in enemy_moves(lookahead, with_enemy_move(brock, "REFLECT"))  # nothing moved yet


def test_a_move_it_uses_after_that_is_seen_and_kept() -> None:
    brock = fixture_state("red_brock_main_menu")
    lookahead = Lookahead(Fairness.VISIBLE_ONLY)
    enemy_moves(lookahead, with_enemy_move(brock, "REFLECT"))
    assert "ROCK_THROW" in enemy_moves(lookahead, with_enemy_move(brock, "ROCK_THROW"))
    assert "ROCK_THROW" in enemy_moves(lookahead, with_enemy_move(brock, "TACKLE"))
    assert "REFLECT" not in enemy_moves(lookahead, with_enemy_move(brock, "TACKLE"))


def test_a_foe_sent_after_a_faint_starts_from_zero_and_its_first_move_counts() -> None:
    brock = fixture_state("red_brock_main_menu")
    lookahead = Lookahead(Fairness.VISIBLE_ONLY)
    enemy_moves(lookahead, with_enemy_move(brock, ""))  # the game zeroes it for a successor
    assert "ROCK_THROW" in enemy_moves(lookahead, with_enemy_move(brock, "ROCK_THROW"))
