"""The screen reader on synthetic screens (tests/support/synthetic_screens.py: random glyphs on a generated
cartridge, no game's graphics): text, menus, the battle HUD, transitions, a shaken window, the Vision
role's gate, and the same fields derived from a memory image."""

from __future__ import annotations

import numpy as np
import pytest

from engine.emulator.png import encode_png
from engine.game.cartridge import Game
from engine.game.memory import LCDC, WX, WY, MemoryImage
from engine.game.models import ScreenKind
from engine.game.ram import RED_BLUE
from engine.game.screen import BG_MAP_0, text_lines
from engine.vision.errors import VisionError
from engine.vision.perceiver import Vision
from engine.vision.screen import hud
from engine.vision.screen.font import tile_book
from engine.vision.screen.reader import ScreenReader
from engine.vision.screen.truth import BGP, truth_from_ram
from tests.support.synthetic_screens import CURSOR, LEVEL_TILE, Screen, draw, patterns, png_of, synthetic_rom

ROM = synthetic_rom()
SHAPES = patterns(ROM)


@pytest.fixture(scope="module")
def reader() -> ScreenReader:
    return ScreenReader.from_rom(ROM)


def dialog() -> Screen:
    screen = Screen().scenery(np.random.default_rng(1), range(12))
    return screen.box(12, 0, 17, 19).text(14, 1, "Wild PIDGEY").text(16, 1, "appeared!")


def battle(enemy_pixels: int = 30, hp: str = "13/ 20") -> Screen:
    screen = Screen().text(0, 1, "PIDGEY").tile(1, 4, LEVEL_TILE).text(1, 5, "5").bar(2, 2, enemy_pixels)
    screen.text(7, 10, "SQUIRTLE").tile(8, 14, LEVEL_TILE).text(8, 15, "7").bar(9, 10, 48).text(10, 11, hp)
    return screen.box(12, 0, 17, 19).text(14, 1, "What will").text(16, 1, "SQUIRTLE do?")


def start_menu(cursor: int) -> Screen:
    screen = Screen().scenery(np.random.default_rng(2), range(18)).box(0, 10, 15, 19)
    for number, item in enumerate(("POKéDEX", "POKéMON", "ITEM", "RED", "SAVE", "OPTION", "EXIT")):
        screen.text(2 + 2 * number, 12, item).tile(2 + 2 * number, 11, 0x7F)
    return screen.tile(2 + 2 * cursor, 11, CURSOR)


def test_the_tile_book_holds_the_cartridges_blocks_at_their_tile_indices() -> None:
    book = tile_book(ROM)
    for tile in (0x80, 0xA0, 0xFF, LEVEL_TILE, 0x71, 0x62, 0x79, 0x7C):
        assert book.tiles[SHAPES[tile].tobytes()] == tile
    assert {int(v) for v in np.unique(SHAPES[0x80])} <= {0, 3}  # a 1bpp letter: colours 0 and 3 only


def test_a_cartridge_without_the_font_is_refused() -> None:
    rom = bytearray(ROM)
    start = 4 * 0x4000 + 0x5A80 - 0x4000
    rom[start : start + 0x400] = bytes(0x400)
    with pytest.raises(VisionError, match="no font"):
        tile_book(bytes(rom))


def test_a_dialog_is_read_line_by_line(reader: ScreenReader) -> None:
    grid = dialog().grid()
    reading = reader.read(png_of(grid, SHAPES))
    assert reading.screen is ScreenKind.DIALOG
    assert reading.text == ("Wild PIDGEY", "appeared!") == tuple(text_lines(grid))
    assert not reading.can_move and reading.menu == () and reading.cursor is None


def test_the_battle_hud_gives_names_levels_and_hp(reader: ScreenReader) -> None:
    reading = reader.read(png_of(battle(enemy_pixels=30).grid(), SHAPES))
    assert reading.screen is ScreenKind.BATTLE
    assert (reading.enemy_name, reading.enemy_level) == ("PIDGEY", 5)
    assert reading.enemy_hp_pct is not None and abs(reading.enemy_hp_pct - 100 * 30 / 48) <= 2
    assert reading.player_hp_pct == pytest.approx(65.0)  # from the numbers, not the full bar
    assert "What will" in reading.text


@pytest.mark.parametrize("pixels", [0, 1, 7, 24, 47, 48])
def test_an_hp_bar_reads_within_two_points_of_every_share_that_draws_it(
    reader: ScreenReader, pixels: int
) -> None:
    reading = reader.read(png_of(battle(enemy_pixels=pixels).grid(), SHAPES))
    shares = [100 * hp / 96 for hp in range(97) if hud.bar_length(hp, 96) == pixels]
    assert shares and reading.enemy_hp_pct is not None
    assert all(abs(reading.enemy_hp_pct - share) <= 2.1 for share in shares)


def test_bar_length_follows_get_hp_bar_length() -> None:
    assert [hud.bar_length(hp, 20) for hp in (0, 1, 10, 19, 20)] == [0, 2, 24, 45, 48]
    assert hud.bar_length(1, 999) == 1  # at least a sliver while alive
    assert hud.bar_length(300, 600) == 24  # both divided by four past 255


@pytest.mark.parametrize("cursor", [0, 3, 6])
def test_a_menu_gives_its_items_and_the_cursors_item(reader: ScreenReader, cursor: int) -> None:
    reading = reader.read(png_of(start_menu(cursor).grid(), SHAPES))
    assert reading.screen is ScreenKind.MENU
    assert reading.menu == ("POKéDEX", "POKéMON", "ITEM", "RED", "SAVE", "OPTION", "EXIT")
    assert reading.cursor == cursor


