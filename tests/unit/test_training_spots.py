"""Where to train: experience per frame of each map's wild table for the lead, worked out from pret's
encounter rules by hand; maps whose wild Pokémon outlevel the lead are left out, and richer tables rank
first; a trainer hunt whose walk reaches no one is not tried again until the story moves on."""

from __future__ import annotations

import pytest

from engine.game.models import GameState, Story
from engine.game.tables import game_data
from engine.tactician.explorer import Explorer
from engine.tactician.pilot import Pilot
from engine.tactician.spots import SpotChooser
from engine.team.training import BATTLE_FRAMES, FRAMES_PER_STEP, TURN_FRAMES, WALK_FACTOR, ranked_spots, spot
from engine.world.goals import SquareGoal
from engine.world.models import SLOT_CHANCES, WildTable
from engine.world.tables import OPP_ID_OFFSET
from engine.world.world import World
from tests.support.tiny_world import INDOOR, TinyMap, build_world, person, state_at
from tests.unit.test_defeats import graph as defeats_graph
from tests.unit.test_pilot import ROAD, TOWN, in_town
from tests.unit.test_pilot import world as pilot_world
from tests.unit.test_team import member, team


def table(rate: int, *slots: tuple[int, str]) -> WildTable:
    return WildTable(rate=rate, slots=slots)


def test_one_species_in_every_slot_gives_its_experience_by_pret_s_formula() -> None:
    geodude = table(25, *((20, "GEODUDE"),) * 10)
    found = spot(1, geodude, lead_level=40)
    assert found is not None
    base = game_data().species_by_name["GEODUDE"].base_exp
    assert found.exp_per_battle == pytest.approx(base * 20 / 7)
    walk = FRAMES_PER_STEP * WALK_FACTOR * 256 / 25  # the steps the rate asks for, and those between
    assert found.frames_per_battle == pytest.approx(walk + BATTLE_FRAMES)  # 20 levels below: one turn
    assert found.exp_per_frame == pytest.approx(found.exp_per_battle / found.frames_per_battle)


def test_the_slots_are_weighed_by_pret_s_chances_and_closer_levels_take_more_turns() -> None:
    mixed = table(10, (30, "MACHOKE"), *((5, "RATTATA"),) * 9)
    found = spot(1, mixed, lead_level=32)
    assert found is not None
    total = sum(SLOT_CHANCES)
    data = game_data().species_by_name
    expected = (SLOT_CHANCES[0] * data["MACHOKE"].base_exp * 30 / 7
                + (total - SLOT_CHANCES[0]) * data["RATTATA"].base_exp * 5 / 7) / total  # fmt: skip
    assert found.exp_per_battle == pytest.approx(expected)
    rest = total - SLOT_CHANCES[0]
    battle = (SLOT_CHANCES[0] * (BATTLE_FRAMES + TURN_FRAMES) + rest * BATTLE_FRAMES) / total
    assert found.frames_per_battle == pytest.approx(FRAMES_PER_STEP * WALK_FACTOR * 256 / 10 + battle)


def test_a_map_whose_wild_pokemon_outlevel_the_lead_is_left_out_and_richer_maps_rank_first() -> None:
    assert spot(1, table(20, (50, "GOLBAT")), lead_level=40) is None
    ranked = ranked_spots({1: table(20, *((4, "PIDGEY"),) * 10), 2: table(20, *((35, "GOLBAT"),) * 10)}, 45)
    assert [s.map_id for s in ranked] == [2, 1]


def test_a_trainers_party_gives_half_again_the_experience_of_the_same_pokemon_met_wild() -> None:
    from engine.team.training import TRAINER_BONUS, trainer_battle

    exp, frames = trainer_battle((("GEODUDE", 12), ("ONIX", 14)), lead_level=30)
    data = game_data().species_by_name
    expected = (data["GEODUDE"].base_exp * 12 + data["ONIX"].base_exp * 14) / 7 * TRAINER_BONUS
    assert exp == pytest.approx(expected)
    assert frames > 0 and trainer_battle((("GEODUDE", 12),), 30)[1] < frames  # more Pokémon, more frames


def hunting_world(road_name: str = "ROAD") -> World:
    """The pilot's town and road, a BUG_CATCHER (his first party: two L6 bugs) standing on the road."""
    bug_catcher = person(1, 3, 2, trainer_class=OPP_ID_OFFSET + 2, trainer_number=1, sight=0, beaten_event=7)
    return pilot_world(road_name, (bug_catcher,))


