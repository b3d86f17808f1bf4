"""The closed loop the intro and the OPTION menu are driven by: one press, then a re-read of RAM.

A press the game dropped is simply made again and a press that landed twice is undone; every wait has a
frame budget, and running out raises `IntroError` with the decision point and the last inputs.

Facts from the pret/pokered disassembly: engine/movie/title.asm and home/overworld.asm (the title screen
waits in CheckForUserInterruption), and engine/menus/main_menu.asm with engine/menus/draw_start_menu.asm
(the main menu and the START menu both list their items two tile rows apart).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from engine.emulator.errors import FrameBudgetExceeded
from engine.emulator.session import EmulatorSession
from engine.game.buttons import Button
from engine.game.models import DecisionPoint
from engine.game.navigation import next_list_press
from engine.game.options import GameOptions, decode_options
from engine.game.screen import SCREEN_COLUMNS, SCREEN_ROWS, row_text
from engine.game.state import read_screen
from engine.mechanics.errors import IntroError

ProgressCallback = Callable[[str], None]

MENU_ITEM_SPACING = 2

# -- budgets ------------------------------------------------------------------------------------------
INPUT_POLL_FRAMES = 2  # "the game wants a button": its joypad routine ran this recently
OVERWORLD_POLL_FRAMES = 4
IDLE_CHUNK_FRAMES = 60  # look at the whole screen at least this often while nothing asks for input
REACT_FRAMES = 40  # a taken press shows in RAM within this many frames
LEAVE_FRAMES = 240  # a menu or screen that was closed is gone within this many frames
MAX_MENU_PRESSES = 12
MAX_RETRIES = 4


# -- menus read from the screen buffer ------------------------------------------------------------------
def tile_row_text(tilemap: bytes, row: int, first_column: int = 0) -> str:
    start = row * SCREEN_COLUMNS
    return row_text(tuple(tilemap[start + first_column : start + SCREEN_COLUMNS]))


def menu_item_index(tilemap: bytes, label: str, top_y: int, top_x: int) -> int | None:
    """The item whose text is `label`, from wTileMap and the menu's wTopMenuItemY/X (item k is drawn at
    row top_y + 2k, its text one column right of the cursor). The last match wins: in the START menu the
    player's own name comes before OPTION and could read the same."""
    found = None
    for item, row in enumerate(range(top_y, SCREEN_ROWS, MENU_ITEM_SPACING)):
        if tile_row_text(tilemap, row, top_x + 1) == label:
            found = item
    return found


