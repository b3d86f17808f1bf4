"""Save-state files that name their cartridge.

PyBoy's state format carries no cartridge identity, and much of a Red state reads exactly like a Blue one.
State files the engine writes for people (a battle's start, where `engine goto` ended) therefore end with a
short footer: a marker, the cartridge's title and its sha256. PyBoy reads a state from the front and stops
where the machine ends, so such a file still loads in plain PyBoy; the engine reads the footer and refuses
the file on any other cartridge, however alike the two games' RAM looks.
"""

from __future__ import annotations

from dataclasses import dataclass

MARKER = b"ENGINE-STATE"
VERSION = 1
TITLE_BYTES = 16
SHA_BYTES = 32
FOOTER_BYTES = len(MARKER) + 1 + TITLE_BYTES + SHA_BYTES


@dataclass(frozen=True)
class Cartridge:
    title: str
    sha256: str  # hex


@dataclass(frozen=True)
class StateFile:
    machine: bytes  # what PyBoy loads
    made_with: Cartridge | None  # None: a plain PyBoy state, no footer


def seal(machine: bytes, cartridge: Cartridge) -> bytes:
    title = cartridge.title.encode("ascii", errors="replace")[:TITLE_BYTES].ljust(TITLE_BYTES, b"\0")
    return machine + MARKER + bytes([VERSION]) + title + bytes.fromhex(cartridge.sha256)


def unseal(data: bytes) -> StateFile:
    footer = data[-FOOTER_BYTES:]
    if len(data) <= FOOTER_BYTES or not footer.startswith(MARKER) or footer[len(MARKER)] != VERSION:
        return StateFile(machine=data, made_with=None)
    title_at = len(MARKER) + 1
    title = footer[title_at : title_at + TITLE_BYTES].rstrip(b"\0").decode("ascii", errors="replace")
    sha = footer[title_at + TITLE_BYTES :].hex()
    return StateFile(machine=data[:-FOOTER_BYTES], made_with=Cartridge(title=title, sha256=sha))
