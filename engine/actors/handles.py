"""How the conductor talks to a role: `call` waits for the answer, `tell` does not (notifications up).

The local handle calls the plain object directly; the Ray handle (engine.actors.ray_handles) sends the
same call to an actor. The conductor cannot tell them apart, which is the point.
"""

from __future__ import annotations

import logging
from typing import Any, Protocol

log = logging.getLogger(__name__)


class RoleHandle(Protocol):
    role: str

    def call(self, method: str, *args: Any) -> Any: ...

    def tell(self, method: str, *args: Any) -> None: ...

    def close(self) -> None: ...

    def incarnation(self) -> str:
        """Which life of the role answers: it changes when the role's actor was re-created."""
        ...


class LocalHandle:
    def __init__(self, role: str, target: object) -> None:
        self.role = role
        self.target = target

    def call(self, method: str, *args: Any) -> Any:
        return getattr(self.target, method)(*args)

    def tell(self, method: str, *args: Any) -> None:
        try:
            getattr(self.target, method)(*args)
        except Exception:  # a notification never stops the game loop; the failure is logged
            log.exception("%s.%s failed", self.role, method)

    def close(self) -> None:
        close_role(self.target)

    def incarnation(self) -> str:
        return "local"  # an in-process role dies only with the whole engine


def close_role(target: object) -> None:
    """Release what a role holds (the emulator's PyBoy, the checkpoint timer), whichever verb it uses."""
    closer = getattr(target, "close", None) or getattr(target, "stop", None)
    if closer is not None:
        closer()
