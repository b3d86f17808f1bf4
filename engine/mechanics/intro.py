"""A new game from power-on to the bedroom, and the game's own OPTION menu, both closed-loop on RAM.

Every press is followed by a re-read of RAM (`engine.game.intro_loop`); the OPTION menu and the naming
screen are driven by `engine.game.intro_menus`, their pure plans live in `engine.game.options` and
`engine.game.naming`. Running out of a budget raises `IntroError` with the decision point and the last
inputs.

Facts from the pret/pokered disassembly: engine/movie/title.asm and home/overworld.asm (the title screen
waits in CheckForUserInterruption), engine/menus/main_menu.asm (the main menu: NEW GAME and OPTION),
engine/movie/oak_speech/oak_speech2.asm (Oak's speech and the name lists: item 0 is NEW NAME), and
engine/menus/draw_start_menu.asm (the START menu).
"""

from __future__ import annotations

from typing import Literal

from engine.config import PlayerConfig
from engine.emulator.session import EmulatorSession
from engine.frozen import Frozen
from engine.game.buttons import Button
from engine.game.errors import InvalidNameError
from engine.game.models import DecisionPoint, ScreenView
from engine.game.naming import NAME_LIST_MARK, NAME_PLAYER, NAME_RIVAL, validate_name
from engine.game.options import GameOptions, OptionsChange
from engine.game.state import read_screen
from engine.mechanics.errors import IntroError
from engine.mechanics.intro_loop import LEAVE_FRAMES, ClosedLoop, ProgressCallback
from engine.mechanics.intro_menus import NamingScreen, OptionMenu

__all__ = [
    "IntroDriver",
    "IntroError",
    "IntroReport",
    "InvalidNameError",
    "reach_overworld",
    "set_fast_options",
    "start_new_game",
]

NEW_GAME = "NEW GAME"  # the main menu item (main_menu.asm)

# -- budgets ------------------------------------------------------------------------------------------
INTRO_FRAME_BUDGET = 60_000  # power-on to the bedroom takes well under half of this
OPTIONS_FRAME_BUDGET = 6_000
OVERWORLD_SETTLE_FRAMES = 120
MAX_INTRO_STEPS = 1_500


# -- the report -----------------------------------------------------------------------------------------
class IntroReport(Frozen):
    started_in: Literal["intro", "overworld"]
    frames: int
    player_name: str | None  # the names typed on the keyboard; None when none was typed
    rival_name: str | None
    options_before: GameOptions
    options_after: GameOptions


# -- the driver -----------------------------------------------------------------------------------------
class IntroDriver(ClosedLoop):
    """Plays the title and intro sequence, delegating the OPTION menu and the naming screens."""

    def __init__(
        self, session: EmulatorSession, *, on_step: ProgressCallback | None = None, max_frames: int
    ) -> None:
        super().__init__(session, on_step=on_step, max_frames=max_frames)
        self.option_menu = OptionMenu(self)
        self.naming = NamingScreen(self)
        self.options_before: GameOptions | None = None

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
        if self.option_menu.is_open():
            self.record_options_before()
            self.option_menu.set_fast()
            return True
        point, view = read_screen(self.session.memory_image(), self.ram)
        if self.act_on_screen(point, view, player):
            return True
        return self.input_wanted() and self.answer_prompt(point)

    def act_on_screen(self, point: DecisionPoint, view: ScreenView, player: PlayerConfig) -> bool:
        """The menus and screens that are handled whether or not the joypad was polled just now."""
        if point is DecisionPoint.TITLE_MENU:
            self.at_title_menu(player)
            return True
        if point is DecisionPoint.NAMING_SCREEN:
            self.naming.type_name(player)
            return True
        if point is DecisionPoint.OTHER_MENU and any(NAME_LIST_MARK in line for line in view.text):
            self.naming.choose_new_name()
            return True
        return False

    def answer_prompt(self, point: DecisionPoint) -> bool:
        """The game waits for a button: Oak's speech, a question or the START menu a save state left open, or
        the title screen."""
        if point is DecisionPoint.DIALOG_WAIT:
            self.step("Oak's speech")
            self.press(Button.A)
            return True
        if point is DecisionPoint.YES_NO_PROMPT:
            # Only a save state made between a question and its answer gets here (a run stopped as the Safari
            # Zone's gate asked "join the hunt?" could not be played on): NO changes nothing, and a plan that
            # wants YES asks again.
            self.step("a question left open")
            self.press(Button.B)
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
            self.option_menu.set_fast_from_title_menu()
            return
        self.step("main menu: NEW GAME")
        self.choose_menu_item(NEW_GAME)

    def fast_options_in_overworld(self, player: PlayerConfig) -> None:
        """Standing free: set the options through the START menu if configured and not set yet."""
        if player.fast_options and not self.options().fast:
            self.record_options_before()
            self.option_menu.set_fast_from_overworld()

    def set_fast_options_here(self) -> None:
        """Set the options from the OPTION menu, the title main menu (and back to it) or the overworld."""
        if self.option_menu.is_open():
            self.option_menu.set_fast()
        elif self.point() is DecisionPoint.TITLE_MENU:
            self.option_menu.set_fast_from_title_menu()
            self.expect(
                lambda: self.point() is DecisionPoint.TITLE_MENU, LEAVE_FRAMES, "the main menu after OPTION"
            )
        else:
            self.expect(self.overworld_ready, LEAVE_FRAMES, "the overworld or the title menu")
            self.option_menu.set_fast_from_overworld()


# -- the public verbs -----------------------------------------------------------------------------------
def _report(driver: IntroDriver, started_in: Literal["intro", "overworld"]) -> IntroReport:
    after = driver.options()
    return IntroReport(
        started_in=started_in,
        frames=driver.frames,
        player_name=driver.naming.typed.get(NAME_PLAYER),
        rival_name=driver.naming.typed.get(NAME_RIVAL),
        options_before=driver.options_before or after,
        options_after=after,
    )


def _play_intro(driver: IntroDriver, player: PlayerConfig) -> IntroReport:
    driver.run_intro(player)
    driver.fast_options_in_overworld(player)
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
        driver.set_fast_options_here()
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
        driver.fast_options_in_overworld(player)
        return _report(driver, "overworld")
    return _play_intro(driver, player)