# -- the loop -------------------------------------------------------------------------------------------
class ClosedLoop:
    """Presses buttons one at a time and re-reads RAM after each. Not thread-safe, like the session."""

    def __init__(
        self, session: EmulatorSession, *, on_step: ProgressCallback | None = None, max_frames: int
    ) -> None:
        self.session = session
        self.ram = session.ram_map
        self.on_step = on_step
        self.max_frames = max_frames
        self.start_frame = session.frame
        self.inputs: deque[str] = deque(maxlen=12)
        self._last_step: str | None = None
        self._menu_poll = (0, self.ram.JoypadLowSensitivity)
        self._overworld_poll = (0, self.ram.JoypadOverworld)
        self._title_poll = (0, self.ram.CheckForUserInterruption)
        for routine in (self._menu_poll, self._overworld_poll, self._title_poll):
            session.track_calls(*routine)

    # -- bookkeeping ------------------------------------------------------------------------------------
    @property
    def frames(self) -> int:
        return self.session.frame - self.start_frame

    def step(self, message: str) -> None:
        if message != self._last_step and self.on_step is not None:
            self.on_step(message)
        self._last_step = message

    def point(self) -> DecisionPoint:
        return read_screen(self.session.memory_image(), self.ram)[0]

    def fail(self, message: str) -> IntroError:
        return IntroError(message, self.point(), list(self.inputs), self.session.frame_hash())

    def press(self, button: Button) -> None:
        if self.frames > self.max_frames:
            raise self.fail(f"frame budget of {self.max_frames} spent")
        self.inputs.append(button.value)
        self.session.press(button)

    # -- reading ----------------------------------------------------------------------------------------
    def u8(self, address: int) -> int:
        return self.session.read_u8(address)

    def options(self) -> GameOptions:
        return decode_options(self.u8(self.ram.wOptions))

    def tilemap(self) -> bytes:
        return self.session.read(self.ram.wTileMap, SCREEN_COLUMNS * SCREEN_ROWS)

    def visible_text(self) -> tuple[str, ...]:
        """The text the player sees (VRAM), which is what decision points are read from."""
        return read_screen(self.session.memory_image(), self.ram)[1].text

    def text_at(self, row: int) -> str:
        return tile_row_text(self.tilemap(), row)

    def input_wanted(self) -> bool:
        """A menu, text box, naming screen or the title screen polled the joypad just now."""
        since = self.session.frames_since_call(*self._menu_poll)
        return since is not None and since <= INPUT_POLL_FRAMES

    def title_waiting(self) -> bool:
        """The intro film or the title screen waits for A or START (nothing else calls this routine)."""
        since = self.session.frames_since_call(*self._title_poll)
        return since is not None and since <= INPUT_POLL_FRAMES

    def map_loaded(self) -> bool:
        return any(self.session.read(self.ram.wCurMapHeader, 3))

    def overworld_ready(self) -> bool:
        """Free to walk: no text or menu, the map loaded and the overworld loop reading the joypad."""
        since = self.session.frames_since_call(*self._overworld_poll)
        polled = since is not None and since <= OVERWORLD_POLL_FRAMES
        return polled and self.map_loaded() and self.point() is DecisionPoint.OVERWORLD_FREE

    # -- waiting ----------------------------------------------------------------------------------------
    def wait(self, done: Callable[[], bool], frames: int) -> bool:
        """Step until `done()` holds (looked at every few frames); False when `frames` ran out."""
        if self.frames > self.max_frames:
            raise self.fail(f"frame budget of {self.max_frames} spent")
        try:
            self.session.run_until(lambda _memory: done(), frames)
        except FrameBudgetExceeded:
            return False
        return True

    def settle(self, frames: int = IDLE_CHUNK_FRAMES) -> None:
        """Let the game run until it asks for a button (at most `frames`); always steps a little, so a
        caller's loop makes progress even while a stale poll is still recent."""
        self.session.tick(self.session.check_every)
        self.wait(self.input_wanted, frames)

    def wait_change(self, read: Callable[[], object], before: object, frames: int) -> bool:
        return self.wait(lambda: read() != before, frames)

    def expect(self, done: Callable[[], bool], frames: int, what: str) -> None:
        if not self.wait(done, frames):
            raise self.fail(f"never reached {what}")

    def press_until(self, button: Button, done: Callable[[], bool], what: str) -> None:
        """Press and re-check, a few times: presses made while the game is busy are dropped."""
        for _ in range(MAX_RETRIES):
            self.press(button)
            if self.wait(done, LEAVE_FRAMES):
                return
        raise self.fail(f"pressing {button.value} never reached {what}")

    # -- menus ------------------------------------------------------------------------------------------
    def choose_menu_item(self, label: str) -> None:
        """Move the cursor of the open list menu to `label` and press A. A waiting menu polls the joypad
        every frame, so the press counts once the polling stops or the screen changes; while the menu
        still polls with an unchanged screen, the press was dropped and is made again."""
        for _ in range(MAX_MENU_PRESSES):
            self.expect(self.input_wanted, LEAVE_FRAMES, f"a menu with {label}")
            tilemap, shown = self.tilemap(), self.visible_text()
            target = menu_item_index(
                tilemap, label, self.u8(self.ram.wTopMenuItemY), self.u8(self.ram.wTopMenuItemX)
            )
            if target is None:
                raise self.fail(f"no {label} in the menu")
            move = next_list_press(self.u8(self.ram.wCurrentMenuItem), target)
            if move is not None:
                self.press(move)
                self.settle(REACT_FRAMES)
                continue
            if self.confirm_choice(tilemap, shown, label):
                return
        raise self.fail(f"the menu cursor never reached {label}")

    def confirm_choice(self, tilemap: bytes, shown: tuple[str, ...], label: str) -> bool:
        self.press(Button.A)
        if not self.wait(lambda: not self.input_wanted() or self.tilemap() != tilemap, REACT_FRAMES):
            return False
        # The menu stays visible for a while (the main menu waits 20 frames, and VRAM follows wTileMap a
        # few frames late): move on only once it is gone from the screen, so the next look does not choose
        # from it again.
        if not self.wait_change(self.visible_text, shown, LEAVE_FRAMES):
            raise self.fail(f"the screen never changed after choosing {label}")
        return True
