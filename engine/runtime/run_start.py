"""Where a run began: at power-on, or from a save state. Splits compare only runs that began alike, since a
run from a state in front of Brock and one from power-on time very different things."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Literal

from engine.frozen import Frozen


class RunStart(Frozen):
    kind: Literal["power_on", "state"]
    # A state is known by its bytes: two runs from one state compare even when the file was renamed.
    state_sha256: str | None = None
    state_name: str | None = None  # the file's name, for people

    @classmethod
    def power_on(cls) -> RunStart:
        return cls(kind="power_on")

    @classmethod
    def from_state(cls, path: Path) -> RunStart:
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        return cls(kind="state", state_sha256=digest, state_name=path.name)

    def same_as(self, other: RunStart) -> bool:
        return self.kind == other.kind and self.state_sha256 == other.state_sha256

    def words(self) -> str:
        if self.kind == "power_on":
            return "power-on"
        return f"state {self.state_name} ({(self.state_sha256 or '?')[:12]})"
