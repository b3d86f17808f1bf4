"""The closed-loop battle executor: one high-level action in, button presses out, RAM checked after
every press, back when the game next needs a decision or the battle is over.

It never loops forever: every wait has a frame budget, and running out raises `ExecutionError` carrying
the decision point, the last inputs and a frame hash, so the caller can recover or report.
"""

from __future__ import annotations

from collections import deque
from contextlib import suppress

from engine.emulator.errors import FrameBudgetExceeded
from engine.emulator.session import EmulatorSession, LiveMemory
from engine.game.actions import (
    BATTLE_TYPE_SAFARI,
    BattleAction,
    Evolve,
    LearnMove,
    Run,
    SendNext,
    Struggle,
    SwitchTo,
    UseItem,
    UseMove,
)
from engine.game.buttons import Button
from engine.game.memory import MemoryImage
from engine.game.models import DecisionPoint as D
from engine.game.models import GameState
from engine.game.navigation import (
    MOVE_MENU_FIRST_ITEM,
    MainMenuItem,
    next_list_press,
    next_main_menu_press,
    next_move_menu_press,
    next_scrolling_list_press,
)
from engine.game.screen import CONTINUE_ARROW, CURSOR, SCREEN_COLUMNS, row_text
from engine.game.state import Look
from engine.game.tables import game_data
from engine.mechanics.errors import ExecutionError

# Points where the game waits for a choice the executor cannot make by itself.
CHOICE_POINTS = frozenset(
    {D.BATTLE_MAIN_MENU, D.BATTLE_NEXT_MON_PROMPT, D.LEARN_MOVE_PROMPT, D.EVOLUTION, D.OVERWORLD_FREE}
)
TEXT_ROWS = slice(12 * 20, 18 * 20)  # the text box: the bottom six rows of wTileMap
MAX_CURSOR_PRESSES = 8
CONFIRM_FRAMES = 30
READY_FRAMES = 60
STILL_TEXT_FRAMES = 64
INPUT_POLL_FRAMES = 2
# The cry, 80 frames' pause and the animation's 16 steps take under 600 frames; a press takes 8.
MAX_STOP_EVOLUTION_PRESSES = 90
# Screens that wait for A to go on: battle text, and the Pokédex page shown after catching a new species.
TEXT_POINTS = frozenset({D.BATTLE_TEXT, D.DIALOG_WAIT, D.POKEDEX_ENTRY})
QUIET_POINTS = TEXT_POINTS | {D.YES_NO_PROMPT, D.BUSY}
YES, NO = 0, 1
# Battle messages: the text box's two lines are wTileMap rows 14 and 16 (rows 12 and 17 are its frame;
# 13 and 15 hold a line halfway through scrolling up). Read only where the box holds a message, not menu
# entries, and only at looks the executor makes anyway.
MESSAGE_ROWS = range(13, 17)
MESSAGE_POINTS = frozenset(
    {
        D.BATTLE_TEXT,
        D.YES_NO_PROMPT,
        D.BATTLE_NEXT_MON_PROMPT,
        D.LEARN_MOVE_PROMPT,
        D.ABANDON_LEARNING_PROMPT,
        D.EVOLUTION,
    }
)
MAX_BATTLE_TEXT = 12  # messages kept between two takes: the first ones, where a turn's events are
MAX_BAG_ENTRIES = 20  # a full bag; the list also has CANCEL after the last item
TECHNIQUE_PROMPT = "which technique?"  # an ETHER's question over the move list (pret data/text/text_6.asm)
USE_NEXT = "Use next"  # "Use next POKéMON?", a wild battle's question after a faint (NO runs)


