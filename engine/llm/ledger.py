"""The cost ledger: what every model call cost, from the usage numbers the provider reported, and the
rolling hourly and daily budgets the router checks before a call."""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from pydantic import Field

from engine.config import ModelTierConfig
from engine.frozen import Frozen
from engine.llm.wire import Usage

HOUR = 3600.0
DAY = 86400.0


def call_cost(tier: ModelTierConfig, usage: Usage) -> float:
    """USD for one call at the tier's configured prices (per million tokens)."""
    return (
        usage.input_tokens * tier.price_input_per_mtok + usage.output_tokens * tier.price_output_per_mtok
    ) / 1_000_000


class TierUsage(Frozen):
    calls: int = 0
    tokens_in: int = 0
    tokens_out: int = 0
    cost_usd: float = 0.0


class UsageReport(Frozen):
    """What a run's model use came to: the summary, `engine status` and the metrics show these."""

    kind: str = "usage_report"
    calls: int = 0
    tokens_in: int = 0
    tokens_out: int = 0
    cost_usd: float = 0.0
    by_tier: dict[str, TierUsage] = Field(default_factory=dict)
    fallbacks: int = 0  # asks that ended on the rule-based tier although a model tier was wanted
    step_downs: int = 0  # times the router took a cheaper tier than wanted (budget, breaker, failure)
    invalid_answers: int = 0
    repairs: int = 0  # repair prompts sent
    spent_last_hour_usd: float = 0.0
    spent_last_day_usd: float = 0.0
    log_lines_lost: int = 0  # llm.jsonl entries a failed append lost (a full disk): the answers were kept


@dataclass(frozen=True)
class Spend:
    at: float
    cost_usd: float


class LedgerSnapshot(Frozen):
    tiers: dict[str, TierUsage]
    recent: tuple[tuple[float, float], ...]  # (age in seconds, USD) of each spend of the last day


class CostLedger:
    def __init__(
        self,
        hourly_usd: float | None = None,
        daily_usd: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.hourly_usd = hourly_usd
        self.daily_usd = daily_usd
        self.clock = clock
        self._recent: deque[Spend] = deque()  # the last day's spending, oldest first
        self._tiers: dict[str, TierUsage] = {}
        self._lock = threading.Lock()  # the gateway answers several roles at once

    def record(self, tier_name: str, tier: ModelTierConfig, usage: Usage) -> float:
        cost = call_cost(tier, usage)
        with self._lock:
            self._recent.append(Spend(self.clock(), cost))
            old = self._tiers.get(tier_name, TierUsage())
            self._tiers[tier_name] = TierUsage(
                calls=old.calls + 1,
                tokens_in=old.tokens_in + usage.input_tokens,
                tokens_out=old.tokens_out + usage.output_tokens,
                cost_usd=old.cost_usd + cost,
            )
        return cost

    def spent(self, window_s: float) -> float:
        with self._lock:
            now = self.clock()
            while self._recent and now - self._recent[0].at > DAY:
                self._recent.popleft()
            return sum(spend.cost_usd for spend in self._recent if now - spend.at <= window_s)

    def over_budget(self, estimate_usd: float) -> str | None:
        """Why a call estimated at `estimate_usd` would break a budget, or None if it fits."""
        for label, limit, window in (("hourly", self.hourly_usd, HOUR), ("daily", self.daily_usd, DAY)):
            if limit is None:
                continue
            spent = self.spent(window)
            if spent + estimate_usd > limit:
                return f"{label} budget ${limit:g}: ${spent:.4f} spent, this call ~${estimate_usd:.4f}"
        return None

    def totals(self) -> dict[str, TierUsage]:
        with self._lock:
            return dict(self._tiers)

    def empty(self) -> bool:
        """Nothing recorded yet (a ledger just built)."""
        with self._lock:
            return not self._tiers and not self._recent

    def snapshot(self) -> LedgerSnapshot:
        """Per-tier totals and the last day's spends. A spend's time is kept as its age in seconds: clock
        readings (monotonic) mean nothing in another process."""
        with self._lock:
            now = self.clock()
            return LedgerSnapshot(
                tiers=dict(self._tiers),
                recent=tuple((now - spend.at, spend.cost_usd) for spend in self._recent),
            )

    def restore(self, snapshot: LedgerSnapshot) -> None:
        """Take a snapshot's totals and spends, the spends placed at their ages before this ledger's
        clock now, so the hourly and daily budgets count them as before."""
        with self._lock:
            now = self.clock()
            self._tiers = dict(snapshot.tiers)
            self._recent = deque(Spend(now - age, cost) for age, cost in snapshot.recent)
