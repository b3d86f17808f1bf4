"""Save-state files that name their cartridge, and save states kept compressed.

PyBoy's state format carries no cartridge identity, and much of a Red state reads exactly like a Blue one.
State files the engine writes for people (a battle's start, where `engine goto` ended) therefore end with a
short footer: a marker, the cartridge's title and its sha256. The engine reads the footer and refuses the
file on any other cartridge, however alike the two games' RAM looks.

A PyBoy state is mostly zeros and repeated tiles: zlib makes 178 KB about 6 KB, and an hours-long run keeps
one per battle and per checkpoint. So the machine inside every state file the engine writes (and inside a
checkpoint's emulator.state) is packed: a marker, then the zlib stream. Reading takes both forms, so the
uncompressed files of earlier engines and the states a person saved with plain PyBoy still load. Plain
PyBoy cannot read a packed state: `engine plain-state` unpacks one (`plain`).
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from pathlib import Path

from engine.battles.files import dropped_start_state
from engine.emulator.errors import SaveStateError

MARKER = b"ENGINE-STATE"
VERSION = 1
TITLE_BYTES = 16
SHA_BYTES = 32
FOOTER_BYTES = len(MARKER) + 1 + TITLE_BYTES + SHA_BYTES
# A PyBoy state starts with its format's version byte, never with these letters.
PACKED = b"ENGINE-ZLIB\x01"
# zlib level 6 (zlib's own default), measured on 41 battle states of a run to Misty: 5.85 KB (30x) in
# 0.6 ms. Level 1 gives 6.7 KB (26x) in 0.3 ms; level 9 gives 5.8 KB in 2.6 ms. Either end changes little:
# the size is what an hours-long run piles up, and the packing runs off the conductor's clock or beside a
# 12 ms PyBoy save.
LEVEL = 6
# Far above any Game Boy state (PyBoy's are under 200 KB): a damaged or hostile file cannot make the engine
# inflate gigabytes.
MAX_MACHINE_BYTES = 16 * 1024 * 1024


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


def pack(machine: bytes) -> bytes:
    """PyBoy's state bytes, compressed behind the PACKED marker."""
    return PACKED + zlib.compress(machine, LEVEL)


def is_packed(data: bytes) -> bool:
    return data.startswith(PACKED)


def unpack(data: bytes) -> bytes:
    """The machine PyBoy loads, from a packed state or from one that never was (returned as it is).
    Raises SaveStateError for a packed state that does not inflate whole."""
    if not is_packed(data):
        return data
    inflater = zlib.decompressobj()
    try:
        machine = inflater.decompress(data[len(PACKED) :], MAX_MACHINE_BYTES)
    except zlib.error as exc:
        raise SaveStateError(f"the compressed save state is damaged ({exc})") from exc
    if inflater.unconsumed_tail:
        raise SaveStateError(f"the compressed save state inflates past {MAX_MACHINE_BYTES} bytes")
    if not inflater.eof:
        raise SaveStateError("the compressed save state is truncated")
    return machine


def read_state(data: bytes) -> StateFile:
    """A state file as the engine writes it (packed, with a footer), as earlier engines wrote it (plain,
    with a footer), or as plain PyBoy writes it (neither)."""
    sealed = unseal(data)
    return StateFile(machine=unpack(sealed.machine), made_with=sealed.made_with)


def export(machine: bytes, cartridge: Cartridge) -> bytes:
    """A state file for a person to keep: packed, and naming its cartridge."""
    return seal(pack(machine), cartridge)


def plain(data: bytes) -> bytes:
    """What plain PyBoy loads from any state file: the machine unpacked, the footer kept when there was
    one (PyBoy stops reading where the machine ends, and the engine still knows the cartridge)."""
    state = read_state(data)
    if state.made_with is None:
        return state.machine
    return seal(state.machine, state.made_with)


def missing_state(path: Path) -> str:
    """The message for a state file that is not there, saying so when it is a battle's start state that
    its run did not keep."""
    why = dropped_start_state(path)
    return f"save state not found: {path}" + (f" ({why})" if why is not None else "")
