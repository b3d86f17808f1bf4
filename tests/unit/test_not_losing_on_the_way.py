"""Not losing on the way. A wild Pokémon met by walking that the party beats less often than FLEE_BELOW is
run from, experience wanted or not (a defeat costs the walk back from the nurse and the levels the plan
then asks for); one it beats is fought as before. An aside that walks waits while the strongest member is
down. A trainer the team would likely lose to is named on the leg, so the walk goes around what it
watches."""

from __future__ import annotations

from engine.game.actions import Run, legal_actions
from engine.game.models import GameState, Sprite
from engine.tactician.tactician import FLEE_BELOW, Tactician, _wild_chance
from engine.world.models import WildTable
from engine.world.world import World
from tests.support.tiny_world import TinyMap, build_world
from tests.unit.test_actions_and_policy import fixture_state
from tests.unit.test_repels import ART


def met_here() -> tuple[Tactician, GameState]:
    state = fixture_state("red_wild_main_menu")  # SQUIRTLE L6 against a wild PIDGEY L4
    assert state.battle is not None and state.battle.enemy is not None
    world = build_world(TinyMap(state.overworld.map_id, state.overworld.map_name or "ROUTE_1", ART))
    world.wild = {state.overworld.map_id: WildTable(rate=20, slots=((4, "PIDGEY"),))}
    return Tactician(world=world), state


def worn(state: GameState, hp: int) -> GameState:
    assert state.battle is not None and state.battle.player is not None
    player = state.battle.player.model_copy(update={"hp": hp})
    party = tuple(mon.model_copy(update={"hp": hp}) for mon in state.party)
    return state.model_copy(
        update={"battle": state.battle.model_copy(update={"player": player}), "party": party}
    )


def test_a_wild_battle_the_party_is_likely_to_lose_is_run_from() -> None:
    tactician, state = met_here()
    weak = worn(state, 2)
    chance = _wild_chance(weak)
    assert chance is not None and chance < FLEE_BELOW
    decision = tactician._flee(weak, legal_actions(weak))
    assert decision is not None and decision.action == Run() and "to win" in decision.reason


def test_one_the_party_wins_is_not_run_from_for_its_chance() -> None:
    tactician, state = met_here()
    chance = _wild_chance(state)
    assert chance is not None and chance > 0.99
    decision = tactician._flee(state, legal_actions(state))
    assert decision is None or "to win" not in decision.reason


def test_an_aside_that_walks_waits_while_the_strongest_member_is_down() -> None:
    from engine.tactician.pilot import unworn_aside
    from engine.world.goals import HereGoal, Leg, ObjectGoal
    from tests.unit.test_team import member, team

    healthy = team(member("WARTORTLE", 18, ("BUBBLE",)), member("PIDGEY", 6, ("GUST",), slot=1))
    down = healthy.model_copy(
        update={"party": (healthy.party[0].model_copy(update={"hp": 0}), healthy.party[1])}
    )
    pick_up = Leg(
        goal=ObjectGoal(map_id=59, index=10), interact=True, reason="the bag: pick up the RARE_CANDY"
    )
    in_place = Leg(goal=HereGoal(), order=(0, 1), reason="the team: PIDGEY leads")
    assert unworn_aside(pick_up, down) is None  # the objective's leg goes to the nurse first
    assert unworn_aside(in_place, down) == in_place
    assert unworn_aside(pick_up, healthy) == pick_up


