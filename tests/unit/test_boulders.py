"""The STRENGTH boulder search (engine/puzzles/boulders.py) on small floors drawn as text: `#` wall, `.`
floor, `B` a boulder, `@` the player, `S` a switch, `O` a hole a boulder falls through."""

from __future__ import annotations

from engine.game.models import Direction
from engine.game.tables import game_data
from engine.puzzles.boulders import (
    OFFSETS,
    Floor,
    Position,
    fewer_than,
    on_square,
    reachable,
    replay,
    solve,
    walks_to,
)
from engine.world.gates import BOULDER_HOLES, BOULDER_SWITCHES, GATES


def floor(
    *rows: str, blocked: frozenset[Position] = frozenset()
) -> tuple[Floor, Position, list[Position], dict[str, Position]]:
    cells = {(x, y): c for y, row in enumerate(rows) for x, c in enumerate(row)}

    def open_at(at: Position) -> bool:
        return cells.get(at, "#") != "#"

    def step(at: Position, direction: Direction) -> Position | None:
        dx, dy = OFFSETS[direction]
        there = (at[0] + dx, at[1] + dy)
        return there if open_at(there) else None

    marks = {c: at for at, c in cells.items() if c in "@SO"}
    holes = frozenset(at for at, c in cells.items() if c == "O")
    boulders = [at for at, c in cells.items() if c == "B"]
    return Floor(walk=step, roll=step, blocked=blocked, holes=holes), marks["@"], boulders, marks


def test_a_boulder_is_pushed_down_a_corridor_onto_the_switch_in_as_many_pushes_as_squares() -> None:
    f, player, boulders, marks = floor(
        "#######",
        "#@B..S#",
        "#######",
    )
    pushes = solve(f, player, boulders, on_square(marks["S"]))
    assert pushes is not None and len(pushes) == 3
    assert [push.direction for push in pushes] == [Direction.RIGHT] * 3
    assert pushes[0].stand == player and pushes[-1].lands == marks["S"]


def test_the_player_walks_round_to_push_from_the_other_side() -> None:
    f, player, boulders, marks = floor(
        "#######",
        "#S.B..#",
        "#....@#",
        "#######",
    )
    pushes = solve(f, player, boulders, on_square(marks["S"]))
    assert pushes is not None and len(pushes) == 2
    assert pushes[0].stand == (4, 1) and pushes[0].direction is Direction.LEFT  # reached by walking round


def test_a_boulder_in_a_corner_is_stuck_for_good() -> None:
    f, player, boulders, marks = floor(
        "######",
        "#B..S#",
        "#...@#",
        "######",
    )
    assert solve(f, player, boulders, on_square(marks["S"])) is None


def test_a_boulder_pushed_into_a_hole_is_gone() -> None:
    f, player, boulders, _ = floor(
        "######",
        "#@BO.#",
        "######",
    )
    pushes = solve(f, player, boulders, fewer_than(len(boulders)))
    assert pushes is not None and len(pushes) == 1
    assert replay(boulders, pushes, f.holes) == [frozenset({(2, 1)})]


def test_one_boulder_is_moved_aside_before_another_can_reach_the_switch() -> None:
    # The right boulder reaches S only pushed from the square the left one fills, and the left one can
    # only go up into the notch: neither alone gets a boulder onto S, so the search of both together does.
    f, player, boulders, marks = floor(
        "###.####",
        "#@.BB.S#",
        "#...####",
        "########",
    )
    pushes = solve(f, player, boulders, on_square(marks["S"]))
    assert pushes is not None
    assert [(push.boulder, push.direction) for push in pushes] == [
        ((3, 1), Direction.UP), ((4, 1), Direction.RIGHT), ((5, 1), Direction.RIGHT),
    ]  # fmt: skip
    assert replay(boulders, pushes, f.holes)[-1] == frozenset({(3, 0), (5, 1)})


def test_pushes_clear_a_boulder_out_of_a_doorway() -> None:
    f, player, boulders, _ = floor(
        "#####",
        "#@..#",
        "##B##",
        "#...#",
        "#...#",
        "#####",
    )
    assert (1, 4) not in reachable(f, player, frozenset(boulders))
    pushes = solve(f, player, boulders, walks_to((1, 4)))
    # Once down, the boulder fills the doorway's far side; twice, and the player walks past it.
    assert pushes is not None and [push.direction for push in pushes] == [Direction.DOWN, Direction.DOWN]


def test_a_person_standing_in_the_way_stops_a_boulder() -> None:
    f, player, boulders, marks = floor(
        "#######",
        "#@B..S#",
        "#######",
        blocked=frozenset({(4, 1)}),
    )
    assert solve(f, player, boulders, on_square(marks["S"])) is None


def test_the_search_is_bounded_in_states() -> None:
    f, player, boulders, marks = floor(
        "#########",
        "#@B....S#",
        "#########",
    )
    assert solve(f, player, boulders, on_square(marks["S"]), max_states=2) is None
    assert solve(f, player, boulders, on_square(marks["S"])) is not None


def test_victory_roads_switches_name_real_events_and_each_has_a_gate() -> None:
    events = set(game_data().event_index)
    gated = {(gate.map_name, square) for gate in GATES for square in gate.squares}
    for floor_name, switches in BOULDER_SWITCHES.items():
        for _square, event, opened in switches:
            assert event in events
            assert all((floor_name, square) in gated for square in opened)
    for (floor_name, switch), (hole_floor, _hole, event) in BOULDER_HOLES.items():
        assert event in events and hole_floor in BOULDER_SWITCHES
        assert switch in [square for square, *_ in BOULDER_SWITCHES[floor_name]]
