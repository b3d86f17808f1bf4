"""Gen 1 text encoding (pret/pokered constants/charmap.asm, as package data charmap.json)."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources

TERMINATOR = 0x50
SPACE_TILE = 0x7F


@cache
def _decode_table() -> dict[int, str]:
    """Byte -> text for the English font.

    charmap.asm maps some bytes more than once: a few special glyphs (town-map arrows) come before the
    English font block ("A" at 0x80 up to "9" at 0xFF) and the kana aliases come after it. The English
    block wins, then the first remaining mapping of any other byte.
    """
    raw = resources.files("engine.game.data").joinpath("charmap.json").read_text(encoding="utf-8")
    entries = [(e["byte"], e["text"]) for e in json.loads(raw)["entries"]]
    start = entries.index((0x80, "A"))
    end = entries.index((0xFF, "9"), start)
    table: dict[int, str] = dict(entries[start : end + 1])
    for byte, text in entries:
        table.setdefault(byte, text)
    table[0xE1] = "PK"
    table[0xE2] = "MN"
    return table


def decode_string(data: bytes, *, stop_at_terminator: bool = True) -> str:
    """Decode a RAM string such as a nickname (terminated by '@', 0x50)."""
    table = _decode_table()
    out: list[str] = []
    for byte in data:
        if stop_at_terminator and byte == TERMINATOR:
            break
        text = table.get(byte, "")
        if text.startswith("<") and text.endswith(">"):
            continue
        out.append(text)
    return "".join(out)


@cache
def screen_glyphs() -> dict[int, str]:
    """Tile index -> glyph for tiles that carry text on screen while the English font is loaded.

    Tiles below 0x80 are pictures, HP bars and box borders except the few glyphs listed here; the
    two-tile "HP:" label is handled by the screen reader because tile 0x71 alone is not text.
    """
    table = _decode_table()
    glyphs = {
        byte: table[byte]
        for byte in range(0x80, 0x100)
        if byte in table and not (table[byte].startswith("<") and table[byte].endswith(">"))
    }
    glyphs[0xF2] = "."  # <DOT>, the decimal point glyph
    glyphs[SPACE_TILE] = " "
    glyphs[0x6E] = ":L"
    return glyphs
