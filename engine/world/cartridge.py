"""Reading every map of the user's cartridge: headers, blocks, tilesets, warps, connections, signs,
objects, ledges, tile pairs and toggleable objects, in the formats pret/pokered documents
(macros/scripts/maps.asm, data/tilesets/*.asm, data/maps/toggleable_objects.asm)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from engine.game.tables import NamedId, game_data
from engine.world.errors import CartridgeDataError
from engine.world.models import (
    Connection,
    Ledge,
    MapData,
    MapObject,
    Side,
    Sign,
    Spin,
    TilePair,
    Tileset,
    Warp,
    WildTable,
)
from engine.world.tables import (
    BLOCK_TILES,
    CARPET_FACINGS,
    CONNECTION_ENTRY,
    CONNECTION_ORDER,
    DOOR_TILE_BANK,
    END,
    MAP_HEADER_FIXED,
    MOVEMENT_STAY,
    NUM_MAPS,
    NUM_TILESETS,
    OBJECT_COORD_BIAS,
    OBJECT_ENTRY,
    OBJECT_ITEM,
    OBJECT_TRAINER,
    PAD_STEPS,
    SIGN_ENTRY,
    SPINNER_ENTRY,
    TILESET_ENTRY,
    WARP_ENTRY,
    WARP_TILE_BANK,
    WILD_BANK,
    RomTables,
    rom_offset,
)

# pret constants/sprite_constants.asm facing values of a staying object (the byte after its movement).
FACINGS = {0xD0: "down", 0xD1: "up", 0xD2: "left", 0xD3: "right"}
TX_START_ASM = 0x08  # pret macros/scripts/text.asm: the text is assembly from here
LD_HL = 0x21  # the opcode of `ld hl, nnnn`
EVENT_FLAGS = 0xD747  # wEventFlags: trainer headers name their flag by its byte address
LEDGE_FACINGS = {0x00: "down", 0x04: "up", 0x08: "left", 0x0C: "right"}  # SPRITE_FACING_* values


class Rom:
    """Bounds-checked reads from the cartridge image."""

    def __init__(self, data: bytes) -> None:
        self.data = data

    def u8(self, offset: int) -> int:
        if not 0 <= offset < len(self.data):
            raise CartridgeDataError(f"map data points outside the cartridge (offset {offset:#x})")
        return self.data[offset]

    def u16(self, offset: int) -> int:
        return self.u8(offset) | (self.u8(offset + 1) << 8)

    def read(self, offset: int, length: int) -> bytes:
        if not 0 <= offset <= len(self.data) - length:
            raise CartridgeDataError(f"map data runs past the cartridge (offset {offset:#x})")
        return self.data[offset : offset + length]

    def list_until(self, offset: int, end: int, limit: int = 256) -> tuple[int, ...]:
        found: list[int] = []
        for index in range(limit):
            value = self.u8(offset + index)
            if value == end:
                return tuple(found)
            found.append(value)
        raise CartridgeDataError(f"a list at {offset:#x} has no end")


# -- tilesets ---------------------------------------------------------------------------------------
def read_tilesets(rom: Rom, tables: RomTables) -> dict[int, Tileset]:
    doors = _door_tiles(rom, tables)
    tilesets = {}
    for tileset in range(NUM_TILESETS):
        entry = tables.tilesets + tileset * TILESET_ENTRY
        collision = rom.u16(entry + 5)
        counters = tuple(tile for tile in rom.read(entry + 7, 3) if tile != END)
        grass = rom.u8(entry + 10)
        warp_list = rom_offset(WARP_TILE_BANK, rom.u16(tables.warp_tile_id_pointers + 2 * tileset))
        tilesets[tileset] = Tileset(
            id=tileset, bank=rom.u8(entry), blocks=rom.u16(entry + 1),
            walkable=frozenset(rom.list_until(rom_offset(0, collision), END)), counters=counters,
            grass=None if grass == END else grass, warp_tiles=frozenset(rom.list_until(warp_list, END)),
            door_tiles=doors.get(tileset, frozenset()),
        )  # fmt: skip
    return tilesets


def _door_tiles(rom: Rom, tables: RomTables) -> dict[int, frozenset[int]]:
    doors: dict[int, frozenset[int]] = {}
    at = tables.door_tile_id_pointers
    while (tileset := rom.u8(at)) != END:
        pointer = rom_offset(DOOR_TILE_BANK, rom.u16(at + 1))
        doors[tileset] = frozenset(rom.list_until(pointer, 0))
        at += 3
    return doors


def read_ledges(rom: Rom, tables: RomTables) -> tuple[Ledge, ...]:
    ledges = []
    at = tables.ledge_tiles
    while (facing := rom.u8(at)) != END:
        ledges.append(
            Ledge(facing=LEDGE_FACINGS.get(facing, "?"), standing=rom.u8(at + 1), ledge=rom.u8(at + 2))
        )
        at += 4
    return tuple(ledges)


def read_carpets(rom: Rom, tables: RomTables) -> dict[str, frozenset[int]]:
    """Per facing, the tiles that take the player through a warp square they face (warp carpets)."""
    carpets = {}
    for index, facing in enumerate(CARPET_FACINGS):
        pointer = rom_offset(WARP_TILE_BANK, rom.u16(tables.warp_tile_list_pointers + 2 * index))
        carpets[facing] = frozenset(rom.list_until(pointer, END))
    return carpets


def read_tile_pairs(rom: Rom, tables: RomTables, water: bool = False) -> tuple[TilePair, ...]:
    """The tile pairs not crossed between on foot (or, with `water`, while surfing)."""
    pairs = []
    at = tables.tile_pair_collisions_water if water else tables.tile_pair_collisions_land
    while (tileset := rom.u8(at)) != END:
        pairs.append(TilePair(tileset=tileset, first=rom.u8(at + 1), second=rom.u8(at + 2)))
        at += 3
    return tuple(pairs)


def read_blockset(rom: Rom, tileset: Tileset, blocks_used: int) -> bytes:
    """The tiles of the blocks 0..blocks_used-1 (the cartridge does not say how many a blockset has)."""
    return rom.read(rom_offset(tileset.bank, tileset.blocks), blocks_used * BLOCK_TILES * BLOCK_TILES)


# -- wild Pokémon -----------------------------------------------------------------------------------
WILD_SLOTS = 10  # pret data/wild/maps/*.asm: a rate byte, then (level, species) x10 when it is not 0


def read_wild_grass(rom: Rom, tables: RomTables, map_ids: Iterable[int]) -> dict[int, WildTable]:
    """Each map's grass (or cave floor) table: its encounter rate and ten (level, species) slots, species
    by their pret names; maps with none are left out (pret WildDataPointers, species by internal index)."""
    found: dict[int, WildTable] = {}
    for map_id in map_ids:
        at = rom_offset(WILD_BANK, rom.u16(tables.wild_data_pointers + 2 * map_id))
        rate = rom.u8(at)
        if not rate:
            continue
        raw = rom.read(at + 1, 2 * WILD_SLOTS)
        slots = [(raw[2 * k], game_data().species_name(raw[2 * k + 1])) for k in range(WILD_SLOTS)]
        found[map_id] = WildTable(rate=rate, slots=tuple((level, name) for level, name in slots if name))
    return found


# -- maps -------------------------------------------------------------------------------------------
def read_toggles(rom: Rom, tables: RomTables) -> dict[tuple[int, int], int]:
    """(map id, object index) -> global toggleable object index."""
    toggles: dict[tuple[int, int], int] = {}
    at, index = tables.toggleable_object_states, 0
    while (map_id := rom.u8(at)) != END:
        toggles[(map_id, rom.u8(at + 1))] = index
        at, index = at + 3, index + 1
    return toggles


def read_map(rom: Rom, tables: RomTables, map_id: int, toggles: dict[tuple[int, int], int]) -> MapData:
    bank = rom.u8(tables.map_header_banks + map_id)
    header = rom_offset(bank, rom.u16(tables.map_header_pointers + 2 * map_id))
    height, width = rom.u8(header + 1), rom.u8(header + 2)
    connections, objects_at = _connections(rom, header + MAP_HEADER_FIXED, rom.u8(header + 9))
    objects_at = rom_offset(bank, rom.u16(objects_at))
    name = game_data().maps.get(map_id)
    texts = rom_offset(bank, rom.u16(header + 5))
    if rom.u8(header) >= NUM_TILESETS or not width or not height:
        raise CartridgeDataError(
            f"map {map_id} has no usable header (tileset {rom.u8(header)}, {width}x{height})"
        )
    warps, signs, objects = _object_data(rom, objects_at + 1, map_id, toggles)
    objects = tuple(_with_sight(rom, bank, texts, found) for found in objects)
    return MapData(
        id=map_id, name=name.name if name else f"MAP_{map_id:02X}", tileset=rom.u8(header),
        width=width, height=height, blocks=rom.read(rom_offset(bank, rom.u16(header + 3)), width * height),
        border_block=rom.u8(objects_at), connections=connections, warps=warps, signs=signs, objects=objects,
    )  # fmt: skip


def _connections(rom: Rom, at: int, flags: int) -> tuple[tuple[Connection, ...], int]:
    """The header's connections (north, south, west, east, those its flags name) and where the object
    data pointer follows them."""
    found = []
    for side, flag in CONNECTION_ORDER:
        if flags & flag:
            found.append(_connection(rom, at, side))
            at += CONNECTION_ENTRY
    return tuple(found), at


def _connection(rom: Rom, at: int, side: Side) -> Connection:
    # Entry: map, blocks pointer, view pointer, length, width, y alignment, x alignment, window pointer.
    y, x = rom.u8(at + 7), rom.u8(at + 8)
    signed_y, signed_x = _signed(y), _signed(x)
    if side in ("north", "south"):
        return Connection(side=side, map_id=rom.u8(at), land=y, shift=signed_x)
    return Connection(side=side, map_id=rom.u8(at), land=x, shift=signed_y)


def _signed(byte: int) -> int:
    return byte - 0x100 if byte >= 0x80 else byte


def _object_data(
    rom: Rom, at: int, map_id: int, toggles: dict[tuple[int, int], int]
) -> tuple[tuple[Warp, ...], tuple[Sign, ...], tuple[MapObject, ...]]:
    warps = [Warp(index=i, y=rom.u8(p), x=rom.u8(p + 1), to_warp=rom.u8(p + 2), to_map=rom.u8(p + 3))
             for i, p in _entries(rom, at, WARP_ENTRY)]  # fmt: skip
    at += 1 + WARP_ENTRY * len(warps)
    signs = [
        Sign(y=rom.u8(p), x=rom.u8(p + 1), text_id=rom.u8(p + 2)) for _, p in _entries(rom, at, SIGN_ENTRY)
    ]
    at += 1 + SIGN_ENTRY * len(signs)
    objects = []
    at_object = at + 1
    for index in range(1, rom.u8(at) + 1):
        found, at_object = _object(rom, at_object, index, toggles.get((map_id, index)))
        objects.append(found)
    return tuple(warps), tuple(signs), tuple(objects)


def _entries(rom: Rom, at: int, size: int) -> Iterator[tuple[int, int]]:
    for index in range(rom.u8(at)):
        yield index, at + 1 + index * size


def _object(rom: Rom, at: int, index: int, toggle: int | None) -> tuple[MapObject, int]:
    movement, text = rom.u8(at + 3), rom.u8(at + 5)
    trainer, item = bool(text & OBJECT_TRAINER), bool(text & OBJECT_ITEM) and not text & OBJECT_TRAINER
    found = MapObject(
        index=index, sprite=rom.u8(at), y=rom.u8(at + 1) - OBJECT_COORD_BIAS,
        x=rom.u8(at + 2) - OBJECT_COORD_BIAS, moves=movement != MOVEMENT_STAY,
        facing=FACINGS.get(rom.u8(at + 4)) if movement == MOVEMENT_STAY else None,
        text_id=text & ~(OBJECT_TRAINER | OBJECT_ITEM), toggle=toggle,
        trainer_class=rom.u8(at + 6) if trainer else None, trainer_number=rom.u8(at + 7) if trainer else None,
        item=rom.u8(at + 6) if item else None,
    )  # fmt: skip
    return found, at + OBJECT_ENTRY + (2 if trainer else 1 if item else 0)


def _with_sight(rom: Rom, bank: int, texts: int, found: MapObject) -> MapObject:
    """A trainer's view range and beaten flag, from the trainer header its text script loads
    (`text_asm; ld hl, <header>; call TalkToTrainer`); gym leaders and scripted trainers, whose texts
    start otherwise, keep none."""
    if not found.is_trainer or found.text_id == 0:
        return found
    script = rom_offset(bank, rom.u16(texts + 2 * (found.text_id - 1)))
    if rom.u8(script) != TX_START_ASM or rom.u8(script + 1) != LD_HL:
        return found
    header = rom_offset(bank, rom.u16(script + 2))
    flag_address = rom.u16(header + 2)
    beaten = (flag_address - EVENT_FLAGS) * 8 + rom.u8(header)
    return found.model_copy(update={"sight": rom.u8(header + 1) >> 4, "beaten_event": beaten})


def map_ids() -> list[int]:
    """The maps the game uses: pret names the rest UNUSED_MAP_xx, and their headers hold no map."""
    names = game_data().maps
    return [map_id for map_id in range(NUM_MAPS) if not _unused(names.get(map_id))]


def _unused(name: NamedId | None) -> bool:
    return name is None or name.name.startswith("UNUSED_MAP")


# -- spinners ---------------------------------------------------------------------------------------
def read_spinners(rom: Rom, bank: int, address: int) -> dict[tuple[int, int], Spin]:
    """A spinner floor's arrows: from each arrow square, where the game's forced walk ends and how many
    squares it runs (SPINNER_TABLES)."""
    found: dict[tuple[int, int], Spin] = {}
    at = rom_offset(bank, address)
    while (y := rom.u8(at)) != END:
        x, pointer = rom.u8(at + 1), rom.u16(at + 2)
        dx = dy = moved = 0
        step = rom_offset(bank, pointer)
        while (pad := rom.u8(step)) != END:
            if pad not in PAD_STEPS:
                raise CartridgeDataError(f"spinner table at {bank:#x}:{address:#x}: {pad:#x} is no direction")
            count = rom.u8(step + 1)
            dx, dy, moved = dx + PAD_STEPS[pad][0] * count, dy + PAD_STEPS[pad][1] * count, moved + count
            step += 2
        found[(x, y)] = Spin(to=(x + dx, y + dy), squares=moved)
        at += SPINNER_ENTRY
    return found