class BattleText:
    """Battle messages from successive looks at the text box, one entry per message ("SQUIRTLE used
    BUBBLE!", "It's super effective!"): a message's lines are joined, a look in the middle of printing is
    completed by a later one, lines scrolled up are not repeated, and a message shown twice in a row is
    kept once. At most `limit` messages are kept until the next `take`."""

    def __init__(self, limit: int = MAX_BATTLE_TEXT) -> None:
        self.limit = limit
        self.messages: list[str] = []
        self.current: list[str] = []  # the lines of the message on screen, as far as printed
        self.taken = False  # the current message went out with the last take (still on screen)

    def see(self, lines: list[str]) -> None:
        """One look at the box: its non-empty lines, top to bottom (an empty box ends the message)."""
        if not lines:
            self._finish()
            return
        merged = self._continued(lines)
        if merged is None:
            self._finish()
            merged = list(lines)
            self.taken = False
        self.current = merged

    def _continued(self, lines: list[str]) -> list[str] | None:
        """The current message with `lines` taken in, if they continue it: its last line (or two) printed
        further, a new line under them, or the box scrolled up; None when `lines` start another message."""
        current = self.current
        for start in range(max(0, len(current) - len(lines)), len(current)):
            overlap = current[start:]
            if len(overlap) > len(lines):
                continue
            last = len(overlap) - 1
            if all(
                lines[i] == seen or (i == last and lines[i].startswith(seen))
                for i, seen in enumerate(overlap)
            ):
                return current[:start] + list(lines)
        return None

    def _finish(self) -> None:
        if self.current and not self.taken:
            message = " ".join(self.current)
            if len(self.messages) < self.limit and (not self.messages or self.messages[-1] != message):
                self.messages.append(message)
        self.current, self.taken = [], False

    def take(self) -> tuple[str, ...]:
        """The messages since the last take; the one on screen goes with them, and is not repeated by
        the next take while it stays there (printed further or not)."""
        current = self.current
        self._finish()
        self.current, self.taken = current, True
        messages, self.messages = tuple(self.messages), []
        return messages


def message_lines(image: MemoryImage, tile_map: int) -> list[str]:
    """The text box's lines from the game's screen buffer, without the continue arrow."""
    lines = []
    for row in MESSAGE_ROWS:
        tiles = image.read(tile_map + row * SCREEN_COLUMNS, SCREEN_COLUMNS)
        line = row_text(tuple(tiles)).replace(CONTINUE_ARROW, "").strip()
        if line:
            lines.append(line)
    return lines


# pret constants/battle_constants.asm: status SLP counter (bits 0-2) and FRZ (bit 5); battle status 1
# bits STORING_ENERGY (0) and USING_TRAPPING_MOVE (5).
ASLEEP_OR_FROZEN = 0b0010_0111
BIDE, TRAPPING = 1 << 0, 1 << 5


