"""The story pilot on drawn maps: each step of an objective becomes a leg, the nearest Pokémon Center is
found across its counter, a weak team heals first, and a pilot that gets nowhere escalates in stages."""

from __future__ import annotations

from engine.game.models import GameState
from engine.story.graph import StoryGraph, parse_graph
from engine.tactician.explorer import Explorer
from engine.tactician.pilot import Pilot
from engine.world.goals import HereGoal, MapGoal, ObjectGoal
from engine.world.models import MapObject
from engine.world.world import World
from tests.support.tiny_world import INDOOR, TinyMap, build_world, person, state_at
from tests.unit.test_story import with_party

TOWN, CENTER, ROAD = 1, 2, 3
TOWN_ART = ("#" * 12, *("#" + "." * 10 + "#" for _ in range(8)), "#" * 12)
# The nurse stands behind the counter; the player talks across it.
CENTER_ART = ("######", "#....#", "#||||#", "#....#", "#....#", "######")
ROAD_ART = ("#" * 6, *("#....#" for _ in range(4)), "#" * 6)


def world(road_name: str = "ROAD", on_road: tuple[MapObject, ...] = ()) -> World:
    art = list(TOWN_ART)
    art[1] = "#D" + art[1][2:]
    art[8] = art[8][:10] + "D#"
    town = TinyMap(TOWN, "TOWN", art, warps=[(1, 1, CENTER, 0), (10, 8, ROAD, 0)])
    center = TinyMap(CENTER, "TOWN_POKECENTER", CENTER_ART, tileset=INDOOR, warps=[(1, 4, TOWN, 0)],
                     objects=(person(1, 2, 1),))  # fmt: skip
    road = TinyMap(ROAD, road_name, ROAD_ART, tileset=INDOOR, warps=[(1, 4, TOWN, 1)], objects=on_road)
    return build_world(town, center, road)


def graph() -> StoryGraph:
    return parse_graph({"objectives": [
        {"name": "reach_road", "title": "reach the road", "done": [["map:ROAD"]], "source": "test",
         "steps": [{"do": "go", "map": "ROAD", "why": "it is there"}]},
        {"name": "heal_up", "title": "heal", "after": ["reach_road"],
         "done": [["event:EVENT_OAK_GOT_PARCEL"]],
         "source": "test",
         "steps": [{"do": "heal", "why": "hurt"}]},
        {"name": "talk_nurse", "title": "talk to the nurse", "done": [["event:EVENT_GOT_STARTER"]],
         "source": "test", "steps": [{"do": "talk", "map": "TOWN_POKECENTER", "object": 1}]},
    ]})  # fmt: skip


def pilot(w: World, stuck_legs: int = 3) -> Pilot:
    return Pilot(w, graph(), Explorer(w), stuck_legs)


def in_town(state: GameState | None = None) -> GameState:
    base = state or with_party()
    where = state_at(base, TOWN, 5, 5)
    return where.model_copy(update={"overworld": where.overworld.model_copy(update={"map_name": "TOWN"})})


def test_a_go_step_walks_to_the_map_and_says_why() -> None:
    leg = pilot(world()).leg(in_town(), "reach_road")
    assert leg is not None and leg.goal == MapGoal(map_id=ROAD)
    assert leg.reason.startswith("reach the road: go") and "it is there" in leg.reason


def test_healing_talks_to_the_nurse_across_the_counter() -> None:
    hurt = with_party()
    hurt = hurt.model_copy(update={"party": tuple(m.model_copy(update={"hp": 1}) for m in hurt.party)})
    leg = pilot(world()).leg(in_town(hurt), "heal_up")
    assert leg is not None and leg.goal == ObjectGoal(map_id=CENTER, index=1)
    assert leg.interact and leg.answer == "yes"


def test_a_weak_team_heals_before_anything_else() -> None:
    hurt = with_party()
    hurt = hurt.model_copy(update={"party": tuple(m.model_copy(update={"hp": 1}) for m in hurt.party)})
    leg = pilot(world()).leg(in_town(hurt), "reach_road")
    assert leg is not None and leg.goal == ObjectGoal(map_id=CENTER, index=1)
    assert "heal first" in leg.reason


