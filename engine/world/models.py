"""The world's parts as the cartridge stores them, one frozen model each."""

from __future__ import annotations

from typing import Literal

from engine.frozen import Frozen

Side = Literal["north", "south", "west", "east"]
Square = tuple[int, int, int]  # map id, x, y: one 16x16-pixel walking square


class Tileset(Frozen):
    id: int
    bank: int
    blocks: int  # pointer (in `bank`) to the blockset: 16 tile ids a block
    walkable: frozenset[int]  # tile ids the player may stand on (the tileset's collision list)
    counters: tuple[int, ...]  # tiles the player talks across (a Pokémon Center's or Mart's counter)
    grass: int | None  # the tile wild Pokémon live in, if the tileset has one
    warp_tiles: frozenset[int]  # standing on one of these on a warp's square warps at once
    door_tiles: frozenset[int]


class Connection(Frozen):
    side: Side
    map_id: int
    # Where the player lands: the coordinate across the edge is set to `land`, the one along it shifted
    # by `shift` (pret home/overworld.asm CheckMapConnections).
    land: int
    shift: int


class Warp(Frozen):
    index: int
    x: int
    y: int
    to_map: int  # LAST_MAP (0xFF): back to the map the player came from
    to_warp: int


class Sign(Frozen):
    x: int
    y: int
    text_id: int


class MapObject(Frozen):
    """An object_event: a person, a trainer, an item ball (pret macros/scripts/maps.asm)."""

    index: int  # 1-based, as the game numbers a map's sprites
    sprite: int
    x: int
    y: int
    moves: bool  # walks around (WALK) rather than staying put (STAY)
    facing: str | None  # the direction a staying object faces
    text_id: int
    item: int | None = None
    trainer_class: int | None = None
    trainer_number: int | None = None
    toggle: int | None = None  # its global index in wToggleableObjectFlags, if scripts show or hide it
    sight: int = 0  # a trainer's view range in squares (0: it does not come at the player)
    beaten_event: int | None = None  # the event flag index set once its trainer is beaten

    @property
    def is_trainer(self) -> bool:
        return self.trainer_class is not None


class MapData(Frozen):
    id: int
    name: str
    tileset: int
    width: int  # in blocks; walking squares are twice as many
    height: int
    blocks: bytes  # width x height block ids, row by row
    border_block: int
    connections: tuple[Connection, ...]
    warps: tuple[Warp, ...]
    signs: tuple[Sign, ...]
    objects: tuple[MapObject, ...]

    @property
    def squares_wide(self) -> int:
        return self.width * 2

    @property
    def squares_high(self) -> int:
        return self.height * 2

    def inside(self, x: int, y: int) -> bool:
        return 0 <= x < self.squares_wide and 0 <= y < self.squares_high

    def connection(self, side: Side) -> Connection | None:
        return next((c for c in self.connections if c.side == side), None)


class Ledge(Frozen):
    """From a square whose tile is `standing`, facing `facing`, a square whose tile is `ledge` is hopped
    over, landing two squares on (pret data/tilesets/ledge_tiles.asm; the OVERWORLD tileset only)."""

    facing: str
    standing: int
    ledge: int


class TilePair(Frozen):
    """Squares with these two tiles are not crossed between (cave and forest elevation)."""

    tileset: int
    first: int
    second: int


class Spin(Frozen):
    """An arrow square of a spinner floor: standing on it, the game walks the player `squares` squares,
    ending on `to` (pret DecodeArrowMovementRLE and the map's arrow table)."""

    to: tuple[int, int]
    squares: int


class WildTable(Frozen):
    """A map's wild Pokémon in its grass or cave (pret data/wild/maps/*.asm): the chance per step that
    one appears (`rate` out of 256) and the ten slots' (level, species), most common first; slot k comes
    up with SLOT_CHANCES[k] out of 256 (pret data/wild/probabilities.asm WildMonEncounterSlotChances)."""

    rate: int
    slots: tuple[tuple[int, str], ...]


SLOT_CHANCES = (51, 51, 39, 25, 25, 25, 13, 13, 11, 3)
