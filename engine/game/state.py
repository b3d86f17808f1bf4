"""One call from a memory image to the whole decoded `GameState`."""

from __future__ import annotations

from engine.game import decoders
from engine.game.decision import IN_BATTLE, MENU_POINTS, detect_decision_point, screen_kind
from engine.game.decoders import IN_BATTLE_KINDS
from engine.game.memory import MemoryImage
from engine.game.models import DecisionPoint, GameState, ScreenView
from engine.game.ram import RamMap
from engine.game.screen import CONTINUE_ARROW, text_lines, visible_tiles
from engine.game.tables import GameData, game_data


def read_screen(image: MemoryImage, ram: RamMap) -> tuple[DecisionPoint, ScreenView]:
    lines = text_lines(visible_tiles(image))
    point = detect_decision_point(image, ram, lines)
    in_battle = image.u8(ram.wIsInBattle) in IN_BATTLE
    view = ScreenView(
        kind=screen_kind(point, in_battle),
        text=tuple(lines),
        continue_arrow_visible=any(CONTINUE_ARROW in line for line in lines),
    )
    return point, view


def decode_state(
    image: MemoryImage,
    ram: RamMap,
    data: GameData | None = None,
    screen: tuple[DecisionPoint, ScreenView] | None = None,
) -> GameState:
    """`screen`: what `read_screen` already gave for this image, if the caller has it."""
    data = data or game_data()
    point, view = screen if screen is not None else read_screen(image, ram)
    menu_active = point in MENU_POINTS
    battle = decoders.decode_battle(
        image,
        ram,
        data,
        menu_active=menu_active,
        move_menu_active=point is DecisionPoint.BATTLE_MOVE_MENU,
        scrolling_list=point is DecisionPoint.BATTLE_BAG_MENU,
    )
    return GameState(
        decision_point=point,
        screen=view,
        player_name=decoders.decode_name(image, ram.wPlayerName),
        rival_name=decoders.decode_name(image, ram.wRivalName),
        party=decoders.decode_party(image, ram, data),
        box=decoders.decode_box(image, ram, data),
        battle=battle,
        menu=decoders.decode_menu(image, ram) if menu_active and battle is None else None,
        overworld=decoders.decode_overworld(image, ram, data),
        progress=decoders.decode_progress(image, ram),
        bag=decoders.decode_bag(image, ram, data),
        pc_items=decoders.decode_pc_items(image, ram, data),
        story=decoders.decode_story(image, ram, data),
        evolution=decoders.decode_evolution(image, ram, data) if point is DecisionPoint.EVOLUTION else None,
    )


class Look:
    """One look at the game: the memory image, the decision point and the screen at once, the whole
    `GameState` on first use (decoding everything costs several times the screen alone)."""

    __slots__ = ("_state", "image", "in_battle", "point", "ram", "screen")

    def __init__(self, image: MemoryImage, ram: RamMap) -> None:
        self.image, self.ram = image, ram
        self.point, self.screen = read_screen(image, ram)
        self.in_battle = image.u8(ram.wIsInBattle) in IN_BATTLE_KINDS
        self._state: GameState | None = None

    @property
    def state(self) -> GameState:
        if self._state is None:
            self._state = decode_state(self.image, self.ram, screen=(self.point, self.screen))
        return self._state
