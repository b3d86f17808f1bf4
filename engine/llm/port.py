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


class LiveTiers:
    """The gateway's paid tiers with a client, asked once (they do not change while the gateway lives);
    `forget` after a restore, when the gateway may have been re-created. None has none."""

    def __init__(self, gateway: GatewayPort | None) -> None:
        self.gateway = gateway
        self._tiers: tuple[Tier, ...] | None = None

    def __call__(self) -> tuple[Tier, ...]:
        if self._tiers is None:
            self._tiers = tuple(self.gateway.available()) if self.gateway is not None else ()
        return self._tiers

    def forget(self) -> None:
        self._tiers = None
