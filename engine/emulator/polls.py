"""When the game last ran JoypadLowSensitivity, at a fraction of what a plain hook costs.

Every text box and menu waits for a button through JoypadLowSensitivity, and the engine presses only once
the game has polled it in the last frames (see the executor). A PyBoy hook on the routine gives that frame
exactly, but two of its callers spin without waiting for the next frame: WaitForTextScrollButtonPress (a
text box's ▼) and HandleMenuInput_ (every menu) call it some 40 to 70 times a frame, and each call leaves
PyBoy's inner loop for Python (about a microsecond). Over power-on to Misty that was a million calls, a
tenth of the emulation time.

Unless an animation is on (the party menu's mini sprites, the town map's blinking sprite: a frame's wait
in each round), those loops poll again at once, and neither can end without a button:
WaitForTextScrollButtonPress leaves on A or B, HandleMenuInput_ on a watched key or after its single poll
when wMenuJoypadPollCount is 1 (pret home/joypad2.asm and home/window.asm). So when the routine's last run
came from one of those loops in the last frame and reported no button (hJoy5), none is held, and the game
has read no press its polls have not seen (hJoyInput holds nothing new against hJoyLast; with hJoy7 set,
held buttons repeat, so nothing at all), the game will go on calling it through every frame of the next
tick: the hook is taken off for that tick, and the frame before the tick's end is recorded as the
routine's last run, which is what the hook would have recorded. It goes back on before a tick in which a
button is held (or after a state is loaded), so the frame a loop ends on is seen by the hook itself.

It also comes off in the middle of a tick, as a loop begins (WaitForTextScrollButtonPress is called, or
DelayFrames returns to HandleMenuInput_.loop2) with no button held: one call each instead of dozens a
frame until the tick ends. Only where the loop's first poll certainly falls in the same frame: not in the
lines just before the frame ends (PyBoy's frames end after the vertical blank, at LY 153), nor for
WaitForTextScrollButtonPress just before the vertical blank's interrupt, which could push that first poll
past the frame's end.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

LY = 0xFF44  # the line the LCD is drawing (Pan Docs): where in its frame the game is
LAST_SAFE_LY = 151  # a loop beginning on a later line might first poll in the next frame
VBLANK_LY = 144
VBLANK_MARGIN = 4  # lines before the vertical blank's interrupt, for the few instructions before the poll

if TYPE_CHECKING:
    from pyboy import PyBoy

    from engine.game.ram import RamMap


class JoypadPolls:
    """Keeps `last[(0, JoypadLowSensitivity)]` as a hook on the routine would, hooking it only when needed.

    The session calls `before_tick(holding)` before every `pyboy.tick` and `after_tick()` after it."""

    def __init__(self, pyboy: PyBoy, ram: RamMap, last: dict[tuple[int, int], int | None]) -> None:
        self.pyboy = pyboy
        self.ram = ram
        self.key = (0, ram.JoypadLowSensitivity)
        self.last = last
        # The return address of the routine's last run: which loop called it.
        self.caller = -1
        self.hooked = False
        self.spinning_loops = (ram.WaitForTextScrollButtonPress_polled, ram.HandleMenuInput_polled)
        self.holding = False  # a button is held during the tick under way
        self.hook()
        memory, registers = pyboy.memory, pyboy.register_file

        def text_box(_: object) -> None:
            line = memory[LY]
            if line < VBLANK_LY - VBLANK_MARGIN or VBLANK_LY <= line <= LAST_SAFE_LY:
                self._entered(ram.WaitForTextScrollButtonPress_polled)

        def delayed(_: object) -> None:
            sp = registers.SP
            if memory[sp] | memory[sp + 1] << 8 == ram.HandleMenuInput_loop2 and memory[LY] <= LAST_SAFE_LY:
                self._entered(ram.HandleMenuInput_polled)

        pyboy.hook_register(0, ram.WaitForTextScrollButtonPress, text_box, None)
        pyboy.hook_register(0, ram.DelayFrames_ret, delayed, None)

    def hook(self) -> None:
        if self.hooked:
            return
        pyboy, last, key, memory = self.pyboy, self.last, self.key, self.pyboy.memory
        registers = pyboy.register_file

        def record(_: object) -> None:  # a closure: it can run dozens of times a frame
            last[key] = pyboy.frame_count
            sp = registers.SP
            self.caller = memory[sp] | memory[sp + 1] << 8

        pyboy.hook_register(0, self.ram.JoypadLowSensitivity, record, None)
        self.hooked = True

    def unhook(self) -> None:
        if self.hooked:
            self.pyboy.hook_deregister(0, self.ram.JoypadLowSensitivity)
            self.hooked = False

    def before_tick(self, holding: bool) -> None:
        self.holding = holding
        if self.hooked:
            if self.last[self.key] == self.pyboy.frame_count - 1 and self._cannot_leave(holding):
                self.unhook()
        elif not self._cannot_leave(holding):
            self.hook()

    def after_tick(self) -> None:
        if not self.hooked:
            self.last[self.key] = self.pyboy.frame_count - 1

    def reset(self) -> None:
        """A state was loaded: the game may be anywhere, so the hook goes back on."""
        self.caller = -1
        self.hook()

    def _entered(self, loop: int) -> None:
        """A spinning loop begins, inside a tick: off with the hook if nothing can end the loop before the
        tick does (the tick's end then records the frame before it, as after a whole tick off)."""
        if self.hooked:
            caller, self.caller = self.caller, loop
            if self._cannot_leave(self.holding, entering=True):
                self.unhook()
            else:
                self.caller = caller

    def _cannot_leave(self, holding: bool, entering: bool = False) -> bool:
        """The game is in one of the two spinning loops and no button can end it during the next tick."""
        caller = self.caller
        if holding or caller not in self.spinning_loops:
            return False
        memory, ram = self.pyboy.memory, self.ram
        if memory[ram.wPartyMenuAnimMonEnabled]:
            return False  # each poll waits for a frame first: the loop does not spin
        if memory[ram.hJoy5] and not entering:
            return False  # the last poll reported a button: the loop may have ended
        pending = memory[ram.hJoyInput]
        if pending and (memory[ram.hJoy7] or pending & ~memory[ram.hJoyLast]):
            return False  # a press the polls have not seen yet, or held buttons that repeat
        return caller != ram.HandleMenuInput_polled or memory[ram.wMenuJoypadPollCount] != 1