def test_a_trainer_the_team_would_likely_lose_to_is_named_on_the_leg_to_walk_around() -> None:
    from engine.game.tables import game_data
    from engine.tactician.wary import Wary
    from engine.world.goals import Leg, ObjectGoal, SquareGoal
    from engine.world.tables import OPP_ID_OFFSET
    from tests.support.tiny_world import person, state_at
    from tests.unit.test_team import member, team

    # BROCK's gym trainer (pret data/trainers/parties.asm: JR_TRAINER_M #1, DIGLETT and SANDSHREW L11).
    jr = next(c for c in game_data().trainer_classes.values() if c.name == "JR_TRAINER_M")
    gym_trainer = person(
        2, 3, 6, trainer_class=jr.id + OPP_ID_OFFSET, trainer_number=1, sight=5, beaten_event=114
    )
    world = build_world(
        TinyMap(7, "PEWTER_GYM", ART, objects=(gym_trainer,)), TinyMap(8, "PEWTER_POKECENTER", ART)
    )
    walk = Leg(goal=SquareGoal(map_id=7, x=1, y=1), reason="beat Brock: fight")
    weak = state_at(team(member("SQUIRTLE", 9, ("TACKLE", "BUBBLE"))), 7, 2, 2)
    strong = state_at(team(member("WARTORTLE", 30, ("SURF", "BITE"))), 7, 2, 2)
    wary = Wary(world)
    assert wary.around(weak, walk).feared == ((7, 2),)
    assert wary.around(strong, walk) == walk  # one it beats is a battle like any other
    fight_him = Leg(goal=ObjectGoal(map_id=7, index=2), interact=True, reason="fight him for experience")
    assert wary.around(weak, fight_him) == fight_him  # the plan's own choice

    # From the Pokémon Center two maps away: the trainers around the leg's goal count as well.
    at_the_nurse = state_at(team(member("SQUIRTLE", 9, ("TACKLE", "BUBBLE"))), 8, 2, 2)
    assert wary.feared(at_the_nurse) == []
    assert wary.around(at_the_nurse, walk).feared == ((7, 2),)


HIM = Sprite(index=1, picture=1, x=3, y=1, facing="down", walking=False)  # the JR. TRAINER as RAM shows him


def gap_world(open_bottom: bool) -> World:
    """Two rooms joined in column 3, where a JR. TRAINER stands at (3, 1) facing down and watches (3, 2)
    and (3, 3); with `open_bottom` a gap at (3, 4) goes around him."""
    from engine.game.tables import game_data
    from engine.world.tables import OPP_ID_OFFSET
    from tests.support.tiny_world import person

    jr = next(c for c in game_data().trainer_classes.values() if c.name == "JR_TRAINER_M")
    trainer = person(1, 3, 1, trainer_class=jr.id + OPP_ID_OFFSET, trainer_number=1, sight=2,
                     beaten_event=114)  # fmt: skip
    bottom = "#......#" if open_bottom else "#..#...#"
    art = ("########", "#......#", "#......#", "#......#", bottom, "########")
    return build_world(TinyMap(3, "ROUTE_3", art, objects=(trainer,)))


