"""Thin Ray actor shells around the plain role classes (the ones `--local` runs in-process).

A shell builds its role inside the actor's own process (a PyBoy object cannot be pickled, so the emulator
must be created where it runs) and forwards calls to it. There is no business logic here: one generic
`call(method, *args)` on a base class, and one subclass per role so the Ray dashboard lists the engine's
structure by class name (EmulatorActor, VisionActor, ...). The handles give each call a task name
`<role>.<method>`, so the dashboard's task list reads as the verbs.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import ray

from engine.actors.handles import close_role
from engine.actors.heap import freeze_start_up
from engine.errors import EngineError
from engine.telemetry.tracing import TraceCarrier, continued


class RoleShell:
    def __init__(self, build: Callable[[], object]) -> None:
        # Tells this actor's life from the next one's: Ray re-creates a dead actor under the same handle,
        # and the conductor must roll back even when it never called the role while it was down.
        self.born = uuid.uuid4().hex
        self.failure: EngineError | None = None
        try:
            self.role = build()
            freeze_start_up()  # the actor's process is the role's: what it built lasts as long as it does
        except EngineError as exc:
            # Kept and raised by every call: an error escaping __init__ would reach the caller as an untyped
            # ActorDiedError (and print a worker traceback), losing e.g. a RomError's one-line message.
            self.failure = exc

    def call(self, method: str, *args: Any, trace: TraceCarrier | None = None) -> Any:
        """`trace`: the caller's trace context, so that spans made here (a model call) join its trace."""
        if self.failure is not None:
            raise self.failure
        with continued(trace):
            return getattr(self.role, method)(*args)

    def incarnation(self) -> str:
        return self.born

    def shutdown(self) -> None:
        if self.failure is None:
            close_role(self.role)


# num_cpus=0: the roles take turns (the conductor waits on each call), so reserving a CPU per actor would
# only stop seven actors from fitting on a small machine.
# One call at a time on the emulator, but `live_screen` answers from its own group while a long verb (a
# walk, a battle turn) runs: it only reads the PNG a paced session keeps, never PyBoy itself.
@ray.remote(num_cpus=0, concurrency_groups={"live": 1})  # type: ignore[call-overload]  # not in Ray's stubs
class EmulatorActor(RoleShell):
    @ray.method(concurrency_group="live")
    def live_screen(self) -> bytes:
        if self.failure is not None:
            return b""
        screen: bytes = self.role.live_screen()  # type: ignore[attr-defined]  # the role is an EmulatorRole
        return screen


@ray.remote(num_cpus=0)
class VisionActor(RoleShell):
    pass


@ray.remote(num_cpus=0)
class ObserverActor(RoleShell):
    pass


@ray.remote(num_cpus=0)
class StrategistActor(RoleShell):
    pass


@ray.remote(num_cpus=0)
class TacticianActor(RoleShell):
    pass


@ray.remote(num_cpus=0)
class ReflectionActor(RoleShell):
    pass


@ray.remote(num_cpus=0)
class CheckpointActor(RoleShell):
    pass


# Threaded: the tactician, the strategist and reflection (in its own thread) may all ask at once.
@ray.remote(num_cpus=0, max_concurrency=4)  # type: ignore[call-overload]  # not in Ray's stubs
class ModelGatewayActor(RoleShell):
    pass


# One call at a time: it is the only writer of the embedded Chroma directory.
@ray.remote(num_cpus=0)
class LessonMemoryActor(RoleShell):
    pass


ROLE_SHELLS: dict[str, Any] = {
    "emulator": EmulatorActor,
    "vision": VisionActor,
    "observer": ObserverActor,
    "strategist": StrategistActor,
    "tactician": TacticianActor,
    "reflection": ReflectionActor,
    "checkpoint": CheckpointActor,
    "gateway": ModelGatewayActor,
    "memory": LessonMemoryActor,
}
