"""A new game from power-on to the bedroom, and the game's own OPTION menu, both closed-loop on RAM.

Every press is followed by a re-read of RAM, so a press the game dropped is simply made again and a press
that landed twice is undone; every loop has a step or frame budget, and running out raises `IntroError`
with the decision point and the last inputs.

Facts from the pret/pokered disassembly: engine/movie/title.asm and home/overworld.asm (the title screen
waits in CheckForUserInterruption), engine/menus/main_menu.asm (main menu, DisplayOptionMenu, the wOptions
bits in constants/ram_constants.asm), engine/movie/oak_speech/oak_speech2.asm (the name lists: item 0 is
NEW NAME), engine/menus/naming_screen.asm with data/text/alphabets.asm (the keyboard), and
engine/menus/draw_start_menu.asm (the START menu).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from enum import StrEnum
from functools import cache
from typing import Literal

from engine.config import PlayerConfig
from engine.emulator.buttons import Button
from engine.emulator.errors import FrameBudgetExceeded
from engine.emulator.session import EmulatorSession
from engine.errors import EngineError, UserInputError
from engine.game.charmap import decode_string
from engine.game.models import DecisionPoint, Frozen
from engine.game.navigation import next_list_press
from engine.game.screen import SCREEN_COLUMNS, SCREEN_ROWS, row_text
from engine.game.state import read_screen

ProgressCallback = Callable[[str], None]

# -- wOptions (constants/ram_constants.asm) -----------------------------------------------------------
TEXT_DELAY_MASK = 0b111
TEXT_DELAY_FAST, TEXT_DELAY_MEDIUM, TEXT_DELAY_SLOW = 1, 3, 5
BATTLE_SET_BIT = 1 << 6
ANIMATION_OFF_BIT = 1 << 7
TextSpeed = Literal["fast", "medium", "slow", "other"]
_TEXT_SPEEDS: dict[int, TextSpeed] = {
    TEXT_DELAY_FAST: "fast",
    TEXT_DELAY_MEDIUM: "medium",
    TEXT_DELAY_SLOW: "slow",
}

# -- OPTION menu (DisplayOptionMenu): wTopMenuItemY is the row of the section the cursor is in; each section
# keeps its own cursor column in wOptions*CursorX.
OPTION_ROW_TEXT_SPEED = 3
OPTION_ROW_ANIMATION = 8
TEXT_SPEED_FAST_X = 1
ANIMATION_OFF_X = 10

# -- naming keyboard (DisplayNamingScreen): the row is 1-5 for letters and symbols, 6 for the case switch
# (IntroDriver.key_cursor says where to read it), wTopMenuItemX the column (1, 3, ... 17). Rows 1-3 of the
# upper-case alphabet hold A-Z.
KEYBOARD_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
KEYBOARD_COLUMNS = 9
FIRST_ROW, CASE_ROW = 1, 6
FIRST_X, LAST_X = 1, 17
UPPER_CASE = 0  # wAlphabetCase
NAME_PLAYER, NAME_RIVAL = 0, 1  # wNamingScreenType
MAX_NAME_LENGTH = 7  # PLAYER_NAME_LENGTH - 1
NAME_BUFFER_BYTES = 11  # NAME_LENGTH

KeyPosition = tuple[int, int]  # (row, x) as the game keeps them
_DIRECTIONS = (Button.UP, Button.DOWN, Button.LEFT, Button.RIGHT)

# -- menus (main_menu.asm, draw_start_menu.asm): both list their items two tile rows apart.
MENU_ITEM_SPACING = 2
NEW_GAME, OPTION = "NEW GAME", "OPTION"
NAME_LIST_MARK = "NEW NAME"
OPTIONS_TITLE = "TEXT SPEED"

# -- budgets ------------------------------------------------------------------------------------------
INTRO_FRAME_BUDGET = 60_000  # power-on to the bedroom takes well under half of this
OPTIONS_FRAME_BUDGET = 6_000
INPUT_POLL_FRAMES = 2  # "the game wants a button": its joypad routine ran this recently
OVERWORLD_POLL_FRAMES = 4
OVERWORLD_SETTLE_FRAMES = 120
IDLE_CHUNK_FRAMES = 60  # look at the whole screen at least this often while nothing asks for input
REACT_FRAMES = 40  # a taken press shows in RAM within this many frames
LEAVE_FRAMES = 240  # a menu or screen that was closed is gone within this many frames
MAX_INTRO_STEPS = 1_500
MAX_MENU_PRESSES = 12
MAX_OPTION_PRESSES = 16
MAX_RETRIES = 4


class IntroError(EngineError):
    """The intro or the OPTION menu did not go as expected within its budget."""

    def __init__(
        self,
        message: str,
        point: DecisionPoint | None = None,
        last_inputs: list[str] | None = None,
        frame_hash: str | None = None,
    ) -> None:
        where = f" (at {point.value}, last inputs {last_inputs}, frame {frame_hash})" if point else ""
        super().__init__(message + where)
        self.point = point
        self.last_inputs = list(last_inputs or [])
        self.frame_hash = frame_hash


class InvalidNameError(IntroError, UserInputError):
    """A name the naming keyboard cannot type: 1 to 7 letters A-Z only."""


# -- options ------------------------------------------------------------------------------------------
class GameOptions(Frozen):
    raw: int
    text_speed: TextSpeed
    battle_animation: bool
    battle_style: Literal["shift", "set"]

    @property
    def fast(self) -> bool:
        return self.text_speed == "fast" and not self.battle_animation


def decode_options(raw: int) -> GameOptions:
    return GameOptions(
        raw=raw,
        text_speed=_TEXT_SPEEDS.get(raw & TEXT_DELAY_MASK, "other"),
        battle_animation=not raw & ANIMATION_OFF_BIT,
        battle_style="set" if raw & BATTLE_SET_BIT else "shift",
    )


def next_option_press(cursor_y: int, text_speed_x: int, animation_x: int) -> Button | None:
    """The one press that brings the OPTION menu closer to FAST text and no animations; None when set.

    LEFT in the text-speed row steps SLOW → MEDIUM → FAST and stops there; LEFT or RIGHT in the animation
    row toggles ON/OFF, so those are pressed only while the value is wrong. The sections lie in row order
    (3, 8, 13, 16), so UP/DOWN by comparison reaches a section without wrapping. BATTLE STYLE is never
    visited."""
    if text_speed_x != TEXT_SPEED_FAST_X:
        return Button.LEFT if cursor_y == OPTION_ROW_TEXT_SPEED else Button.UP
    if animation_x != ANIMATION_OFF_X:
        if cursor_y == OPTION_ROW_ANIMATION:
            return Button.RIGHT
        return Button.DOWN if cursor_y < OPTION_ROW_ANIMATION else Button.UP
    return None


class OptionsChange(Frozen):
    before: GameOptions
    after: GameOptions
    frames: int

    @property
    def changed(self) -> bool:
        return self.before != self.after


# -- names and the keyboard ---------------------------------------------------------------------------
def validate_name(name: str) -> str:
    """Names the intro types: what PlayerConfig allows, checked again for callers that build names."""
    if not 1 <= len(name) <= MAX_NAME_LENGTH or any(letter not in KEYBOARD_LETTERS for letter in name):
        raise InvalidNameError(f"cannot type the name {name!r}: use 1 to {MAX_NAME_LENGTH} letters A-Z")
    return name


def key_position(letter: str) -> KeyPosition:
    index = KEYBOARD_LETTERS.find(letter) if len(letter) == 1 else -1
    if index < 0:
        raise InvalidNameError(f"{letter!r} is not a letter on the naming keyboard")
    row, column = divmod(index, KEYBOARD_COLUMNS)
    return FIRST_ROW + row, FIRST_X + 2 * column


def keyboard_move(position: KeyPosition, button: Button) -> KeyPosition:
    """Where one d-pad press takes the cursor, as naming_screen.asm's .pressedUp/Down/Left/Right do:
    columns wrap, UP from the top row and DOWN into or out of the case row land in the first column,
    and LEFT/RIGHT do nothing in the case row."""
    row, x = position
    if button in (Button.LEFT, Button.RIGHT):
        if row == CASE_ROW:
            return position
        if button is Button.RIGHT:
            return row, FIRST_X if x == LAST_X else x + 2
        return row, LAST_X if x == FIRST_X else x - 2
    if button is Button.UP:
        return (CASE_ROW, FIRST_X) if row == FIRST_ROW else (row - 1, x)
    if button is Button.DOWN:
        if row == CASE_ROW:
            return FIRST_ROW, FIRST_X
        return (CASE_ROW, FIRST_X) if row + 1 == CASE_ROW else (row + 1, x)
    return position


@cache
def keyboard_path(start: KeyPosition, target: KeyPosition) -> tuple[Button, ...]:
    """A shortest press sequence (breadth-first over the game's own moves, so wrapping is used when it is
    shorter); ties break by the fixed order UP, DOWN, LEFT, RIGHT, so the plan is deterministic."""
    paths: dict[KeyPosition, tuple[Button, ...]] = {start: ()}
    frontier = [start]
    while frontier and target not in paths:
        following: list[KeyPosition] = []
        for position in frontier:
            for button in _DIRECTIONS:
                reached = keyboard_move(position, button)
                if reached not in paths:
                    paths[reached] = paths[position] + (button,)
                    following.append(reached)
        frontier = following
    if target not in paths:
        raise ValueError(f"keyboard position {target} cannot be reached from {start}")
    return paths[target]


def next_keyboard_press(position: KeyPosition, target: KeyPosition) -> Button | None:
    path = keyboard_path(position, target)
    return path[0] if path else None


class NameStep(StrEnum):
    TYPE = "type"
    ERASE = "erase"
    SUBMIT = "submit"


def next_name_step(typed: str, target: str) -> NameStep:
    """Type the next letter while what is typed is a prefix of the target; erase anything else."""
    if typed == target:
        return NameStep.SUBMIT
    return NameStep.TYPE if target.startswith(typed) else NameStep.ERASE


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


# -- the report -----------------------------------------------------------------------------------------
class IntroReport(Frozen):
    started_in: Literal["intro", "overworld"]
    frames: int
    player_name: str | None  # the names typed on the keyboard; None when none was typed
    rival_name: str | None
    options_before: GameOptions
    options_after: GameOptions


# -- the closed-loop driver -----------------------------------------------------------------------------
class IntroDriver:
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
        self.typed: dict[int, str] = {}
        self.options_before: GameOptions | None = None
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

    def name_at(self, address: int) -> str:
        return decode_string(self.session.read(address, NAME_BUFFER_BYTES))

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

    def in_option_menu(self) -> bool:
        return self.text_at(1).strip() == OPTIONS_TITLE

    def on_naming_screen(self) -> bool:
        return self.point() is DecisionPoint.NAMING_SCREEN

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

    # -- the OPTION menu --------------------------------------------------------------------------------
    def option_cursor(self) -> tuple[int, int, int]:
        ram = self.ram
        return (
            self.u8(ram.wTopMenuItemY),
            self.u8(ram.wOptionsTextSpeedCursorX),
            self.u8(ram.wOptionsBattleAnimCursorX),
        )

    def set_in_option_menu(self) -> None:
        """With the OPTION menu open: FAST text, animations OFF, then leave it with B."""
        self.step("options: text speed FAST, battle animation OFF")
        for _ in range(MAX_OPTION_PRESSES):
            self.expect(self.input_wanted, LEAVE_FRAMES, "the OPTION menu waiting for input")
            cursor = self.option_cursor()
            move = next_option_press(*cursor)
            if move is None:
                break
            self.press(move)
            self.wait_change(self.option_cursor, cursor, REACT_FRAMES)
        else:
            raise self.fail("the OPTION menu never reached FAST text and animations OFF")
        # SetOptionsFromCursorPositions writes wOptions on every pass of the menu loop, before B is read.
        self.press_until(Button.B, lambda: not self.in_option_menu(), "the menu behind the OPTION menu")
        if not self.options().fast:
            raise self.fail(f"wOptions is {self.options().raw:#04x} after the OPTION menu")

    def fast_options_from_title_menu(self) -> None:
        self.step("main menu: OPTION")
        self.choose_menu_item(OPTION)
        self.expect(lambda: self.in_option_menu() and self.input_wanted(), LEAVE_FRAMES, "the OPTION menu")
        self.set_in_option_menu()

    def fast_options_from_overworld(self) -> None:
        self.step("START menu: OPTION")
        self.press_until(
            Button.START,
            lambda: self.input_wanted() and self.point() is DecisionPoint.START_MENU,
            "the START menu",
        )
        self.choose_menu_item(OPTION)
        self.expect(lambda: self.in_option_menu() and self.input_wanted(), LEAVE_FRAMES, "the OPTION menu")
        self.set_in_option_menu()
        self.expect(
            lambda: self.input_wanted() and self.point() is DecisionPoint.START_MENU,
            LEAVE_FRAMES,
            "the START menu after OPTION",
        )
        self.press_until(Button.B, self.overworld_ready, "the overworld after closing the START menu")

    # -- naming -----------------------------------------------------------------------------------------
    def key_cursor(self) -> KeyPosition:
        """The naming screen's row is wCurrentMenuItem, but its input loop zeroes that byte while the
        mon-icon animation runs (AnimatePartyMon_ForceSpeed1), which is when frames end. PlaceMenuCursor
        copies the row to wLastMenuItem after every press, so that copy is the one to read."""
        return self.u8(self.ram.wLastMenuItem), self.u8(self.ram.wTopMenuItemX)

    def name_typed(self) -> str:
        return self.name_at(self.ram.wStringBuffer)

    def choose_new_name(self) -> None:
        self.step("name list: NEW NAME")
        self.choose_menu_item(NAME_LIST_MARK)
        self.expect(
            lambda: self.on_naming_screen() and self.input_wanted(), LEAVE_FRAMES, "the naming keyboard"
        )

    def type_name(self, player: PlayerConfig) -> None:
        kind = self.u8(self.ram.wNamingScreenType)
        if kind not in (NAME_PLAYER, NAME_RIVAL):
            raise self.fail(f"a naming screen for something else (type {kind})")
        target = validate_name(player.player_name if kind == NAME_PLAYER else player.rival_name)
        stored_at = self.ram.wPlayerName if kind == NAME_PLAYER else self.ram.wRivalName
        self.step(f"naming the {'player' if kind == NAME_PLAYER else 'rival'} {target}")
        # Per letter: up to ~6 moves and A, plus room for retries and erasing stray letters.
        for _ in range(12 * (MAX_NAME_LENGTH + 2)):
            if self.edit_name(target):
                break
        else:
            raise self.fail(f"could not type the name {target}")
        stored = self.name_at(stored_at)
        if stored != target:
            raise self.fail(f"typed {target} but the game stored {stored!r}")
        self.typed[kind] = target

    def edit_name(self, target: str) -> bool:
        """One press towards `target` on the keyboard; True once the name was submitted."""
        self.expect(self.input_wanted, LEAVE_FRAMES, "the naming keyboard waiting for input")
        if self.u8(self.ram.wAlphabetCase) != UPPER_CASE:
            self.press(Button.SELECT)
            self.wait(lambda: self.u8(self.ram.wAlphabetCase) == UPPER_CASE, REACT_FRAMES)
            return False
        typed = self.name_typed()
        step = next_name_step(typed, target)
        if step is NameStep.SUBMIT:
            self.press(Button.START)
            return self.wait(lambda: not self.on_naming_screen(), LEAVE_FRAMES)
        if step is NameStep.ERASE:
            self.press(Button.B)
            self.wait_change(self.name_typed, typed, REACT_FRAMES)
        else:
            self.type_letter(target[len(typed)], typed)
        return False

    def type_letter(self, letter: str, typed: str) -> None:
        cursor = self.key_cursor()
        try:
            move = next_keyboard_press(cursor, key_position(letter))
        except ValueError as exc:
            raise self.fail(f"keyboard cursor at an impossible place {cursor}") from exc
        if move is not None:
            self.press(move)
            self.wait_change(self.key_cursor, cursor, REACT_FRAMES)
            return
        self.press(Button.A)
        self.wait_change(self.name_typed, typed, REACT_FRAMES)

    # -- the whole intro --------------------------------------------------------------------------------
    def run_intro(self, player: PlayerConfig) -> None:
        """From anywhere in the title and intro sequence until the player can walk."""
        validate_name(player.player_name)
        validate_name(player.rival_name)
        for _ in range(MAX_INTRO_STEPS):
            if self.overworld_ready():
                self.step("in the overworld")
                return
            if not self.act_in_intro(player):
                self.settle()
        raise self.fail(f"the intro did not end within {MAX_INTRO_STEPS} steps")

    def act_in_intro(self, player: PlayerConfig) -> bool:
        """One move through the intro; False when the game is busy and there is nothing to do yet."""
        if self.in_option_menu():
            self.record_options_before()
            self.set_in_option_menu()
            return True
        image = self.session.memory_image()
        point, view = read_screen(image, self.ram)
        if point is DecisionPoint.TITLE_MENU:
            self.at_title_menu(player)
            return True
        if point is DecisionPoint.NAMING_SCREEN:
            self.type_name(player)
            return True
        if point is DecisionPoint.OTHER_MENU and any(NAME_LIST_MARK in line for line in view.text):
            self.choose_new_name()
            return True
        if not self.input_wanted():
            return False
        if point is DecisionPoint.DIALOG_WAIT:
            self.step("Oak's speech")
            self.press(Button.A)
            return True
        if self.title_waiting():
            self.step("title screen")
            self.press(Button.START)
            return True
        if point is DecisionPoint.START_MENU:
            # Only a save state made with the menu open gets here; the goal is to stand free.
            self.press(Button.B)
            return True
        return False

    def record_options_before(self) -> None:
        if self.options_before is None:
            self.options_before = self.options()

    def at_title_menu(self, player: PlayerConfig) -> None:
        if player.fast_options and not self.options().fast:
            self.record_options_before()
            self.fast_options_from_title_menu()
            return
        self.step("main menu: NEW GAME")
        self.choose_menu_item(NEW_GAME)


# -- the public verbs -----------------------------------------------------------------------------------
def _report(driver: IntroDriver, started_in: Literal["intro", "overworld"]) -> IntroReport:
    after = driver.options()
    return IntroReport(
        started_in=started_in,
        frames=driver.frames,
        player_name=driver.typed.get(NAME_PLAYER),
        rival_name=driver.typed.get(NAME_RIVAL),
        options_before=driver.options_before or after,
        options_after=after,
    )


def _play_intro(driver: IntroDriver, player: PlayerConfig) -> IntroReport:
    driver.run_intro(player)
    if player.fast_options and not driver.options().fast:
        driver.record_options_before()
        driver.fast_options_from_overworld()
    return _report(driver, "intro")


def start_new_game(
    session: EmulatorSession,
    player: PlayerConfig,
    *,
    on_step: ProgressCallback | None = None,
    max_frames: int = INTRO_FRAME_BUDGET,
) -> IntroReport:
    """From power-on (or anywhere in the title and intro) through NEW GAME, Oak's speech and both naming
    screens until the player stands in the bedroom. With `player.fast_options` the OPTION menu is set from
    the main menu first, or from the START menu at the end if the main menu was already behind us."""
    return _play_intro(IntroDriver(session, on_step=on_step, max_frames=max_frames), player)


def set_fast_options(
    session: EmulatorSession,
    *,
    on_step: ProgressCallback | None = None,
    max_frames: int = OPTIONS_FRAME_BUDGET,
) -> OptionsChange:
    """TEXT SPEED FAST and BATTLE ANIMATION OFF through the game's OPTION menu, from the title main menu
    (left open on the main menu) or from the overworld (START menu; back to the overworld after). BATTLE
    STYLE is left alone; with the options already set nothing is pressed."""
    driver = IntroDriver(session, on_step=on_step, max_frames=max_frames)
    before = driver.options()
    if not before.fast:
        if driver.in_option_menu():
            driver.set_in_option_menu()
        elif driver.point() is DecisionPoint.TITLE_MENU:
            driver.fast_options_from_title_menu()
            driver.expect(
                lambda: driver.point() is DecisionPoint.TITLE_MENU, LEAVE_FRAMES, "the main menu after OPTION"
            )
        else:
            driver.expect(driver.overworld_ready, LEAVE_FRAMES, "the overworld or the title menu")
            driver.fast_options_from_overworld()
    return OptionsChange(before=before, after=driver.options(), frames=driver.frames)


def reach_overworld(
    session: EmulatorSession,
    player: PlayerConfig,
    *,
    on_step: ProgressCallback | None = None,
    max_frames: int = INTRO_FRAME_BUDGET,
) -> IntroReport:
    """The one entry point: from power-on or a save state anywhere in the intro, play the intro; from a
    save state in the overworld, only apply the options if configured. Ends with the player free to walk."""
    driver = IntroDriver(session, on_step=on_step, max_frames=max_frames)
    # The intro clears the map header (PrepareOakSpeech), so only a game in progress has one; a save state
    # made in the overworld loop is back in it within a few frames.
    if driver.map_loaded() and driver.wait(driver.overworld_ready, OVERWORLD_SETTLE_FRAMES):
        driver.step("in the overworld")
        if player.fast_options and not driver.options().fast:
            driver.record_options_before()
            driver.fast_options_from_overworld()
        return _report(driver, "overworld")
    return _play_intro(driver, player)