def test_a_trainer_that_watches_every_way_on_is_met_healed_when_healing_turns_the_odds() -> None:
    from engine.combat.position import forecast
    from engine.tactician.wary import FEAR_BELOW, Wary
    from engine.world.goals import Leg, SquareGoal
    from tests.support.tiny_world import state_at
    from tests.unit.test_team import member, team

    fighter = member("SQUIRTLE", 12, ("TACKLE", "BUBBLE"))
    hurt = state_at(team(fighter.model_copy(update={"hp": fighter.max_hp // 2})), 3, 1, 1, (HIM,))
    fit = state_at(team(fighter), 3, 1, 1, (HIM,))
    assert (forecast(hurt, "JR_TRAINER_M", 1) or 0) < FEAR_BELOW <= (forecast(fit, "JR_TRAINER_M", 1) or 0)
    walk = Leg(goal=SquareGoal(map_id=3, x=6, y=1), reason="reach Mt. Moon: go")
    wary = Wary(gap_world(open_bottom=False))
    leg = wary.around(hurt, walk)
    assert leg.feared == ((3, 1),)
    found = wary.healing_helps(hurt, leg, lambda: 10)
    assert found is not None and found[1] == (3, 1)
    assert "JR_TRAINER_M #1 watches every way on" in found[0] and "healed, 10 steps from a nurse" in found[0]
    assert wary.healing_helps(fit, wary.around(fit, walk), lambda: 10) is None  # nothing to gain: go on

    around = Wary(gap_world(open_bottom=True))
    assert around.healing_helps(hurt, around.around(hurt, walk), lambda: 10) is None  # the walk goes round


def test_a_trainer_likely_beaten_is_met_healed_when_the_odds_gained_pay_the_walk_to_the_nurse() -> None:
    from engine.combat.position import forecast
    from engine.tactician.wary import DEFEAT_FRAMES, FEAR_BELOW, FRAMES_PER_STEP, NURSE_FRAMES, Wary
    from engine.world.goals import Leg, SquareGoal
    from tests.support.tiny_world import state_at
    from tests.unit.test_team import member, team

    # Route 3's case: a SQUIRTLE that beats him more often than not as it is, but not surely.
    fighter = member("SQUIRTLE", 12, ("TACKLE", "BUBBLE"))
    scratched = state_at(team(fighter.model_copy(update={"hp": fighter.max_hp * 7 // 10})), 3, 1, 1, (HIM,))
    now = forecast(scratched, "JR_TRAINER_M", 1) or 0.0
    then = forecast(scratched, "JR_TRAINER_M", 1, healed=True) or 0.0
    assert FEAR_BELOW <= now < then
    wary = Wary(gap_world(open_bottom=False))
    walk = wary.around(scratched, Leg(goal=SquareGoal(map_id=3, x=6, y=1), reason="reach Mt. Moon: go"))
    assert not walk.feared  # not feared: the walk is not steered round him
    paid = int(((then - now) * DEFEAT_FRAMES - NURSE_FRAMES) / (2 * FRAMES_PER_STEP))  # steps the gain pays
    assert paid > 0
    near = wary.healing_helps(scratched, walk, lambda: paid)
    assert near is not None and near[1] == (3, 1)
    assert wary.healing_helps(scratched, walk, lambda: paid + 1) is None  # a nurse too far to pay
    asked: list[int] = []

    def no_nurse() -> int | None:
        asked.append(1)
        return None

    assert wary.healing_helps(scratched, walk, no_nurse) is None  # no nurse in reach
    assert asked == [1]  # asked once, and only once a trainer made it worth asking


def test_no_nurse_when_the_team_healed_would_still_likely_lose() -> None:
    from engine.tactician.wary import Wary
    from engine.world.goals import Leg, SquareGoal
    from tests.support.tiny_world import state_at
    from tests.unit.test_team import member, team

    weak = state_at(
        team(member("SQUIRTLE", 10, ("TACKLE", "BUBBLE")).model_copy(update={"hp": 15})), 3, 1, 1, (HIM,)
    )
    wary = Wary(gap_world(open_bottom=False))
    leg = wary.around(weak, Leg(goal=SquareGoal(map_id=3, x=6, y=1), reason="reach Mt. Moon: go"))
    assert leg.feared and wary.healing_helps(weak, leg, lambda: 10) is None


def test_the_tactician_walks_to_the_nurse_first_once() -> None:
    from engine.world.goals import Leg, ObjectGoal, SquareGoal
    from tests.support.tiny_world import INDOOR, person, state_at
    from tests.unit.test_team import member, team

    route = gap_world(open_bottom=False).maps[3]
    art = ("#D######", "#......#", "#......#", "#......#", "#..#...#", "########")
    center = TinyMap(4, "PEWTER_POKECENTER", ART, tileset=INDOOR, warps=[(1, 4, 0xFF, 0)],
                     objects=(person(1, 2, 1),))  # fmt: skip
    world = build_world(TinyMap(3, "ROUTE_3", art, warps=[(1, 0, 4, 0)], objects=route.objects), center)
    tactician = Tactician(world=world)
    fighter = member("SQUIRTLE", 12, ("TACKLE", "BUBBLE"))
    hurt = state_at(team(fighter.model_copy(update={"hp": fighter.max_hp // 2})), 3, 1, 1, (HIM,))
    walk = tactician.wary.around(hurt, Leg(goal=SquareGoal(map_id=3, x=6, y=1), reason="reach Mt. Moon: go"))
    nurse = tactician._nurse_first(hurt, walk)
    assert nurse is not None and isinstance(nurse.goal, ObjectGoal) and nurse.goal.map_id == 4
    assert nurse.reason.startswith("heal first: JR_TRAINER_M #1 watches every way on")
    assert nurse.feared == ((3, 1),)  # the walk to the nurse keeps out of his sight where it can
    assert tactician._nurse_first(hurt, walk) is None  # once: a nurse the walk misses is no loop
