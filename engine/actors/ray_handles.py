"""`RoleHandle` over a Ray actor: the conductor's calls become actor calls with the same results and errors.

Errors keep their class across the boundary: a role raising an `EngineError` subclass reaches the caller
as that very class (not Ray's wrapper), so the conductor decides what to do exactly as it does in-process;
a role whose actor is gone raises `RoleDiedError` naming the role. A call that does not answer within the
handle's timeout kills the actor (Ray re-creates it) and raises `RoleDiedError` too: a hung role is then
rolled back like a dead one, rather than hanging the run.
"""

from __future__ import annotations

import logging
import threading
from typing import Any, Generic, TypeVar, cast

import ray
from ray.actor import ActorHandle
from ray.exceptions import GetTimeoutError, RayActorError, RayTaskError

from engine.actors.errors import RoleDiedError
from engine.actors.handles import VerbProxy
from engine.actors.roles import Roles
from engine.errors import EngineError
from engine.telemetry.tracing import trace_carrier

log = logging.getLogger("engine.actors")
Port = TypeVar("Port")
DRAIN_SECONDS = 10.0
SHUTDOWN_SECONDS = 10.0


DETAIL_CHARS = 160  # Ray's messages run long; logs and rollback lines keep their start


def _first_line(text: str) -> str:
    line = text.strip().splitlines()[0] if text.strip() else "no detail"
    return line if len(line) <= DETAIL_CHARS else line[: DETAIL_CHARS - 1] + "…"


def resolve(ref: ray.ObjectRef[Any], role: str, timeout: float | None = None) -> Any:
    """`ray.get` with the engine's error mapping (see the module docstring)."""
    try:
        return ray.get(ref, timeout=timeout)
    except RayTaskError as exc:
        if isinstance(exc.cause, EngineError):
            raise exc.cause from exc  # the chained RayTaskError keeps the remote traceback for the log
        raise
    except RayActorError as exc:
        raise RoleDiedError(role, _first_line(str(exc))) from exc


class RayHandle(Generic[Port]):
    def __init__(self, role: str, actor: ActorHandle[Any], timeout: float | None = None) -> None:
        self.role = role
        self.actor = actor
        self.timeout = timeout  # seconds a call may take (runtime.call_timeout_seconds); None: no bound
        self._pending: list[tuple[str, ray.ObjectRef[Any]]] = []  # notifications sent, results not yet seen
        self._methods: dict[str, Any] = {}
        self._lock = threading.Lock()  # the conductor's status() calls from another thread
        # References the driver must hold while the actor may be re-created (its constructor reads them).
        self.kept: tuple[object, ...] = ()

    def __getstate__(self) -> dict[str, Any]:
        # A copy sent to another actor (the conductor's) starts with its own bookkeeping.
        return {"role": self.role, "actor": self.actor, "timeout": self.timeout}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.role, self.actor, self.timeout = state["role"], state["actor"], state.get("timeout")
        self._pending, self._methods, self._lock = [], {}, threading.Lock()
        self.kept = ()

    def _remote(self, method: str) -> Any:
        remote: Any = self._methods.get(method)
        if remote is None:
            # Named per verb, so the dashboard's task list reads "emulator.advance", not "call".
            remote = self.actor.call.options(name=f"{self.role}.{method}")
            self._methods[method] = remote
        return remote

    @property
    def call(self) -> Port:
        return cast(Port, VerbProxy(self._call))

    @property
    def tell(self) -> Port:
        return cast(Port, VerbProxy(self._tell))

    def _call(self, method: str, args: tuple[Any, ...]) -> Any:
        self._reap()
        ref = self._remote(method).remote(method, *args, trace=trace_carrier())
        try:
            return resolve(ref, self.role, self.timeout)
        except GetTimeoutError:
            # Hung (a game frozen past the emulator's own watchdog, a deadlock): its state cannot be trusted
            # and its thread cannot be stopped, so the process goes; Ray re-creates the actor.
            ray.kill(self.actor, no_restart=False)
            detail = f"no answer to {method} within {self.timeout:.0f} s: killed, so that Ray re-creates it"
            log.error("the %s actor: %s", self.role, detail)
            raise RoleDiedError(self.role, detail) from None

    def incarnation(self) -> str:
        remote: Any = self.actor.incarnation.options(name=f"{self.role}.incarnation")
        return str(resolve(remote.remote(), self.role))

    def _tell(self, method: str, args: tuple[Any, ...]) -> None:
        self._reap()
        ref = self._remote(method).remote(method, *args, trace=trace_carrier())
        with self._lock:
            self._pending.append((method, ref))

    def _reap(self, timeout: float = 0.0) -> None:
        """Log the failures of notifications that have finished; keep the ones still running."""
        with self._lock:
            pending, self._pending = self._pending, []
        if not pending:
            return
        refs = [ref for _, ref in pending]
        done, _ = ray.wait(refs, num_returns=len(refs), timeout=timeout)
        finished = set(done)
        for method, ref in pending:
            if ref in finished:
                try:
                    resolve(ref, self.role)
                except Exception as exc:  # a notification never stops the game loop; the failure is logged
                    log.error("%s.%s failed: %s", self.role, method, exc)
        with self._lock:
            self._pending[:0] = [(method, ref) for method, ref in pending if ref not in finished]

    def drain(self, timeout: float = DRAIN_SECONDS) -> None:
        self._reap(timeout)
        with self._lock:
            pending, self._pending = self._pending, []
        for method, _ in pending:
            log.warning("%s.%s still running after %.0f s: not waiting for it", self.role, method, timeout)

    def close(self) -> None:
        """Let the role release what it holds (PyBoy, its timer), then end the actor."""
        self.drain()
        try:
            ray.get(self.actor.shutdown.remote(), timeout=SHUTDOWN_SECONDS)
        except Exception as exc:  # ending anyway: the kill below is what frees the process
            log.debug("%s did not shut down cleanly: %s", self.role, exc)
        ray.kill(self.actor, no_restart=True)


def drain_notifications(roles: Roles) -> None:
    for handle in roles.all():
        if isinstance(handle, RayHandle):
            handle.drain()


def close_all(roles: Roles, timeout: float = SHUTDOWN_SECONDS) -> None:
    """`close` for every role at once: the shutdowns run in parallel under one deadline, then the kills."""
    handles: list[RayHandle[Any]] = [handle for handle in roles.all() if isinstance(handle, RayHandle)]
    for handle in handles:
        handle.drain(min(timeout, DRAIN_SECONDS))
    refs: list[ray.ObjectRef[Any]] = [handle.actor.shutdown.remote() for handle in handles]
    done, _ = ray.wait(refs, num_returns=len(refs), timeout=timeout)
    for handle, ref in zip(handles, refs, strict=True):
        if ref not in done:
            log.debug("%s did not shut down within %.0f s: killing it", handle.role, timeout)
        ray.kill(handle.actor, no_restart=True)
