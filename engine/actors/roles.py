"""The run's roles as the conductor holds them: one typed handle each, local or Ray alike."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from engine.actors.handles import RoleHandle
from engine.checkpointer.port import CheckpointPort
from engine.llm.port import GatewayPort
from engine.mechanics.port import EmulatorPort
from engine.memory.port import MemoryPort
from engine.observer.port import ObserverPort
from engine.reflection.port import ReflectionPort
from engine.strategist.port import StrategistPort
from engine.tactician.port import TacticianPort
from engine.vision.port import VisionPort


@dataclass(frozen=True)
class Roles:
    emulator: RoleHandle[EmulatorPort]
    vision: RoleHandle[VisionPort]
    observer: RoleHandle[ObserverPort]
    strategist: RoleHandle[StrategistPort]
    tactician: RoleHandle[TacticianPort]
    reflection: RoleHandle[ReflectionPort]
    checkpoint: RoleHandle[CheckpointPort]
    gateway: RoleHandle[GatewayPort]  # the model gateway: clients, breakers, cost ledger (a service)
    memory: RoleHandle[MemoryPort]  # lessons and the play clock (a service)

    def all(self) -> list[RoleHandle[Any]]:
        return [getattr(self, field.name) for field in fields(self)]


ROLE_NAMES = tuple(field.name for field in fields(Roles))
