"""The Reflection role's verbs."""

from __future__ import annotations

from typing import Protocol

from engine.messages import BattleRecord, RoleReport
from engine.reflection.report import ReflectionReport


class ReflectionPort(Protocol):
    def receive(self, record: BattleRecord) -> str: ...
    def reflect_now(self, log_path: str) -> ReflectionReport: ...
    def settle(self, timeout: float = 60.0) -> bool: ...
    def report(self) -> RoleReport: ...
