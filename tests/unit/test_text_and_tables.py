"""Charmap decoding, the screen text reader's glyph rules, and the data tables' known facts."""

from __future__ import annotations

from engine.game.charmap import decode_string, screen_glyphs
from engine.game.screen import row_text, text_lines
from engine.game.tables import game_data


def _encode(text: str) -> bytes:
    letters = {chr(ord("A") + i): 0x80 + i for i in range(26)}
    return bytes(letters[c] for c in text) + b"\x50"


def test_ram_strings_stop_at_the_terminator() -> None:
    assert decode_string(_encode("SQUIRTLE") + b"\x81\x82") == "SQUIRTLE"


def test_gender_glyphs_and_pk_mn() -> None:
    assert decode_string(bytes([0x8D, 0x88, 0x83, 0x8E, 0x91, 0x80, 0x8D, 0xEF, 0x50])) == "NIDORAN♂"
    assert decode_string(bytes([0xE1, 0xE2, 0x50])) == "PKMN"


def test_screen_glyphs_prefer_the_english_font() -> None:
    glyphs = screen_glyphs()
    assert glyphs[0xED] == "▶"  # not the town-map arrow that charmap.asm lists first
    assert glyphs[0xEE] == "▼"
    assert glyphs[0xF2] == "."
    assert glyphs[0x6E] == ":L"
    assert 0x62 not in glyphs  # an HP-bar tile on its own is not text


def test_row_text_reads_the_hp_label_and_collapses_blanks() -> None:
    row = (0x7F, 0x71, 0x62, 0x6B, 0x6B, 0x7F, 0x7F, 0xF9, 0xFE, 0xF3, 0x7F, 0xF9, 0xFE)
    assert row_text(row) == "HP: 38/ 38"


def test_screens_without_any_box_have_no_text() -> None:
    letters = tuple([0x80] * 20)
    assert text_lines((letters,) * 18) == []
    boxed = ((0x79,) + (0x7A,) * 19, (0x7C, 0x80, 0x81) + (0x7F,) * 17)
    assert text_lines(boxed) == ["AB"]


def test_tables_hold_every_species_and_move() -> None:
    data = game_data()
    assert len(data.species_by_name) == 151
    assert sorted(s.dex for s in data.species_by_name.values()) == list(range(1, 152))
    assert len(data.moves_by_id) == 165


def test_known_facts() -> None:
    data = game_data()
    squirtle = data.species_by_name["SQUIRTLE"]
    assert (squirtle.index, squirtle.dex, squirtle.types) == (0xB1, 7, ("WATER", "WATER"))
    assert (squirtle.base.hp, squirtle.base.special) == (44, 50)
    bubble = data.moves_by_name["BUBBLE"]
    assert (bubble.id, bubble.type, bubble.power, bubble.pp) == (145, "WATER", 20, 30)
    assert data.trainer_classes[34].name == "BROCK"
    assert data.maps[38].name == "REDS_HOUSE_2F"


def test_type_chart_keeps_the_gen1_quirks() -> None:
    chart = {(m.attacker, m.defender): m.multiplier for m in game_data().type_chart}
    assert chart[("GHOST", "PSYCHIC_TYPE")] == 0.0  # the Gen 1 bug: Ghost does nothing to Psychic
    assert chart[("BUG", "POISON")] == 2.0  # Gen 1 only
    assert chart[("POISON", "BUG")] == 2.0
    assert ("ICE", "FIRE") not in chart  # neutral in Gen 1
