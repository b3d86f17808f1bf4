"""The Seafoam Islands' boulders: which goes down which hole next, and the pushes that get it there.

Eight falls, floor by floor from the top (world/tables.py SEAFOAM_DROPS): each floor's script takes the
boulder its hole names out of sight and shows one on the floor below, so a fall is only right for that
boulder, and only into that hole (the other holes stay shut to the search). Where the boulders stand comes
from the sprites of the player's map; entering a floor again puts them back where the map's data has them
(the toggled ones as the falls above have left them), which is how a floor whose boulder is stuck is reset.
The push search is engine.puzzles.boulders, with the one boulder moving.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.game.models import GameState
from engine.puzzles.boulders import Floor, Position, Push, fewer_than, reachable, solve
from engine.puzzles.strength import BOULDER_SPRITE, floor_of
from engine.world.planner import Planner, Surroundings
from engine.world.tables import HOLES, SEAFOAM_DROPS
from engine.world.targets import SquaresTarget
from engine.world.world import World


@dataclass(frozen=True)
class Drop:
    floor: str
    boulder: int  # its object index on the floor
    hole: Position
    event: str


LAST_FLOOR = "SEAFOAM_ISLANDS_B3F"  # the last floor with holes
BOTTOM_FLOOR = "SEAFOAM_ISLANDS_B4F"
DROPS = tuple(Drop(floor, boulder, hole, event) for floor, boulder, hole, event in SEAFOAM_DROPS)


def next_drop(world: World, state: GameState) -> Drop | None:
    """The first fall not made yet, top floor first. A fall is made when its event is set and its boulder is
    out of sight: leaving the islands for Route 20 puts the boulders of the three upper floors back (and
    hides those they showed below) until both of B2F's falls are made, and B3F's until both of its own are,
    but sets no event back (pret scripts/Route20.asm Route20BoulderScript)."""
    hidden = state.story.hidden_objects
    for drop in DROPS:
        data = world.by_name.get(drop.floor)
        found = next((o for o in data.objects if o.index == drop.boulder), None) if data is not None else None
        gone = found is None or found.toggle is None or found.toggle in hidden
        if drop.event not in state.story.events or not gone:
            return drop
    return None


def exits(world: World) -> tuple[tuple[int, int, int], ...]:
    """The islands' ways out to Route 20, where the upper floors' boulders are put back (B3F's stairs down
    to B4F stay open)."""
    floors = seafoam_floors(world)
    inside = floors | {data.id for name, data in world.by_name.items() if name == BOTTOM_FLOOR}
    return tuple((map_id, w.x, w.y) for map_id in sorted(floors) for w in world.maps[map_id].warps
                 if w.to_map not in inside)  # fmt: skip


def resets_outside(world: World, state: GameState) -> bool:
    """Leaving for Route 20 now would undo falls made: some of the six of the upper floors are made but not
    all of them, or one of B3F's two."""
    drop = next_drop(world, state)
    made = len(DROPS) if drop is None else DROPS.index(drop)
    upper = len(DROPS) - 2
    return 0 < made < upper or made == upper + 1


def seafoam_floors(world: World) -> frozenset[int]:
    return frozenset(world.by_name[drop.floor].id for drop in DROPS if drop.floor in world.by_name)


def drop_floor(world: World, around: Surroundings, drop: Drop, boulders: frozenset[Position]) -> Floor:
    """The drop's floor for the search: people and shut gates stand still, every other hole is shut."""
    map_id = world.by_name[drop.floor].id
    base = floor_of(world, map_id, around.blocked | around.gated)
    others = frozenset((x, y) for (name, x, y) in HOLES if name == drop.floor) - {drop.hole}
    return replace(base, blocked=base.blocked - boulders | others, holes=frozenset({drop.hole}))


def live_boulders(state: GameState) -> dict[int, Position]:
    """The player's map's boulders by object index."""
    return {s.index: (s.x, s.y) for s in state.overworld.sprites if s.picture == BOULDER_SPRITE}


def fresh_boulders(world: World, state: GameState, floor: str) -> dict[int, Position]:
    """The floor's boulders as entering it puts them: its map's data, less those its toggles hide."""
    hidden = state.story.hidden_objects
    return {o.index: (o.x, o.y) for o in world.by_name[floor].objects
            if o.sprite == BOULDER_SPRITE and (o.toggle is None or o.toggle not in hidden)}  # fmt: skip


def pushes_for(
    floor: Floor, player: Position, boulders: dict[int, Position], drop: Drop
) -> tuple[Push, ...] | None:
    """The fewest pushes of the drop's boulder (the others standing still) down its hole; None when no
    pushes from here do it, or the boulder is not there."""
    moving = boulders.get(drop.boulder)
    if moving is None:
        return None
    every = frozenset(boulders.values())
    if drop.floor == LAST_FLOOR:
        # B3F's boulders stand in each other's way; whichever falls, the hole's event is set and the
        # boulder it names is taken out of sight, and no floor below has boulders of its own to push.
        return solve(floor, player, every, fewer_than(len(every)))
    return solve(floor, player, every, fewer_than(len(every)), moving=moving)


def entry_for(
    world: World, state: GameState, around: Surroundings, drop: Drop
) -> tuple[tuple[int, int, int], int] | None:
    """The cheapest square to enter the drop's floor at (a warp, or where a hole above lands) that the
    player cannot walk to now, from which pushes with the boulders put back make the drop; with the number
    of pushes. None when there is none."""
    data = world.by_name[drop.floor]
    fresh = fresh_boulders(world, state, drop.floor)
    floor = drop_floor(world, around, drop, frozenset(fresh.values()))
    here = state.overworld
    region = (reachable(floor, (here.x, here.y), frozenset(live_boulders(state).values()))
              if here.map_id == data.id else set())  # fmt: skip
    landings = {(x, y) for name, x, y in HOLES.values() if name == drop.floor}
    best: tuple[float, tuple[int, int, int], int] | None = None
    if resets_outside(world, state):
        around = replace(around, blocked=around.blocked | frozenset(exits(world)))
    planner = Planner(world, around)
    for x, y in sorted(({(w.x, w.y) for w in data.warps} | landings) - region):
        pushes = pushes_for(floor, (x, y), fresh, drop)
        if not pushes:
            continue
        plan = planner.plan(SquaresTarget({(data.id, x, y): None}))
        if plan is not None and (best is None or plan.cost < best[0]):
            best = (plan.cost, (data.id, x, y), len(pushes))
    return None if best is None else (best[1], best[2])
