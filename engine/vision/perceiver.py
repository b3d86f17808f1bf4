"""The Vision role: a `Perception` from a `Frame`, decoding only frames that changed."""

from __future__ import annotations

from engine.game.cartridge import Game
from engine.game.memory import MemoryImage
from engine.game.ram import RAM_MAPS, RamMap
from engine.game.state import decode_state
from engine.messages import Frame, Perception, RoleReport


class Vision:
    def __init__(self, game: Game) -> None:
        self.ram: RamMap = RAM_MAPS[game]
        self.last: Perception | None = None
        self.decoded = 0
        self.reused = 0

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

    def report(self) -> RoleReport:
        counters = {"decoded": float(self.decoded), "reused": float(self.reused)}
        return RoleReport(role="vision", healthy=True, counters=counters)
