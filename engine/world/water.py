"""Water: where SURF may start, where the player swims, and where they land again.

Starting: SURF puts the player on the square in front when its tile is water and the map's tileset has
water (pret engine/items/item_effects.asm ItemUseSurfboard, IsNextTileShoreOrWater; the tilesets from
data/tilesets/water_tilesets.asm). Swimming: a press onto another water tile keeps the player surfing, onto a
tile of the tileset's collision list lands them, anything else is a wall (home/overworld.asm
CollisionCheckOnWater). Both check TilePairCollisionsWater instead of the land pairs. A square's tile says
which mode the player is in there: no water tile is also in its tileset's collision list, so the walking graph
needs no extra state. Surfing is never started from the shore tiles ($32, $48): the game allows it, but
they also make up gym statues and the Safari Zone's banks, where no plan wants to go.
"""

from __future__ import annotations

WATER_TILE = 0x14
SHORE_TILE = 0x32  # eastern coastlines (the S.S. Anne's gangway on the dock's tileset: land there)
SAFARI_SHORE_TILE = 0x48  # the Safari Zone's eastern banks
SHIP_PORT = 14
# pret data/tilesets/water_tilesets.asm WaterTilesets: OVERWORLD, FOREST, DOJO, GYM, SHIP, SHIP_PORT,
# CAVERN, FACILITY, PLATEAU.
WATER_TILESETS = frozenset({0, 3, 5, 7, 13, 14, 17, 22, 23})
# Cycling Road: the game refuses SURF there ("Cycling is fun! Forget SURFing!", pret
# engine/overworld/field_move_messages.asm IsSurfingAllowed, on wStatusFlags6 BIT_ALWAYS_ON_BIKE). (The
# Seafoam Islands' currents are story gates over their water: world/gates.py.)
NO_SURF_MAPS = frozenset({"ROUTE_17"})


def swim_tiles(tileset: int, walkable: frozenset[int]) -> frozenset[int]:
    """The tiles a surfing player stays on the water over, in this tileset."""
    if tileset not in WATER_TILESETS:
        return frozenset()
    shores = () if tileset == SHIP_PORT else (SHORE_TILE, SAFARI_SHORE_TILE)
    return frozenset(tile for tile in (WATER_TILE, *shores) if tile not in walkable)


def surf_start_tiles(tileset: int, walkable: frozenset[int]) -> frozenset[int]:
    """The tiles a plan starts SURF onto (open water only)."""
    return swim_tiles(tileset, walkable) & {WATER_TILE}