def test_beyond_victory_road_the_plateaus_lobby_nurse_heals() -> None:
    art = list(TOWN_ART)
    art[1] = "#D" + art[1][2:]
    plateau = TinyMap(TOWN, "INDIGO_PLATEAU", art, warps=[(1, 1, CENTER, 0)])
    lobby = TinyMap(CENTER, "INDIGO_PLATEAU_LOBBY", CENTER_ART, tileset=INDOOR, warps=[(1, 4, TOWN, 0)],
                    objects=(person(1, 2, 1),))  # fmt: skip
    road = TinyMap(ROAD, "ROAD", ROAD_ART, tileset=INDOOR, warps=[])
    hurt = with_party()
    hurt = hurt.model_copy(update={"party": tuple(m.model_copy(update={"hp": 1}) for m in hurt.party)})
    leg = pilot(build_world(plateau, lobby, road)).leg(in_town(hurt), "reach_road")
    assert leg is not None and leg.goal == ObjectGoal(map_id=CENTER, index=1) and "heal first" in leg.reason


def test_a_done_objective_or_an_unknown_world_leaves_the_choice_to_the_explorer() -> None:
    w = world()
    on_road = state_at(with_party(), ROAD, 2, 2)
    on_road = on_road.model_copy(
        update={"overworld": on_road.overworld.model_copy(update={"map_name": "ROAD"})}
    )
    assert pilot(w).leg(on_road, "reach_road") is None
    assert Pilot(None, graph(), Explorer(None), 3).leg(in_town(), "reach_road") is None


def test_no_progress_escalates_stage_by_stage_and_says_so() -> None:
    p = pilot(world(), stuck_legs=2)
    state = in_town()
    stages = []
    for _ in range(10):
        leg = p.leg(state, "reach_road")
        stages.append((p.stage, None if leg is None else leg.goal))
        assert p.travelled(state, state) is None  # nothing changed: no progress test passes
    assert [stage for stage, _ in stages] == [
        "plan",
        "plan",
        "re-plan through story gates",
        "re-plan through story gates",
        "explore",
        "explore",
        "try another objective",
        "try another objective",
        "plan",
        "plan",
    ]
    assert stages[0][1] == MapGoal(map_id=ROAD) and stages[2][1] == MapGoal(map_id=ROAD)
    assert stages[4][1] is None  # the explorer looks around
    assert stages[6][1] == ObjectGoal(map_id=CENTER, index=1)  # another open objective: the nurse
    p.leg(state, "reach_road")
    p.idle_legs = 4
    assert p.explore_reason() == "stuck for 4 legs: explore"


def test_progress_resets_the_count_and_a_snapshot_keeps_it() -> None:
    p = pilot(world(), stuck_legs=2)
    state = in_town()
    p.leg(state, "reach_road")
    p.travelled(state, state)
    snapshot = p.snapshot()
    assert snapshot.idle_legs == 1 and snapshot.objective == "reach_road"
    moved = state.model_copy(update={"overworld": state.overworld.model_copy(update={"map_name": "ROAD"})})
    assert p.travelled(state, moved) == "entered ROAD"
    assert p.idle_legs == 0
    other = pilot(world())
    other.restore(snapshot)
    assert other.snapshot() == snapshot


def test_a_walk_cut_short_but_nearer_than_ever_is_progress_and_the_same_distance_is_not() -> None:
    p = pilot(world(), stuck_legs=2)
    state = in_town()
    p.leg(state, "reach_road")
    assert p.travelled(state, state, left=30) is None  # the first distance is only a mark
    assert p.travelled(state, state, left=12) == "18 steps closer"  # a trainer stopped it nearer
    assert p.idle_legs == 0
    assert p.travelled(state, state, left=12) is None and p.idle_legs == 1
    assert p.travelled(state, state, left=None) is None and p.idle_legs == 2  # the explorer's leg


def test_a_teach_step_teaches_in_place_by_the_teaching_rule_and_a_catch_step_trains_on_its_map() -> None:
    from tests.unit.test_teaching import member

    steps = {"objectives": [
        {"name": "teach_cut", "title": "teach CUT", "done": [["knows:CUT"]], "source": "test",
         "steps": [{"do": "catch", "map": "ROAD", "machine": "HM_CUT", "until": [["can_learn:HM_CUT"]]},
                   {"do": "teach", "machine": "HM_CUT", "until": [["knows:CUT"]]}]},
    ]}  # fmt: skip
    w = world()
    guide = Pilot(w, parse_graph(steps), Explorer(w), 3)
    squirtle = in_town().model_copy(update={"party": (member("SQUIRTLE", 20, "TACKLE", "BUBBLE"),)})
    catch = guide.leg(squirtle, "teach_cut")
    assert catch is not None and "one that can learn CUT" in catch.reason
    assert guide.catch_only() == "HM_CUT"
    with_oddish = squirtle.model_copy(update={"party": (*squirtle.party, member("ODDISH", 12, "ABSORB"))})
    teach = guide.leg(with_oddish, "teach_cut")
    assert teach is not None and isinstance(teach.goal, HereGoal) and teach.teach is not None
    assert (teach.teach.item, teach.teach.member, teach.teach.forget) == ("HM_CUT", 1, None)
    assert guide.catch_only() is None


