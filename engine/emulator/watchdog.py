"""A wall-clock watchdog on PyBoy, so that a game crashed inside the emulator never hangs the engine.

A save state whose map script reads past its table crashes the game: the CPU runs from video RAM or the IO
registers, and PyBoy's `tick()` either never returns (an illegal opcode stops the CPU, so no frame ever
ends) or goes on making frames of a game that is gone. Waits counted in frames then never end, or end on
nonsense. PyBoy's tick releases the GIL, so this thread runs beside it: while a tick is in progress (the
session sets `ticking` around each one) it samples PyBoy's frame counter and the program counter four
times a second. When the frame counter has not moved for `freeze_seconds`, or the PC has been outside
ROM, WRAM and HRAM on every sample for that long, it records where, and takes the CPU back: a tight loop
(`di; jr -2`) written into WRAM and the PC pointed at it, so the pending tick runs out its frames and
returns. The game's state is lost either way; the session then raises GameFrozenError.

PyBoy also runs Python code inside `tick()` (its post-tick work), and an exception a signal handler raises
there is printed and dropped ("Exception ignored in ... _post_tick"): a handler that wants to stop the
program hands its exception to the ticking session instead (`hand_to_tick`), which raises it as the tick
returns.
"""

from __future__ import annotations

import threading
import time
import weakref
from dataclasses import dataclass
from typing import Any

SAMPLE_SECONDS = 0.25
PARKING = 0xC000  # the start of WRAM: the crashed game's data there is lost anyway
PARK_LOOP = bytes([0xF3, 0x18, 0xFE])  # di ; jr -2 (the jr jumps to itself)
# Where Red/Blue run code: the cartridge, work RAM (a few routines are copied there) and high RAM (the OAM
# DMA routine). Video RAM, external RAM, echo RAM, OAM and the IO registers hold no code of theirs.
CODE_REGIONS = ((0x0000, 0x8000), (0xC000, 0xE000), (0xFF80, 0xFFFF))
CLOSE_SECONDS = 2.0
_LIVE: weakref.WeakSet[Watchdog] = weakref.WeakSet()


@dataclass(frozen=True)
class Freeze:
    """Where the game froze: PyBoy's frame counter and the program counter when the limit was reached."""

    frame_count: int
    pc: int
    why: str


def runs_code(pc: int) -> bool:
    return any(start <= pc < end for start, end in CODE_REGIONS)


class Watchdog:
    """One thread per session. `ticking` and `freeze` are plain attributes: setting a flag around each
    tick costs nothing next to the frames it runs."""

    def __init__(self, pyboy: Any, freeze_seconds: float, *, sample_seconds: float = SAMPLE_SECONDS) -> None:
        self.ticking = False
        self.alarm = False  # something to raise as the tick returns: the freeze, or the interrupt
        self.freeze: Freeze | None = None
        self.interrupt: BaseException | None = None
        self._pyboy = pyboy
        self._limit = freeze_seconds
        self._period = sample_seconds
        self._closed = threading.Event()
        # A daemon: it never keeps the process alive, even if a session is dropped without being closed.
        self._thread = threading.Thread(target=self._watch, name="emulator-watchdog", daemon=True)
        self._thread.start()
        _LIVE.add(self)

    @property
    def alive(self) -> bool:
        return self._thread.is_alive()

    def close(self) -> None:
        _LIVE.discard(self)
        self._closed.set()
        if self._thread is not threading.current_thread():
            self._thread.join(CLOSE_SECONDS)

    def _watch(self) -> None:
        last_frame, still_since = -1, 0.0  # the frame counter, and since when it has stood there
        strange_since: float | None = None  # since when every sample found the PC outside code
        while not self._closed.wait(self._period):
            if not self.ticking:  # between ticks nothing is expected to move
                last_frame, strange_since = -1, None
                continue
            now = time.monotonic()
            frame, pc = self._pyboy.frame_count, self._pyboy.register_file.PC
            if frame != last_frame:
                last_frame, still_since = frame, now
            if runs_code(pc):
                strange_since = None
            elif strange_since is None:
                strange_since = now
            why = self._verdict(now - still_since, None if strange_since is None else now - strange_since)
            if why is not None:
                self._take_back(frame, pc, why)
                last_frame, strange_since = -1, None  # if the tick still does not return: again, later

    def _verdict(self, still: float, strange: float | None) -> str | None:
        if still >= self._limit:
            return f"no new frame for {self._limit:g} s"
        if strange is not None and strange >= self._limit:
            return f"the CPU ran outside ROM and RAM for {self._limit:g} s"
        return None

    def _take_back(self, frame: int, pc: int, why: str) -> None:
        if self.freeze is None:  # the first record says where it froze; a retry only takes back again
            self.freeze = Freeze(frame_count=frame, pc=pc, why=why)
            self.alarm = True
        memory = self._pyboy.memory
        for offset, byte in enumerate(PARK_LOOP):
            memory[PARKING + offset] = byte
        self._pyboy.register_file.PC = PARKING


def hand_to_tick(interrupt: BaseException) -> bool:
    """If a session is inside `pyboy.tick`, give it `interrupt` to raise as the tick returns; False if
    none is (the caller raises it itself)."""
    for watch in list(_LIVE):
        if watch.ticking:
            watch.interrupt = interrupt
            watch.alarm = True
            return True
    return False