def strong_squirtle() -> GameState:
    return in_town(team(member("SQUIRTLE", 20, ("TACKLE", "BUBBLE", "WATER_GUN"))))


def test_a_trainer_hunt_whose_walk_reaches_no_one_is_not_tried_again() -> None:
    w = hunting_world()
    strong = strong_squirtle()
    chooser = SpotChooser(w, Explorer(w))
    hunt = chooser.trainer(strong)
    assert hunt is not None and hunt.trainer == "BUG_CATCHER #1" and hunt.key == (ROAD, 1)
    chooser.unreached(hunt.key, strong)
    assert chooser.trainer(strong) is None  # the only trainer near is out of reach now
    story = strong.story.model_copy(update={"event_flags": strong.story.event_flags | {9}})
    assert chooser.trainer(strong.model_copy(update={"story": story})) is not None  # a gate may be open


def test_a_trainer_gone_from_the_map_is_not_hunted_though_never_beaten() -> None:
    # Silph Co.'s Rockets leave with Giovanni: their toggles hide them, their beaten flags stay unset.
    bug_catcher = person(
        1, 3, 2, trainer_class=OPP_ID_OFFSET + 2, trainer_number=1, sight=0, beaten_event=7, toggle=40
    )
    w = pilot_world("ROAD", (bug_catcher,))
    strong = strong_squirtle()
    assert SpotChooser(w, Explorer(w)).trainer(strong) is not None  # still there: hunted
    story = strong.story.model_copy(update={"hidden_objects": frozenset({40})})
    gone = strong.model_copy(update={"story": story})
    assert SpotChooser(w, Explorer(w)).trainer(gone) is None


def test_the_elite_fours_rooms_are_never_a_trainer_hunt() -> None:
    # From the lobby LORELEI looked sure to fall: a hunt walked into the gauntlet "for experience".
    assert SpotChooser(hunting_world(), Explorer(hunting_world())).trainer(strong_squirtle()) is not None
    w = hunting_world("LORELEIS_ROOM")
    assert SpotChooser(w, Explorer(w)).trainer(strong_squirtle()) is None


def test_the_pilot_gives_up_a_hunt_that_ended_without_its_battle() -> None:
    w = hunting_world()
    strong = strong_squirtle()
    flown = Pilot(w, defeats_graph(), Explorer(w), stuck_legs=3)
    flown.battle_ended("defeat", "BROCK #2", strong)  # a trainer no step trains for: catch up by training
    leg = flown.leg(strong, "beat_brock")
    assert leg is not None and "fight BUG_CATCHER #1 for experience" in leg.reason, leg.reason
    # The walk got part of the way and was blocked (Saffron Gym's teleporters): no battle came of it.
    moved = strong.model_copy(update={"overworld": strong.overworld.model_copy(update={"x": 6})})
    flown.travelled(strong, moved)
    after = flown.leg(moved, "beat_brock")
    assert after is not None and "BUG_CATCHER" not in after.reason


def test_no_training_on_victory_roads_floors_whose_boulders_can_shut_the_way_out() -> None:
    w = hunting_world("VICTORY_ROAD_1F")  # a strength floor: its boulders are put back on every visit
    assert SpotChooser(w, Explorer(w)).trainer(strong_squirtle()) is None


RICH, POOR = 0x30, 0x31  # indoor maps: wild Pokémon on every floor square


def two_caves(rich_name: str = "RICH_CAVE") -> World:
    """A town between two caves: the rich one (L12 wild Pokémon) and the poor one (L4)."""
    art = ("#" * 8, *("#......#" for _ in range(6)), "#" * 8)
    doors = ["#DD" + art[0][3:], *art[1:]]
    town = TinyMap(TOWN, "TOWN", doors, warps=[(1, 0, RICH, 0), (2, 0, POOR, 0)])
    rich = TinyMap(RICH, rich_name, doors, tileset=INDOOR, warps=[(1, 0, TOWN, 0)])
    poor = TinyMap(POOR, "POOR_CAVE", doors, tileset=INDOOR, warps=[(1, 0, TOWN, 1)])
    w = build_world(town, rich, poor)
    w.wild = {RICH: table(20, *[(12, "RATTATA")] * 10), POOR: table(20, *[(4, "RATTATA")] * 10)}
    return w


def spot_map(flown: Pilot, state: GameState) -> int | None:
    found = flown._training_spot(state)
    return found.map_id if found is not None else None


