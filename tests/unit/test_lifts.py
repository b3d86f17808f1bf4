"""Elevators in the world model: from below the panel one ride per floor, to where that floor's exit
leads; the car's own exits (they lead wherever the panel last chose) are ridden, never planned through."""

from __future__ import annotations

import pytest

from engine.world.goals import MapGoal
from engine.world.planner import Planner, surroundings
from engine.world.targets import target_for
from engine.world.world import World
from tests.support.tiny_world import INDOOR, TinyMap, build_world, overworld_state, state_at

B1F, B2F, B4F, CAR = 1, 2, 3, 4
FLOOR_ART = ("........",) * 4  # the elevator doors at (6, 3), (7, 3) are plain floor, as in the hideout
CAR_ART = ("##DD", "#...", "#...", "#...")  # the panel at (1, 1) is a wall; its stand square (1, 2)
PALLET = overworld_state()


def hideout() -> World:
    # Floor warps 0..4 as pret numbers them; index 4 (and 2 on B4F) is the elevator's door.
    floor_warps = [(0, 0, 9, 0), (1, 0, 9, 0), (6, 3, CAR, 0), (2, 0, 9, 0), (7, 3, CAR, 1)]
    return build_world(
        TinyMap(B1F, "ROCKET_HIDEOUT_B1F", FLOOR_ART, tileset=INDOOR, warps=floor_warps),
        TinyMap(B2F, "ROCKET_HIDEOUT_B2F", FLOOR_ART, tileset=INDOOR, warps=floor_warps),
        TinyMap(B4F, "ROCKET_HIDEOUT_B4F", FLOOR_ART, tileset=INDOOR,
                warps=[(0, 0, 9, 0), (6, 3, CAR, 0), (7, 3, CAR, 1)]),
        TinyMap(CAR, "ROCKET_HIDEOUT_ELEVATOR", CAR_ART, tileset=INDOOR,
                warps=[(2, 0, B1F, 2), (3, 0, B1F, 4)]),
    )  # fmt: skip


def test_below_the_panel_one_ride_per_floor_of_the_menu() -> None:
    w = hideout()
    rides = [edge for edge in w.edges((CAR, 1, 2)) if edge.kind == "lift"]
    assert [(edge.floor, edge.to) for edge in rides] == [(0, (B1F, 7, 3)), (1, (B2F, 7, 3)), (2, (B4F, 7, 3))]
    assert w.lift_maps == frozenset({CAR})


def test_a_plan_to_another_floor_rides_and_never_walks_the_cars_exits() -> None:
    w = hideout()
    around = surroundings(w, state_at(PALLET, CAR, 3, 3), gates=())
    found = Planner(w, around).plan(target_for(w, around, MapGoal(map_id=B4F)))
    assert found is not None and [edge.kind for edge in found.edges][-1] == "lift"
    assert found.edges[-1].floor == 2 and found.end == (B4F, 7, 3)
    # To B1F, where the car's exits lead as the cartridge stores them, the plan rides too.
    back = Planner(w, around).plan(target_for(w, around, MapGoal(map_id=B1F)))
    assert back is not None and back.edges[-1].kind == "lift" and back.edges[-1].floor == 0


def test_standing_on_a_warp_a_press_takes_it_only_where_it_collides() -> None:
    # pret CheckWarpsCollision: on B4F the elevator's door square faces floor above it, so a press up walks
    # off the door (the warp is checked at the next square), and only a press into the wall below warps.
    w = hideout()
    presses = {edge.direction.value: edge.kind for edge in w.edges((B4F, 7, 3))}
    assert presses.get("up") == "walk" and presses.get("down") == "push"


def test_the_hideouts_gates_and_the_toggle_condition() -> None:
    from engine.game.models import Story
    from engine.game.tables import game_data
    from engine.story.conditions import check, holds
    from engine.story.errors import StoryError
    from engine.world.gates import GATES

    corner = next(gate for gate in GATES if gate.map_name == "GAME_CORNER")
    assert corner.closed(PALLET) and corner.covers(17, 4)
    opened = PALLET.model_copy(update={"story": Story(events=frozenset({"EVENT_FOUND_ROCKET_HIDEOUT"}))})
    assert not corner.closed(opened)
    rocket = game_data().toggle_index["TOGGLE_GAME_CORNER_ROCKET"]
    gone = PALLET.model_copy(update={"story": Story(hidden_objects=frozenset({rocket}))})
    guard = "hidden:TOGGLE_GAME_CORNER_ROCKET"
    assert holds(guard, gone) and not holds(guard, PALLET)
    with pytest.raises(StoryError):
        check("hidden:TOGGLE_NO_SUCH_THING")  # a typo would otherwise never hold
