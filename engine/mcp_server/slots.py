"""Save states kept by name for the session: `save_state` and `load_state` pass a name, not the bytes (a
state is kilobytes an agent has no use for in its context). The game's first state is kept as "start"."""

from __future__ import annotations

import re

from engine.play.errors import PlayError

MAX_SLOTS = 64
START = "start"
NAME = re.compile(r"^[A-Za-z0-9_.-]{1,40}$")


class Slots:
    def __init__(self) -> None:
        self._states: dict[str, bytes] = {}

    def keep(self, name: str, state: bytes) -> None:
        check_name(name)
        if name not in self._states and len(self._states) >= MAX_SLOTS:
            raise PlayError(f"{MAX_SLOTS} states are kept already: save over one of {self.names()}")
        self._states[name] = state

    def get(self, name: str) -> bytes:
        check_name(name)
        found = self._states.get(name)
        if found is None:
            raise PlayError(f"no state saved as {name!r} (saved: {self.names() or 'none'})")
        return found

    def names(self) -> str:
        return ", ".join(sorted(self._states))


def check_name(name: str) -> None:
    if not NAME.match(name):
        raise PlayError(f"a state's name is 1 to 40 letters, digits, '_', '.' or '-', not {name!r}")
