"""A headless, unthrottled PyBoy session with the few verbs the engine needs.

Frame-stepping loops (`run_until`) run here, next to the emulator, so that no caller ever pays one
round trip per frame.
"""

from __future__ import annotations

import hashlib
import io
import logging
import os
import time
import warnings
import weakref
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import NoReturn, Protocol, overload

import numpy as np

from engine.config import EmulatorConfig
from engine.emulator.errors import (
    DisplayError,
    EmulatorError,
    FrameBudgetExceeded,
    GameFrozenError,
    SaveStateError,
)
from engine.emulator.pacing import Pacer
from engine.emulator.png import encode_png
from engine.emulator.polls import JoypadPolls
from engine.emulator.rom import read_rom_file
from engine.emulator.state_check import check_state_belongs
from engine.emulator.state_file import Cartridge, export, missing_state, read_state
from engine.emulator.watchdog import Watchdog
from engine.emulator.wrapper import quiet_game_wrapper
from engine.game.buttons import Button
from engine.game.cartridge import Game, identify, read_header
from engine.game.errors import RomError
from engine.game.memory import DECODER_REGIONS, MemoryImage
from engine.game.ram import RAM_MAPS, RamMap

with warnings.catch_warnings():
    # pysdl2 announces which SDL binaries it found; headless sessions never open a window.
    warnings.simplefilter("ignore", UserWarning)
    from pyboy import PyBoy
    from pyboy.utils import PyBoyException, WindowEvent

log = logging.getLogger(__name__)

LIVE_SCREEN_SECONDS = 0.25  # four screens a second on the live page of a paced run
TICK_SLICE = 600  # the most frames one pyboy.tick runs for `tick` (~50 ms unpaced)
# What decides the picture on a DMG: tile data and maps, sprite attributes, LCD control/scroll/palettes.
PICTURE_REGIONS = ((0x8000, 0xA000), (0xFE00, 0xFEA0), (0xFF40, 0xFF4C))
_PRESS = {
    Button.A: WindowEvent.PRESS_BUTTON_A,
    Button.B: WindowEvent.PRESS_BUTTON_B,
    Button.START: WindowEvent.PRESS_BUTTON_START,
    Button.SELECT: WindowEvent.PRESS_BUTTON_SELECT,
    Button.UP: WindowEvent.PRESS_ARROW_UP,
    Button.DOWN: WindowEvent.PRESS_ARROW_DOWN,
    Button.LEFT: WindowEvent.PRESS_ARROW_LEFT,
    Button.RIGHT: WindowEvent.PRESS_ARROW_RIGHT,
}
_RELEASE = {
    Button.A: WindowEvent.RELEASE_BUTTON_A,
    Button.B: WindowEvent.RELEASE_BUTTON_B,
    Button.START: WindowEvent.RELEASE_BUTTON_START,
    Button.SELECT: WindowEvent.RELEASE_BUTTON_SELECT,
    Button.UP: WindowEvent.RELEASE_ARROW_UP,
    Button.DOWN: WindowEvent.RELEASE_ARROW_DOWN,
    Button.LEFT: WindowEvent.RELEASE_ARROW_LEFT,
    Button.RIGHT: WindowEvent.RELEASE_ARROW_RIGHT,
}


# Cartridge header byte 0x149 -> external RAM size (Pan Docs, "0149 - RAM Size").
_RAM_SIZES = {0: 0, 1: 0, 2: 0x2000, 3: 0x8000, 4: 0x20000, 5: 0x10000}


def battery_ram_size(rom: bytes) -> int:
    return _RAM_SIZES.get(rom[0x149], 0)


class LiveMemory(Protocol):
    """What a `run_until` predicate may look at: reads straight from the emulator."""

    @overload
    def __getitem__(self, address: int) -> int: ...
    @overload
    def __getitem__(self, addresses: slice) -> list[int]: ...


Predicate = Callable[[LiveMemory], bool]


