"""Reading the user's cartridge image from disk (what it is, `engine.game.cartridge` decides)."""

from __future__ import annotations

from pathlib import Path

from engine.game.cartridge import RomIdentity, identify
from engine.game.errors import RomError


def read_rom_file(path: Path) -> bytes:
    """Read a cartridge image from disk with user-facing errors."""
    if not path.exists():
        raise RomError(f"ROM file not found: {path}")
    if not path.is_file():
        kind = "a directory" if path.is_dir() else "not a regular file"
        raise RomError(f"ROM path is {kind}, not a cartridge image: {path}")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise RomError(f"cannot read ROM file {path}: {exc.strerror}") from exc
    return data


def check_rom_file(path: Path) -> RomIdentity:
    """Read and identify a cartridge image: a missing, unreadable or unsupported one raises RomError."""
    return identify(read_rom_file(path))