def test_with_the_party_and_the_box_full_a_catch_step_goes_to_the_pc_to_change_the_box() -> None:
    from engine.game.models import Direction
    from engine.world.goals import PcOrder, ThingGoal
    from engine.world.tables import PC_SQUARE
    from tests.unit.test_teaching import member

    steps = {"objectives": [
        {"name": "catch_one", "title": "catch one", "done": [["owned>=99"]], "source": "test",
         "steps": [{"do": "catch", "map": "ROAD"}]},
    ]}  # fmt: skip
    w = world()
    guide = Pilot(w, parse_graph(steps), Explorer(w), 3)
    six = in_town().model_copy(update={"party": (member("SQUIRTLE", 20, "TACKLE"),) * 6})
    for box, count, to_pc in ((2, 19, False), (2, 20, True), (11, 20, True)):
        progress = six.progress.model_copy(update={"box_count": count, "box_number": box})
        leg = guide.leg(six.model_copy(update={"progress": progress}), "catch_one")
        assert leg is not None and (leg.pc is not None) is to_pc
        if to_pc:
            assert leg.goal == ThingGoal(map_id=CENTER, x=PC_SQUARE[0], y=PC_SQUARE[1], facing=Direction.UP)
            assert leg.pc == PcOrder(change_box=(box + 1) % 12)
            assert f"change to box {(box + 1) % 12 + 1}" in leg.reason


def test_a_gift_waits_for_room_in_a_full_bag() -> None:
    from engine.game.bag_room import BAG_CAPACITY
    from engine.game.models import BagItem

    steps = {"objectives": [
        {"name": "gift", "title": "a gift", "done": [["item:HM_FLY"]], "source": "test",
         "steps": [{"do": "talk", "map": "TOWN_POKECENTER", "object": 1, "gives": "HM_FLY"}]},
    ]}  # fmt: skip
    w = world()
    guide = Pilot(w, parse_graph(steps), Explorer(w), 3)
    names = ["POTION", "ANTIDOTE", "TM_BIDE", *(f"TM_{n:02d}" for n in range(1, 18))][:BAG_CAPACITY]
    full = tuple(BagItem(item_id=i + 1, name=name, quantity=1) for i, name in enumerate(names))
    roomy = guide.leg(in_town(), "gift")
    assert roomy is not None and roomy.goal == ObjectGoal(map_id=CENTER, index=1)
    crammed = guide.leg(in_town().model_copy(update={"bag": full}), "gift")
    assert crammed is not None and crammed.toss is not None and isinstance(crammed.goal, HereGoal)
    assert "to make room for the HM_FLY" in crammed.reason


def test_a_catch_to_learn_a_move_makes_room_in_a_full_party_and_a_purchase_makes_room_in_the_bag() -> None:
    from engine.game.bag_room import BAG_CAPACITY
    from engine.game.models import BagItem
    from engine.world.goals import PcOrder
    from tests.unit.test_teaching import member

    steps = {"objectives": [
        {"name": "teach_flash", "title": "teach FLASH", "done": [["knows:FLASH"]], "source": "test",
         "steps": [{"do": "buy", "items": [{"item": "POKE_BALL", "quantity": 5}], "until": [["balls>=1"]]},
                   {"do": "catch", "map": "ROAD", "machine": "HM_FLASH", "until": [["can_learn:HM_FLASH"]]}]},
    ]}  # fmt: skip
    w = world()
    guide = Pilot(w, parse_graph(steps), Explorer(w), 3)
    balls = (BagItem(item_id=4, name="POKE_BALL", quantity=5),)
    cutter = member("ODDISH", 30, "CUT")
    rest = (member("PIDGEY", 9, "GUST"), member("SPEAROW", 12, "PECK"), member("EKANS", 11, "WRAP"))
    six = (member("SQUIRTLE", 40, "TACKLE"), member("RATTATA", 4, "TACKLE"), cutter, *rest)
    leg = guide.leg(in_town().model_copy(update={"party": six, "bag": balls}), "teach_flash")
    # The lowest-levelled member that knows no field move goes into the box.
    assert leg is not None and leg.pc == PcOrder(deposit=1) and "RATTATA (L4) into the box" in leg.reason
    five = in_town().model_copy(update={"party": six[:5], "bag": balls})
    catch = guide.leg(five, "teach_flash")
    assert catch is not None and catch.pc is None and "one that can learn FLASH" in catch.reason
    # No ball, and the bag holds twenty kinds of item: a toss before the Mart.
    names = ["POTION", "ANTIDOTE", "TM_BIDE", *(f"TM_{n:02d}" for n in range(1, 18))][:BAG_CAPACITY]
    full = tuple(BagItem(item_id=i + 1, name=name, quantity=1) for i, name in enumerate(names))
    toss = guide.leg(five.model_copy(update={"bag": full}), "teach_flash")
    assert toss is not None and toss.toss is not None and "to make room for the POKE_BALL" in toss.reason