def test_after_losing_to_a_trainer_no_training_on_the_map_it_stands_on() -> None:
    w = two_caves()
    lead = team(member("SQUIRTLE", 14, ("TACKLE", "BUBBLE")))
    in_cave = state_at(lead, RICH, 3, 3)
    flown = Pilot(w, defeats_graph(), Explorer(w), stuck_legs=3)
    assert spot_map(flown, in_cave) == RICH
    assert flown.battle_ended("defeat", "RIVAL1 #5", in_cave) is not None  # the rival beside the grass
    assert spot_map(flown, in_cave) == POOR  # trained for elsewhere
    assert spot_map(flown, state_at(team(member("SQUIRTLE", 16, ("TACKLE",))), RICH, 3, 3)) == RICH


def behind_pewters_guard() -> World:
    """A town named after Pewter City, whose east exit (pret PewterCityCheckPlayerLeavingEastScript's
    squares) is the only way to a cave with wild Pokémon."""
    art = ["#" * 40 for _ in range(22)]
    art[17] = "#" + "." * 36 + "D" + "##"
    for y in (18, 19):
        art[y] = "#" * 37 + "." + "##"
    town = TinyMap(TOWN, "PEWTER_CITY", art, warps=[(37, 17, RICH, 0)])
    cave = TinyMap(RICH, "RICH_CAVE", ["#D" + "#" * 6, *("#......#" for _ in range(6)), "#" * 8],
                   tileset=INDOOR, warps=[(1, 0, TOWN, 0)])  # fmt: skip
    w = build_world(town, cave)
    w.wild = {RICH: table(20, *[(12, "RATTATA")] * 10)}
    return w


def test_training_never_plans_through_a_closed_story_gate() -> None:
    w = behind_pewters_guard()
    lead = team(member("SQUIRTLE", 14, ("TACKLE", "BUBBLE")))
    guarded = state_at(lead, TOWN, 2, 17)
    explorer = Explorer(w)
    assert explorer.grass_steps(guarded, {RICH}) is None  # the youngster sends the player back
    assert not isinstance(explorer.training_leg(guarded, "train", {RICH}).goal, SquareGoal)
    after_brock = state_at(lead, TOWN, 2, 17, story=Story(events=frozenset({"EVENT_BEAT_BROCK"})))
    assert explorer.grass_steps(after_brock, {RICH}) is not None
    leg = explorer.training_leg(after_brock, "train", {RICH})
    assert isinstance(leg.goal, SquareGoal) and leg.goal.map_id == RICH


def test_with_no_grass_in_walking_reach_the_spot_is_flown_to() -> None:
    # An island (the plateau, say) with no grass of its own, and Cinnabar Island with a cave beside it, far
    # off and joined by nothing: the spot is the cave, flown to (the walk there becomes a flight).
    island_id, town_id = 1, 2
    art = ("#" * 12, *("#" + "." * 10 + "#" for _ in range(8)), "#" * 12)
    island = TinyMap(island_id, "ISLAND", art)
    # 16 squares a side: the landing square FLY_SPOTS gives Cinnabar Island, (11, 12), lies inside.
    town_art = ["#D" + "#" * 14, *("#" + "." * 14 + "#" for _ in range(14)), "#" * 16]
    cinnabar = TinyMap(town_id, "CINNABAR_ISLAND", town_art, warps=[(1, 0, RICH, 0)])
    cave = TinyMap(RICH, "RICH_CAVE", ["#D" + "#" * 6, *("#......#" for _ in range(6)), "#" * 8],
                   tileset=INDOOR, warps=[(1, 0, town_id, 0)])  # fmt: skip
    w = build_world(island, cinnabar, cave)
    w.wild = {RICH: table(20, *[(12, "RATTATA")] * 10)}
    flyer = team(member("PIDGEOTTO", 20, ("GUST", "FLY")))
    badges = flyer.progress.model_copy(update={"badge_names": ("BOULDER", "CASCADE", "THUNDER")})
    flyer = flyer.model_copy(update={"progress": badges})
    story = Story(towns_visited=frozenset({"CINNABAR_ISLAND"}))
    found = SpotChooser(w, Explorer(w)).best(state_at(flyer, island_id, 5, 5, story=story))
    assert found is not None and found.by_air and found.map_id == RICH
    grounded = team(member("PIDGEOTTO", 20, ("GUST",)))  # no FLY: nothing in reach at all
    assert SpotChooser(w, Explorer(w)).best(state_at(grounded, island_id, 5, 5, story=story)) is None


