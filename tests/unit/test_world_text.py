"""The minimap's glyphs, places as typed, and story gates' conditions."""

from __future__ import annotations

import pytest

from engine.game.models import BagItem, Sprite, Story
from engine.world.errors import UnknownPlaceError
from engine.world.gates import GATES, Condition, Gate, closed_gates
from engine.world.goals import MapGoal, SquareGoal
from engine.world.minimap import GLYPHS, LEGEND, View, render, view_of
from engine.world.models import Sign
from engine.world.places import parse_place
from engine.world.planner import surroundings
from tests.support.tiny_world import TinyMap, build_world, overworld_state, person, state_at

BASE = overworld_state()
ART = ("..........", '..""""....', "..#D#.~~..", "==.=======", "....|.....", "..........")


def world():  # type: ignore[no-untyped-def]
    trainer = person(1, 0, 5, trainer_class=1, trainer_number=1, sight=2, beaten_event=9)
    town = TinyMap(1, "TEST_TOWN", ART, warps=[(3, 2, 1, 0)], signs=[Sign(x=9, y=5, text_id=1)],
                   objects=(trainer,))  # fmt: skip
    return build_world(town)


def test_every_glyph_is_one_distinct_character_and_the_legend_names_each() -> None:
    glyphs = list(GLYPHS.values())
    assert all(len(glyph) == 1 for glyph in glyphs)
    assert len(set(glyphs)) == len(glyphs)
    assert not any(glyph.isalnum() for glyph in glyphs)  # symbols, not letters a tokenizer would merge
    assert all(f"{glyph} " in LEGEND for glyph in glyphs if glyph != " ")


def test_the_map_drawn_square_by_square() -> None:
    rows = render(world(), 1).splitlines()
    assert rows[0] == ". . . . . . . . . ."
    assert rows[1].split() == [".", ".", '"', '"', '"', '"', ".", ".", ".", "."]
    assert rows[2].split() == [".", ".", "#", "*", "#", ".", "~", "~", ".", "."]
    # A ledge is a ledge only where it can be hopped: from floor above it, not from a door or a wall.
    assert rows[3].split()[:6] == ["=", "=", ".", "#", "#", "="]
    assert rows[4].split()[4] == "|"
    assert rows[5].split()[-1] == "?"


def test_the_live_view_adds_the_player_people_and_the_path() -> None:
    w = world()
    trainer = Sprite(index=1, picture=1, x=0, y=5, facing="up", walking=False)
    state = state_at(BASE, 1, 5, 5, sprites=[trainer])
    view = view_of(w, state, surroundings(w, state, gates=()), path=[(1, 6, 5), (1, 7, 5)])
    last = render(w, 1, view).splitlines()[-1].split()
    assert last[0] == "!" and last[5] == "@" and last[6:8] == ["+", "+"]
    beaten = state_at(BASE, 1, 5, 5, sprites=[trainer], story=Story(event_flags=frozenset({9})))
    again = render(w, 1, view_of(w, beaten, surroundings(w, beaten, gates=()))).splitlines()[-1].split()
    assert again[0] == "&"


def test_a_window_and_the_unexplored_part() -> None:
    w = world()
    assert render(w, 1, View(), (8, 4, 20, 9)).splitlines() == [". .", ". ?"]
    hidden = render(w, 1, View(explored=frozenset({(1, 0, 0)}))).splitlines()
    assert hidden[0] == "." and hidden[1] == ""


def test_places_by_name_or_square_and_one_line_when_unknown() -> None:
    w = world()
    assert parse_place(w, "test_town") == MapGoal(map_id=1)
    assert parse_place(w, "TEST_TOWN:3,4") == SquareGoal(map_id=1, x=3, y=4)
    with pytest.raises(UnknownPlaceError, match="did you mean TEST_TOWN"):
        parse_place(w, "TEST_TOWM")
    with pytest.raises(UnknownPlaceError, match="no square"):
        parse_place(w, "TEST_TOWN:30,4")
    with pytest.raises(UnknownPlaceError, match="whole numbers"):
        parse_place(w, "TEST_TOWN:a,4")


def test_gates_open_on_events_badges_items_and_the_drink() -> None:
    state = BASE.model_copy(update={"story": Story()})
    event = Gate(map_name="M", row=1, opens=Condition(kind="event", name="EVENT_A"), scene="", source="")
    later = event.model_copy(update={"only_after": Condition(kind="event", name="EVENT_B")})
    assert event.closed(state) and not later.closed(state)
    begun = state.model_copy(update={"story": Story(events=frozenset({"EVENT_B"}))})
    assert later.closed(begun)
    assert not event.closed(state.model_copy(update={"story": Story(events=frozenset({"EVENT_A"}))}))
    bike = Condition(kind="item", name="BICYCLE")
    assert not bike.holds(state)
    assert bike.holds(state.model_copy(update={"bag": (BagItem(item_id=6, name="BICYCLE", quantity=1),)}))
    assert Condition(kind="drink").holds(state.model_copy(update={"story": Story(guards_had_drink=True)}))
    badge = Condition(kind="badge", name="BOULDER")
    assert badge.holds(state) == ("BOULDER" in state.progress.badge_names)


def test_every_gate_names_its_pret_script_and_a_new_game_meets_the_first_ones() -> None:
    assert all(gate.source.startswith("scripts/") and gate.scene for gate in GATES)
    fresh = BASE.model_copy(update={"story": Story(), "bag": ()})
    names = {gate.map_name for gate in closed_gates(fresh)}
    assert {"PALLET_TOWN", "VIRIDIAN_CITY", "PEWTER_CITY"} <= names
    assert "OAKS_LAB" not in names  # only once Oak has asked the player to choose