def test_a_flight_that_arrives_is_no_mark_for_how_near_the_steps_own_walk_gets() -> None:
    from tests.unit.test_by_air import PALLET, VIRIDIAN, flyer, kanto

    steps = {"objectives": [
        {"name": "reach_viridian", "title": "read a sign", "done": [["event:EVENT_GOT_STARTER"]],
         "source": "test",
         "steps": [{"do": "talk", "map": "VIRIDIAN_CITY", "thing": [20, 20, "up"], "why": "it is there"}]},
    ]}  # fmt: skip
    w = kanto()
    guide = Pilot(w, parse_graph(steps), Explorer(w), 3)
    in_pallet = flyer(state_at(with_party(), PALLET, 2, 2))
    flight = guide.leg(in_pallet, "reach_viridian")
    assert flight is not None and flight.fly == "VIRIDIAN_CITY"
    assert guide.travelled(in_pallet, in_pallet, left=0) is None  # the flight's own plan had no steps
    # Landed short of the goal (a battle on the way, say): the walk on is measured from scratch.
    landed = state_at(in_pallet, VIRIDIAN, 23, 26)
    walk = guide.leg(landed.model_copy(update={"party": with_party().party}), "reach_viridian")
    assert walk is not None and walk.fly is None
    assert guide.travelled(landed, landed, left=30) is None
    assert guide.travelled(landed, landed, left=12) == "18 steps closer"


def team_graph() -> StoryGraph:
    return parse_graph({"objectives": [
        {"name": "beat_erika", "title": "beat Erika", "done": [["badge:RAINBOW"]], "source": "test",
         "steps": [{"do": "train", "boss": ["ERIKA", 1], "win_at": 0.99},
                   {"do": "go", "map": "ROAD", "why": "the gym"}]},
    ]})  # fmt: skip


def test_a_stone_in_the_bag_is_used_in_place_and_the_leg_is_neither_progress_nor_idle() -> None:
    from engine.game.models import BagItem
    from engine.team.planner import TeamPlanner
    from engine.world.goals import Give
    from tests.unit.test_team import oddish, pikachu, wartortle

    w = world()
    guide = Pilot(w, team_graph(), Explorer(w), 3, TeamPlanner())
    stone = (BagItem(item_id=33, name="THUNDER_STONE", quantity=1),)
    state = in_town().model_copy(update={"party": (wartortle(), pikachu(), oddish()), "bag": stone})
    leg = guide.leg(state, "beat_erika")
    assert leg is not None and isinstance(leg.goal, HereGoal)
    assert leg.give == Give(item="THUNDER_STONE", member=1)
    assert leg.reason.startswith("the team: THUNDER_STONE on PIKACHU for a RAICHU: forecast against ERIKA")
    assert guide.travelled(state, state) is None and guide.idle_legs == 0
    # A change whose leg did not bring it about is tried twice, then left to the step.
    assert guide.leg(state, "beat_erika").give is not None  # type: ignore[union-attr]
    third = guide.leg(state, "beat_erika")
    assert third is not None and third.give is None
    without = Pilot(w, team_graph(), Explorer(w), 3).leg(state, "beat_erika")
    assert without is not None and without.give is None


