"""Catching a wild Pokémon: weaken it with a move that will not knock it out, throw once it is weak,
never in a trainer battle or without a ball."""

from __future__ import annotations

from engine.game.actions import UseItem, UseMove, legal_actions
from engine.game.models import BagItem, GameState
from engine.tactician.catching import catch_decision, wanted_catch
from tests.unit.test_actions_and_policy import fixture_state


def with_balls(state: GameState, balls: int = 5) -> GameState:
    return state.model_copy(update={"bag": (BagItem(item_id=4, name="POKE_BALL", quantity=balls),)})


def enemy_at(state: GameState, hp: int) -> GameState:
    assert state.battle is not None and state.battle.enemy is not None
    enemy = state.battle.enemy.model_copy(update={"hp": hp})
    return state.model_copy(update={"battle": state.battle.model_copy(update={"enemy": enemy})})


def test_a_healthy_target_is_weakened_first_with_a_move_that_leaves_it_standing() -> None:
    state = with_balls(fixture_state("red_wild_main_menu"))  # SQUIRTLE L6 against a full-HP PIDGEY
    decision = catch_decision(state, legal_actions(state))
    assert decision is not None and isinstance(decision.action, UseMove)
    assert decision.reason.startswith("catch: weaken PIDGEY")


def test_a_weak_target_gets_the_ball() -> None:
    state = with_balls(enemy_at(fixture_state("red_wild_main_menu"), 5))
    decision = catch_decision(state, legal_actions(state))
    assert decision is not None and decision.action == UseItem(item="POKE_BALL")
    assert "throw POKE_BALL" in decision.reason


def test_when_every_move_could_knock_it_out_the_ball_goes_at_once() -> None:
    state = with_balls(fixture_state("red_wild_main_menu"))
    battle = state.battle
    assert battle is not None and battle.enemy is not None
    tiny = battle.enemy.model_copy(update={"hp": 3, "max_hp": 4})  # 75% HP but 3 HP: any hit may KO
    state = state.model_copy(update={"battle": battle.model_copy(update={"enemy": tiny})})
    decision = catch_decision(state, legal_actions(state))
    assert decision is not None and decision.action == UseItem(item="POKE_BALL")
    assert "no move is safe" in decision.reason


def test_nothing_to_catch_without_a_ball_or_in_a_trainer_battle() -> None:
    wild = fixture_state("red_wild_main_menu")
    assert catch_decision(wild, legal_actions(wild)) is None
    trainer = with_balls(fixture_state("red_brock_main_menu"))
    assert catch_decision(trainer, legal_actions(trainer)) is None


def test_with_the_party_and_the_box_full_no_ball_is_thrown() -> None:
    weak = with_balls(enemy_at(fixture_state("red_wild_main_menu"), 5))
    six = weak.model_copy(update={"party": weak.party * 6})
    for box, throws in ((19, True), (20, False)):
        state = six.model_copy(update={"progress": six.progress.model_copy(update={"box_count": box})})
        decision = catch_decision(state, legal_actions(state))
        assert (decision is not None and decision.action == UseItem(item="POKE_BALL")) is throws
    # With room in the party, a full box does not matter: the catch joins the party.
    roomy = weak.model_copy(update={"progress": weak.progress.model_copy(update={"box_count": 20})})
    assert catch_decision(roomy, legal_actions(roomy)) is not None


def test_a_target_that_flees_on_its_first_move_gets_the_ball_at_once() -> None:
    from engine.game.models import MoveSlot

    state = with_balls(fixture_state("red_wild_main_menu"))
    battle = state.battle
    assert battle is not None and battle.enemy is not None
    abra = battle.enemy.model_copy(
        update={"moves": (MoveSlot(move_id=100, name="TELEPORT", pp=20, pp_ups=0),)}
    )
    state = state.model_copy(update={"battle": battle.model_copy(update={"enemy": abra})})
    decision = catch_decision(state, legal_actions(state))
    assert decision is not None and decision.action == UseItem(item="POKE_BALL")
    assert "flees on its first move" in decision.reason


def test_only_species_the_pokedex_lacks_when_asked() -> None:
    state = with_balls(fixture_state("red_wild_main_menu"))  # a wild PIDGEY (Pokédex number 16)
    lacking = state.model_copy(
        update={"progress": state.progress.model_copy(update={"owned_dex": frozenset({7})})}
    )
    owning = state.model_copy(
        update={"progress": state.progress.model_copy(update={"owned_dex": frozenset({16})})}
    )
    assert catch_decision(lacking, legal_actions(lacking), new_only=True) is not None
    assert catch_decision(owning, legal_actions(owning), new_only=True) is None
    assert catch_decision(owning, legal_actions(owning)) is not None


def test_the_owned_species_decoded_agree_with_the_owned_count_and_the_player_walks() -> None:
    from engine.game.capture import load_capture
    from engine.game.decoders import decode_progress
    from engine.game.memory import MemoryImage
    from engine.game.ram import RED_BLUE
    from tests.conftest import GEN1_FIXTURES

    image = load_capture(GEN1_FIXTURES / "red_wild_main_menu")
    raw = bytearray(image.u8(address) for address in range(0x10000))
    # SQUIRTLE (7), PIDGEY (16) and MEW (151): bits 6 of byte 0, 7 of byte 1 and 6 of byte 18.
    for at, bit in ((0, 6), (1, 7), (18, 6)):
        raw[RED_BLUE.wPokedexOwned + at] |= 1 << bit
    progress = decode_progress(MemoryImage(bytes(raw)), RED_BLUE)
    assert progress.owned_dex == {7, 16, 151} and progress.pokedex_owned == 3
    assert fixture_state("red_wild_main_menu").overworld.mode == "walk"


def test_a_move_the_target_is_immune_to_does_not_weaken_it() -> None:
    # SQUIRTLE's TACKLE into a GHOST does nothing: the ball goes at once rather than TACKLE for ever.
    state = with_balls(fixture_state("red_wild_main_menu"))
    battle = state.battle
    assert battle is not None and battle.enemy is not None
    ghost = battle.enemy.model_copy(
        update={"type1": 0x08, "type2": 0x08, "type1_name": "GHOST", "type2_name": "GHOST"}
    )
    state = state.model_copy(update={"battle": battle.model_copy(update={"enemy": ghost})})
    decision = catch_decision(state, legal_actions(state))
    assert decision is not None and decision.action == UseItem(item="POKE_BALL")
    assert "no move is safe" in decision.reason


def test_the_steps_catch_and_the_recruit_are_either_one_not_both() -> None:
    """A PIDGEY met while the plan needs a member for FLY and the recruiter looks for an EKANS is caught."""
    state = with_balls(enemy_at(fixture_state("red_wild_main_menu"), 5))  # a weak wild PIDGEY
    fly = ("HM_FLY", False)
    assert catch_decision(state, legal_actions(state), learns="HM_FLY", species="EKANS") is None  # both asked
    for step, recruit in ((fly, "EKANS"), (fly, None), (None, "PIDGEY"), (("HM_SURF", False), "PIDGEY")):
        decision = wanted_catch(state, legal_actions(state), step, recruit)
        assert decision is not None and decision.action == UseItem(item="POKE_BALL"), (step, recruit)
    for step, recruit in ((("HM_SURF", False), "EKANS"), (None, "EKANS"), (None, None)):
        assert wanted_catch(state, legal_actions(state), step, recruit) is None, (step, recruit)
