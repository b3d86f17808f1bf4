"""A flat, immutable image of the Game Boy address space that decoders read from.

Decoders never talk to PyBoy directly: the emulator copies the regions they need (VRAM tile maps, WRAM,
I/O registers, HRAM) into a `MemoryImage` once per decision, and fixtures build the same image from their
captures. That keeps decoding pure, fast and testable without an emulator.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

ADDRESS_SPACE = 0x10000

# The regions an image needs for decoding: (start, end) half-open.
TILE_MAPS = (0x9800, 0xA000)
WRAM = (0xC000, 0xE000)
IO_AND_HRAM = (0xFF00, 0x10000)
# Only the parts of WRAM the decoders read are copied from the emulator at each look (copying costs
# ~20 ns a byte, and the engine looks often): the sprites' state, the game's screen buffer wTileMap, the
# menu, battle, party, progress and map variables, the toggleable objects, the event flags, the enemy
# party, the play clock, the PC's items and the current PC box (wBoxCount to wBoxDataEnd). A test checks
# that every symbol of the RAM map, with its struct or list, falls inside these.
WRAM_DECODED = ((0xC100, 0xC300), (0xC3A0, 0xC508), (0xCC00, 0xD400), (0xD53A, 0xD5F0), (0xD700, 0xDEE2))
DECODER_REGIONS: tuple[tuple[int, int], ...] = (TILE_MAPS, *WRAM_DECODED, IO_AND_HRAM)

# LCD registers (Pan Docs).
LCDC = 0xFF40
SCY = 0xFF42
SCX = 0xFF43
WY = 0xFF4A
WX = 0xFF4B


class MemoryImage:
    """Read-only 64 KiB view; regions that were not captured read as zero."""

    __slots__ = ("_data",)

    def __init__(self, data: bytes) -> None:
        if len(data) != ADDRESS_SPACE:
            raise ValueError(f"a memory image holds {ADDRESS_SPACE} bytes, got {len(data)}")
        self._data = bytes(data)

    @classmethod
    def from_regions(cls, regions: Mapping[int, bytes] | Iterable[tuple[int, bytes]]) -> MemoryImage:
        """Build an image from (start address, bytes) pairs."""
        buffer = bytearray(ADDRESS_SPACE)
        items = regions.items() if isinstance(regions, Mapping) else regions
        for start, chunk in items:
            buffer[start : start + len(chunk)] = chunk
        return cls(bytes(buffer))

    def u8(self, address: int) -> int:
        return self._data[address]

    def u16be(self, address: int) -> int:
        """Game Boy Pokémon stores HP and stats big-endian."""
        return (self._data[address] << 8) | self._data[address + 1]

    def u16le(self, address: int) -> int:
        return self._data[address] | (self._data[address + 1] << 8)

    def read(self, address: int, length: int) -> bytes:
        return self._data[address : address + length]

    def to_bytes(self) -> bytes:
        return self._data