class EmulatorSession:
    """Owns one PyBoy instance. Not thread-safe; one owner at a time (an actor, or the local engine)."""

    def __init__(
        self,
        rom_path: Path,
        *,
        hold_frames: int = 4,
        release_frames: int = 4,
        check_every: int = 2,
        game: Game | None = None,
        speed: float = 0.0,
        window: bool = False,
        freeze_seconds: float = 10.0,
    ) -> None:
        """Open a cartridge. `game` skips identification by title and assumes that game's RAM layout,
        for ROM hacks that keep Red/Blue's layout and for generated test cartridges. A game that crashed
        inside PyBoy raises GameFrozenError after `freeze_seconds` (engine.emulator.watchdog)."""
        self.rom_path = Path(rom_path)
        rom_bytes = read_rom_file(self.rom_path)
        header = read_header(rom_bytes)  # refuses anything that is not a Game Boy ROM
        self.game = game if game is not None else identify(rom_bytes).game
        self.ram_map: RamMap = RAM_MAPS[self.game]
        self.hold_frames = hold_frames
        self.release_frames = release_frames
        self.check_every = check_every
        self._rom = rom_bytes
        self.rom_sha256 = hashlib.sha256(rom_bytes).hexdigest()  # once: a checkpoint names its cartridge
        self.cartridge = Cartridge(title=header.title, sha256=self.rom_sha256)
        self._frame = 0
        # PyBoy frame of each tracked routine's last run; None: not since tracking began (or a load). A
        # restored record may be negative: it ran before this PyBoy's first frame.
        self._last_call_frame: dict[tuple[int, int], int | None] = {}
        self._polls: JoypadPolls | None = None  # JoypadLowSensitivity's record, once someone tracks it
        self._holding: set[Button] = set()  # buttons held down now
        self._changes = 0  # inputs sent, bytes written, states loaded: what changes the machine but frames
        self._regions: tuple[tuple[int, int], tuple[tuple[int, bytes], ...], MemoryImage | None] | None = None
        # An explicit, blank battery RAM keeps PyBoy from reading or writing a .ram file beside the ROM:
        # in-game saves live in save states and checkpoints instead.
        if window and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
            raise DisplayError("--window needs a display (neither DISPLAY nor WAYLAND_DISPLAY is set)")
        # A window shows only frames that were drawn; a paced run draws them too, for the live page's
        # screen (`live_screen`), which costs nothing when the run sleeps between frames anyway.
        self._render = window or speed > 0
        self._pacer = Pacer(speed) if speed > 0 else None
        self.live_screen = b""  # paced runs only: the screen as PNG, at most LIVE_SCREEN_SECONDS old
        self._live_at: float | None = None
        # (PyBoy frame, WindowEvent) of every input, when a benchmark asks for it: plain PyBoy can then
        # play the very same game, for a side-by-side speed figure (benchmarks/speed.py).
        self.input_log: list[tuple[int, int]] | None = None
        try:
            self._pyboy = PyBoy(
                str(self.rom_path),
                window="SDL2" if window else "null",
                sound_emulated=False,
                ram_file=io.BytesIO(bytes(battery_ram_size(rom_bytes))),
                log_level="ERROR",
            )
        except PyBoyException as exc:
            raise RomError(f"the emulator cannot load {self.rom_path}: {exc}") from exc
        self._pyboy.set_emulation_speed(0)
        quiet_game_wrapper(self._pyboy)
        self._watchdog = Watchdog(self._pyboy, freeze_seconds)
        self._frozen_at: int | None = None  # this session's frame where the game froze, until a state loads
        weakref.finalize(self, self._watchdog.close)  # a session dropped unclosed stops its thread too

    # -- lifecycle -----------------------------------------------------------------------------
    def close(self) -> None:
        self._watchdog.close()
        if self._pyboy is not None:
            self._pyboy.stop(save=False)
            self._pyboy = None

    def __enter__(self) -> EmulatorSession:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    @property
    def rom_bytes(self) -> bytes:
        """The cartridge image, as read when the session opened (the world model reads its maps)."""
        return self._rom

    @property
    def pyboy(self) -> PyBoy:
        """The underlying emulator, for tools that need more than these verbs (scenario builders). What
        they do with it is not seen here, so the RAM copies kept for the current frame are dropped."""
        self._changes += 1
        return self._live

    @property
    def _live(self) -> PyBoy:
        if self._pyboy is None:
            raise EmulatorError("the emulator session is closed")
        return self._pyboy

    # -- time --------------------------------------------------------------------------------------
    @property
    def frame(self) -> int:
        """Frames emulated by this session since it was opened (loading a state does not reset it)."""
        return self._frame

    def rewind_frame_counter(self, frames: int) -> None:
        """Set the frame counter to `frames`, as when a checkpoint is restored.

        PyBoy's save state holds the machine, not this count of frames the session ran, so loading a state
        leaves the counter where it was. The run's frame numbers (events, decisions, battle logs, the play
        clock) must go on from the checkpoint's instead: back on a session that played past it, forward on
        one just opened after a crash."""
        if frames < 0:
            raise ValueError(f"a frame counter cannot be negative ({frames})")
        self._frame = frames

    def tick(self, frames: int = 1) -> None:
        while frames > 0:  # in slices: a signal is only seen between two pyboy.tick calls
            count = min(frames, TICK_SLICE)
            frames -= count
            self._tick(count, self._render)
            if self._pacer is not None:
                self._pace(count)

    def _tick(self, frames: int, render: bool) -> None:
        """`pyboy.tick` under the watchdog (engine.emulator.watchdog)."""
        watch = self._watchdog
        if watch.alarm:
            self._alarm(self._frame)
        polls = self._polls
        if polls is not None:
            polls.before_tick(bool(self._holding))
        watch.ticking = True
        try:
            self._live.tick(frames, render, False)
        finally:
            watch.ticking = False
        if polls is not None:
            polls.after_tick()
        self._frame += frames
        if watch.alarm:
            self._alarm(self._frame)

    def _alarm(self, frame_now: int) -> NoReturn:
        """Raise what the watchdog has for the session: an interrupt a signal handler handed over during
        the tick, or the freeze (again at every tick until a state is loaded)."""
        watch = self._watchdog
        interrupt, watch.interrupt = watch.interrupt, None
        watch.alarm = watch.freeze is not None
        if interrupt is not None:
            raise interrupt
        raise self.frozen(frame_now)

    def frozen(self, frame_now: int) -> GameFrozenError:
        """The error for a game the watchdog found frozen during a tick: raised at the end of that tick and
        by every tick after it until a state is loaded (the game is gone). `frame_now`: this session's
        frame as the tick ended; the frames PyBoy made after the watchdog took it back are not the game's."""
        freeze = self._watchdog.freeze
        assert freeze is not None
        if self._frozen_at is None:
            self._frozen_at = frame_now - (self._live.frame_count - freeze.frame_count)
        return GameFrozenError(self._frozen_at, freeze.pc, freeze.why)

    def _pace(self, frames: int) -> None:
        """Sleep until `frames` are due, and keep `live_screen` fresh (read from another thread while a long
        verb such as a walk is still running)."""
        assert self._pacer is not None
        self._pacer.wait(frames)
        now = time.monotonic()
        if self._live_at is None or now - self._live_at >= LIVE_SCREEN_SECONDS:
            self._live_at = now
            self.live_screen = encode_png(np.array(self._live.screen.ndarray[:, :, :3], copy=True))

    def run_until(self, predicate: Predicate, max_frames: int, *, check_every: int | None = None) -> int:
        """Step frames until `predicate(memory)` holds; return the frames stepped.

        The predicate is checked before the first frame (a condition that already holds costs nothing)
        and then every `check_every` frames (default: the session's setting). Checking every frame
        costs ~15 % of emulation speed in PyBoy's per-call work; waits for menus and text lose nothing
        by checking every 2. Raises FrameBudgetExceeded after `max_frames` without success.
        """
        memory = self._live.memory
        tick, render = self._live.tick, self._render
        pace = self._pace if self._pacer is not None else None
        step = max(1, self.check_every if check_every is None else check_every)
        stepped = 0
        watch = self._watchdog  # `ticking` around each tick, its alarm looked at after it (see _tick)
        polls, holding = self._polls, bool(self._holding)  # no button changes during the wait
        if watch.alarm:
            self._alarm(self._frame)
        try:
            while not predicate(memory):
                if stepped >= max_frames:
                    raise FrameBudgetExceeded(max_frames, self._frame + stepped)
                count = step if stepped + step <= max_frames else max_frames - stepped
                if polls is not None:
                    polls.before_tick(holding)
                watch.ticking = True
                tick(count, render, False)
                watch.ticking = False
                if polls is not None:
                    polls.after_tick()
                stepped += count
                if watch.alarm:
                    self._alarm(self._frame + stepped)
                if pace is not None:
                    pace(count)
        finally:
            watch.ticking = False
            self._frame += stepped
        return stepped

    # -- input -------------------------------------------------------------------------------------
    def press(
        self, button: Button, *, hold_frames: int | None = None, release_frames: int | None = None
    ) -> None:
        """Hold a button for a few frames, then let go and wait a few frames (one clean press)."""
        hold = self.hold_frames if hold_frames is None else hold_frames
        release = self.release_frames if release_frames is None else release_frames
        self.hold(button)
        self.tick(max(1, hold))
        self.release(button)
        self.tick(release)

    def hold(self, button: Button) -> None:
        self._holding.add(Button(button))
        self._send(_PRESS[Button(button)])

    def release(self, button: Button) -> None:
        self._holding.discard(Button(button))
        self._send(_RELEASE[Button(button)])

    def _send(self, event: int) -> None:
        if self.input_log is not None:
            self.input_log.append((self._live.frame_count, event))
        self._changes += 1
        self._live.send_input(event)

    # -- code hooks --------------------------------------------------------------------------------
    def track_calls(self, bank: int, address: int) -> None:
        """Record the emulator frame whenever the game executes `bank:address` (a PyBoy hook: it fires
        inside fast-forwarding, so watching a routine costs no extra round trips)."""
        key = (bank, address)
        if key in self._last_call_frame:
            return
        self._last_call_frame[key] = None
        if key == (0, self.ram_map.JoypadLowSensitivity):
            self._polls = JoypadPolls(self._live, self.ram_map, self._last_call_frame)
            return
        pyboy, last = self._live, self._last_call_frame

        def record(called: tuple[int, int]) -> None:  # a closure: it runs up to ~50 times a frame
            last[called] = pyboy.frame_count

        pyboy.hook_register(bank, address, record, key)

    def call_ages(self) -> tuple[tuple[int, int, int], ...]:
        """(bank, address, frames since it last ran or -1) for each tracked routine: kept in checkpoints,
        because whether the game is polling the joypad right now decides when the executor presses, and
        so which random numbers the game draws next."""
        now = self._live.frame_count
        return tuple((bank, address, -1 if last is None else now - last)
                     for (bank, address), last in self._last_call_frame.items())  # fmt: skip

    def restore_call_ages(self, ages: tuple[tuple[int, int, int], ...]) -> None:
        """Put back `call_ages` after loading the state they were taken with (routines this session does
        not track are left out: its owner registers the ones it waits on)."""
        now = self._live.frame_count
        for bank, address, age in ages:
            if (bank, address) in self._last_call_frame:
                self._last_call_frame[(bank, address)] = None if age < 0 else now - age

    def polled_by_text_box(self) -> bool:
        """JoypadLowSensitivity last ran for a text box's ▼ (WaitForTextScrollButtonPress), not for a menu
        (HandleMenuInput_): a menu left drawn under a text box looks the same in RAM otherwise."""
        polls = self._polls
        return polls is not None and polls.caller == self.ram_map.WaitForTextScrollButtonPress_polled

    def frames_since_call(self, bank: int, address: int) -> int | None:
        """Frames since the tracked routine last ran; None if it has not run since tracking began."""
        last = self._last_call_frame[(bank, address)]
        return None if last is None else self._live.frame_count - last

    # -- memory ------------------------------------------------------------------------------------
    def read_u8(self, address: int) -> int:
        return int(self._live.memory[address])

    def read(self, address: int, length: int) -> bytes:
        return bytes(self._live.memory[address : address + length])

    def write_u8(self, address: int, value: int) -> None:
        """For scenario builders and tests; the engine itself only reads."""
        self._changes += 1
        self._live.memory[address] = value

    def memory_regions(self) -> tuple[tuple[int, bytes], ...]:
        """Copies of the regions decoders need, as (start, bytes). Kept until the machine changes (see
        `mark`): a decision often looks twice at one frame (the executor's last look, then the
        conductor's), and a copy is ~0.14 ms."""
        mark = self.mark()
        if self._regions is None or self._regions[0] != mark:
            regions = tuple((start, self.read(start, end - start)) for start, end in DECODER_REGIONS)
            self._regions = (mark, regions, None)
        return self._regions[1]

    def memory_image(self) -> MemoryImage:
        """The regions decoders need as one immutable image (kept as the regions are)."""
        regions = self.memory_regions()
        assert self._regions is not None
        mark, _, image = self._regions
        if image is None:
            image = MemoryImage.from_regions(regions)
            self._regions = (mark, regions, image)
        return image

    # -- picture -----------------------------------------------------------------------------------
    def frame_hash(self) -> str:
        """A cheap fingerprint of the picture: equal hashes mean an identical screen.

        It hashes what decides the picture (tile data, tile maps, sprites, LCD registers) rather than
        pixels, so it is exact without rendering every frame.
        """
        digest = hashlib.blake2b(digest_size=8)
        for start, end in PICTURE_REGIONS:
            digest.update(self.read(start, end - start))
        return digest.hexdigest()

    def render_frame(self) -> np.ndarray:
        """Step one frame with rendering on and return it as an RGB array (144, 160, 3), a copy.

        Frames are not rendered while fast-forwarding; look at the screen where the game waits for
        input, where one more frame changes nothing.
        """
        self._tick(1, True)
        return np.array(self._live.screen.ndarray[:, :, :3], copy=True)

    # -- save states -------------------------------------------------------------------------------
    def save_state(self) -> bytes:
        buffer = io.BytesIO()
        self._live.save_state(buffer)
        return buffer.getvalue()

    def export_state(self, machine: bytes | None = None) -> bytes:
        """A save state for a file a person keeps: it names this cartridge, so no other accepts it, and is
        packed (about 30 times smaller; `engine plain-state` turns it into one plain PyBoy loads). Of
        `machine` (a `save_state` taken earlier) if given, else of the game now."""
        return export(self.save_state() if machine is None else machine, self.cartridge)

    def mark(self) -> tuple[int, int]:
        """Equal marks: the machine did not change in between (no frame emulated, no input sent, no state
        loaded, no byte written, no one handed `pyboy`), so what was copied or saved at one serves the
        other."""
        return self._live.frame_count, self._changes

    def load_state(self, data: bytes) -> None:
        """Load a PyBoy save state; refuse one that is truncated or made with another cartridge.

        On refusal the session keeps the state it had before the call.
        """
        before = self.save_state()
        try:
            self._load_checked(data)
        except SaveStateError:
            self._restore(before)
            raise
        self.forget_calls()
        self._frozen_at = self._watchdog.freeze = None  # a frozen game is left behind: play on
        self._watchdog.alarm = self._watchdog.interrupt is not None

    def forget_calls(self) -> None:
        """Forget when the tracked routines last ran. Those records are frame numbers of this session's
        timeline, not part of PyBoy's state: after a load they would make what follows depend on what
        this session ran before (the executor waits on them before pressing a button)."""
        for key in self._last_call_frame:
            self._last_call_frame[key] = None
        if self._polls is not None:
            self._polls.reset()

    def _load_checked(self, data: bytes) -> None:
        self._changes += 1
        state = read_state(data)  # packed or plain, with or without the footer
        made_with = state.made_with
        if made_with is not None and made_with.sha256 != self.rom_sha256:
            raise SaveStateError(
                f"the save state was made with another cartridge ({made_with.title}, sha256 "
                f"{made_with.sha256[:12]}…), not this one ({self.cartridge.title}, {self.rom_sha256[:12]}…)"
            )
        data = state.machine
        buffer = io.BytesIO(data)
        try:
            self._live.load_state(buffer)
        except Exception as exc:  # PyBoy raises plain exceptions on malformed input
            raise SaveStateError(f"the save state is unreadable or truncated ({exc})") from exc
        if buffer.tell() != len(data):
            raise SaveStateError(
                f"the save state does not fit this cartridge ({len(data) - buffer.tell()} bytes left over)"
            )
        check_state_belongs(self.read, self._rom, self.ram_map)
        self._let_go()

    def _restore(self, data: bytes) -> None:
        self._changes += 1
        self._live.load_state(io.BytesIO(data))
        self._let_go()

    def _let_go(self) -> None:
        """A loaded state keeps the joypad as it was when saved, and a release sent just before a save is
        still queued then (PyBoy applies input at the next frame), so the state may hold a direction down
        that no one will release: the player would walk on by itself. Every button this session does not
        hold is released before the next frame."""
        for button in Button:
            if button not in self._holding:
                self._send(_RELEASE[button])

    def load_state_file(self, path: Path) -> None:
        try:
            data = Path(path).read_bytes()
        except FileNotFoundError as exc:
            raise SaveStateError(missing_state(Path(path))) from exc
        except IsADirectoryError as exc:
            raise SaveStateError(f"save state path is a directory, not a file: {path}") from exc
        except OSError as exc:
            raise SaveStateError(f"cannot read save state {path}: {exc.strerror}") from exc
        if not data:
            raise SaveStateError(f"the save state {path} is empty")
        try:
            self.load_state(data)
        except SaveStateError as exc:
            raise SaveStateError(f"{path}: {exc}") from exc


def open_session(rom_path: Path, config: EmulatorConfig, *, game: Game | None = None) -> EmulatorSession:
    """The one place a session is built from its config section."""
    return EmulatorSession(
        rom_path,
        hold_frames=config.hold_frames,
        release_frames=config.release_frames,
        check_every=config.check_every_frames,
        game=game,
        speed=config.speed,
        window=config.window,
        freeze_seconds=config.freeze_seconds,
    )


def check_state_file(rom_path: Path, state: Path, config: EmulatorConfig) -> None:
    """Refuse a save state this cartridge cannot play (unreadable, truncated, another cartridge's) before
    a run creates anything: loads it once in a throwaway session."""
    with open_session(rom_path, config) as session:
        session.load_state_file(state)
