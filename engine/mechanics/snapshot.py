"""The emulator's part of a checkpoint: PyBoy's raw save state plus the little the role keeps beside it.

A checkpoint stores the two apart: the state bytes in a binary file of their own (never base64 inside JSON,
never a pickle), the rest as JSON. `to_json` and `from_parts` are the two halves of that split.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from engine.frozen import Frozen
from engine.game.models import GameState


class EmulatorSnapshot(Frozen):
    state: bytes  # PyBoy's save state, as `EmulatorSession.save_state` wrote it
    frames: int = Field(ge=0)  # the session's frame counter: not part of PyBoy's state
    last_in_battle: GameState | None = None  # the executor's last look inside a battle, for its outcome
    # (bank, address, frames since the routine last ran or -1): the session's joypad-poll records
    call_ages: tuple[tuple[int, int, int], ...] = ()

    def to_json(self) -> dict[str, Any]:
        """Everything but the state bytes, JSON-ready."""
        return self.model_dump(mode="json", exclude={"state"})

    @classmethod
    def from_parts(cls, meta: dict[str, Any], state: bytes) -> EmulatorSnapshot:
        """The snapshot again from `to_json`'s dict and the state bytes stored beside it."""
        return cls.model_validate({**meta, "state": state})
