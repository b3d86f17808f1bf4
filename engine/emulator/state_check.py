"""Does a loaded save state belong to this cartridge?

PyBoy's state format carries no cartridge identity, so we check the game itself: Red/Blue keep a copy of
the current map's header (tileset, size, data/text/script pointers, connections) in WRAM, copied from
the cartridge's map header tables. A state made with another game or another language release
disagrees with this cartridge's tables, and so does a Red state on Blue on most maps.
"""

from __future__ import annotations

from engine.emulator.errors import SaveStateError
from engine.game.memory import MemoryImage
from engine.game.ram import RamMap

ROM_BANK_SIZE = 0x4000
NUM_MAPS = 248  # pret constants/map_constants.asm
HEADER_LENGTH = 10  # wCurMapHeader up to wCurMapConnections


def expected_map_header(rom: bytes, ram: RamMap, map_id: int) -> bytes:
    """The first bytes of a map header as stored in the cartridge."""
    pointer_at = ram.MapHeaderPointers + 2 * map_id
    if ram.MapHeaderBanks + map_id >= len(rom) or pointer_at + 1 >= len(rom):
        raise SaveStateError("the save state does not belong to this cartridge (no map header tables)")
    bank = rom[ram.MapHeaderBanks + map_id]
    pointer = rom[pointer_at] | (rom[pointer_at + 1] << 8)
    offset = bank * ROM_BANK_SIZE + (pointer - ROM_BANK_SIZE)
    if not 0 <= offset <= len(rom) - HEADER_LENGTH:
        raise SaveStateError("the save state does not belong to this cartridge (map header out of range)")
    return rom[offset : offset + HEADER_LENGTH]


def check_state_belongs(image: MemoryImage, rom: bytes, ram: RamMap) -> None:
    loaded = image.read(ram.wCurMapHeader, HEADER_LENGTH)
    if not any(loaded):
        return  # before the game has loaded any map (title screen, intro): nothing to compare
    map_id = image.u8(ram.wCurMap)
    if map_id >= NUM_MAPS:
        raise SaveStateError("the save state does not belong to this cartridge (no such map)")
    if loaded != expected_map_header(rom, ram, map_id):
        raise SaveStateError(
            "the save state does not belong to this cartridge (its map data disagrees with the ROM)"
        )
