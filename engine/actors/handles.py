"""How the conductor reaches a role: `handle.call` is the role's typed interface and waits for each answer;
`handle.tell` has the same verbs but only sends (a notification: its failure is logged, never raised into
the game loop). `LocalHandle` calls a plain object in this process, `RayHandle` (engine.actors.ray_handles)
an actor; the conductor cannot tell them apart, which is the point.

    handle.call.advance()                       # -> GameState, as EmulatorPort.advance says
    handle.tell.stepped(before, choice, outcome, after)
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, Generic, Protocol, TypeVar, cast

log = logging.getLogger(__name__)

Port = TypeVar("Port", covariant=True)
Target = TypeVar("Target")


class RoleHandle(Protocol[Port]):
    role: str

    @property
    def call(self) -> Port: ...

    @property
    def tell(self) -> Port: ...

    def close(self) -> None: ...

    def incarnation(self) -> str:
        """Which life of the role answers: it changes when the role's actor was re-created."""
        ...


class VerbProxy:
    """Turns `proxy.verb(*args)` into `send(verb, args)`: the one place a verb's name becomes a string."""

    def __init__(self, send: Callable[[str, tuple[Any, ...]], Any]) -> None:
        self._send = send

    def __getattr__(self, verb: str) -> Callable[..., Any]:
        if verb.startswith("_"):
            raise AttributeError(verb)
        return lambda *args: self._send(verb, args)


class LocalHandle(Generic[Target]):
    def __init__(self, role: str, target: Target) -> None:
        self.role = role
        self.target = target

    @property
    def call(self) -> Target:
        return self.target

    @property
    def tell(self) -> Target:
        return cast(Target, VerbProxy(self._notify))

    def _notify(self, verb: str, args: tuple[Any, ...]) -> None:
        try:
            getattr(self.target, verb)(*args)
        except Exception:  # a notification never stops the game loop; the failure is logged
            log.exception("%s.%s failed", self.role, verb)

    def close(self) -> None:
        close_role(self.target)

    def incarnation(self) -> str:
        return "local"  # an in-process role dies only with the whole engine


def close_role(target: object) -> None:
    """Release what a role holds (the emulator's PyBoy, the checkpoint timer), whichever verb it uses."""
    closer = getattr(target, "close", None) or getattr(target, "stop", None)
    if closer is not None:
        closer()


def screen_feed(handle: Any) -> Callable[[], bytes]:
    """A way to read the emulator's live screen (`EmulatorPort.live_screen`) from another thread while the
    role is busy: straight from the object in this process, or from the actor's own concurrency group on
    Ray. Unwraps a traced handle: four reads a second are no spans of a decision."""
    inner = getattr(handle, "inner", handle)
    actor = getattr(inner, "actor", None)
    if actor is None:
        return lambda: bytes(inner.call.live_screen())

    def from_the_actor() -> bytes:
        import ray

        return bytes(ray.get(actor.live_screen.remote(), timeout=5.0))

    return from_the_actor