class BattleExecutor:
    def __init__(self, session: EmulatorSession, max_wait_frames: int = 3600) -> None:
        self.session = session
        self.max_wait_frames = max_wait_frames
        self.inputs: deque[str] = deque(maxlen=12)
        self.looks = 0  # looks at the game state: the executor's main cost next to emulation
        self._last_in_battle: GameState | None = None
        self._last_battle_look: Look | None = None
        # The species caught with a ball (wCapturedMonSpecies, set from "All right!" until the
        # nickname question is answered); cleared by whoever starts following a new battle.
        self.caught_species: str | None = None
        self.battle_text = BattleText()
        self._poll = (0, session.ram_map.JoypadLowSensitivity)
        self._overworld_poll = (0, session.ram_map.JoypadOverworld)
        session.track_calls(*self._poll)
        session.track_calls(*self._overworld_poll)

    def input_wanted(self) -> bool:
        """The game polled the joypad for a button press within the last frames."""
        since = self.session.frames_since_call(*self._poll)
        return since is not None and since <= INPUT_POLL_FRAMES

    def _player_can_walk(self) -> bool:
        since = self.session.frames_since_call(*self._overworld_poll)
        return since is not None and since <= INPUT_POLL_FRAMES

    # -- observing and waiting ---------------------------------------------------------------------
    @property
    def last_in_battle(self) -> GameState | None:
        """The final look inside a battle, for its outcome: decoded only when asked for."""
        if self._last_in_battle is None and self._last_battle_look is not None:
            self._last_in_battle = self._last_battle_look.state
        return self._last_in_battle

    @last_in_battle.setter
    def last_in_battle(self, state: GameState | None) -> None:
        self._last_in_battle, self._last_battle_look = state, None

    def state(self, *, read_text: bool = False) -> GameState:
        """One look at the game; with `read_text`, a battle message in the text box is kept for
        `take_battle_text` (from the image already copied for the look: no extra reads)."""
        return self._look(read_text=read_text).state

    def _look(self, *, read_text: bool = False) -> Look:
        """A look whose whole state is decoded only when someone needs more than the screen: waiting
        for text and animations reads the decision point and the text alone, most looks."""
        self.looks += 1
        ram = self.session.ram_map
        look = Look(self.session.memory_image(), ram)
        if look.in_battle:
            self._last_in_battle, self._last_battle_look = None, look
            if read_text and look.point in MESSAGE_POINTS:
                self.battle_text.see(message_lines(look.image, ram.wTileMap))
            captured = look.image.u8(ram.wCapturedMonSpecies)
            if captured:
                self.caught_species = game_data().species_name(captured) or f"species {captured}"
        return look

    def resume_at(self, last_in_battle: GameState | None) -> None:
        """The game was put back to a checkpoint: forget what was seen since, and take the checkpoint's
        last look inside a battle (the battle's outcome is read from it)."""
        self.last_in_battle = last_in_battle
        self.caught_species = None  # read from RAM again at the next look in battle
        self.battle_text = BattleText()
        self.inputs.clear()

    def take_battle_text(self) -> tuple[str, ...]:
        """The battle messages the looks passed since the last take, oldest first (at most
        MAX_BATTLE_TEXT); a message shown only between two looks is missing."""
        return self.battle_text.take()

    def _press(self, button: Button) -> None:
        self.inputs.append(button.value)
        self.session.press(button)

    def _fail(self, message: str) -> ExecutionError:
        return ExecutionError(
            message, self.state().decision_point, list(self.inputs), self.session.frame_hash()
        )

    def _wait_for_change(self, budget: int, *, watch_polls: bool = True, watch_text: bool = True) -> int:
        """Cheap wait until (with `watch_text`) the text rows of the game's screen buffer change or (with
        `watch_polls`) the game polls for a button or lets the player walk; only those bytes and the
        hooks' frame numbers are read meanwhile. Always steps at least one check interval, so a caller's
        loop makes progress."""
        start = self.session.ram_map.wTileMap
        text = slice(start + TEXT_ROWS.start, start + TEXT_ROWS.stop)
        before = self.session.read(text.start, text.stop - text.start)
        self.session.tick(self.session.check_every)

        def changed(memory: LiveMemory) -> bool:
            if watch_polls and (self.input_wanted() or self._player_can_walk()):
                return True
            return watch_text and bytes(memory[text]) != before

        try:
            stepped = self.session.run_until(changed, budget)
        except FrameBudgetExceeded:
            stepped = budget
        return stepped + self.session.check_every

    def wait_for(
        self, targets: frozenset[D] | set[D], *, advance_text: bool = True, stop_at_choices: bool = False
    ) -> GameState:
        """Advance battle text (A whenever the game polls for a button on a text screen) until one of
        `targets` is reached (or any choice point with `stop_at_choices`)."""
        spent = 0
        read: tuple[str, ...] = ()
        while spent <= self.max_wait_frames:
            look = self._look(read_text=advance_text)
            point = look.point
            if point in targets or (stop_at_choices and point in CHOICE_POINTS):
                return look.state
            if advance_text and self.input_wanted() and point in TEXT_POINTS:
                if look.screen.text != read:
                    # New text: the battle goes on by itself (RAGE, a recharge, a multi-turn move play
                    # turn after turn without a menu), so the wait's budget starts again.
                    read, spent = look.screen.text, 0
                self._press(Button.A)
                spent += self.session.hold_frames + self.session.release_frames
                continue
            if advance_text and self.input_wanted() and point is D.YES_NO_PROMPT:
                # B answers NO: "Will RED change POKéMON?" between trainer members keeps the active
                # one; "Do you want to give a nickname to X?" after a catch keeps the species name.
                self._press(Button.B)
                spent += self.session.hold_frames + self.session.release_frames
                continue
            # While text prints or an animation plays, nothing needs doing until the game asks for a
            # button (or lets the player walk again): waiting for that, rather than for every letter,
            # saves most of the looks. Budget-bound, so a text that never asks is looked at again.
            quiet = advance_text and point in QUIET_POINTS
            spent += self._wait_for_change(STILL_TEXT_FRAMES, watch_polls=quiet, watch_text=not quiet)
        raise self._fail(f"never reached {sorted(t.value for t in targets)}")

    def advance(self) -> GameState:
        """Until the game needs a choice (or the battle is over)."""
        return self.wait_for(CHOICE_POINTS, stop_at_choices=True)

    # -- cursor work -------------------------------------------------------------------------------
    def _ready(self, point: D, *, advance_text: bool) -> GameState:
        """At `point`, once the game polls for a button: a menu is recognisable on screen a few frames
        before its handler reads the joypad, and a press in between is lost (or, worse, looks taken
        because the screen is still changing)."""
        state = self.wait_for({point}, advance_text=advance_text)
        if self.input_wanted():
            return state
        self._await_input()
        return self.wait_for({point}, advance_text=advance_text)

    def _await_input(self) -> None:
        with suppress(FrameBudgetExceeded):
            self.session.run_until(lambda _memory: self.input_wanted(), READY_FRAMES)

    def _main_menu_to(self, item: MainMenuItem) -> None:
        for _ in range(MAX_CURSOR_PRESSES):
            state = self._ready(D.BATTLE_MAIN_MENU, advance_text=True)
            menu = state.battle.menu if state.battle else None
            if menu is None:
                raise self._fail("no battle menu cursor")
            safari = state.battle is not None and state.battle.battle_type == BATTLE_TYPE_SAFARI
            press = next_main_menu_press(menu, item, safari)
            if press is None:
                if self._confirm(state):
                    return
                continue
            self._press(press)
        raise self._fail(f"main menu cursor never reached {item}")

    def _confirm(self, before: GameState) -> bool:
        """Press A and check the game took it: the screen changes, or the menu stopped asking for a
        button (some screens take a while to change after a menu closes). A press made while a menu is
        still being drawn is dropped by the game; the caller then tries again. (The decision point alone
        is not enough: YES on "Use next POKéMON?" opens another BATTLE_NEXT_MON_PROMPT.)"""
        self._press(Button.A)
        self._wait_for_change(CONFIRM_FRAMES, watch_polls=False)
        after = self.state()
        changed = (after.decision_point, after.screen.text) != (before.decision_point, before.screen.text)
        return changed or not self.input_wanted()

    def _list_to(self, point: D, target: int, *, move_menu: bool = False, scrolling: bool = False) -> None:
        for _ in range(MAX_CURSOR_PRESSES + (MAX_BAG_ENTRIES if scrolling else 0)):
            state = self._ready(point, advance_text=False)
            menu = (state.battle.menu if state.battle else None) or state.menu
            if state.decision_point is not point or menu is None:
                raise self._fail(f"expected {point.value}")
            if move_menu:
                press = next_move_menu_press(menu, target)
            elif scrolling:
                press = next_scrolling_list_press(menu, target)
            else:
                press = next_list_press(menu.item, target)
            if press is None:
                if self._confirm(state):
                    return
                continue
            self._press(press)
        raise self._fail(f"cursor never reached item {target} in {point.value}")

    # -- actions -----------------------------------------------------------------------------------
    def execute(self, action: BattleAction) -> GameState:
        if isinstance(action, UseMove):
            no_choice = self._fight_without_choice()  # read before the turn changes it
            self._main_menu_to(MainMenuItem.FIGHT)
            if not no_choice:
                self._list_to(D.BATTLE_MOVE_MENU, action.slot, move_menu=True)
        elif isinstance(action, Struggle):
            self._main_menu_to(MainMenuItem.FIGHT)
        elif isinstance(action, Run):
            self._run()
        elif isinstance(action, SwitchTo):
            self._main_menu_to(MainMenuItem.PKMN)
            self._list_to(D.BATTLE_PARTY_MENU, action.slot)
            self._await_input()  # the SWITCH/STATS/CANCEL box
            self._press(Button.A)  # SWITCH, its first entry
        elif isinstance(action, UseItem):
            return self._use_item(action)
        elif isinstance(action, SendNext):
            self._send_next(action.slot)
        elif isinstance(action, LearnMove):
            self._learn(action.forget_slot)
        elif isinstance(action, Evolve):
            if not action.allow:
                self._stop_evolution()
            return self.wait_for(CHOICE_POINTS - {D.EVOLUTION}, stop_at_choices=False)
        return self.advance()

    def _stop_evolution(self) -> None:
        """B, again and again: the game looks for it only during the animation's loop, after the cry and
        a pause (pret engine/movie/evolution.asm Evolution_CheckForCancel), until it says the member
        stopped evolving. A press before the loop only hurries the text."""
        for _ in range(MAX_STOP_EVOLUTION_PRESSES):
            text = " ".join(self._look().screen.text)
            if "stopped" in text:
                return
            if "evolved" in text:
                break
            self._press(Button.B)
        raise self._fail("the evolution was not stopped")

    def _fight_without_choice(self) -> bool:
        """FIGHT goes straight to the turn, with no move menu, while the player's Pokémon is asleep or
        frozen, storing energy (BIDE) or trapping with its own WRAP, or caught in the enemy's (pret
        engine/battle/core.asm MainInBattleLoop)."""
        ram = self.session.ram_map
        status = self.session.read_u8(ram.wBattleMon + ram.battle.status)
        player = self.session.read_u8(ram.wPlayerBattleStatus1)
        enemy = self.session.read_u8(ram.wEnemyBattleStatus1)
        return bool(status & ASLEEP_OR_FROZEN or player & (BIDE | TRAPPING) or enemy & TRAPPING)

    def _use_item(self, action: UseItem) -> GameState:
        """ITEM, the item's entry in the bag list, then the member to use it on (healing items).
        An item the game refuses ("It won't have any effect.") brings the bag back: it is closed and
        the main menu returned, so the caller decides again."""
        state = self.state()
        index = next((i for i, entry in enumerate(state.bag) if entry.name == action.item), None)
        if index is None:
            raise self._fail(f"no {action.item} in the bag")
        self._main_menu_to(MainMenuItem.ITEM)
        self._list_to(D.BATTLE_BAG_MENU, index, scrolling=True)
        if action.target is not None:
            self._list_to(D.BATTLE_ITEM_TARGET_MENU, action.target)
        if action.move is not None:
            self._restore_which_move(action.move)
        state = self.wait_for(CHOICE_POINTS | {D.BATTLE_BAG_MENU}, stop_at_choices=True)
        if state.decision_point is D.BATTLE_BAG_MENU:
            self._press(Button.B)
        return self.advance()

    def _restore_which_move(self, slot: int) -> None:
        """An ETHER or MAX ETHER asks "Restore PP of which technique?" over the member's moves (pret
        engine/items/item_effects.asm ItemUsePPRestore, then MoveSelectionMenu): the cursor is taken to
        `slot` by wCurrentMenuItem, which counts the moves from MOVE_MENU_FIRST_ITEM, and A chooses it."""
        self._await_technique_menu()
        ram = self.session.ram_map
        for _ in range(MAX_CURSOR_PRESSES):
            current = self.session.read_u8(ram.wCurrentMenuItem) - MOVE_MENU_FIRST_ITEM
            press = next_list_press(current, slot)
            self._press(press or Button.A)
            if press is None:
                return
            self._await_input()
        raise self._fail(f"the PP item's cursor never reached move {slot + 1}")

    def _await_technique_menu(self) -> None:
        spent = 0
        while spent <= self.max_wait_frames:
            text = " ".join(self._look().screen.text)
            if TECHNIQUE_PROMPT in text and CURSOR in text and self.input_wanted():
                return
            spent += self._wait_for_change(STILL_TEXT_FRAMES)
        raise self._fail("the PP item's move menu never came up")

    def _run(self) -> None:
        state = self.state()
        if state.decision_point is D.BATTLE_NEXT_MON_PROMPT:
            self._list_to(D.BATTLE_NEXT_MON_PROMPT, NO)
            self._until_prompt_gone()
            return
        self._main_menu_to(MainMenuItem.RUN)

    def _until_prompt_gone(self) -> None:
        """NO on "Use next POKéMON?" tries to run (pret engine/battle/core.asm DoUseNextMonDialogue), and
        the box stays drawn while the game weighs the escape: a look meanwhile would take it for the
        prompt again and answer it twice. Wait for "Got away safely!" or "Can't escape!" (after which the
        game asks which member to bring out) to replace it."""
        spent = 0
        while spent <= self.max_wait_frames:
            if not any(USE_NEXT in line for line in self._look().screen.text):
                return
            spent += self._wait_for_change(STILL_TEXT_FRAMES)
        raise self._fail('"Use next POKéMON?" stayed on screen after NO')

    def _send_next(self, slot: int) -> None:
        state = self.state()
        if any(USE_NEXT in line for line in state.screen.text):
            self._list_to(D.BATTLE_NEXT_MON_PROMPT, YES)
            self.wait_for({D.BATTLE_NEXT_MON_PROMPT}, advance_text=False)
        self._list_to(D.BATTLE_NEXT_MON_PROMPT, slot)

    def _learn(self, forget_slot: int | None) -> None:
        if forget_slot is None:
            self._list_to(D.LEARN_MOVE_PROMPT, NO)
            self._list_to(D.ABANDON_LEARNING_PROMPT, YES)
            return
        self._list_to(D.LEARN_MOVE_PROMPT, YES)
        self._list_to(D.FORGET_MOVE_MENU, forget_slot)
