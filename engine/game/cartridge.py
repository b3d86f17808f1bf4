"""Cartridge identification from the Game Boy header (Pan Docs, "The Cartridge Header")."""

from __future__ import annotations

from enum import StrEnum

from engine.frozen import Frozen
from engine.game.errors import RomError

HEADER_END = 0x150
TITLE_SLICE = slice(0x134, 0x144)
CHECKSUM_RANGE = range(0x134, 0x14D)
HEADER_CHECKSUM_AT = 0x14D
DESTINATION_AT = 0x14A
CGB_FLAG_AT = 0x143
ROM_BANK_SIZE = 0x4000


class Game(StrEnum):
    RED = "red"
    BLUE = "blue"


SUPPORTED_TITLES: dict[str, Game] = {"POKEMON RED": Game.RED, "POKEMON BLUE": Game.BLUE}
KNOWN_UNSUPPORTED: dict[str, str] = {
    "POKEMON YELLOW": "Pokémon Yellow's RAM layout differs from Red/Blue and is not supported yet",
}
SUPPORTED_DESCRIPTION = "Pokémon Red and Pokémon Blue (English releases)"


class RomHeader(Frozen):
    title: str
    header_checksum: int
    destination: int
    size: int


class RomIdentity(Frozen):
    """What we know about a cartridge once it is accepted."""

    game: Game
    header: RomHeader


def header_checksum(data: bytes) -> int:
    value = 0
    for address in CHECKSUM_RANGE:
        value = (value - data[address] - 1) & 0xFF
    return value


def read_header(data: bytes) -> RomHeader:
    """Parse and validate a Game Boy cartridge header; raise RomError if this is not a Game Boy ROM."""
    if len(data) < HEADER_END or len(data) % ROM_BANK_SIZE:
        raise RomError(f"not a Game Boy ROM: {len(data)} bytes (a cartridge image is a multiple of 16 KiB)")
    expected = header_checksum(data)
    if data[HEADER_CHECKSUM_AT] != expected:
        raise RomError("not a Game Boy ROM: the cartridge header checksum does not match")
    # CGB-aware titles are 15 characters; byte 0x143 is then the CGB flag, not text.
    raw_title = data[TITLE_SLICE]
    if data[CGB_FLAG_AT] & 0x80:
        raw_title = raw_title[:15]
    title = raw_title.split(b"\x00", 1)[0].decode("ascii", errors="replace").strip()
    return RomHeader(
        title=title,
        header_checksum=data[HEADER_CHECKSUM_AT],
        destination=data[DESTINATION_AT],
        size=len(data),
    )


def identify(data: bytes) -> RomIdentity:
    """Accept a supported Pokémon cartridge or explain why not."""
    header = read_header(data)
    if header.title in KNOWN_UNSUPPORTED:
        raise RomError(f"{KNOWN_UNSUPPORTED[header.title]}; supported: {SUPPORTED_DESCRIPTION}")
    game = SUPPORTED_TITLES.get(header.title)
    if game is None:
        raise RomError(f"unsupported game {header.title!r}; supported: {SUPPORTED_DESCRIPTION}")
    if header.destination == 0:
        raise RomError(
            f"{header.title!r} is the Japanese release, whose RAM layout differs; "
            f"supported: {SUPPORTED_DESCRIPTION}"
        )
    return RomIdentity(game=game, header=header)