def test_a_blank_or_faded_screen_is_a_transition(reader: ScreenReader) -> None:
    white = np.full((144, 160, 3), 0xFF, dtype=np.uint8)
    assert reader.read(encode_png(white)).screen is ScreenKind.TRANSITION
    faded = draw(dialog().grid(), SHAPES)
    faded[faded == 0] = 0x55  # the darkest shade gone, as FadePal5-8 leave it
    assert reader.read(encode_png(faded)).screen is ScreenKind.TRANSITION


def test_a_dark_room_is_no_fade_but_a_fade_to_black_is_though_the_player_is_not_faded_yet(
    reader: ScreenReader,
) -> None:
    rng = np.random.default_rng(4)
    picture = np.repeat(
        np.array([0x99, 0x55, 0x00], dtype=np.uint8)[rng.integers(0, 3, (144, 160))][:, :, None], 3, 2
    )
    picture[60:76, 64:80] = rng.choice([0xFF, 0x00], (16, 16, 1))  # the player, white and black
    assert reader.read(encode_png(picture)).screen is ScreenKind.OVERWORLD  # a lift or gate drawn dark
    picture[picture == 0x99] = 0x55  # FadePal2: light grey gone too, the player's sprite not yet faded
    assert reader.read(encode_png(picture)).screen is ScreenKind.TRANSITION


def test_scenery_alone_is_the_overworld(reader: ScreenReader) -> None:
    reading = reader.read(png_of(Screen().scenery(np.random.default_rng(3), range(18)).grid(), SHAPES))
    assert reading.screen is ScreenKind.OVERWORLD and reading.can_move and reading.text == ()


@pytest.mark.parametrize("shift", [(2, 0), (4, 0), (0, 3), (6, 1)])
def test_a_window_shaken_by_a_hit_is_read_where_it_moved(
    reader: ScreenReader, shift: tuple[int, int]
) -> None:
    picture = draw(battle().grid(), SHAPES)
    dx, dy = shift
    moved = np.full_like(picture, 0xFF)
    moved[dy:, dx:] = picture[: 144 - dy, : 160 - dx]
    still, shaken = reader.read(encode_png(picture)), reader.read(encode_png(moved))
    assert shaken.screen is ScreenKind.BATTLE
    assert (shaken.enemy_name, shaken.text, shaken.enemy_hp_pct) == (
        still.enemy_name,
        still.text,
        still.enemy_hp_pct,
    )


def test_a_hud_row_drawn_at_two_places_is_still_read(reader: ScreenReader) -> None:
    """A shake that begins within the level's row: its top scanline sits a pixel right of the rest."""
    picture = draw(battle().grid(), SHAPES)
    picture[8, 1:] = picture[8, :-1].copy()
    reading = reader.read(encode_png(picture))
    assert (reading.enemy_name, reading.enemy_level) == ("PIDGEY", 5)


def test_the_reading_in_words_names_what_matters(reader: ScreenReader) -> None:
    words = reader.read(png_of(battle().grid(), SHAPES)).as_text()
    assert "Screen: battle." in words and "PIDGEY, level 5, HP 64%" in words and "HP 65%" in words
    menu = reader.read(png_of(start_menu(1).grid(), SHAPES)).as_text()
    assert 'cursor on "POKéMON"' in menu and "You cannot walk now." in menu


def test_the_vision_role_reads_a_screen_once_and_reuses_it() -> None:
    vision = Vision(Game.RED, lambda: ROM)
    png = png_of(dialog().grid(), SHAPES)
    first, again = vision.read_screen(png), vision.read_screen(png)
    assert first == again and first.text == ("Wild PIDGEY", "appeared!")
    vision.read_screen(png_of(battle().grid(), SHAPES))
    counters = vision.report().counters
    assert (counters["screens_read"], counters["screens_reused"]) == (2.0, 1.0)


def test_the_vision_role_without_a_cartridge_says_so() -> None:
    with pytest.raises(VisionError, match="no cartridge"):
        Vision(Game.RED).read_screen(png_of(dialog().grid(), SHAPES))


def _image(grid: tuple[tuple[int, ...], ...], bgp: int = 0xE4, cursor_row: int = 0) -> MemoryImage:
    """A memory image showing `grid` on the background, the window hidden."""
    regions = {BG_MAP_0 + row * 32: bytes(tiles) for row, tiles in enumerate(grid)}
    regions[LCDC] = bytes([0x81])  # LCD and background on, window off, tile map 0
    regions[WY], regions[WX], regions[BGP] = bytes([0x90]), bytes([7]), bytes([bgp])
    regions[0xCC30] = (RED_BLUE.wTileMap + cursor_row * 20 + 11).to_bytes(2, "little")  # wMenuCursorLocation
    return MemoryImage.from_regions(regions)


def test_the_truth_from_ram_reads_the_same_fields_from_the_tile_map() -> None:
    grid = dialog().grid()
    truth = truth_from_ram(_image(grid), RED_BLUE)
    assert truth.screen is ScreenKind.DIALOG and truth.text == ("Wild PIDGEY", "appeared!")
    assert truth_from_ram(_image(grid, bgp=0x90), RED_BLUE).screen is ScreenKind.TRANSITION
    menu = truth_from_ram(_image(start_menu(2).grid(), cursor_row=6), RED_BLUE)
    assert (menu.screen, menu.cursor, menu.menu[2]) == (ScreenKind.MENU, 2, "ITEM")
