"""Where the map data lives in a Red/Blue cartridge, and how it is laid out: addresses and formats named
after the pret/pokered symbols (pokered.sym; Red and Blue keep every table below at the same address).

A bank-switched pointer is (bank, address): banks are 0x4000 bytes, bank 0 is always mapped at 0x0000 and
any other bank at 0x4000, so (bank, address) is the file offset bank * 0x4000 + address - 0x4000 for
addresses of 0x4000 and above, and the address itself below it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

BANK_SIZE = 0x4000
END = 0xFF  # the terminator of the game's byte lists (-1)


def rom_offset(bank: int, address: int) -> int:
    return address if address < BANK_SIZE else bank * BANK_SIZE + address - BANK_SIZE


@dataclass(frozen=True)
class RomTables:
    map_header_pointers: int  # MapHeaderPointers (bank 0): a pointer per map id
    map_header_banks: int  # MapHeaderBanks: a bank per map id
    tilesets: int  # Tilesets: 12 bytes per tileset (data/tilesets/tileset_headers.asm)
    ledge_tiles: int  # LedgeTiles: (facing, standing tile, ledge tile, input) x4, -1
    tile_pair_collisions_land: int  # TilePairCollisionsLand: (tileset, tile, tile) x3, -1
    tile_pair_collisions_water: int  # TilePairCollisionsWater: the same, checked while surfing
    warp_tile_id_pointers: int  # WarpTileIDPointers: a pointer per tileset to warp tile ids, -1 ended
    warp_tile_list_pointers: int  # WarpTileListPointers: per facing (down, up, left, right), carpet tiles
    door_tile_id_pointers: int  # DoorTileIDPointers: (tileset, pointer) x3, -1; lists end with 0
    toggleable_object_map_pointers: int  # ToggleableObjectMapPointers: a pointer per map id
    toggleable_object_states: int  # ToggleableObjectStates: (map, object id, state) x3, -1
    wild_data_pointers: int  # WildDataPointers: a pointer per map id (bank 3) to its wild Pokémon


def _at(bank: int, address: int) -> int:
    return rom_offset(bank, address)


RED_BLUE_TABLES = RomTables(
    map_header_pointers=_at(0x00, 0x01AE),
    map_header_banks=_at(0x03, 0x423D),
    tilesets=_at(0x03, 0x47BE),
    ledge_tiles=_at(0x06, 0x66CF),
    tile_pair_collisions_land=_at(0x00, 0x0C7E),
    tile_pair_collisions_water=_at(0x00, 0x0CA0),
    warp_tile_id_pointers=_at(0x03, 0x44CC),
    warp_tile_list_pointers=_at(0x03, 0x4477),
    door_tile_id_pointers=_at(0x06, 0x662C),
    toggleable_object_map_pointers=_at(0x03, 0x48F5),
    toggleable_object_states=_at(0x03, 0x4AEA),
    wild_data_pointers=_at(0x03, 0x4EEB),
)
WARP_TILE_BANK = 0x03  # the lists WarpTileIDPointers points to
DOOR_TILE_BANK = 0x06  # the lists DoorTileIDPointers points to
TOGGLE_BANK = 0x03
WILD_BANK = 0x03  # the map's wild data WildDataPointers points to

NUM_MAPS = 248  # pret constants/map_constants.asm
NUM_TILESETS = 24  # pret constants/tileset_constants.asm
TILESET_ENTRY = 12
MAP_HEADER_FIXED = 10  # tileset, height, width, blocks, texts, script, connection flags
CONNECTION_ENTRY = 11
# Connection flags (pret constants/map_data_constants.asm) in the order the entries follow the header.
CONNECTION_ORDER: tuple[tuple[Literal["north", "south", "west", "east"], int], ...] = (
    ("north", 0x08),
    ("south", 0x04),
    ("west", 0x02),
    ("east", 0x01),
)
WARP_ENTRY, SIGN_ENTRY = 4, 3  # (y, x, warp id, map); (y, x, text id)
OBJECT_ENTRY = 6  # sprite, y + 4, x + 4, movement, range or direction, text id (| TRAINER | ITEM)
OBJECT_TRAINER, OBJECT_ITEM = 0x40, 0x80  # flags on an object's text id: two or one more bytes follow
OBJECT_COORD_BIAS = 4  # object coordinates are stored + 4
LAST_MAP = 0xFF  # a warp to wLastMap: the map the player came from (building exits)
BLOCK_TILES = 4  # a block is 4 x 4 tiles, 2 x 2 walking squares
MOVEMENT_STAY = 0xFF  # pret constants/map_object_constants.asm: an object that stays put
CARPET_FACINGS = ("down", "up", "left", "right")  # the order of WarpTileListPointers
# ExtraWarpCheck (pret home/overworld.asm): on these tilesets and maps a warp square that is not a door
# is taken by facing a carpet tile; everywhere else by facing the map's edge.
CARPET_TILESETS = frozenset({0, 13, 14, 23})  # OVERWORLD, SHIP, SHIP_PORT, PLATEAU
CARPET_MAPS = frozenset({0xC7, 0xC8, 0xCA, 0x52})  # ROCKET_HIDEOUT_B1F, _B2F, _B4F, ROCK_TUNNEL_1F
EDGE_MAPS = frozenset({0x61})  # SS_ANNE_3F: by the edge, whatever its tileset
# The tree CUT clears, by tileset: the tile in front of the player that pret engine/overworld/cut.asm UsedCut
# accepts (OVERWORLD $3D, GYM $50; the grass it also cuts is walkable anyway). The game swaps the tree's
# block in wOverworldMap for one without it (CutTreeBlockSwaps); the tree grows back when the map reloads.
CUT_TREE_TILES = {0: 0x3D, 7: 0x50}
# The spinner floors' arrow tables (pret scripts/RocketHideoutB2F.asm, RocketHideoutB3F.asm and
# ViridianGym.asm, the ...ArrowTilePlayerMovement labels; addresses from pokered.sym and pokeblue.sym):
# (y, x, pointer) entries until $FF, each pointer (same bank) to (joypad direction, squares) pairs until $FF
# that the map script plays once the player stands on (x, y). Viridian Gym's table is a byte later in Blue.
SPINNER_TABLES: dict[str, tuple[tuple[str, int, int], ...]] = {
    "POKEMON RED": (("ROCKET_HIDEOUT_B2F", 0x11, 0x4E6D), ("ROCKET_HIDEOUT_B3F", 0x11, 0x526B),
                    ("VIRIDIAN_GYM", 0x1D, 0x4916)),
    "POKEMON BLUE": (("ROCKET_HIDEOUT_B2F", 0x11, 0x4E6D), ("ROCKET_HIDEOUT_B3F", 0x11, 0x526B),
                     ("VIRIDIAN_GYM", 0x1D, 0x4917)),
}  # fmt: skip
SPINNER_ENTRY = 4
PAD_STEPS = {0x10: (1, 0), 0x20: (-1, 0), 0x40: (0, -1), 0x80: (0, 1)}  # PAD_RIGHT, LEFT, UP, DOWN
# Holes a map script drops the player through (a "dungeon warp"): the square stepped on, then where the fall
# lands (pret scripts/PokemonMansion3F.asm .holeCoords and its destination maps; data/maps/special_warps.asm
# DungeonWarpList and DungeonWarpData, by the hole's index in that list).
HOLES: dict[tuple[str, int, int], tuple[str, int, int]] = {
    ("POKEMON_MANSION_3F", 16, 14): ("POKEMON_MANSION_1F", 16, 14),
    ("POKEMON_MANSION_3F", 17, 14): ("POKEMON_MANSION_1F", 16, 14),
    ("POKEMON_MANSION_3F", 19, 14): ("POKEMON_MANSION_2F", 18, 14),
    ("VICTORY_ROAD_3F", 23, 15): ("VICTORY_ROAD_2F", 22, 16),
    # pret scripts/SeafoamIslands1F.asm Seafoam1HolesCoords to B3F's Seafoam4HolesCoords, in order.
    ("SEAFOAM_ISLANDS_1F", 17, 6): ("SEAFOAM_ISLANDS_B1F", 18, 7),
    ("SEAFOAM_ISLANDS_1F", 24, 6): ("SEAFOAM_ISLANDS_B1F", 23, 7),
    ("SEAFOAM_ISLANDS_B1F", 18, 6): ("SEAFOAM_ISLANDS_B2F", 19, 7),
    ("SEAFOAM_ISLANDS_B1F", 23, 6): ("SEAFOAM_ISLANDS_B2F", 22, 7),
    ("SEAFOAM_ISLANDS_B2F", 19, 6): ("SEAFOAM_ISLANDS_B3F", 18, 7),
    ("SEAFOAM_ISLANDS_B2F", 22, 6): ("SEAFOAM_ISLANDS_B3F", 19, 7),
    ("SEAFOAM_ISLANDS_B3F", 3, 16): ("SEAFOAM_ISLANDS_B4F", 4, 14),
    ("SEAFOAM_ISLANDS_B3F", 6, 16): ("SEAFOAM_ISLANDS_B4F", 5, 14),
}
# The Seafoam Islands' boulders, floor by floor from the top: the boulder (its object index on the floor)
# that goes down each hole, and the event the fall sets. A floor's script hides the object its hole names and
# shows one on the floor below (pret scripts/SeafoamIslands1F.asm to B3F.asm: hole 1 hides the floor's first
# toggleable boulder, hole 2 its second; data/maps/toggleable_objects.asm); any other boulder pushed in
# would stay in sight on the hole while the one named vanished. Two boulders down B2F's holes slow B3F's
# current, two down B3F's slow B4F's (scripts/SeafoamIslandsB3F.asm and B4F.asm). In the order a player
# follows each boulder down, jumping after it into the hole it took and landing beside the next: the floors
# above B3F are only joined through Route 20 otherwise, and leaving for Route 20 puts their boulders back.
SEAFOAM_DROPS: tuple[tuple[str, int, tuple[int, int], str], ...] = (
    ("SEAFOAM_ISLANDS_1F", 1, (17, 6), "EVENT_SEAFOAM1_BOULDER1_DOWN_HOLE"),
    ("SEAFOAM_ISLANDS_B1F", 1, (18, 6), "EVENT_SEAFOAM2_BOULDER1_DOWN_HOLE"),
    ("SEAFOAM_ISLANDS_B2F", 1, (19, 6), "EVENT_SEAFOAM3_BOULDER1_DOWN_HOLE"),
    ("SEAFOAM_ISLANDS_1F", 2, (24, 6), "EVENT_SEAFOAM1_BOULDER2_DOWN_HOLE"),
    ("SEAFOAM_ISLANDS_B1F", 2, (23, 6), "EVENT_SEAFOAM2_BOULDER2_DOWN_HOLE"),
    ("SEAFOAM_ISLANDS_B2F", 2, (22, 6), "EVENT_SEAFOAM3_BOULDER2_DOWN_HOLE"),
    ("SEAFOAM_ISLANDS_B3F", 2, (3, 16), "EVENT_SEAFOAM4_BOULDER1_DOWN_HOLE"),
    ("SEAFOAM_ISLANDS_B3F", 3, (6, 16), "EVENT_SEAFOAM4_BOULDER2_DOWN_HOLE"),
)
# Blocks a map script swaps in once a boulder is on a switch (pret scripts/VictoryRoad1F.asm, 2F and 3F:
# the ReplaceTileBlock calls of their ...CheckBoulderEventScript) or a trainer is beaten: (block x, block y,
# the new block). The world is drawn with them in, and story gates (world/gates.py) keep shut what they
# open until the event is set.
OPENED_BLOCKS: dict[str, tuple[tuple[int, int, int], ...]] = {
    "VICTORY_ROAD_1F": ((4, 6, 0x1D),),
    "VICTORY_ROAD_2F": ((3, 4, 0x15), (11, 7, 0x1D)),
    "VICTORY_ROAD_3F": ((3, 5, 0x1D),),
    # The Elite Four's exits, drawn open once each room's trainer is beaten (pret scripts/LoreleisRoom.asm,
    # BrunosRoom.asm, AgathasRoom.asm ...ShowOrHideExitBlock); gates keep them shut until then.
    "LORELEIS_ROOM": ((2, 0, 0x05),),
    "BRUNOS_ROOM": ((2, 0, 0x05),),
    "AGATHAS_ROOM": ((2, 0, 0x0E),),
    # Lance's hall, open until the player has walked down it (LancesRoom.asm LanceShowOrHideEntranceBlocks).
    "LANCES_ROOM": ((2, 6, 0x31), (3, 6, 0x32)),
}
# Where FLY lands in each town (pret data/maps/special_warps.asm FlyWarpDataPtr), and the tilesets FLY is
# allowed on (home/overworld.asm CheckIfInOutsideMap: OVERWORLD and PLATEAU).
FLY_SPOTS: dict[str, tuple[int, int]] = {
    "PALLET_TOWN": (5, 6), "VIRIDIAN_CITY": (23, 26), "PEWTER_CITY": (13, 26), "CERULEAN_CITY": (19, 18),
    "LAVENDER_TOWN": (3, 6), "VERMILION_CITY": (11, 4), "CELADON_CITY": (41, 10), "FUCHSIA_CITY": (19, 28),
    "CINNABAR_ISLAND": (11, 12), "INDIGO_PLATEAU": (9, 6), "SAFFRON_CITY": (9, 30),
}  # fmt: skip
FLY_TILESETS = frozenset({0, 23})
# Where the BICYCLE may be ridden (pret home/overworld.asm IsBikeRidingAllowed, data/tilesets/
# bike_riding_tilesets.asm): OVERWORLD, FOREST, UNDERGROUND, SHIP_PORT and CAVERN tilesets, and two maps.
BIKE_TILESETS, BIKE_MAPS = frozenset({0, 3, 11, 14, 17}), frozenset({"ROUTE_23", "INDIGO_PLATEAU"})
# Bill's PC in a Pokémon Center, faced from below (pret data/events/hidden_events.asm OpenPokemonCenterPC):
# (13, 3) in every one but the Indigo Plateau's lobby.
PC_SQUARE, PC_SQUARES = (13, 3), {"INDIGO_PLATEAU_LOBBY": (15, 7)}
# Elevators (pret scripts/RocketHideoutElevator.asm, CeladonMartElevator.asm, SilphCoElevator.asm: their
# ...Floors and ...WarpMaps): the
# panel's square (a sign, faced from below), then for each entry of its floor menu, in order, the map and
# the warp index (0-based) its exits lead to once that floor is chosen (engine/events/elevator.asm).
LIFTS: dict[str, tuple[tuple[int, int], tuple[tuple[str, int], ...]]] = {
    "ROCKET_HIDEOUT_ELEVATOR": ((1, 1), (("ROCKET_HIDEOUT_B1F", 4), ("ROCKET_HIDEOUT_B2F", 4),
                                         ("ROCKET_HIDEOUT_B4F", 2))),
    "CELADON_MART_ELEVATOR": ((3, 0), (("CELADON_MART_1F", 5), ("CELADON_MART_2F", 2), ("CELADON_MART_3F", 2),
                                       ("CELADON_MART_4F", 2), ("CELADON_MART_5F", 2))),
    "SILPH_CO_ELEVATOR": ((3, 0), (("SILPH_CO_1F", 3), ("SILPH_CO_2F", 2), ("SILPH_CO_3F", 2),
                                   ("SILPH_CO_4F", 2), ("SILPH_CO_5F", 2), ("SILPH_CO_6F", 2),
                                   ("SILPH_CO_7F", 2), ("SILPH_CO_8F", 2), ("SILPH_CO_9F", 2),
                                   ("SILPH_CO_10F", 2), ("SILPH_CO_11F", 1))),
}  # fmt: skip

# Maps whose wild battles are Safari battles (balls and bait, no moves: pret scripts/SafariZone*.asm set
# wBattleType to BATTLE_TYPE_SAFARI): no experience is to be had there.
SAFARI_MAPS = frozenset({"SAFARI_ZONE_EAST", "SAFARI_ZONE_NORTH", "SAFARI_ZONE_WEST", "SAFARI_ZONE_CENTER"})
# pret engine/battle/wild_encounters.asm TryDoWildEncounter: outside grass and water, a wild Pokémon can
# appear anywhere on an indoor map (map id FIRST_INDOOR_MAP and on, constants/map_constants.asm) that has
# wild data, unless its tileset is FOREST (Viridian Forest, the Safari Zone: grass only).
FIRST_INDOOR_MAP = 0x25
FOREST_TILESET = 3
# pret engine/battle/core.asm IsGhostBattle: a wild battle on the Pokémon Tower's floors without the
# SILPH_SCOPE in the bag is against an unknown ghost that no move touches; running always works.
GHOST_MAPS = frozenset(f"POKEMON_TOWER_{floor}F" for floor in range(1, 8))
GHOST_SEER = "SILPH_SCOPE"


def no_ordinary_battle(bag: Iterable[str | None]) -> frozenset[str]:
    """The maps where no move is used and no ordinary ball thrown, for a bag holding the items named: the
    Safari Zone's, and the Pokémon Tower's floors unless the SILPH_SCOPE is in the bag."""
    return SAFARI_MAPS if GHOST_SEER in bag else SAFARI_MAPS | GHOST_MAPS


# Cycling Road's slope (pret home/overworld.asm JoypadOverworld and DoBikeSpeedup, on ROUTE_17): with no
# button held the game rides the player downhill, and any way but down goes at walking speed. Training
# in its grass measured 0.12 experience a frame against 0.3 on Route 23: no training spot.
SLOPE_MAPS = frozenset({"ROUTE_17"})
# pret constants/trainer_constants.asm: an object's trainer byte is its class's id plus OPP_ID_OFFSET.
OPP_ID_OFFSET = 200
