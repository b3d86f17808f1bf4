"""The world model: every map of the cartridge, and the terrain rules of walking between its squares.

A walking square is 2x2 tiles; whether the player may stand on one is decided by its lower-left tile
(pret home/overworld.asm CheckTilePassable reads the tile at screen (8, 9) in front of the player) being in
the tileset's collision list. Crossing a map's edge leads into the connected map; a ledge is hopped over
downhill only; some tile pairs are not crossed between (cave and forest elevation). People and story
gates are not terrain: the planner adds them from the live state.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property
from typing import Literal

from engine.game.cartridge import read_header
from engine.game.errors import RomError
from engine.game.models import Direction
from engine.world.cartridge import (
    Rom,
    map_ids,
    read_blockset,
    read_carpets,
    read_ledges,
    read_map,
    read_spinners,
    read_tile_pairs,
    read_tilesets,
    read_toggles,
    read_wild_grass,
)
from engine.world.errors import CartridgeDataError, WorldError
from engine.world.models import Ledge, MapData, Side, Spin, Square, TilePair, Tileset, Warp, WildTable
from engine.world.tables import (
    BLOCK_TILES,
    CARPET_MAPS,
    CARPET_TILESETS,
    CUT_TREE_TILES,
    EDGE_MAPS,
    FIRST_INDOOR_MAP,
    FOREST_TILESET,
    HOLES,
    LAST_MAP,
    LIFTS,
    OPENED_BLOCKS,
    RED_BLUE_TABLES,
    SPINNER_TABLES,
    RomTables,
)
from engine.world.water import NO_SURF_MAPS, surf_start_tiles, swim_tiles

log = logging.getLogger(__name__)
OVERWORLD_TILESET = 0  # the only tileset with ledges (pret engine/overworld/ledges.asm)
MAX_CHAINED_SPINS = 8
# Maps whose script sets wLastMap every frame the player is on them, so that their LAST_MAP warps lead
# there whichever way the player came in: the Underground Paths' and Diglett's Cave's entrance houses
# (pret scripts/UndergroundPathRoute5.asm .. Route8.asm, DiglettsCaveRoute2.asm, DiglettsCaveRoute11.asm).
# Without this the two ends of a tunnel are entered from two routes and neither exit has a known side.
SCRIPTED_LAST_MAP = {
    "UNDERGROUND_PATH_ROUTE_5": "ROUTE_5", "UNDERGROUND_PATH_ROUTE_6": "ROUTE_6",
    "UNDERGROUND_PATH_ROUTE_7": "ROUTE_7",  # (its unused copy, which no warp enters, is left out)
    "UNDERGROUND_PATH_ROUTE_8": "ROUTE_8", "DIGLETTS_CAVE_ROUTE_2": "ROUTE_2",
    "DIGLETTS_CAVE_ROUTE_11": "ROUTE_11",
}  # fmt: skip
# Route 22's gate sets it by the row the player stands on: north of row 4 Route 23, else Route 22
# (pret scripts/Route22Gate.asm Route22Gate_Script).
ROW_LAST_MAP = {"ROUTE_22_GATE": (4, "ROUTE_23", "ROUTE_22")}
OUTSIDE_TILESETS = frozenset({0, 23})  # OVERWORLD and PLATEAU (pret home/overworld.asm CheckIfInOutsideMap)
STEPS = {Direction.UP: (0, -1), Direction.DOWN: (0, 1), Direction.LEFT: (-1, 0), Direction.RIGHT: (1, 0)}
OPPOSITE = {Direction.UP: Direction.DOWN, Direction.DOWN: Direction.UP, Direction.LEFT: Direction.RIGHT,
            Direction.RIGHT: Direction.LEFT}  # fmt: skip
EDGE_SIDES: dict[Direction, Side] = {
    Direction.UP: "north",
    Direction.DOWN: "south",
    Direction.LEFT: "west",
    Direction.RIGHT: "east",
}


@dataclass(frozen=True)
class Move:
    """Where one press of a direction takes the player on terrain alone."""

    to: Square
    hop: bool = False  # over a ledge: two squares on, no way back
    crossing: bool = False  # into the connected map across an edge
    cut: bool = False  # onto a tree that CUT clears first
    spin: bool = False  # onto a spinner's arrow: `to` is where the game's forced walk ends
    surf: bool = False  # from land onto water, with SURF
    swim: bool = False  # from water onto water, surfing
    hole: Square | None = None  # a hole stepped into: `to` is where the fall lands


EdgeKind = Literal["walk", "hop", "cross", "door", "push", "cut", "spin", "lift", "surf", "swim"]


@dataclass(frozen=True)
class Edge:
    """One press of a direction, as the planner sees it. A `door` steps onto a warp square (`via`) and
    comes out at the warp's destination; a `push` takes the warp the player stands on (`via`, too). A
    `cut` clears the tree on `to` with CUT first, then steps onto it (the planner allows it only when the
    player can use CUT). A `spin` steps onto a spinner's arrow square (`via`) and ends where the game's
    forced walk does (`to`). A `lift` faces an elevator's panel, chooses floor menu entry `floor` and
    walks out on that floor (`to`); an elevator's own exits are not planned through (where they lead is
    what the panel last chose). A `surf` uses SURF facing the water on `to` (the game moves the player onto
    it); a `swim` is a press on the water, and a press from the water onto land is a `walk` (the game lands
    the player by itself).
    `last_map`: the warp leads back to wherever the player came from (`to` is then the map's only way
    in, or None)."""

    direction: Direction
    to: Square | None
    kind: EdgeKind
    via: Square | None = None  # a door or a push: the warp square
    warp: Warp | None = None
    last_map: bool = False
    grass: bool = False  # the square stepped on is tall grass
    floor: int | None = None  # a lift: the floor menu's entry


class World:
    def __init__(
        self,
        maps: dict[int, MapData],
        tilesets: dict[int, Tileset],
        blocksets: dict[int, bytes],
        ledges: tuple[Ledge, ...],
        tile_pairs: tuple[TilePair, ...],
        carpets: dict[str, frozenset[int]] | None = None,
        spinners: dict[int, dict[tuple[int, int], Spin]] | None = None,
        water_pairs: tuple[TilePair, ...] = (),
        wild: dict[int, WildTable] | None = None,
    ) -> None:
        self.maps = maps
        self.tilesets = tilesets
        self.blocksets = blocksets
        self.ledges = ledges
        self.tile_pairs = tile_pairs
        self.carpets = carpets or {}
        self.spinners = spinners or {}
        self.water_pairs = water_pairs
        self.wild = wild or {}  # map id -> its grass's or cave's encounter table
        # map id -> the species met in its grass or cave
        self.wild_grass = {
            map_id: frozenset(name for _, name in table.slots) for map_id, table in self.wild.items()
        }
        self._edges: dict[int, dict[tuple[int, int], tuple[Edge, ...]]] = {}
        self._grids: dict[int, bytes] = {}
        self._water: dict[int, frozenset[tuple[int, int]]] = {}

    # -- looking things up -------------------------------------------------------------------------
    @cached_property
    def by_name(self) -> dict[str, MapData]:
        return {data.name: data for data in self.maps.values()}

    def map(self, map_id: int) -> MapData:
        return self.maps[map_id]

    def tile(self, map_id: int, x: int, y: int) -> int | None:
        """The lower-left tile of square (x, y): the one the game's collision checks read."""
        size = self._sizes.get(map_id)
        if size is None or not (0 <= x < size[0] and 0 <= y < size[1]):
            return None
        grid = self._grids.get(map_id)
        if grid is None:
            grid = self._grid(map_id)
        return grid[y * size[0] + x]

    @cached_property
    def _sizes(self) -> dict[int, tuple[int, int]]:
        return {map_id: (data.squares_wide, data.squares_high) for map_id, data in self.maps.items()}

    def _grid(self, map_id: int) -> bytes:
        """Every square's lower-left tile, row by row (worked out once per map)."""
        grid = self._grids.get(map_id)
        if grid is None:
            grid = self._grids[map_id] = self._read_grid(self.maps[map_id])
        return grid

    def _read_grid(self, data: MapData) -> bytes:
        tiles = self.blocksets[data.tileset]
        blocks = opened_blocks(data)
        grid = bytearray()
        for y in range(data.squares_high):
            for x in range(data.squares_wide):
                block = blocks[(y // 2) * data.width + x // 2]
                row, column = (y % 2) * 2 + 1, (x % 2) * 2
                at = block * BLOCK_TILES * BLOCK_TILES + row * BLOCK_TILES + column
                grid.append(tiles[at] if at < len(tiles) else 0)
        return bytes(grid)

    def walkable(self, map_id: int, x: int, y: int) -> bool:
        tile = self.tile(map_id, x, y)
        return tile is not None and tile in self.tilesets[self.maps[map_id].tileset].walkable

    def is_water(self, map_id: int, x: int, y: int) -> bool:
        """A square the player stands on only surfing."""
        tile = self.tile(map_id, x, y)
        return tile is not None and tile in self._swim_tiles[self.maps[map_id].tileset]

    @cached_property
    def _swim_tiles(self) -> dict[int, frozenset[int]]:
        return {tileset.id: swim_tiles(tileset.id, tileset.walkable) for tileset in self.tilesets.values()}

    @cached_property
    def _surf_starts(self) -> dict[int, frozenset[int]]:
        return {
            tileset.id: surf_start_tiles(tileset.id, tileset.walkable) for tileset in self.tilesets.values()
        }

    @cached_property
    def _no_surf_maps(self) -> frozenset[int]:
        return frozenset(data.id for data in self.maps.values() if data.name in NO_SURF_MAPS)

    def is_tree(self, map_id: int, x: int, y: int) -> bool:
        """A tree CUT clears (it stands there again whenever the map is loaded)."""
        tree = CUT_TREE_TILES.get(self.maps[map_id].tileset)
        return tree is not None and self.tile(map_id, x, y) == tree

    def is_grass(self, map_id: int, x: int, y: int) -> bool:
        grass = self.tilesets[self.maps[map_id].tileset].grass
        return grass is not None and self.tile(map_id, x, y) == grass

    def maps_near(self, map_id: int, hops: int) -> set[int]:
        """The maps within `hops` map edges and warps of this one (a building's exits lead back to where
        the player came from, so they are found from the other side)."""
        near, frontier = {map_id}, {map_id}
        for _ in range(hops):
            reached = set()
            for here in frontier:
                data = self.maps.get(here)
                if data is None:
                    continue
                reached |= {c.map_id for c in data.connections} | {w.to_map for w in data.warps}
                reached |= {
                    other.id for other in self.maps.values() if any(w.to_map == here for w in other.warps)
                }
            frontier = {m for m in reached if m in self.maps} - near
            near |= frontier
        return near

    def meets_wild(self, map_id: int, x: int, y: int) -> bool:
        """Whether a wild Pokémon can appear on this square: tall grass, or any floor of an indoor map
        with wild data (a cave, the mansion) but a forest's."""
        if self.is_grass(map_id, x, y):
            return True
        indoor = map_id >= FIRST_INDOOR_MAP and self.maps[map_id].tileset != FOREST_TILESET
        return indoor and map_id in self.wild

    def warp_at(self, map_id: int, x: int, y: int) -> Warp | None:
        return self._warps.get((map_id, x, y))

    @cached_property
    def _warps(self) -> dict[Square, Warp]:
        return {(m.id, w.x, w.y): w for m in self.maps.values() for w in m.warps}

    # -- moving ------------------------------------------------------------------------------------
    def move(self, at: Square, direction: Direction) -> Move | None:
        """Terrain alone: where pressing `direction` at `at` leads, or None where it is blocked."""
        map_id, x, y = at
        dx, dy = STEPS[direction]
        data = self.maps[map_id]
        if not data.inside(x + dx, y + dy):
            return self._cross(data, x + dx, y + dy, direction, self.is_water(*at))
        target = (map_id, x + dx, y + dy)
        if self.is_water(*at):
            return self._swim(at, target)
        landing = self._holes.get(target)
        if landing is not None and self.walkable(*target):
            return Move(to=landing, hole=target)
        if self.tile(*target) in self._surf_starts[data.tileset] and map_id not in self._no_surf_maps:
            return None if self._pair_blocks(at, target, water=True) else Move(to=target, surf=True)
        hop = self._ledge(at, direction)
        if hop is not None:
            return hop
        landing = self._spun(target)
        if landing is not None and self.walkable(*target):
            return Move(to=landing, spin=True)
        if self.is_tree(*target):
            return Move(to=target, cut=True)
        if not self.walkable(*target) or self._pair_blocks(at, target):
            return None
        return Move(to=target)

    def _swim(self, at: Square, target: Square) -> Move | None:
        """A press while surfing: on over water, onto land (the game lands the player), or a wall."""
        if self._pair_blocks(at, target, water=True):
            return None
        if self.is_water(*target):
            return Move(to=target, swim=True)
        return Move(to=target) if self.walkable(*target) else None

    def _cross(
        self, data: MapData, x: int, y: int, direction: Direction, swimming: bool = False
    ) -> Move | None:
        connection = data.connection(EDGE_SIDES[direction])
        if connection is None or connection.map_id not in self.maps:
            return None
        if direction in (Direction.UP, Direction.DOWN):
            target = (connection.map_id, x + connection.shift, connection.land)
        else:
            target = (connection.map_id, connection.land, y + connection.shift)
        if swimming and self.is_water(*target):
            return Move(to=target, crossing=True, swim=True)
        if not self.walkable(*target):
            return None
        return Move(to=target, crossing=True)

    @cached_property
    def _holes(self) -> dict[Square, Square]:
        found = {}
        for (name, x, y), (to_name, to_x, to_y) in HOLES.items():
            if name in self.by_name and to_name in self.by_name:
                found[(self.by_name[name].id, x, y)] = (self.by_name[to_name].id, to_x, to_y)
        return found

    def _spun(self, at: Square) -> Square | None:
        """Where the game's forced walks end once the player stands on `at`, if it is an arrow square (an
        arrow may end on another arrow: followed, a few at most)."""
        arrows = self.spinners.get(at[0])
        if not arrows or at[1:] not in arrows:
            return None
        map_id, x, y = at
        for _ in range(MAX_CHAINED_SPINS):
            spin = arrows.get((x, y))
            if spin is None:
                return (map_id, x, y)
            x, y = spin.to
        return None  # a loop of arrows: the game would spin for ever, and so no edge

    def _ledge(self, at: Square, direction: Direction) -> Move | None:
        map_id, x, y = at
        if self.maps[map_id].tileset != OVERWORLD_TILESET:
            return None
        dx, dy = STEPS[direction]
        front = self.tile(map_id, x + dx, y + dy)
        if (direction.value, self.tile(map_id, x, y), front) not in self._ledge_keys:
            return None
        landing = (map_id, x + 2 * dx, y + 2 * dy)
        return Move(to=landing, hop=True) if self.walkable(*landing) else None

    def rolls(self, at: Square, direction: Direction) -> Square | None:
        """Where a boulder pushed from `at` goes: the next square on the same map if a player could walk
        onto it (its tile passable, no change of level between the two) and it is not a warp (pret
        engine/overworld/player_state.asm CheckForCollisionWhenPushingBoulder); None where it stays."""
        map_id, x, y = at
        dx, dy = STEPS[direction]
        target = (map_id, x + dx, y + dy)
        if not self.maps[map_id].inside(x + dx, y + dy) or not self.walkable(*target):
            return None
        if self._pair_blocks(at, target) or self.warp_at(*target) is not None:
            return None
        return target

    @cached_property
    def _ledge_keys(self) -> frozenset[tuple[str, int, int]]:
        return frozenset((ledge.facing, ledge.standing, ledge.ledge) for ledge in self.ledges)

    def _pair_blocks(self, at: Square, target: Square, water: bool = False) -> bool:
        pairs = (self._water_pairs if water else self._pairs).get(self.maps[at[0]].tileset)
        return pairs is not None and frozenset((self.tile(*at), self.tile(*target))) in pairs

    @cached_property
    def _pairs(self) -> dict[int, frozenset[frozenset[int]]]:
        return _pairs_by_tileset(self.tile_pairs)

    @cached_property
    def _water_pairs(self) -> dict[int, frozenset[frozenset[int]]]:
        return _pairs_by_tileset(self.water_pairs)

    # -- warps -------------------------------------------------------------------------------------
    def warp_destination(
        self, warp: Warp, came_from: int | None, from_map: int | None = None
    ) -> Square | None:
        """Where a warp puts the player: its destination warp's square (a door steps the player out one
        square down). LAST_MAP warps lead back to `came_from`, or to the map that is the only way in."""
        inside = from_map if from_map is not None else self._warp_map(warp)
        to_map: int | None = warp.to_map
        if to_map == LAST_MAP:
            to_map = self._scripted_last_map(inside, warp) or came_from or self.only_entrance(inside)
        if to_map is None or to_map not in self.maps:
            return None
        destinations = self.maps[to_map].warps
        if warp.to_warp >= len(destinations):
            return None
        landing = destinations[warp.to_warp]
        if self.tile(to_map, landing.x, landing.y) in self.tilesets[self.maps[to_map].tileset].door_tiles:
            return (to_map, landing.x, landing.y + 1)
        return (to_map, landing.x, landing.y)

    def _scripted_last_map(self, inside: int | None, warp: Warp) -> int | None:
        """Where a map's own script sends its LAST_MAP warps, if it does (SCRIPTED_LAST_MAP)."""
        if inside is None or inside not in self.maps:
            return None
        name = self.maps[inside].name
        by_row = ROW_LAST_MAP.get(name)
        if by_row is not None:
            below, north, south = by_row
            name = north if warp.y < below else south
        else:
            name = SCRIPTED_LAST_MAP.get(name, "")
        found = self.by_name.get(name)
        return found.id if found is not None else None

    def _warp_map(self, warp: Warp) -> int | None:
        return next((m.id for m in self.maps.values() if warp in m.warps), None)

    def only_entrance(self, map_id: int | None) -> int | None:
        """For a LAST_MAP warp: the one map whose warps lead into `map_id`, if there is exactly one."""
        return self._entrances.get(map_id) if map_id is not None else None

    def is_outside(self, map_id: int) -> bool:
        """Towns and routes: warping out of one of these sets wLastMap (pret WarpFound2)."""
        return self.maps[map_id].tileset in OUTSIDE_TILESETS

    @cached_property
    def _entrances(self) -> dict[int, int]:
        """Each indoor map whose buildings are entered from exactly one town or route."""
        entered_from: dict[int, set[int]] = {}
        for outside in (m for m in self.maps if self.is_outside(m)):
            for inside in self._indoors_behind(outside):
                entered_from.setdefault(inside, set()).add(outside)
        return {inside: next(iter(found)) for inside, found in entered_from.items() if len(found) == 1}

    def _indoors_behind(self, outside: int) -> set[int]:
        """The indoor maps reachable from a town or route through warps without going outside again."""
        found: set[int] = set()
        frontier = [w.to_map for w in self.maps[outside].warps]
        while frontier:
            map_id = frontier.pop()
            if map_id in found or map_id not in self.maps or self.is_outside(map_id):
                continue
            found.add(map_id)
            frontier.extend(w.to_map for w in self.maps[map_id].warps if w.to_map != LAST_MAP)
        return found

    def immediate(self, map_id: int, warp: Warp) -> bool:
        """A warp taken the moment the player steps on it (a door, a staircase, a hole)."""
        tileset = self.tilesets[self.maps[map_id].tileset]
        tile = self.tile(map_id, warp.x, warp.y)
        return tile in tileset.warp_tiles or tile in tileset.door_tiles

    def push_directions(self, map_id: int, x: int, y: int) -> tuple[Direction, ...]:
        """The directions that take a warp square that is not a door: facing the map's edge indoors,
        facing a warp carpet outdoors and on ships (pret home/overworld.asm ExtraWarpCheck)."""
        data = self.maps[map_id]
        by_carpet = map_id not in EDGE_MAPS and (data.tileset in CARPET_TILESETS or map_id in CARPET_MAPS)
        found = []
        for direction, (dx, dy) in STEPS.items():
            if by_carpet:
                front = self.tile(map_id, x + dx, y + dy)
                if front is None:  # beyond the map: the screen shows the border block there
                    front = self._border_tile(map_id)
                if front in self.carpets.get(direction.value, frozenset()):
                    found.append(direction)
            elif not data.inside(x + dx, y + dy):
                found.append(direction)
        return tuple(found)

    def _border_tile(self, map_id: int) -> int | None:
        """The lower-left tile of a square of the map's border block: what the game reads in front of a
        player who faces out of the map (the S.S. Anne's gangway and the dock's exit face it)."""
        data = self.maps[map_id]
        tiles = self.blocksets.get(data.tileset, b"")
        at = data.border_block * BLOCK_TILES * BLOCK_TILES + BLOCK_TILES  # row 1, column 0
        return tiles[at] if at < len(tiles) else None

    # -- the walking graph -------------------------------------------------------------------------
    def edges(self, square: Square) -> tuple[Edge, ...]:
        """Every press that moves the player from `square`, on terrain alone (worked out a map at a
        time, then kept)."""
        map_id, x, y = square
        edges = self._edges.get(map_id)
        if edges is None:
            edges = self._edges[map_id] = self._map_edges(map_id)
        found = edges.get((x, y))
        if found is None:  # a square the player cannot stand on, asked about anyway
            found = edges[(x, y)] = self._edges_at(square) if map_id in self.maps else ()
        return found

    def _map_edges(self, map_id: int) -> dict[tuple[int, int], tuple[Edge, ...]]:
        """The squares a player can stand on (walkable ones; warps stand on such tiles too). Plain steps
        between floor squares, by far the most, are worked out here directly; anything else (edges,
        ledges, warps, cave elevation) through `_edges_at`."""
        data = self.maps[map_id]
        tileset = self.tilesets[data.tileset]
        walkable, grass = tileset.walkable, tileset.grass
        grid, wide, high = self._grid(map_id), data.squares_wide, data.squares_high
        special = {(w.x, w.y) for w in data.warps} | set(self.spinners.get(map_id, ()))
        special |= {(x, y) for hole_map, x, y in self._holes if hole_map == map_id}
        # The squares a step away from a warp, worked out once rather than asked at every square.
        beside_special = {(x + dx, y + dy) for x, y in special for dx, dy in STEPS.values()}
        ledge_fronts = {key[2] for key in self._ledge_keys} if data.tileset == OVERWORLD_TILESET else set()
        pairs = self._pairs.get(data.tileset, frozenset())
        tree = CUT_TREE_TILES.get(data.tileset)
        water = self._swim_tiles[data.tileset]
        found: dict[tuple[int, int], tuple[Edge, ...]] = self._lift_edges(data)
        for y in range(high):
            for x in range(wide):
                here = grid[y * wide + x]
                if here in water:
                    found[(x, y)] = self._edges_at((map_id, x, y))
                    continue
                if here not in walkable:
                    continue
                if (x, y) in found:
                    found[(x, y)] = (*self._edges_at((map_id, x, y)), *found[(x, y)])
                    continue
                near_edge = x in (0, wide - 1) or y in (0, high - 1)
                if near_edge or (x, y) in special or (x, y) in beside_special:
                    found[(x, y)] = self._edges_at((map_id, x, y))
                    continue
                edges = []
                for direction, (dx, dy) in STEPS.items():
                    tile = grid[(y + dy) * wide + x + dx]
                    if tile in ledge_fronts:
                        move = self._ledge((map_id, x, y), direction)
                        if move is not None:
                            edges.append(self._step(direction, move))
                        continue
                    if tile in walkable and (not pairs or frozenset((here, tile)) not in pairs):
                        edges.append(Edge(direction=direction, to=(map_id, x + dx, y + dy), kind="walk",
                                          grass=tile == grass))  # fmt: skip
                    elif tile == tree:
                        edges.append(Edge(direction=direction, to=(map_id, x + dx, y + dy), kind="cut"))
                    elif tile in water and (move := self.move((map_id, x, y), direction)) is not None:
                        edges.append(self._step(direction, move))
                found[(x, y)] = tuple(edges)
        return found

    @cached_property
    def lift_maps(self) -> frozenset[int]:
        return frozenset(self.by_name[name].id for name in LIFTS if name in self.by_name)

    def _lift_edges(self, data: MapData) -> dict[tuple[int, int], tuple[Edge, ...]]:
        """An elevator's rides: from below its panel, one edge per floor to where that floor's exit
        leads (LIFTS)."""
        lift = LIFTS.get(data.name)
        if lift is None:
            return {}
        (px, py), floors = lift
        rides = []
        for entry, (name, warp) in enumerate(floors):
            floor = self.by_name.get(name)
            if floor is None:
                continue
            to = self.warp_destination(Warp(index=0, x=0, y=0, to_map=floor.id, to_warp=warp), None)
            if to is not None:
                rides.append(Edge(direction=Direction.UP, to=to, kind="lift", floor=entry))
        return {(px, py + 1): tuple(rides)}

    def _edges_at(self, at: Square) -> tuple[Edge, ...]:
        found: list[Edge] = []
        here = self.warp_at(*at)
        # Standing on a warp, a press takes it only where it collides (pret home/overworld.asm
        # CheckWarpsCollision; a press that walks on checks the warp at the next square instead).
        pushes = (
            tuple(d for d in self.push_directions(*at) if self.move(at, d) is None)
            if here is not None and not self.immediate(at[0], here)
            else ()
        )
        for direction in STEPS:
            if direction in pushes:
                assert here is not None
                found.append(self._through(direction, here, at[0], "push", via=at))
                continue
            move = self.move(at, direction)
            if move is not None:
                found.append(self._step(direction, move, at))
        # An elevator's doors are kept even where their warps name no map (Silph Co.'s name a placeholder
        # that the floor menu overwrites, pret scripts/SilphCoElevator.asm): a ride walks out through them.
        lift = at[0] in self.lift_maps
        return tuple(edge for edge in found if edge.to is not None or edge.last_map or (lift and edge.via))

    def _step(self, direction: Direction, move: Move, at: Square | None = None) -> Edge:
        if move.spin and at is not None:
            dx, dy = STEPS[direction]
            return Edge(direction=direction, to=move.to, kind="spin", via=(at[0], at[1] + dx, at[2] + dy))
        if move.hole is not None:  # walked like a door: the map changes under the player
            return Edge(direction=direction, to=move.to, kind="door", via=move.hole)
        warp = None if move.hop else self.warp_at(*move.to)
        if warp is not None:
            map_id, x, y = move.to
            if self.immediate(map_id, warp) or direction in self.push_directions(map_id, x, y):
                return self._through(direction, warp, map_id, "door", via=move.to)
        kind: EdgeKind = (
            "hop" if move.hop else "cross" if move.crossing else "cut" if move.cut
            else "surf" if move.surf else "swim" if move.swim else "walk"
        )  # fmt: skip
        return Edge(direction=direction, to=move.to, kind=kind, grass=self.is_grass(*move.to))

    def _through(
        self, direction: Direction, warp: Warp, map_id: int, kind: EdgeKind, via: Square | None = None
    ) -> Edge:
        last_map = warp.to_map == LAST_MAP
        to = self.warp_destination(warp, None, from_map=map_id)
        return Edge(direction=direction, to=to, kind=kind, via=via, warp=warp, last_map=last_map)

    def water_squares(self, map_id: int) -> frozenset[tuple[int, int]]:
        """Every square of the map the player stands on only surfing (worked out once per map)."""
        found = self._water.get(map_id)
        if found is None:
            found = self._water[map_id] = frozenset(
                (x, y) for x, y in self.squares(map_id) if self.is_water(map_id, x, y)
            )
        return found

    def squares(self, map_id: int) -> Iterator[tuple[int, int]]:
        data = self.maps[map_id]
        for y in range(data.squares_high):
            for x in range(data.squares_wide):
                yield x, y


def _pairs_by_tileset(pairs: tuple[TilePair, ...]) -> dict[int, frozenset[frozenset[int]]]:
    found: dict[int, set[frozenset[int]]] = {}
    for pair in pairs:
        found.setdefault(pair.tileset, set()).add(frozenset((pair.first, pair.second)))
    return {tileset: frozenset(pairs) for tileset, pairs in found.items()}


def world_of(rom_bytes: bytes | None) -> World | None:
    """The world of a cartridge whose maps can be read; None (with a warning) otherwise, for roles that
    can do without one (a generated test cartridge, a ROM hack that moved the map tables)."""
    if rom_bytes is None:
        return None
    try:
        return load_world(rom_bytes)
    except WorldError as exc:
        log.warning("no world model: %s", exc)
        return None


@functools.lru_cache(maxsize=2)
def load_world(rom_bytes: bytes, tables: RomTables = RED_BLUE_TABLES) -> World:
    """Every map of the cartridge (about 50 ms for all 248). One per cartridge and process: the roles of
    a --local run share it (its caches only grow, and each role's copy grew its own)."""
    rom = Rom(rom_bytes)
    tilesets = read_tilesets(rom, tables)
    toggles = read_toggles(rom, tables)
    maps = {map_id: read_map(rom, tables, map_id, toggles) for map_id in map_ids()}
    return World(
        maps,
        tilesets,
        _blocksets(rom, maps, tilesets),
        read_ledges(rom, tables),
        read_tile_pairs(rom, tables),
        read_carpets(rom, tables),
        _spinners(rom, maps),
        read_tile_pairs(rom, tables, water=True),
        _wild_grass(rom, tables, maps),
    )


def _wild_grass(rom: Rom, tables: RomTables, maps: dict[int, MapData]) -> dict[int, WildTable]:
    try:
        return read_wild_grass(rom, tables, maps)
    except CartridgeDataError:  # a generated test cartridge has no wild data
        return {}


def _spinners(rom: Rom, maps: dict[int, MapData]) -> dict[int, dict[tuple[int, int], Spin]]:
    """The spinner floors of this cartridge (by its title: the tables' addresses differ in Blue)."""
    by_name = {data.name: data.id for data in maps.values()}
    try:
        title = read_header(rom.data).title
    except RomError:  # a generated test cartridge: no header to go by, so no spinner floors
        return {}
    found = {}
    for name, bank, address in SPINNER_TABLES.get(title, ()):
        if name in by_name:
            found[by_name[name]] = read_spinners(rom, bank, address)
    return found


def opened_blocks(data: MapData) -> bytes:
    """The map's blocks with those its boulder switches swap in (tables.OPENED_BLOCKS): the world is drawn
    open, and story gates keep those squares shut until the switch's event is set."""
    swaps = OPENED_BLOCKS.get(data.name, ())
    if not swaps:
        return data.blocks
    blocks = bytearray(data.blocks)
    for bx, by, block in swaps:
        blocks[by * data.width + bx] = block
    return bytes(blocks)


def _blocksets(rom: Rom, maps: dict[int, MapData], tilesets: dict[int, Tileset]) -> dict[int, bytes]:
    """Each tileset's blocks, as many as its maps use (the cartridge keeps no count)."""
    used: dict[int, int] = {}
    for data in maps.values():
        highest = max([*opened_blocks(data), data.border_block], default=0)
        used[data.tileset] = max(used.get(data.tileset, 0), highest + 1)
    return {tileset: read_blockset(rom, tilesets[tileset], count) for tileset, count in used.items()}
