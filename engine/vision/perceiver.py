"""The Vision role: a `Perception` from a `Frame`, decoding only frames that changed; and a
`ScreenReading` from the screen's pixels alone, reading only screens that changed."""

from __future__ import annotations

from collections.abc import Callable

from engine.game.cartridge import Game
from engine.game.memory import MemoryImage
from engine.game.ram import RAM_MAPS, RamMap
from engine.game.state import decode_state
from engine.messages import Frame, Perception, RoleReport
from engine.vision.errors import VisionError
from engine.vision.screen.reader import ScreenReader
from engine.vision.screen.reading import ScreenReading

# The cartridge's bytes, or where to get them (the factory's RomInHand or StoredRom): read once, at the
# first screen, since only a pure-vision run needs the font and the scripted test emulators have no file.
RomBytes = bytes | Callable[[], bytes | None] | None


class Vision:
    def __init__(self, game: Game, rom: RomBytes = None) -> None:
        self.ram: RamMap = RAM_MAPS[game]
        self.last: Perception | None = None
        self.decoded = 0
        self.reused = 0
        self._rom = rom
        self._reader: ScreenReader | None = None
        self._last_screen: tuple[bytes, ScreenReading] | None = None
        self.screens_read = 0
        self.screens_reused = 0

    def perceive(self, frame: Frame) -> Perception:
        """The differential gate: a frame whose regions are byte-for-byte those of the last one gets the
        last decode back (the game was waiting and nothing moved)."""
        if self.last is not None and self.last.digest == frame.digest:
            self.reused += 1
            return self.last.model_copy(update={"frame": frame.number, "reused": True})
        state = decode_state(MemoryImage.from_regions(frame.regions), self.ram)
        self.decoded += 1
        self.last = Perception(frame=frame.number, digest=frame.digest, state=state)
        return self.last

    def read_screen(self, png: bytes) -> ScreenReading:
        """The screen read from its pixels alone (engine.vision.screen); the same PNG bytes as last time
        get the last reading back."""
        if self._last_screen is not None and self._last_screen[0] == png:
            self.screens_reused += 1
            return self._last_screen[1]
        reading = self._screen_reader().read(png)
        self.screens_read += 1
        self._last_screen = (png, reading)
        return reading

    def _screen_reader(self) -> ScreenReader:
        if self._reader is None:
            rom = self._rom() if callable(self._rom) else self._rom
            if rom is None:
                raise VisionError("no cartridge to read the font from: the Vision role was given no ROM")
            self._reader = ScreenReader.from_rom(rom)
        return self._reader

    def report(self) -> RoleReport:
        counters = {
            "decoded": float(self.decoded),
            "reused": float(self.reused),
            "screens_read": float(self.screens_read),
            "screens_reused": float(self.screens_reused),
        }
        return RoleReport(role="vision", healthy=True, counters=counters)
