"""The gauntlet's stock is not spent in the wild. A potion, cure or revive is offered in a wild battle only
to a member in front in danger; a member in front with no move left that can touch the wild Pokémon runs;
and a one-hit knock-out move's PP does not keep a member from counting as run dry (the nurse first)."""

from __future__ import annotations

from engine.game.actions import Run, UseItem, UseMove, legal_actions
from engine.game.assessment import Fairness
from engine.game.models import GameState, MoveSlot, Stats
from engine.game.tables import game_data
from engine.tactician.lookahead import WILD_HEAL_BELOW, Lookahead, wasted_in_the_wild
from engine.tactician.pilot import _dry, needs_nurse
from engine.tactician.tactician import _nothing_lands
from tests.unit.test_actions_and_policy import fixture_state
from tests.unit.test_battle_moves_and_items import _with_bag
from tests.unit.test_not_losing_on_the_way import met_here, worn
from tests.unit.test_team import member, team

RESTORE = UseItem(item="FULL_RESTORE", target=0)


def test_a_heal_in_a_wild_battle_waits_for_danger() -> None:
    wild = _with_bag(fixture_state("red_wild_main_menu"), ("FULL_RESTORE", 3))
    assert wild.battle is not None and wild.battle.player is not None
    scratched = worn(wild, wild.battle.player.max_hp - 2)
    assert RESTORE in legal_actions(scratched)
    assert wasted_in_the_wild(scratched, RESTORE)
    low = int(WILD_HEAL_BELOW * wild.battle.player.max_hp) - 1
    assert not wasted_in_the_wild(worn(wild, low), RESTORE)
    assert not wasted_in_the_wild(wild, UseMove(slot=0))


def test_the_bosses_still_get_the_heals() -> None:
    brock = _with_bag(fixture_state("red_brock_main_menu"), ("FULL_RESTORE", 3))
    assert brock.battle is not None and brock.battle.kind != "wild"
    assert not wasted_in_the_wild(brock, RESTORE)


def test_the_search_is_not_offered_the_wasted_heal() -> None:
    wild = _with_bag(fixture_state("red_wild_main_menu"), ("FULL_RESTORE", 3))
    assert wild.battle is not None and wild.battle.player is not None
    wild = worn(wild, wild.battle.player.max_hp - 2)
    offered = [RESTORE, *[a for a in legal_actions(wild) if isinstance(a, UseMove)]]
    chosen = Lookahead(Fairness.FULL_RAM).choose(wild, offered)
    assert chosen is not None and chosen[0] != RESTORE
    alone = Lookahead(Fairness.FULL_RAM).choose(wild, [RESTORE])
    assert alone is not None and alone[0] == RESTORE  # nothing else on offer: the game still goes on


def only_horn_drill(state: GameState, speed: int, pp: int = 5, move: str = "HORN_DRILL") -> GameState:
    """The member in front with `move` alone (its other moves at 0 PP) and this Speed."""
    assert state.battle is not None and state.battle.player is not None
    drill = game_data().moves_by_name[move]
    moves = (
        MoveSlot(move_id=drill.id, name=move, pp=pp, pp_ups=0),
        *(slot.model_copy(update={"pp": 0}) for slot in state.battle.player.moves),
    )
    stats = state.battle.player.stats
    player = state.battle.player.model_copy(
        update={
            "moves": moves,
            "stats": Stats(attack=stats.attack, defense=stats.defense, speed=speed, special=stats.special),
        }
    )
    return state.model_copy(update={"battle": state.battle.model_copy(update={"player": player})})


def test_a_member_with_nothing_that_lands_runs_from_a_wild_battle() -> None:
    tactician, state = met_here()  # SQUIRTLE against a PIDGEY of Speed 9
    slower = only_horn_drill(state, speed=1)
    words = _nothing_lands(slower)
    assert words is not None and "HORN_DRILL" not in words and "PIDGEY" in words
    decision = tactician._flee(slower, legal_actions(slower))
    assert decision is not None and decision.action == Run() and "no move" in decision.reason
    assert _nothing_lands(only_horn_drill(state, speed=200)) is None  # faster: HORN DRILL can land
    assert _nothing_lands(state) is None  # TACKLE
    assert _nothing_lands(only_horn_drill(state, speed=200, move="FISSURE")) is not None  # PIDGEY flies


def test_a_member_with_no_pp_at_all_runs_too() -> None:
    _, state = met_here()
    assert _nothing_lands(only_horn_drill(state, speed=200, pp=0)) is not None


def test_a_one_hit_knock_out_moves_pp_leaves_a_member_run_dry() -> None:
    blastoise = member("BLASTOISE", 62, ("FISSURE", "SURF", "ICE_BEAM"))
    moves = tuple(slot if slot.name == "FISSURE" else slot.model_copy(update={"pp": 0})
                  for slot in blastoise.moves)  # fmt: skip
    spent = blastoise.model_copy(update={"moves": moves})
    assert _dry(spent) and needs_nurse(team(spent))
    assert not _dry(blastoise) and not needs_nurse(team(blastoise))
