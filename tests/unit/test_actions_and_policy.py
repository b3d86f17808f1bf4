"""Legal action sets and the rule-based policy's choices on the ground-truth fixtures."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from engine.actors.factory import known_species
from engine.battles.outcome import battle_outcome
from engine.config import ConfigError
from engine.game.actions import (
    Evolve,
    LearnMove,
    Run,
    SendNext,
    Struggle,
    SwitchTo,
    UseItem,
    UseMove,
    describe,
    legal_actions,
)
from engine.game.assessment import Fairness, hp_bar_fraction, likely_moves
from engine.game.capture import load_capture
from engine.game.items import BATTLE_ITEMS, has_effect, hp_after
from engine.game.models import BagItem, DecisionPoint, Evolution, GameState, StatusName
from engine.game.ram import RED_BLUE
from engine.game.state import decode_state
from engine.game.tables import game_data
from engine.tactician.rule_based import RuleBasedPolicy
from engine.tactician.tactician import evolution_wanted
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
    # NO on "Use next POKéMON?" tried to run and failed: the game asks which member comes out, no NO to say
    asking = fixture_state("red_wild_use_next_mon_prompt")
    screen = asking.screen.model_copy(update={"text": ("Can't escape!", "Bring out which", "POKéMON?")})
    assert legal_actions(asking.model_copy(update={"screen": screen})) == [SendNext(slot=1)]


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


def pikachu_before_geodude() -> GameState:
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
    return state.model_copy(update={"battle": battle, "decision_point": "battle_main_menu"})


def test_policy_switches_out_of_a_bad_matchup() -> None:
    at_menu = pikachu_before_geodude()
    policy = RuleBasedPolicy()
    decision = policy.decide(at_menu)
    assert decision is not None
    assert describe(decision.action, at_menu) == "switch to WARTORTLE"
    assert policy.lookahead is not None and at_menu.battle is not None
    assert policy.lookahead.withdrawn[1] == {at_menu.battle.player_active_slot}  # PIKACHU left this GEODUDE


def test_a_member_switched_out_in_front_of_an_enemy_is_not_switched_back_in_against_it() -> None:
    at_menu = pikachu_before_geodude()
    assert at_menu.battle is not None and at_menu.battle.enemy is not None
    wartortle = next(m.slot for m in at_menu.party if m.species_name == "WARTORTLE")
    policy = RuleBasedPolicy()
    assert policy.lookahead is not None
    front = policy.lookahead._front(at_menu)
    policy.lookahead.withdrawn = (front, frozenset({wartortle}))  # as if WARTORTLE had left this GEODUDE
    decision = policy.decide(at_menu)
    assert decision is not None and decision.action != SwitchTo(slot=wartortle)
    # Against another enemy in front (here a GEODUDE a level up) the member may come in again.
    older = at_menu.battle.enemy.model_copy(update={"level": at_menu.battle.enemy.level + 1})
    other = at_menu.model_copy(update={"battle": at_menu.battle.model_copy(update={"enemy": older})})
    again = policy.decide(other)
    assert again is not None and describe(again.action, other) == "switch to WARTORTLE"


def test_policy_keeps_old_moves_when_the_offer_is_weaker() -> None:
    state = fixture_state("red_learn_move_prompt")
    weaker = state.model_copy(
        update={"screen": state.screen.model_copy(update={"text": ("move to make room", "for GROWL?")})}
    )
    decision = RuleBasedPolicy().decide(weaker)
    assert decision is not None and decision.action == LearnMove(forget_slot=None)


def test_the_move_is_offered_to_the_member_the_game_names_and_an_hm_is_never_forgotten() -> None:
    # After a win every member that fought gains experience: here the second member (wWhichPokemon 1),
    # not the one in front, is offered BUBBLE. It knows SURF, which the game refuses to delete.
    state = fixture_state("red_learn_move_prompt")
    assert state.battle is not None and state.battle.learner_slot == 0
    moves = game_data().moves_by_name
    front = state.party[0]
    slots = tuple(
        front.moves[0].model_copy(update={"move_id": moves[name].id, "name": name})
        for name in ("SURF", "TACKLE", "STRENGTH", "GROWL")
    )
    second = front.model_copy(update={"slot": 1, "moves": slots})
    offered_to_second = state.model_copy(
        update={"party": (front, second), "battle": state.battle.model_copy(update={"learner_slot": 1})}
    )
    assert legal_actions(offered_to_second) == [LearnMove(forget_slot=slot) for slot in (None, 1, 3)]
    decision = RuleBasedPolicy().decide(offered_to_second)
    assert decision is not None and decision.action == LearnMove(forget_slot=3)  # GROWL, not SURF
    assert legal_actions(state) == [LearnMove(forget_slot=slot) for slot in (None, 0, 1, 2, 3)]


def test_hp_bar_rounds_down_to_pixels_but_never_shows_empty_for_a_live_member() -> None:
    assert hp_bar_fraction(33, 33) == 1.0
    assert hp_bar_fraction(16, 33) == 23 / 48
    assert hp_bar_fraction(1, 200) == 1 / 48
    assert hp_bar_fraction(0, 33) == 0.0


# -- items -----------------------------------------------------------------------------------------
def with_bag(state: GameState, *items: tuple[str, int]) -> GameState:
    ids = {entry.name: item_id for item_id, entry in game_data().items.items()}
    bag = tuple(BagItem(item_id=ids[name], name=name, quantity=quantity) for name, quantity in items)
    return state.model_copy(update={"bag": bag})


def hurt(state: GameState, slot: int, hp: int, status: StatusName = "OK") -> GameState:
    """A party member with other HP and status; the battle struct too when it is the active one."""
    party = tuple(
        mon.model_copy(update={"hp": hp, "status": status}) if mon.slot == slot else mon
        for mon in state.party
    )
    battle = state.battle
    if battle is not None and battle.player is not None and battle.player_active_slot == slot:
        battle = battle.model_copy(
            update={"player": battle.player.model_copy(update={"hp": hp, "status": status})}
        )
    return state.model_copy(update={"party": party, "battle": battle})


def items_offered(state: GameState) -> list[str]:
    return [describe(a, state) for a in legal_actions(state) if isinstance(a, UseItem)]


ALL_KINDS = (
    ("POTION", 2),
    ("ANTIDOTE", 1),
    ("REPEL", 3),
    ("POKE_BALL", 5),
    ("FULL_RESTORE", 1),
    ("REVIVE", 1),
)


def test_healing_items_only_for_members_they_would_help() -> None:
    state = with_bag(fixture_state("red_brock_active_slot1"), *ALL_KINDS)  # PIKACHU 34/34, WARTORTLE out
    assert items_offered(state) == []  # everyone healthy; balls never at a trainer's Pokémon
    hurt_active = hurt(state, 1, 20)
    assert items_offered(hurt_active) == ["use POTION on WARTORTLE", "use FULL_RESTORE on WARTORTLE"]
    poisoned_bench = hurt(state, 0, 34, "PSN")
    assert items_offered(poisoned_bench) == ["use ANTIDOTE on PIKACHU", "use FULL_RESTORE on PIKACHU"]
    fainted_bench = hurt(state, 0, 0)
    assert items_offered(fainted_bench) == ["use REVIVE on PIKACHU"]


def test_balls_only_in_wild_battles_and_only_normal_battles() -> None:
    wild = with_bag(fixture_state("red_wild_main_menu"), ("POTION", 1), ("POKE_BALL", 5), ("GREAT_BALL", 1))
    actions = legal_actions(wild)
    assert [a for a in actions if isinstance(a, UseItem)] == [
        UseItem(item="POKE_BALL"),
        UseItem(item="GREAT_BALL"),
    ]
    assert actions[-1] == Run()
    assert describe(UseItem(item="POKE_BALL"), wild) == "throw POKE_BALL"
    assert wild.battle is not None
    safari = wild.model_copy(update={"battle": wild.battle.model_copy(update={"battle_type": 2})})
    assert not [a for a in legal_actions(safari) if isinstance(a, UseItem)]


def test_in_the_safari_zone_running_is_the_only_choice_and_the_policy_takes_it() -> None:
    wild = fixture_state("red_wild_main_menu")
    assert wild.battle is not None and len(legal_actions(wild)) > 1
    safari = wild.model_copy(update={"battle": wild.battle.model_copy(update={"battle_type": 2})})
    assert legal_actions(safari) == [Run()]
    decision = RuleBasedPolicy().decide(safari)
    assert decision is not None and decision.action == Run() and "Safari" in decision.reason


def test_x_items_are_offered_for_the_member_in_front_until_its_stage_is_at_six() -> None:
    state = with_bag(fixture_state("red_brock_active_slot1"), ("X_SPECIAL", 2), ("X_ATTACK", 1))
    assert items_offered(state) == ["use X_SPECIAL", "use X_ATTACK"]
    battle = state.battle
    assert battle is not None
    maxed = battle.player_side.model_copy(update={"stages": (6, 0, 0, 0, 0, 0)})  # attack at +6
    at_six = state.model_copy(update={"battle": battle.model_copy(update={"player_side": maxed})})
    assert items_offered(at_six) == ["use X_SPECIAL"]


def test_items_are_offered_only_at_the_battle_menu() -> None:
    state = hurt(with_bag(fixture_state("red_wild_use_next_mon_prompt"), ("POTION", 1), ("REVIVE", 1)), 1, 9)
    assert not [a for a in legal_actions(state) if isinstance(a, UseItem)]


def test_use_item_accepts_an_item_id_and_names_its_target() -> None:
    assert UseItem(item=20, target=0) == UseItem(item="POTION", target=0)  # POTION is item 0x14
    with pytest.raises(ValidationError):
        UseItem(item=0xFE)
    with pytest.raises(ValidationError):
        UseItem(item="POTION", target=6)
    state = fixture_state("red_wild_main_menu")
    assert describe(UseItem(item="POTION", target=0), state) == "use POTION on SQUIRTLE"


def test_item_effects() -> None:
    squirtle = fixture_state("red_wild_main_menu").party[0]  # 23/23
    low = squirtle.model_copy(update={"hp": 5})
    assert hp_after(BATTLE_ITEMS["POTION"], low) == 23 and hp_after(BATTLE_ITEMS["POTION"], squirtle) == 23
    assert hp_after(BATTLE_ITEMS["POTION"], low.model_copy(update={"max_hp": 100})) == 25
    assert hp_after(BATTLE_ITEMS["REVIVE"], low.model_copy(update={"hp": 0})) == 11
    assert hp_after(BATTLE_ITEMS["MAX_REVIVE"], low.model_copy(update={"hp": 0})) == 23
    assert not has_effect(BATTLE_ITEMS["REVIVE"], low)
    assert not has_effect(BATTLE_ITEMS["POTION"], low.model_copy(update={"hp": 0}))
    asleep = squirtle.model_copy(update={"status": "SLP"})
    assert has_effect(BATTLE_ITEMS["FULL_RESTORE"], asleep) and has_effect(BATTLE_ITEMS["AWAKENING"], asleep)
    assert not has_effect(BATTLE_ITEMS["ANTIDOTE"], asleep) and not has_effect(
        BATTLE_ITEMS["MAX_POTION"], asleep
    )


# -- healing in danger -----------------------------------------------------------------------------
def test_likely_moves_are_the_last_four_learned() -> None:
    assert [m.name for m in likely_moves("RATTATA", 8)] == ["TACKLE", "TAIL_WHIP", "QUICK_ATTACK"]
    assert [m.name for m in likely_moves("PIDGEOTTO", 30)] == [
        "GUST",
        "SAND_ATTACK",
        "QUICK_ATTACK",
        "WHIRLWIND",
    ]
    assert likely_moves("MISSINGNO", 5) == []


@pytest.mark.parametrize("fairness", list(Fairness))
def test_policy_heals_when_the_next_hit_would_knock_it_out(fairness: Fairness) -> None:
    # SQUIRTLE L6 at 2/23 HP against PIDGEY L4 (GUST): neither POTION nor SUPER_POTION is wasted, the
    # smaller heal is enough.
    state = hurt(with_bag(fixture_state("red_wild_main_menu"), ("SUPER_POTION", 1), ("POTION", 1)), 0, 2)
    decision = RuleBasedPolicy(fairness, lookahead=False).decide(state)
    assert decision is not None
    assert decision.action == UseItem(item="POTION", target=0)
    assert "knocks it out" in decision.reason


def test_policy_does_not_heal_when_not_in_danger() -> None:
    bag = with_bag(fixture_state("red_wild_main_menu"), ("POTION", 3))
    for hp in (23, 15):  # full, and above half
        decision = RuleBasedPolicy(lookahead=False).decide(hurt(bag, 0, hp))
        assert decision is not None and isinstance(decision.action, UseMove)


def test_policy_does_not_heal_without_a_heal_in_the_bag() -> None:
    state = hurt(with_bag(fixture_state("red_wild_main_menu"), ("ANTIDOTE", 1), ("POKE_BALL", 3)), 0, 2)
    decision = RuleBasedPolicy().decide(state)
    assert decision is not None and isinstance(decision.action, UseMove)


def test_policy_attacks_when_it_strikes_first_and_probably_knocks_the_enemy_out() -> None:
    state = hurt(with_bag(fixture_state("red_wild_main_menu"), ("POTION", 1)), 0, 2)
    assert state.battle is not None and state.battle.enemy is not None and state.battle.player is not None
    enemy = state.battle.enemy.model_copy(update={"hp": 1})
    faster = state.battle.player.model_copy(
        update={"stats": state.battle.player.stats.model_copy(update={"speed": 200})}
    )
    battle = state.battle.model_copy(update={"enemy": enemy, "player": faster})
    policy = RuleBasedPolicy(Fairness.FULL_RAM, lookahead=False)
    decision = policy.decide(state.model_copy(update={"battle": battle}))
    assert decision is not None and isinstance(decision.action, UseMove)


def test_policy_does_not_waste_a_heal_that_cannot_outlast_the_hits() -> None:
    # A level-40 PIDGEY's GUST takes far more than a POTION gives back.
    state = hurt(with_bag(fixture_state("red_wild_main_menu"), ("POTION", 1)), 0, 2)
    assert state.battle is not None and state.battle.enemy is not None
    strong = state.battle.enemy.model_copy(update={"level": 40})
    battle = state.battle.model_copy(update={"enemy": strong})
    decision = RuleBasedPolicy().decide(state.model_copy(update={"battle": battle}))
    assert decision is not None and not isinstance(decision.action, UseItem)


def test_a_disabled_move_is_never_offered() -> None:
    state = fixture_state("red_wild_main_menu")
    assert state.battle is not None and UseMove(slot=0) in legal_actions(state)
    disabled = state.model_copy(update={"battle": state.battle.model_copy(update={"disabled_slot": 0})})
    offered = legal_actions(disabled)
    assert UseMove(slot=0) not in offered and UseMove(slot=1) in offered


def test_the_move_menu_with_a_disabled_move_is_still_the_move_menu() -> None:
    from engine.game.decision import detect_decision_point

    image = load_capture(GEN1_FIXTURES / "red_wild_move_menu_move1")
    top = ["PIDGEY", ":L3", "HP:", "SQUIRTLE", ":L6", "HP:"]
    menu = [*top, "disabled!", "▶TACKLE", "TAIL WHIP"]  # the cursor on a DISABLEd move
    message = [*top, "TACKLE was", "disabled!"]  # the enemy's DISABLE, told as a message
    assert detect_decision_point(image, RED_BLUE, menu) is DecisionPoint.BATTLE_MOVE_MENU
    assert detect_decision_point(image, RED_BLUE, message) is DecisionPoint.BATTLE_TEXT


def test_policy_sends_a_member_the_enemy_cannot_touch() -> None:
    """Without the search, a member immune to every type the enemy has (FLYING against a GROUND enemy) is
    the best matchup left, not a division by zero."""
    state = fixture_state("red_wild_use_next_mon_prompt")
    assert state.battle is not None and state.battle.enemy is not None
    ground = state.battle.enemy.model_copy(
        update={"species_name": "DIGLETT", "type1": 0x04, "type2": 0x04,
                "type1_name": "GROUND", "type2_name": "GROUND"}
    )  # fmt: skip
    flying = {"type1": 0x02, "type2": 0x02, "type1_name": "FLYING", "type2_name": "FLYING"}
    party = [  # CATERPIE (BUG) comes back to life so that there are two to choose from
        mon.model_copy(update=flying if mon.species_name == "WARTORTLE" else {"hp": mon.max_hp})
        for mon in state.party
    ]
    battle = state.battle.model_copy(update={"enemy": ground})
    at_prompt = state.model_copy(update={"battle": battle, "party": party})
    one_turn = RuleBasedPolicy(lookahead=False)
    decision = one_turn.decide(at_prompt, [SendNext(slot=0), SendNext(slot=1)])
    assert decision is not None and decision.action == SendNext(slot=1)


@pytest.mark.parametrize(
    ("position", "party_hp", "outcome"),
    [
        (0, (0, 0), "victory"),  # the trainer switched: its last member fell first in the party
        (0, (0, 31), "draw"),  # its second member still stands: not over
        (1, (), "victory"),  # a look without the party's HP: the last place in the party fell
        (0, (), "draw"),
    ],
)
def test_a_trainer_is_beaten_when_every_member_is_down_wherever_the_last_one_stood(
    position: int, party_hp: tuple[int, ...], outcome: str
) -> None:
    state = fixture_state("red_brock_party_menu")
    assert state.battle is not None and state.battle.enemy is not None
    battle = state.battle.model_copy(
        update={"enemy": state.battle.enemy.model_copy(update={"hp": 0}), "enemy_party_count": 2,
                "enemy_party_pos": position, "enemy_party_hp": party_hp}
    )  # fmt: skip
    assert battle_outcome(state.model_copy(update={"battle": battle}), battle_result=0) == outcome


def test_an_evolution_on_screen_names_the_species_and_what_it_becomes() -> None:
    state = fixture_state("red_evolution")
    assert state.evolution == Evolution(species="CHARMANDER", into="CHARMELEON")
    assert fixture_state("red_wild_main_menu").evolution is None


def test_a_member_evolves_unless_the_config_keeps_its_species() -> None:
    state = fixture_state("red_evolution")
    legal = legal_actions(state)
    assert evolution_wanted(state, legal, frozenset()) == [Evolve(allow=True)]
    kept = evolution_wanted(state, legal, frozenset({"CHARMANDER"}))
    assert kept == [Evolve(allow=False)]
    decision = RuleBasedPolicy().decide(state, kept)
    assert decision is not None and decision.action == Evolve(allow=False)
    assert evolution_wanted(state, legal, frozenset({"PIKACHU"})) == [Evolve(allow=True)]


def test_the_evolution_setting_leaves_other_decisions_alone() -> None:
    state = fixture_state("red_wild_main_menu")
    legal = legal_actions(state)
    assert evolution_wanted(state, legal, frozenset({"CHARMANDER"})) == legal


def test_a_species_the_config_names_must_exist() -> None:
    assert known_species(("PIKACHU",)) == frozenset({"PIKACHU"})
    with pytest.raises(ConfigError, match="no species named PIKACHOO"):
        known_species(("PIKACHOO",))


def test_a_level_up_in_battle_keeps_the_move_an_hm_does_not_cover() -> None:
    # A BLASTOISE with SURF and ICE BEAM is offered HYDRO PUMP after a battle: SURF already hits with
    # water, and ICE BEAM is its one move for LANCE's dragons, so the offer is let go.
    state = fixture_state("red_learn_move_prompt")
    moves = game_data().moves_by_name
    front = state.party[0]
    slots = tuple(
        front.moves[0].model_copy(update={"move_id": moves[name].id, "name": name})
        for name in ("SURF", "STRENGTH", "ICE_BEAM", "EARTHQUAKE")
    )
    blastoise = front.model_copy(update={"moves": slots, "species_name": "BLASTOISE", "type1_name": "WATER"})
    offer = ("move to make room", "for HYDRO PUMP?")
    offered = state.model_copy(
        update={"party": (blastoise,), "screen": state.screen.model_copy(update={"text": offer})}
    )
    decision = RuleBasedPolicy().decide(offered)
    assert decision is not None and decision.action == LearnMove(forget_slot=None), decision.reason
    # Without SURF beside it, HYDRO PUMP (120 power, water's own) is worth more than EARTHQUAKE.
    tackle = moves["TACKLE"]
    bare = blastoise.model_copy(
        update={"moves": (slots[0].model_copy(update={"move_id": tackle.id, "name": "TACKLE"}), *slots[1:])}
    )
    decision = RuleBasedPolicy().decide(offered.model_copy(update={"party": (bare,)}))
    assert decision is not None and decision.action == LearnMove(forget_slot=0), decision.reason
