"""The Pokémon Mansion's secret switches: which one to press next on the way to a target.

One event (EVENT_MANSION_SWITCH_ON) opens some doors on every floor and shuts others (world/gates.py
MANSION_DOORS); each switch, faced from below and answered YES, flips it (pret scripts/PokemonMansion1F.asm
PokemonMansion1FSwitchText). The search runs over (where the player stands, the switch's state): from a
square, the target is reached with the doors as they are, or a switch reachable from there is pressed and
the search goes on from below it with the doors the other way. Breadth first, so the fewest presses win;
each reachability question is one plan of the world's planner. The answer is the first press (the switch to
walk to), or None when the target is reachable as things are or not at all.
"""

from __future__ import annotations

from collections import deque
from dataclasses import replace

from engine.game.models import GameState
from engine.game.tables import game_data
from engine.world.gates import GATES, MANSION_SWITCH, Gate
from engine.world.models import Square
from engine.world.planner import Planner, Surroundings, Target, gated_squares
from engine.world.targets import SquaresTarget
from engine.world.world import World

# pret data/events/hidden_events.asm: the switches (faced up, from the square below them).
MANSION_SWITCHES: tuple[tuple[str, int, int], ...] = (
    ("POKEMON_MANSION_1F", 2, 5), ("POKEMON_MANSION_2F", 2, 11), ("POKEMON_MANSION_3F", 10, 5),
    ("POKEMON_MANSION_B1F", 20, 3), ("POKEMON_MANSION_B1F", 18, 25),
)  # fmt: skip
MAX_PRESSES = 6  # more than any way through the mansion needs; a bound, not a guess


def switch_on(state: GameState) -> bool:
    return MANSION_SWITCH in state.story.events


def with_switch(state: GameState, on: bool) -> GameState:
    """The same state with the switch event set or cleared (what the doors would be after a press)."""
    index = game_data().event_index[MANSION_SWITCH]
    story = state.story
    flags = story.event_flags | {index} if on else story.event_flags - {index}
    events = story.events | {MANSION_SWITCH} if on else story.events - {MANSION_SWITCH}
    return state.model_copy(
        update={"story": story.model_copy(update={"event_flags": flags, "events": events})}
    )


def mansion_maps(world: World) -> frozenset[int]:
    return frozenset(world.by_name[name].id for name, _, _ in MANSION_SWITCHES if name in world.by_name)


def switches(world: World) -> dict[Square, Square]:
    """Each switch's square -> the square below it, where the player stands to press it."""
    found = {}
    for name, x, y in MANSION_SWITCHES:
        data = world.by_name.get(name)
        if data is not None:
            found[(data.id, x, y)] = (data.id, x, y + 1)
    return found


def next_press(
    world: World,
    state: GameState,
    around: Surroundings,
    target: Target,
    stands: dict[Square, Square] | None = None,
    gates: tuple[Gate, ...] = GATES,
) -> Square | None:
    """The switch (its square) to press first on the fewest-press way to `target`; None if the target is
    reachable now, or by no number of presses. `stands`: each switch and the square it is pressed from
    (the mansion's by default); `gates`: the story gates, the switch doors among them."""
    doors = {on: frozenset(gated_squares(world, with_switch(state, on), gates)) for on in (False, True)}
    around = replace(around, within=around.within or mansion_maps(world))  # no search of the whole world
    stands = switches(world) if stands is None else stands
    start = (around.here, switch_on(state))
    seen: dict[tuple[Square, bool], tuple[Square | None, int]] = {start: (None, 0)}  # first press, presses
    queue = deque([start])
    while queue:
        node = queue.popleft()
        (here, on), (first, presses) = node, seen[node]
        planner = Planner(world, replace(around, here=here, gated=doors[on]))
        if planner.plan(target) is not None:
            return first
        if presses == MAX_PRESSES:
            continue
        for switch, below in stands.items():
            pressed = (below, not on)
            if pressed in seen or planner.plan(SquaresTarget({below: None})) is None:
                continue
            seen[pressed] = (first or switch, presses + 1)
            queue.append(pressed)
    return None
