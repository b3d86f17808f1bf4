"""Who leads for experience: the member that brings the boss within reach for the least experience, by the
real forecast against ERIKA, each member weighed in the forms its levels evolve it into; no change when
the forecast already meets the bar (a defeat asked for levels of the strongest member, which a new lead
would only take experience from), except that the strongest goes in front when a weak member leads for
nothing."""

from __future__ import annotations

from engine.combat.position import forecast
from engine.game.growth import experience_for_level
from engine.game.models import GameState, PartyMon
from engine.game.tables import game_data
from engine.team.leads import best_lead, strongest_lead
from tests.unit.test_team import member, team


def erika(state: GameState) -> float | None:
    return forecast(state, "ERIKA", 1, healed=True)


def party() -> GameState:
    return team(
        member("WARTORTLE", 30, ("BUBBLEBEAM", "BITE")),
        member("PIDGEOTTO", 20, ("GUST", "QUICK_ATTACK"), slot=1),
    )


def test_the_cheapest_member_to_the_bar_leads() -> None:
    state = party()
    base = erika(state)
    assert base is not None and base < 0.7
    choice = best_lead(state, erika, 0.7)
    assert choice is not None and choice.species == "PIDGEOTTO" and choice.member == 1  # Flying against grass


def test_no_new_lead_when_the_forecast_already_meets_the_bar() -> None:
    charmeleon = member("CHARMELEON", 36, ("FLAMETHROWER", "SLASH"))
    growth = game_data().species_by_index[charmeleon.species_id].growth_rate
    charmeleon = charmeleon.model_copy(
        update={"exp": experience_for_level(growth, 36)}
    )  # L37 costs thousands
    strong = team(charmeleon, member("PIDGEY", 3, ("GUST",), slot=1))  # its next level: a few dozen
    base = erika(strong)
    assert base is not None and base >= 0.7
    assert best_lead(strong, erika, 0.7) is None


def brock(state: GameState) -> float | None:
    return forecast(state, "BROCK", 1, healed=True)


def test_a_member_is_weighed_with_the_moves_it_learns_on_the_way() -> None:
    # A SQUIRTLE at L6 knows TACKLE and TAIL WHIP; at L8 it learns BUBBLE, which BROCK's rocks fear.
    from engine.game.teaching import with_level_moves

    squirtle = member("SQUIRTLE", 6, ("TACKLE", "TAIL_WHIP"))
    assert [slot.name for slot in with_level_moves(squirtle, 8).moves] == ["TACKLE", "TAIL_WHIP", "BUBBLE"]
    assert [slot.name for slot in with_level_moves(squirtle, 7).moves] == ["TACKLE", "TAIL_WHIP"]
    # Weighed without BUBBLE, the SQUIRTLE in front was hopeless and a RATTATA went in front to be trained
    # to L22 (over 10,000 experience); with it, the SQUIRTLE stays in front.
    state = team(
        member("SQUIRTLE", 7, ("TACKLE", "TAIL_WHIP")), member("RATTATA", 4, ("TACKLE", "TAIL_WHIP"), slot=1)
    )
    assert brock(state) == 0.0
    assert best_lead(state, brock, 0.7) is None


def weak_in_front() -> GameState:
    return team(
        member("BUTTERFREE", 17, ("CONFUSION", "TACKLE")),
        member("PIDGEY", 11, ("GUST", "FLY"), slot=1),
        member("BLASTOISE", 59, ("SURF", "ICE_BEAM"), slot=2),
    )


def test_the_strongest_leads_when_no_member_raises_the_forecast() -> None:
    # Blue seed 53: a gauntlet forecast that three levels of anyone leave where it is; the BUTTERFREE L17
    # in front opened 40 trainer battles with a switch and took half of their experience.
    choice = best_lead(weak_in_front(), lambda state: 0.74)
    assert choice is not None and choice.member == 2 and choice.species == "BLASTOISE" and choice.strongest
    assert "the strongest" in choice.reason


def test_the_strongest_leads_when_the_forecast_already_meets_the_bar() -> None:
    choice = best_lead(weak_in_front(), lambda state: 0.9, 0.7)
    assert choice is not None and choice.member == 2 and choice.strongest


