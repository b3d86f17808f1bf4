"""Overworld mechanics: clearing whatever the game puts in the player's way (dialog, menus, scripted
scenes) so that the caller gets back a free overworld or a battle. Walking is `engine.mechanics.travel`."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from engine.emulator.session import EmulatorSession
from engine.game.buttons import Button
from engine.game.models import DecisionPoint as D
from engine.game.models import GameState, ScreenView
from engine.game.state import Look, decode_state
from engine.mechanics.errors import OverworldError

FREE_LOOKS_AFTER_WAITING = 2
REPEATS_BEFORE_LEAVING = 3  # the same screen of text after this many presses of A: a menu, leave it
SETTLE_STEPS = 1500  # ~10 minutes of game time: scripted scenes (Oak leading the way) are long
BUSY_WAIT_FRAMES = 16
IN_BATTLE_VALUES = (1, 2)
TextSink = Callable[[tuple[str, ...]], None]
POLL_RECENT_FRAMES = 2


class OverworldDriver:
    def __init__(self, session: EmulatorSession) -> None:
        self.session = session
        self.ram = session.ram_map
        # Screens without a text box (a Pokédex entry, a town map) still wait for a button through this
        # routine; overworld walking reads the joypad elsewhere.
        self._poll = (0, self.ram.JoypadLowSensitivity)
        session.track_calls(*self._poll)

    def state(self) -> GameState:
        return decode_state(self.session.memory_image(), self.ram)

    def in_battle(self) -> bool:
        return self.session.read_u8(self.ram.wIsInBattle) in IN_BATTLE_VALUES

    def waiting_for_button(self) -> bool:
        """The game ran JoypadLowSensitivity within the last frames: a text box or a menu waits."""
        since = self.session.frames_since_call(*self._poll)
        return since is not None and since <= POLL_RECENT_FRAMES

    def settle(
        self, answer: Button = Button.A, read: TextSink | None = None, menu: Button = Button.B
    ) -> GameState:
        """Clear dialog and menus until the overworld is free or a battle is on. Mechanics only: text is
        advanced with A, a YES/NO question answered with `answer`, menus are closed with B (or, with `menu`
        A, their first entry taken: a list a talk offers; the START menu is always closed), a naming
        screen keeps the game's default name. A screen that keeps coming back after A (a list of topics
        someone offers again and again) is left with B. `read` is given every screen of text. Once it has
        had to wait, the overworld counts as free only on two looks in a row: a map being loaded, after a
        warp or a blackout, looks free for a frame or two between its steps."""
        shown: Counter[tuple[str, ...]] = Counter()
        last: tuple[str, ...] = ()
        waited = free_looks = 0
        for _ in range(SETTLE_STEPS):
            look = Look(self.session.memory_image(), self.ram)
            point = look.point
            if look.in_battle or self.in_battle():
                return look.state
            free_looks = free_looks + 1 if point is D.OVERWORLD_FREE else 0
            if free_looks >= (FREE_LOOKS_AFTER_WAITING if waited else 1):
                return look.state
            waited += 1
            if point is D.OVERWORLD_FREE:
                self.session.tick(BUSY_WAIT_FRAMES)
                continue
            text = tuple(look.screen.text)
            printed = _printed(look.screen, point, text == last)
            last = text
            if read is not None and text and printed:
                read(text)
            elif read is not None and point is D.DIALOG_WAIT:
                self.session.tick(BUSY_WAIT_FRAMES)  # still printing: let it finish, to be read whole
                continue
            shown[text] += point is D.DIALOG_WAIT
            button = self._button(point, answer, shown[text], menu)
            if button is not None:
                self.session.press(button)
            self.session.tick(BUSY_WAIT_FRAMES)
        raise OverworldError(f"the overworld never became free (at {self.state().decision_point.value})")

    def _button(self, point: D, answer: Button, times_shown: int, menu: Button) -> Button | None:
        if point is D.START_MENU or times_shown > REPEATS_BEFORE_LEAVING:
            return Button.B
        if point is D.OTHER_MENU:
            return menu
        if point is D.NAMING_SCREEN:
            return Button.START
        if point is D.YES_NO_PROMPT:
            return answer
        if point in (D.DIALOG_WAIT, D.TITLE_MENU) or self.waiting_for_button():
            return Button.A
        return None  # busy: wait


def _printed(screen: ScreenView, point: D, unchanged: bool) -> bool:
    """A screen of text printed to its end: it waits with its arrow, asks YES/NO, or stood still."""
    if point is D.YES_NO_PROMPT:
        return True
    return point is D.DIALOG_WAIT and (screen.continue_arrow_visible or unchanged)
