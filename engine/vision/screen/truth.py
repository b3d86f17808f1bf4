"""The reader's fields derived from RAM instead of pixels, to score it (benchmarks/vision_accuracy.py and
the ROM tests). Definitions, in order:

- transition: the LCD is off, or the background palette rBGP is not the game's normal one (FadePal4's
  %11100100: a fade or a flash is under way, pret home/fade.asm), or the visible tile map is one tile
  all over (a cleared or filled screen);
- battle: RAM says a battle is on (wIsInBattle) and a battle HUD is drawn (the "HP:" label at the enemy's
  or the player's place in the tile map);
- menu: a ▶ cursor in the tile map (its items read from the tile map; the cursor is the item on the row
  where home/window.asm PlaceMenuCursor last put it, wMenuCursorLocation, from wTopMenuItemY and
  wCurrentMenuItem: wCurrentMenuItem alone runs ahead of the screen for a frame or two after a press,
  and the move menu counts from the row above its first move);
- dialog: a text box in the tile map (`has_text_frame`);
- overworld otherwise; `can_move` there when a map is loaded, no battle is on and wJoyIgnore is clear.

Text is the tile map's `text_lines`; HP shares are hp / max hp x 100 of the sides whose HUD is drawn;
the enemy's name is wEnemyMonNick and its level is given where the HUD prints it (no status instead).
The tile map is read as the game composed it: a window shaken by up to a tile (an attack's hit
moves WX or WY) is read from its own top-left corner, as the reader reads the pixels it moved.
"""

from __future__ import annotations

from engine.game.decoders import IN_BATTLE_KINDS, decode_battle_mon
from engine.game.memory import LCDC, WX, WY, MemoryImage
from engine.game.models import BattleMon, ScreenKind
from engine.game.ram import RamMap
from engine.game.screen import (
    BG_MAP_0,
    BG_MAP_1,
    LCDC_WINDOW_MAP_HIGH,
    LCDC_WINDOW_ON,
    MAP_SIZE,
    SCREEN_COLUMNS,
    SCREEN_ROWS,
    TileGrid,
    text_lines,
    visible_tiles,
)
from engine.game.tables import GameData, game_data
from engine.vision.screen import hud
from engine.vision.screen.kinds import grid_kind
from engine.vision.screen.menus import MenuItems, find_cursor, menu_items
from engine.vision.screen.reading import ScreenReading

BGP = 0xFF47
NORMAL_PALETTE = 0xE4  # colour 0 white ... colour 3 black
LCD_ON = 0x80
W_MENU_CURSOR_LOCATION = 0xCC30  # wMenuCursorLocation: the wTileMap address of the last ▶ placed
WINDOW_X_OFFSET = 7  # WX 7 puts the window's left edge at the screen's
SHAKE = 8  # pixels: a hit moves the window by up to a tile


def truth_from_ram(image: MemoryImage, ram: RamMap, data: GameData | None = None) -> ScreenReading:
    grid = composed_tiles(image)
    if is_transition(image, grid):
        return ScreenReading(screen=ScreenKind.TRANSITION)
    in_battle = image.u8(ram.wIsInBattle) in IN_BATTLE_KINDS
    kind = grid_kind(grid, battle=in_battle)
    cursor = find_cursor(grid)
    items = menu_items(grid, cursor) if cursor is not None else None
    reading = ScreenReading(
        screen=kind,
        text=tuple(text_lines(grid)),
        menu=items.texts if items is not None else (),
        cursor=_ram_cursor(image, ram, items) if items is not None else None,
        can_move=kind is ScreenKind.OVERWORLD and _can_move(image, ram, in_battle),
    )
    if kind is not ScreenKind.BATTLE:
        return reading
    return reading.model_copy(update=_battle_fields(image, ram, data or game_data(), grid))


def composed_tiles(image: MemoryImage) -> TileGrid:
    """The visible tiles, but a window over the whole screen that a hit shook by up to a tile is read
    from its corner (visible_tiles would shift it by a column or a row)."""
    lcdc, left, top = image.u8(LCDC), image.u8(WX) - WINDOW_X_OFFSET, image.u8(WY)
    if not lcdc & LCDC_WINDOW_ON or not 0 <= left <= SHAKE or not 0 <= top <= SHAKE or left == top == 0:
        return visible_tiles(image)
    base = BG_MAP_1 if lcdc & LCDC_WINDOW_MAP_HIGH else BG_MAP_0
    rows = (image.read(base + row * MAP_SIZE, SCREEN_COLUMNS) for row in range(SCREEN_ROWS))
    return tuple(tuple(row) for row in rows)


def _ram_cursor(image: MemoryImage, ram: RamMap, items: MenuItems) -> int | None:
    row = (image.u16le(W_MENU_CURSOR_LOCATION) - ram.wTileMap) // SCREEN_COLUMNS
    return items.rows.index(row) if row in items.rows else None


def is_transition(image: MemoryImage, grid: TileGrid) -> bool:
    if not image.u8(LCDC) & LCD_ON or image.u8(BGP) != NORMAL_PALETTE:
        return True
    first = grid[0][0]
    return all(tile == first for row in grid for tile in row)


def _can_move(image: MemoryImage, ram: RamMap, in_battle: bool) -> bool:
    map_loaded = any(image.read(ram.wCurMapHeader, 3))
    return map_loaded and not in_battle and image.u8(ram.wJoyIgnore) == 0


def _battle_fields(image: MemoryImage, ram: RamMap, data: GameData, grid: TileGrid) -> dict[str, object]:
    enemy = decode_battle_mon(image, ram, data, ram.wEnemyMon, ram.wEnemyMonNick)
    player = decode_battle_mon(image, ram, data, ram.wBattleMon, ram.wBattleMonNick)
    fields: dict[str, object] = {}
    if enemy is not None and hud.hud_shown(grid, hud.ENEMY):
        fields["enemy_hp_pct"] = _percent(enemy)
        fields["enemy_name"] = enemy.nickname
        fields["enemy_level"] = enemy.level if enemy.status == "OK" else None
    if player is not None and hud.hud_shown(grid, hud.PLAYER):
        fields["player_hp_pct"] = _percent(player)
    return fields


def bars_settled(image: MemoryImage, ram: RamMap, data: GameData | None = None) -> bool:
    """The HP bars drawn show RAM's HP: false while a bar still slides after a hit (RAM changes first,
    UpdateHPBar2 then moves the bar a pixel at a time) or before the HUD is redrawn."""
    grid = composed_tiles(image)
    data = data or game_data()
    sides = ((hud.ENEMY, ram.wEnemyMon, ram.wEnemyMonNick), (hud.PLAYER, ram.wBattleMon, ram.wBattleMonNick))
    for side, base, nick in sides:
        mon = decode_battle_mon(image, ram, data, base, nick)
        shown = mon is not None and hud.hud_shown(grid, side)
        if shown and mon is not None and hud.bar_pixels(grid, side) != hud.bar_length(mon.hp, mon.max_hp):
            return False
    return True


def _percent(mon: BattleMon) -> float:
    return 100.0 * mon.hp / mon.max_hp if mon.max_hp else 0.0