def test_no_change_when_the_strongest_leads_or_has_fainted() -> None:
    state = weak_in_front()
    blastoise_first = state.model_copy(update={"party": (state.party[2], *state.party[:2])})
    assert strongest_lead(blastoise_first) is None
    fainted = state.party[2].model_copy(update={"hp": 0})
    assert strongest_lead(state.model_copy(update={"party": (*state.party[:2], fainted)})) is None
    # Fainted in front: the PIDGEY behind is not the strongest, the one the next nurse brings back is.
    fallen_first = (fainted, *state.party[:2])
    assert strongest_lead(state.model_copy(update={"party": fallen_first})) is None


def test_the_tactician_puts_a_lone_fighter_in_front_for_the_gauntlet_and_the_strongest_with_no_boss() -> None:
    from engine.story.graph import story_graph
    from engine.tactician.asides import Asides
    from tests.unit.test_repels import world

    graph = story_graph()
    chain = next(step for o in graph.objectives for step in o.steps if step.gauntlet and step.do == "train")
    asides = Asides(world(), graph, None)
    leg = asides._lead(weak_in_front(), chain)  # no forecast asked: one member is a fighter
    assert leg is not None and leg.order == (0, 2) and "BLASTOISE leads" in leg.reason
    leg = Asides(world(), graph, None)._strongest_leads(weak_in_front())
    assert leg is not None and leg.order == (0, 2)


def test_a_member_is_weighed_in_the_forms_its_levels_evolve_it_into() -> None:
    from engine.game.stats import raised
    from engine.game.teaching import grown

    pidgey = member("PIDGEY", 11, ("GUST", "FLY"))
    at_40 = grown(pidgey, 40)  # PIDGEOTTO at L18, PIDGEOT at L36 (pret data/pokemon/evos_moves.asm)
    assert at_40.species_name == "PIDGEOT" and (at_40.type1_name, at_40.type2_name) == ("NORMAL", "FLYING")
    assert "WING_ATTACK" in [slot.name for slot in at_40.moves]  # PIDGEOTTO learns it at L31
    assert at_40.stats == raised(pidgey, 40).stats and at_40.hp == at_40.max_hp
    as_pidgey = game_data().species_by_name["PIDGEY"]
    from engine.game.stats import computed_stats

    assert at_40.stats.attack > computed_stats(as_pidgey, 40, pidgey.dvs, pidgey.stat_exp)[1].attack
    assert grown(pidgey, 17).species_name == "PIDGEY" and grown(pidgey, 18).species_name == "PIDGEOTTO"
    # A member past the level it evolves at (a B pressed in the game) evolves at its next level-up.
    late = member("IVYSAUR", 40, ("RAZOR_LEAF",))
    assert grown(late, 41).species_name == "VENUSAUR" and raised(late, 40).species_name == "IVYSAUR"


def at_level_start(mon: PartyMon) -> PartyMon:
    growth = game_data().species_by_index[mon.species_id].growth_rate
    return mon.model_copy(update={"exp": experience_for_level(growth, mon.level)})


def test_the_choice_does_not_hang_on_the_order_the_party_stands_in() -> None:
    # Blue seed 54 before the S.S. Anne's rival: with the PIDGEY in front the forecast fell, the starter's
    # levels looked the cheaper way and it went in front, where PIDGEY's did: twelve swaps in 10,000 frames.
    def rival(state: GameState) -> float:
        pidgey, wartortle = sorted(state.party, key=lambda mon: -mon.slot)  # by the slot each was made in
        weak_in_front = state.party[0].level < max(mon.level for mon in state.party)
        return (
            0.55
            + 0.2 * (pidgey.level >= 10)
            + 0.2 * (wartortle.level >= 25)
            + 0.3 * (wartortle.level >= 27)
            - 0.3 * weak_in_front
        )

    starter_first = team(at_level_start(member("WARTORTLE", 24, ("BUBBLEBEAM",))),
                         at_level_start(member("PIDGEY", 8, ("GUST",), slot=1)))  # fmt: skip
    choice = best_lead(starter_first, rival, 0.7)
    assert choice is not None and choice.species == "PIDGEY" and choice.level == 10
    pidgey_first = starter_first.model_copy(update={"party": starter_first.party[::-1]})
    assert best_lead(pidgey_first, rival, 0.7) is None  # the chosen lead in front stays there
