"""Overworld mechanics: one step in a direction, checked on RAM, and clearing whatever the game puts in
the way (dialog, menus) so that the caller gets back a free overworld or a battle.

Which way to walk is a decision and lives in a policy (`engine.tactician.explorer`); this module only does
what it is told and reports what happened.
"""

from __future__ import annotations

from engine.emulator.errors import FrameBudgetExceeded
from engine.emulator.session import EmulatorSession, LiveMemory, Predicate
from engine.game.buttons import Button
from engine.game.models import DecisionPoint as D
from engine.game.models import Direction, GameState
from engine.game.state import decode_state
from engine.mechanics.errors import OverworldError
from engine.messages import StepOutcome

# A step is 16 frames of walking (pret home/overworld.asm: wWalkCounter counts 8 moves of 2 pixels);
# the direction is held until the walk starts, then the step is waited out.
START_WALK_FRAMES = 12
FINISH_STEP_FRAMES = 40
SETTLE_STEPS = 1500  # ~10 minutes of game time: scripted scenes (Oak leading the way) are long
BUSY_WAIT_FRAMES = 16
IN_BATTLE_VALUES = (1, 2)
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

    def _position(self) -> tuple[int, int, int]:
        ram = self.ram
        return (
            self.session.read_u8(ram.wCurMap),
            self.session.read_u8(ram.wXCoord),
            self.session.read_u8(ram.wYCoord),
        )

    def step(self, direction: Direction) -> StepOutcome:
        """Walk one tile. BLOCKED when the position stays the same (a wall, an NPC, a ledge the wrong
        way); the game then only turns the player to face that way."""
        before = self._position()
        walk_counter, in_battle = self.ram.wWalkCounter, self.ram.wIsInBattle

        def walking_or_battle(memory: LiveMemory) -> bool:
            return memory[walk_counter] != 0 or memory[in_battle] != 0

        self.session.hold(direction.button)
        try:
            started = self._wait(walking_or_battle, START_WALK_FRAMES)
        finally:
            self.session.release(direction.button)
        if started:
            self._wait(lambda memory: memory[walk_counter] == 0 or memory[in_battle] != 0, FINISH_STEP_FRAMES)
        after = self._position()
        if self.in_battle():
            return StepOutcome.BATTLE
        if after == before:
            return StepOutcome.BLOCKED
        moved_by_one = after[0] == before[0] and abs(after[1] - before[1]) + abs(after[2] - before[2]) == 1
        return StepOutcome.MOVED if moved_by_one else StepOutcome.INTERRUPTED

    def _waiting_for_button(self) -> bool:
        since = self.session.frames_since_call(*self._poll)
        return since is not None and since <= POLL_RECENT_FRAMES

    def interact(self) -> None:
        """Press A at whatever the player faces: a person, a sign, an item ball."""
        self.session.press(Button.A)

    def _wait(self, predicate: Predicate, frames: int) -> bool:
        try:
            self.session.run_until(predicate, frames)
        except FrameBudgetExceeded:
            return False
        return True

    def settle(self) -> GameState:
        """Clear dialog and menus until the overworld is free or a battle is on. Mechanics only: text is
        advanced with A, menus are closed with B, a naming screen keeps the game's default name."""
        for _ in range(SETTLE_STEPS):
            state = self.state()
            point = state.decision_point
            if point is D.OVERWORLD_FREE or state.battle is not None or self.in_battle():
                return state
            if point in (D.START_MENU, D.OTHER_MENU):
                self.session.press(Button.B)
            elif point is D.NAMING_SCREEN:
                self.session.press(Button.START)
            elif point in (D.DIALOG_WAIT, D.YES_NO_PROMPT, D.TITLE_MENU) or self._waiting_for_button():
                self.session.press(Button.A)
            self.session.tick(BUSY_WAIT_FRAMES)
        raise OverworldError(f"the overworld never became free (at {self.state().decision_point.value})")