def test_no_training_on_cycling_roads_slope() -> None:
    # Riding up against the slope after every battle gave a fifth of the experience a frame of the model.
    lead = team(member("SQUIRTLE", 14, ("TACKLE", "BUBBLE")))
    in_town_now = state_at(lead, TOWN, 3, 3)
    w = two_caves()
    found = SpotChooser(w, Explorer(w)).best(in_town_now)
    assert found is not None and found.map_id == RICH
    w = two_caves("ROUTE_17")
    found = SpotChooser(w, Explorer(w)).best(in_town_now)
    assert found is not None and found.map_id == POOR


def test_no_training_on_the_seafoam_islands_whose_holes_drop_one_way() -> None:
    lead = team(member("SQUIRTLE", 14, ("TACKLE", "BUBBLE")))
    in_town_now = state_at(lead, TOWN, 3, 3)
    for floor in ("SEAFOAM_ISLANDS_B1F", "SEAFOAM_ISLANDS_B4F"):  # a floor with holes, and the bottom one
        w = two_caves(floor)
        found = SpotChooser(w, Explorer(w)).best(in_town_now)
        assert found is not None and found.map_id == POOR, floor


def corridor_with_a_shortcut() -> tuple[World, tuple[int, ...]]:
    """A town with a poor cave beside it and a rich cave at the end of a walk through four rooms; a
    walled-in door also joins the town to the rich cave through two sealed rooms, so that the town's search
    sees the rich cave three warps off while the first room of the walk does not (as Route 12's Snorlax
    shortens Route 11's way to Route 10 on paper)."""
    rooms = (0x32, 0x33, 0x34, 0x35)
    sealed = (0x36, 0x37)
    doors = ["#D##D###", *("#......#" for _ in range(6)), "#" * 8]
    town_art = ["#DD###D#", "#....###", *("#......#" for _ in range(5)), "#" * 8]
    town = TinyMap(TOWN, "TOWN", town_art, warps=[(1, 0, POOR, 0), (2, 0, rooms[0], 0), (6, 0, sealed[0], 0)])
    poor = TinyMap(POOR, "POOR_CAVE", doors, tileset=INDOOR, warps=[(1, 0, TOWN, 0)])
    chain = (TOWN, *rooms, RICH)
    walk = [
        TinyMap(
            room, f"ROOM_{n}", doors, tileset=INDOOR, warps=[(1, 0, chain[n], 1), (4, 0, chain[n + 2], 0)]
        )
        for n, room in enumerate(rooms)
    ]
    rich = TinyMap(
        RICH, "RICH_CAVE", doors, tileset=INDOOR, warps=[(1, 0, rooms[-1], 1), (4, 0, sealed[1], 1)]
    )
    shut = [
        TinyMap(sealed[0], "SEALED_0", doors, tileset=INDOOR, warps=[(1, 0, TOWN, 2), (4, 0, sealed[1], 0)]),
        TinyMap(sealed[1], "SEALED_1", doors, tileset=INDOOR, warps=[(1, 0, sealed[0], 1), (4, 0, RICH, 1)]),
    ]
    w = build_world(town, poor, *walk, rich, *shut)
    w.wild = {RICH: table(20, *[(12, "RATTATA")] * 10), POOR: table(20, *[(4, "RATTATA")] * 10)}
    return w, rooms


def test_a_spot_chosen_on_another_map_is_kept_on_the_way_to_it() -> None:
    w, rooms = corridor_with_a_shortcut()
    lead = team(member("SQUIRTLE", 14, ("TACKLE", "BUBBLE")))
    chooser = SpotChooser(w, Explorer(w))
    chosen = chooser.best(state_at(lead, TOWN, 3, 3))
    assert chosen is not None and chosen.map_id == RICH  # three warps off on paper, a walk through the rooms
    on_the_way = state_at(lead, rooms[0], 2, 2)
    afresh = SpotChooser(w, Explorer(w)).best(on_the_way)
    assert afresh is not None and afresh.map_id == POOR  # the rich cave is beyond this room's search
    assert chooser.rate(on_the_way) == pytest.approx(afresh.exp_per_frame)  # the rate is this map's
    kept = chooser.best(on_the_way)
    assert kept is not None and kept.map_id == RICH
    stronger = state_at(team(member("SQUIRTLE", 15, ("TACKLE", "BUBBLE"))), rooms[0], 2, 2)
    again = chooser.best(stronger)  # a level later the choice is made afresh
    assert again is not None and again.map_id == POOR
