"""The Seafoam Islands' boulders (engine/puzzles/seafoam.py): the falls in the order a player follows each
boulder down, a fall undone when leaving for Route 20 put its boulder back, only the boulder a hole names
pushed into it on the upper floors (any on B3F), and the currents as gates over the lowest floors' water."""

from __future__ import annotations

from types import SimpleNamespace
from typing import cast

from engine.game.models import GameState, Story
from engine.puzzles.seafoam import DROPS, next_drop, pushes_for, resets_outside
from engine.world.gates import GATES
from engine.world.world import World
from tests.support.tiny_world import overworld_state
from tests.unit.test_boulders import floor

# pret data/maps/objects/SeafoamIslands*.asm and constants/toggle_constants.asm: the toggleable boulders.
TOGGLES = {("SEAFOAM_ISLANDS_1F", 1): 215, ("SEAFOAM_ISLANDS_1F", 2): 216, ("SEAFOAM_ISLANDS_B1F", 1): 217,
           ("SEAFOAM_ISLANDS_B1F", 2): 218, ("SEAFOAM_ISLANDS_B2F", 1): 219, ("SEAFOAM_ISLANDS_B2F", 2): 220,
           ("SEAFOAM_ISLANDS_B3F", 2): 221, ("SEAFOAM_ISLANDS_B3F", 3): 222}  # fmt: skip


def islands() -> World:
    """Just what next_drop reads of the world: each floor's boulders and their toggles."""
    floors: dict[str, list[SimpleNamespace]] = {}
    for (name, index), toggle in TOGGLES.items():
        floors.setdefault(name, []).append(SimpleNamespace(index=index, toggle=toggle))
    return cast(
        World, SimpleNamespace(by_name={name: SimpleNamespace(objects=o) for name, o in floors.items()})
    )


def after(falls: int, shown_again: frozenset[int] = frozenset()) -> GameState:
    """The first `falls` falls made: their events set and their boulders out of sight."""
    made = DROPS[:falls]
    events = frozenset(drop.event for drop in made)
    hidden = frozenset(TOGGLES[(drop.floor, drop.boulder)] for drop in made) - shown_again
    return overworld_state().model_copy(update={"story": Story(events=events, hidden_objects=hidden)})


def test_each_boulder_is_followed_down_before_the_next_and_b3f_comes_last() -> None:
    order = [(drop.floor.removeprefix("SEAFOAM_ISLANDS_"), drop.hole) for drop in DROPS]
    assert order == [("1F", (17, 6)), ("B1F", (18, 6)), ("B2F", (19, 6)), ("1F", (24, 6)), ("B1F", (23, 6)),
                     ("B2F", (22, 6)), ("B3F", (3, 16)), ("B3F", (6, 16))]  # fmt: skip
    world = islands()
    assert next_drop(world, after(0)) == DROPS[0]
    assert next_drop(world, after(3)) == DROPS[3]
    assert next_drop(world, after(8)) is None


def test_a_fall_whose_boulder_route_20_put_back_is_made_again() -> None:
    world = islands()
    state = after(2, shown_again=frozenset({215}))  # 1F's first boulder back, its event still set
    assert next_drop(world, state) == DROPS[0]


def test_leaving_for_route_20_is_shut_only_while_falls_would_be_undone() -> None:
    world = islands()
    assert [resets_outside(world, after(n)) for n in range(9)] == [
        False, True, True, True, True, True, False, True, False]  # fmt: skip


def test_only_the_boulder_a_hole_names_is_pushed_into_it_above_b3f_and_any_on_b3f() -> None:
    drawn, player, boulders, marks = floor(
        "#########",
        "#@B.O.B.#",
        "#########",
    )
    near, far = sorted(boulders)
    upper, lowest = DROPS[0], DROPS[6]  # 1F's hole takes its boulder 1; B3F's first takes its boulder 2
    # Boulder 1 beyond the hole, the other in the way: no push moves boulder 1 there on its own.
    assert pushes_for(drawn, player, {1: far, 2: near}, upper) is None
    named = pushes_for(drawn, player, {1: near, 2: far}, upper)
    assert named is not None and named[0].boulder == near and named[-1].lands == marks["O"]
    # On B3F whichever boulder falls does: the one in the way goes down instead.
    anyone = pushes_for(drawn, player, {2: far, 3: near}, lowest)
    assert anyone is not None and anyone[-1].lands == marks["O"]


def test_the_currents_shut_every_water_square_of_b3f_and_b4f_until_both_falls_above_each() -> None:
    currents = [gate for gate in GATES if gate.water]
    assert {(gate.map_name, gate.opens.name) for gate in currents} == {
        ("SEAFOAM_ISLANDS_B3F", "EVENT_SEAFOAM3_BOULDER1_DOWN_HOLE"),
        ("SEAFOAM_ISLANDS_B3F", "EVENT_SEAFOAM3_BOULDER2_DOWN_HOLE"),
        ("SEAFOAM_ISLANDS_B4F", "EVENT_SEAFOAM4_BOULDER1_DOWN_HOLE"),
        ("SEAFOAM_ISLANDS_B4F", "EVENT_SEAFOAM4_BOULDER2_DOWN_HOLE"),
    }
    assert all(gate.closed(after(2)) for gate in currents)
    assert [gate.closed(after(5)) for gate in currents] == [False, True, True, True]  # one of B2F's falls
    assert [gate.closed(after(6)) for gate in currents] == [False, False, True, True]
    assert not any(gate.closed(after(8)) for gate in currents)
