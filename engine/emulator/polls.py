"""When the game last ran JoypadLowSensitivity, at a fraction of what a plain hook costs.

Every text box and menu waits for a button through JoypadLowSensitivity, and the engine presses only once
the game has polled it in the last frames (see the executor). A PyBoy hook on the routine gives that frame
exactly, but two of its callers spin without waiting for the next frame: WaitForTextScrollButtonPress (a
text box's ▼) and HandleMenuInput_ (every menu) call it some 40 to 70 times a frame, and each call leaves
PyBoy's inner loop for Python (about a microsecond). Over power-on to Misty that was a million calls, a
tenth of the emulation time.

Neither loop can end without a button: WaitForTextScrollButtonPress leaves on A or B, HandleMenuInput_ on a
watched key or after its single poll when wMenuJoypadPollCount is 1 (pret home/joypad2.asm and
home/window.asm). So when the routine's last run came from one of those loops in the last frame, no button
is held, and the game's own joypad bytes are clear, the game will go on calling it through every frame of
the next tick: the hook is taken off for that tick, and the frame before the tick's end is recorded as
the routine's last run, which is what the hook would have recorded. It goes back on before a tick in which
a button is held (or after a state is loaded), so the frame a loop ends on is seen by the hook itself.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

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
        self.hook()

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

    def _cannot_leave(self, holding: bool) -> bool:
        """The game is in one of the two spinning loops and no button can end it during the next tick."""
        caller = self.caller
        if holding or caller not in self.spinning_loops:
            return False
        memory, ram = self.pyboy.memory, self.ram
        if memory[ram.hJoyInput] or memory[ram.hJoyHeld]:
            return False  # a button the game read last frame may still end the loop
        return caller != ram.HandleMenuInput_polled or memory[ram.wMenuJoypadPollCount] != 1
