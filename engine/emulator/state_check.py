"""Does a loaded save state belong to this cartridge?

A plain PyBoy state carries no cartridge identity (state files the engine writes do: see
`engine.emulator.state_file`), so we check the game itself. Red/Blue keep copies of cartridge data in
WRAM: the current map's header (tileset, size, data/text/script pointers, connections), copied from the
map header tables, and the current tileset's header (bank, block, graphics and collision pointers, counter
and grass tiles), copied from the Tilesets table. A state made with another game or another language
release disagrees with this cartridge's tables; a Red state on Blue disagrees inside buildings whose
tilesets the two games keep at other addresses (Pokémon Centers, Marts, gyms, gates, Viridian Forest).
"""

from __future__ import annotations

from collections.abc import Callable

from engine.emulator.errors import SaveStateError
from engine.game.ram import RamMap

ROM_BANK_SIZE = 0x4000
NUM_MAPS = 248  # pret constants/map_constants.asm
NUM_TILESETS = 24  # pret constants/tileset_constants.asm
HEADER_LENGTH = 10  # wCurMapHeader up to wCurMapConnections
# wCurMapTextPtr (bytes 5-6) is not compared: some map scripts point it at another text table as the
# story moves on (pret scripts/ViridianMart.asm ViridianMartCheckParcelDeliveredScript).
TEXT_POINTER = slice(5, 7)
# pret data/tilesets/tileset_headers.asm: bank, blocks, gfx, collision (3 pointers), 3 counter tiles, grass
# tile, animation: 12 bytes; WRAM keeps the first 11 from wTilesetBank on.
TILESET_ENTRY = 12
TILESET_COPIED = 11

Read = Callable[[int, int], bytes]


def _rom_slice(rom: bytes, offset: int, length: int, what: str) -> bytes:
    if not 0 <= offset <= len(rom) - length:
        raise SaveStateError(f"the save state does not belong to this cartridge ({what} out of range)")
    return rom[offset : offset + length]


def expected_map_header(rom: bytes, ram: RamMap, map_id: int) -> bytes:
    """The first bytes of a map header as stored in the cartridge."""
    bank = _rom_slice(rom, ram.MapHeaderBanks + map_id, 1, "map header bank")[0]
    pointer = int.from_bytes(_rom_slice(rom, ram.MapHeaderPointers + 2 * map_id, 2, "map pointer"), "little")
    return _rom_slice(rom, bank * ROM_BANK_SIZE + (pointer - ROM_BANK_SIZE), HEADER_LENGTH, "map header")


def expected_tileset_header(rom: bytes, ram: RamMap, tileset: int) -> bytes:
    return _rom_slice(rom, ram.Tilesets + tileset * TILESET_ENTRY, TILESET_COPIED, "tileset header")


def _without_text_pointer(header: bytes) -> bytes:
    return header[: TEXT_POINTER.start] + header[TEXT_POINTER.stop :]


def _known_header(rom: bytes, ram: RamMap, loaded: bytes, map_id: int) -> bool:
    """The loaded header is wCurMap's, or, in a state saved mid-warp (wCurMap already names the new map,
    the old one's header is still loaded), another map's of this cartridge."""
    header = _without_text_pointer(loaded)
    for other in (map_id, *range(NUM_MAPS)):
        try:
            if header == _without_text_pointer(expected_map_header(rom, ram, other)):
                return True
        except SaveStateError:  # an unused map id whose table entry points nowhere
            continue
    return False


def check_state_belongs(read: Read, rom: bytes, ram: RamMap) -> None:
    """`read(address, length)` reads the loaded state's memory."""
    loaded = read(ram.wCurMapHeader, HEADER_LENGTH)
    if not any(loaded):
        return  # before the game has loaded any map (title screen, intro): nothing to compare
    map_id = read(ram.wCurMap, 1)[0]
    if map_id >= NUM_MAPS:
        raise SaveStateError("the save state does not belong to this cartridge (no such map)")
    if not _known_header(rom, ram, loaded, map_id):
        raise SaveStateError(
            "the save state does not belong to this cartridge (its map data disagrees with the ROM)"
        )
    tileset = read(ram.wCurMapTileset, 1)[0]
    copied = read(ram.wTilesetBank, TILESET_COPIED)
    if tileset < NUM_TILESETS and any(copied) and copied != expected_tileset_header(rom, ram, tileset):
        raise SaveStateError(
            "the save state does not belong to this cartridge (its tileset data disagrees with the ROM)"
        )
