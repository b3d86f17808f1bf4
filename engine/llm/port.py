"""The model gateway's verbs, as the roles that ask models see them."""

from __future__ import annotations

from typing import Protocol

from engine.config import Tier
from engine.llm.gateway import GatewaySnapshot
from engine.llm.ledger import UsageReport
from engine.llm.tasks import ModelOutcome, ModelTask
from engine.messages import RoleReport


class GatewayPort(Protocol):
    def available(self) -> tuple[Tier, ...]: ...
    def ask(self, task: ModelTask) -> ModelOutcome: ...
    def usage(self) -> UsageReport: ...
    def snapshot(self) -> GatewaySnapshot: ...
    def restore(self, snapshot: GatewaySnapshot) -> None: ...
    def report(self) -> RoleReport: ...