def test_before_training_for_a_boss_a_stronger_boxed_pokemon_is_fetched_from_the_pc() -> None:
    from engine.team.planner import TeamPlanner
    from engine.world.goals import PcOrder
    from tests.unit.test_team import member, wartortle, weak

    w = world()
    guide = Pilot(w, team_graph(), Explorer(w), 3, TeamPlanner())
    raichu = member("RAICHU", 40, ("THUNDERBOLT", "QUICK_ATTACK", "THUNDER_WAVE"))
    party = (wartortle(), *(weak(slot) for slot in range(1, 6)))
    state = in_town().model_copy(update={"party": party, "box": (raichu,)})
    state = state.model_copy(update={"progress": state.progress.model_copy(update={"box_count": 1})})
    leg = guide.leg(state, "beat_erika")
    assert leg is not None and leg.pc == PcOrder(deposit=1, withdraw=0)
    assert "RAICHU from the box in place of RATTATA" in leg.reason
    # Off a boss's training the box waits for a visit to a Pokémon Center (Erika still weighed: she is ahead).
    walking = parse_graph({"objectives": [
        {"name": "reach_road", "title": "reach the road", "done": [["map:ROAD"]], "source": "test",
         "steps": [{"do": "go", "map": "ROAD"}]},
        *team_graph().model_dump(by_alias=True)["objectives"],
    ]})  # fmt: skip
    walker = Pilot(w, walking, Explorer(w), 3, TeamPlanner())
    walk = walker.leg(state, "reach_road")
    assert walk is not None and walk.pc is None and walk.goal == MapGoal(map_id=ROAD)
    inside = state_at(state, CENTER, 2, 3)
    visit = walker.leg(inside, "reach_road")
    assert visit is not None and visit.pc == PcOrder(deposit=1, withdraw=0)


def test_in_a_pokemon_center_a_nearly_full_bag_stores_what_is_never_used() -> None:
    from engine.game.models import BagItem
    from engine.world.goals import PcOrder

    names = ["POTION", "NUGGET", *(f"TM_{n:02d}" for n in range(1, 17))]  # 18 kinds
    bag = tuple(BagItem(item_id=i + 1, name=name, quantity=1) for i, name in enumerate(names))
    w = world()
    guide = pilot(w)
    inside = state_at(in_town().model_copy(update={"bag": bag}), CENTER, 2, 3)
    leg = guide.leg(inside, "reach_road")
    assert leg is not None and leg.pc is not None and leg.pc.store is not None
    assert leg.reason.startswith("the bag: 18 kinds of item:") and "into the PC" in leg.reason
    assert guide.travelled(inside, inside) is None and guide.idle_legs == 0
    outside = guide.leg(in_town().model_copy(update={"bag": bag}), "reach_road")
    assert outside is not None and outside.pc is None
    roomy = pilot(w).leg(state_at(in_town().model_copy(update={"bag": bag[:17]}), CENTER, 2, 3), "reach_road")
    assert roomy is not None and roomy.pc is None
    assert leg.pc == PcOrder(store=("TM_01", 1))  # no member learns a TM the tables do not know


def test_a_hunt_for_new_species_never_looks_in_the_safari_zone() -> None:
    """Its battles only run (no ordinary ball is thrown there): a hunt sent there caught nothing."""
    from engine.world.models import WildTable

    steps = {"objectives": [
        {"name": "own_more", "title": "own more", "done": [["event:EVENT_GOT_HM05"]], "source": "test",
         "steps": [{"do": "catch", "new": True}]},
    ]}  # fmt: skip
    safari = world(road_name="SAFARI_ZONE_EAST")
    safari.wild = {
        ROAD: WildTable(rate=25, slots=((20, "NIDORINO"),)),
        TOWN: WildTable(rate=25, slots=((3, "PIDGEY"),)),
    }
    safari.wild_grass = {map_id: frozenset(name for _, name in t.slots) for map_id, t in safari.wild.items()}
    guide = Pilot(safari, parse_graph(steps), Explorer(safari), 3)
    step = guide.graph.named("own_more").steps[0]
    assert guide._catch_maps(step, in_town()) == frozenset({TOWN})
    plain = world()
    plain.wild, plain.wild_grass = safari.wild, safari.wild_grass
    other = Pilot(plain, parse_graph(steps), Explorer(plain), 3)
    assert other._catch_maps(step, in_town()) == frozenset({TOWN, ROAD})


def test_a_catch_leg_that_walks_the_grass_is_never_counted_as_stuck() -> None:
    """Its work is walking the grass until the species it wants appears (twelve short walks for a FLY
    learner without an encounter were called "stuck for 12 legs"); a leg that goes nowhere still counts."""
    steps = {"objectives": [
        {"name": "own_more", "title": "own more", "done": [["event:EVENT_GOT_HM05"]], "source": "test",
         "steps": [{"do": "catch", "new": True}]},
    ]}  # fmt: skip
    w = world()
    guide = Pilot(w, parse_graph(steps), Explorer(w), 3)
    here, there = in_town(), state_at(in_town(), TOWN, 6, 5)
    for _ in range(10):
        leg = guide.leg(here, "own_more")
        assert leg is not None and leg.reason.startswith("own more: catch")
        assert guide.travelled(here, there) == "grass walked for an encounter"
    assert guide.idle_legs == 0
    for _ in range(3):
        guide.leg(here, "own_more")
        guide.travelled(here, here)  # no encounter and not a step walked: a leg lost
    assert guide.idle_legs == 3
