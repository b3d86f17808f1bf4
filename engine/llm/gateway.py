"""The model gateway: the one owner of a run's model clients, circuit breakers, cost ledger, budgets and
call log. On Ray it is one actor per run, so a dead provider trips one breaker for every role and budgets
are global; with `--local` it is a plain object.

`ask` walks the fallback chain from the wanted tier down (thinking → acting → rule_based) and never raises
because of a model: a tier that is missing, over budget, behind an open breaker, failing or answering
nonsense is stepped over with its reason, and the rule-based tier (answer None) is always last.

Text from outside (a response, an exception's message, which can carry an HTTP error body) is redacted
here, where it enters the engine, before it is parsed, logged or handed to a role: a key a model or a
proxy echoes back never reaches decisions, checkpoints, lessons or logs.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from pathlib import Path

import pybreaker
from opentelemetry.trace import Span

from engine.config import LLMConfig, ModelsConfig, ModelTierConfig, Tier
from engine.frozen import Frozen
from engine.llm.answers import ANSWERS, Answer, answer_schema
from engine.llm.breakers import BreakerBoard
from engine.llm.calllog import CallLog
from engine.llm.clients import ModelClient, build_client
from engine.llm.errors import AnswerInvalid, LLMError
from engine.llm.ledger import DAY, HOUR, CostLedger, LedgerSnapshot, UsageReport, call_cost
from engine.llm.redact import Redactor
from engine.llm.retries import retrying
from engine.llm.router import tiers_from
from engine.llm.spans import (
    ATTR_ANSWER,
    ATTR_ATTEMPT,
    ATTR_BATTLE_ID,
    ATTR_COST,
    ATTR_ROLE,
    ATTR_TIER,
    CALL_SPAN,
)
from engine.llm.structured import parse_answer, repair_prompt
from engine.llm.tasks import ModelOutcome, ModelTask
from engine.llm.wire import ModelMessage, ModelRequest, ModelResponse, Usage
from engine.messages import RoleReport, Selection
from engine.telemetry.metrics import RunMetrics
from engine.telemetry.tracing import Tracing

log = logging.getLogger("engine.llm")
PAID_TIERS: tuple[Tier, ...] = ("acting", "thinking")
CHARS_PER_TOKEN = 4  # rough, for estimates only: the ledger counts what the provider reports
TOKENS_PER_IMAGE = 100  # a 160x144 screenshot is small
SMOOTHING = 0.3  # weight of the newest observation in the latency and answer-length estimates


def secrets_from(models: ModelsConfig, environ: Mapping[str, str]) -> dict[str, str]:
    """The keys the configured tiers name, read from `environ` (the driver's environment)."""
    names = {tier.api_key_env for tier in _paid(models).values() if tier.api_key_env}
    return {name: environ[name] for name in sorted(names) if environ.get(name)}


def _paid(models: ModelsConfig) -> dict[Tier, ModelTierConfig]:
    return {name: tier for name in PAID_TIERS if (tier := getattr(models, name)) is not None}


def live_tiers(models: ModelsConfig, secrets: Mapping[str, str]) -> tuple[Tier, ...]:
    """The paid tiers whose key is there (or that need none)."""
    return tuple(
        name
        for name, tier in _paid(models).items()
        if tier.api_key_env is None or tier.api_key_env in secrets
    )


def describe_tiers(models: ModelsConfig, secrets: Mapping[str, str]) -> str:
    """The one start-up line saying which tiers are live."""
    live, missing = [], []
    for name, tier in _paid(models).items():
        if tier.api_key_env is None or tier.api_key_env in secrets:
            live.append(f"{name} = {tier.provider} {tier.model}")
        else:
            missing.append(f"{name} ({tier.api_key_env} not set)")
    if not live:
        why = ", ".join(missing) if missing else "no model tiers configured"
        return f"models: no API key found [{why}]: every decision uses the free rule-based tier"
    off = f"; off: {', '.join(missing)}" if missing else ""
    return f"models: {'; '.join(live)}; rule_based as fallback{off}"


class GatewaySnapshot(Frozen):
    ledger: LedgerSnapshot
    counts: dict[str, int]
    breakers: dict[str, str]  # endpoint -> pybreaker state name
    latency: dict[Tier, float]  # smoothed seconds a call
    answer_tokens: dict[str, float]  # answer kind -> smoothed output tokens


class ModelGateway:
    def __init__(
        self,
        models: ModelsConfig,
        llm: LLMConfig,
        secrets: Mapping[str, str],
        *,
        log_path: Path | None = None,
        metrics: RunMetrics | None = None,
        strict: bool = False,
        clock: Callable[[], float] = time.monotonic,
        tracing: Tracing | None = None,
    ) -> None:
        self.llm = llm
        # Model calls are spans in the asking decision's trace (see engine.llm.spans); off: a no-op tracer.
        self.tracing = tracing or Tracing.disabled()
        self.tiers = _paid(models)
        self.metrics = metrics
        self.ledger = CostLedger(llm.budget_hourly_usd, llm.budget_daily_usd, clock)
        self.breakers = BreakerBoard(llm.breaker_failures, llm.breaker_reset_seconds, metrics)
        self.redactor = Redactor(secrets.values())
        self.calls = CallLog(log_path, self.redactor)
        self.clients: dict[Tier, ModelClient] = {}
        self.missing: dict[Tier, str] = {}
        for name, tier in self.tiers.items():
            self._build(name, tier, secrets, strict)
        self._latency: dict[Tier, float] = {}
        self._answer_tokens: dict[str, float] = {}
        self._counts = {"asks": 0, "fallbacks": 0, "step_downs": 0, "invalid_answers": 0, "repairs": 0}
        self._over_budget: set[Tier] = set()
        self._lock = threading.Lock()

    def _build(self, name: Tier, tier: ModelTierConfig, secrets: Mapping[str, str], strict: bool) -> None:
        key = secrets.get(tier.api_key_env) if tier.api_key_env else None
        if tier.api_key_env and key is None:
            self.missing[name] = f"{tier.api_key_env} not set"
            return
        try:
            provider = self.tracing.provider if self.tracing.enabled else None
            self.clients[name] = build_client(tier, key, strict=strict, tracer_provider=provider)
        except LLMError as exc:
            self.missing[name] = self._one_line(str(exc))

    # -- what roles call ---------------------------------------------------------------------------
    def available(self) -> tuple[Tier, ...]:
        """The paid tiers with a client (a key, a valid set-up); rule_based is always there too."""
        return tuple(name for name in PAID_TIERS if name in self.clients)

    def ask(self, task: ModelTask) -> ModelOutcome:
        self._count("asks")
        steps: list[str] = []
        spent = _Spent()
        for name in tiers_from(task.wanted):
            if name == "rule_based":
                break
            answer, why_not = self._try_tier(name, task, spent)
            if answer is not None:
                if steps:
                    self._count("step_downs")
                    self._metric_step(task, fell_back=False)
                return ModelOutcome(answer=answer, selection=spent.selection(name, task, steps))
            steps.append(f"{name}: {why_not}")
        if task.wanted != "rule_based":
            self._count("fallbacks")
            self._count("step_downs")
            self._metric_step(task, fell_back=True)
            # The decision's own log line names the last step; the whole chain is in decisions.jsonl.
            log.debug("%s falls back to rule_based: %s", task.role, "; ".join(steps))
        return ModelOutcome(answer=None, selection=spent.selection("rule_based", task, steps))

    def estimate(self, name: Tier, task: ModelTask) -> tuple[float, float]:
        """(USD, seconds) one call of `task` on tier `name` is expected to take."""
        tier = self.tiers[name]
        tokens_in = (len(task.system) + len(task.user)) // CHARS_PER_TOKEN + TOKENS_PER_IMAGE * len(
            task.images
        )
        tokens_out = self._answer_tokens.get(task.answer, min(tier.max_tokens, 200))
        cost = call_cost(tier, Usage(input_tokens=tokens_in, output_tokens=round(tokens_out)))
        return cost, self._latency.get(name, tier.timeout_s / 4)

    def usage(self) -> UsageReport:
        by_tier = self.ledger.totals()
        with self._lock:
            counts = dict(self._counts)
        return UsageReport(
            calls=sum(t.calls for t in by_tier.values()),
            tokens_in=sum(t.tokens_in for t in by_tier.values()),
            tokens_out=sum(t.tokens_out for t in by_tier.values()),
            cost_usd=round(sum(t.cost_usd for t in by_tier.values()), 6),
            by_tier=by_tier,
            fallbacks=counts["fallbacks"],
            step_downs=counts["step_downs"],
            invalid_answers=counts["invalid_answers"],
            repairs=counts["repairs"],
            spent_last_hour_usd=round(self.ledger.spent(HOUR), 6),
            spent_last_day_usd=round(self.ledger.spent(DAY), 6),
            log_lines_lost=self.calls.lost,
        )

    def breaker_states(self) -> dict[str, str]:
        return self.breakers.states()

    # -- checkpoints -------------------------------------------------------------------------------
    def snapshot(self) -> GatewaySnapshot:
        """The gateway's accounting and what it learned about the providers."""
        with self._lock:
            counts = dict(self._counts)
            latency = dict(self._latency)
            answer_tokens = dict(self._answer_tokens)
        return GatewaySnapshot(ledger=self.ledger.snapshot(), counts=counts, breakers=self.breakers.states(),
                               latency=latency, answer_tokens=answer_tokens)  # fmt: skip

    def restore(self, snapshot: GatewaySnapshot) -> None:
        """Take a checkpoint's snapshot back, but only into a gateway that has recorded nothing yet.

        Nothing here belongs to the game's timeline: the ledger and counts are money and calls really
        spent, the breakers, latencies and answer lengths are what the providers did. So a rollback never
        rewinds them. A live gateway keeps its own (its ledger already holds what was spent after the
        checkpoint). A fresh one, re-created after its actor died, gets them all back: the totals, the
        recent spends placed at their ages before its own clock (so hourly and daily budgets still hold),
        and breakers that were open are opened again, so a dead provider is not hammered at once.
        """
        if not self._untouched():
            log.info("gateway restore: keeping this gateway's own ledger, counts and breakers")
            return
        self.ledger.restore(snapshot.ledger)
        with self._lock:
            self._counts.update({key: snapshot.counts.get(key, 0) for key in self._counts})
            self._latency = {name: snapshot.latency[name] for name in PAID_TIERS if name in snapshot.latency}
            self._answer_tokens = dict(snapshot.answer_tokens)
        self.breakers.reopen(snapshot.breakers)

    def _untouched(self) -> bool:
        with self._lock:
            counted = any(self._counts.values()) or bool(self._latency)
        return not counted and self.ledger.empty() and not self.breakers.states()

    def report(self) -> RoleReport:
        usage = self.usage()
        counters = {
            "llm_calls": float(usage.calls),
            "tokens_in": float(usage.tokens_in),
            "tokens_out": float(usage.tokens_out),
            "cost_usd": usage.cost_usd,
            "fallbacks": float(usage.fallbacks),
            "llm_log_lines_lost": float(usage.log_lines_lost),
        }
        states = self.breakers.states()
        live = ",".join(self.available()) or "rule_based only"
        detail = f"tiers: {live}" + "".join(f"; {e}: {s}" for e, s in states.items() if s != "closed")
        return RoleReport(role="gateway", healthy=True, counters=counters, detail=detail)

    # -- one tier ----------------------------------------------------------------------------------
    def _try_tier(self, name: Tier, task: ModelTask, spent: _Spent) -> tuple[Answer | None, str]:
        client = self.clients.get(name)
        if client is None:
            return None, self.missing.get(name, "not configured")
        estimate, latency = self.estimate(name, task)
        spent.estimate(estimate, latency)
        over = self.ledger.over_budget(estimate)
        if over is not None:
            if name not in self._over_budget:  # said once per spell over budget, not on every decision
                self._over_budget.add(name)
                log.warning("over budget, stepping down from %s until spending falls: %s", name, over)
            return None, f"over {over}"
        if name in self._over_budget:
            self._over_budget.discard(name)
            log.info("back within budget: %s is used again", name)
        try:
            return self._answer(name, client, task, spent), ""
        except pybreaker.CircuitBreakerError:
            return None, f"circuit breaker open for {client.endpoint}"
        except LLMError as exc:
            return None, self._one_line(str(exc))
        except Exception as exc:  # a client bug must not end a battle: log it, step down
            why = f"unexpected {type(exc).__name__}: {self._one_line(str(exc))}"
            # One redacted line, no traceback: a traceback prints every chained message unredacted.
            log.warning("model call on %s failed: %s", name, why)
            return None, why

    def _answer(self, name: Tier, client: ModelClient, task: ModelTask, spent: _Spent) -> Answer:
        tier = self.tiers[name]
        schema = answer_schema(ANSWERS[task.answer])
        messages = [ModelMessage(role="user", text=task.user, images=task.images)]
        context = {"action_ids": list(task.action_ids)} if task.action_ids is not None else None
        for attempt in ("answer", "repair"):
            request = ModelRequest(
                system=task.system,
                messages=tuple(messages),
                max_tokens=tier.max_tokens,
                json_schema=schema if tier.structured_output else None,
                schema_name=task.answer,
                cache_system=task.cache_system,
            )
            response = self._call(name, client, request, task, attempt, spent)
            try:
                parsed = parse_answer(response.text, task.answer, context)
            except AnswerInvalid as exc:
                self._count("invalid_answers")
                self._log_validation(task, name, attempt, f"invalid: {exc}")
                if attempt == "repair":
                    raise
                self._count("repairs")
                messages += [
                    ModelMessage(role="assistant", text=response.text or "(empty)"),
                    ModelMessage(role="user", text=repair_prompt(exc, task.answer)),
                ]
                continue
            self._log_validation(task, name, attempt, "ok")
            self._learn_answer_length(task.answer, response.usage.output_tokens)
            return parsed
        raise AnswerInvalid("no valid answer")  # unreachable: the repair attempt returns or raises

    def _call(
        self,
        name: Tier,
        client: ModelClient,
        request: ModelRequest,
        task: ModelTask,
        attempt: str,
        spent: _Spent,
    ) -> ModelResponse:
        breaker = self.breakers.for_endpoint(client.endpoint)
        tier = self.tiers[name]

        def once() -> ModelResponse:
            with self._call_span(name, task, attempt) as span:
                started = time.perf_counter()
                try:
                    with breaker.calling():
                        raw = client.complete(request)
                except Exception as exc:
                    self._log_call(task, name, client, request, attempt, None, time.perf_counter() - started,
                                   exc)  # fmt: skip
                    raise
                response = self._redacted(raw)
                cost = self.ledger.record(name, tier, response.usage)
                span.set_attribute(ATTR_COST, cost)
                spent.add(response, cost)
                self._observe(name, response, cost)
                self._log_call(task, name, client, request, attempt, response, response.latency_s, None, cost)
                return response

        return retrying(self.llm, deadline_s=tier.timeout_s)(once)

    def _call_span(self, name: Tier, task: ModelTask, attempt: str) -> AbstractContextManager[Span]:
        attributes = {ATTR_TIER: name, ATTR_ROLE: task.role, ATTR_ANSWER: task.answer, ATTR_ATTEMPT: attempt}
        if task.battle_id is not None:
            attributes[ATTR_BATTLE_ID] = task.battle_id
        return self.tracing.tracer.start_as_current_span(f"{CALL_SPAN} {name}", attributes=attributes)

    # -- text from outside ------------------------------------------------------------------------
    def _redacted(self, response: ModelResponse) -> ModelResponse:
        """The response as the rest of the engine may see it: parsing, the repair prompt and the call
        log all read this one."""
        text = self.redactor.text(response.text)
        return response if text == response.text else response.model_copy(update={"text": text})

    def _one_line(self, text: str) -> str:
        """An exception's message as one line for steps and logs, redacted before it is cut so that no
        piece of a key survives the cut."""
        return _first_line(self.redactor.text(text))

    # -- bookkeeping -------------------------------------------------------------------------------
    def _observe(self, name: Tier, response: ModelResponse, cost: float) -> None:
        with self._lock:
            old = self._latency.get(name)
            new = response.latency_s if old is None else old + SMOOTHING * (response.latency_s - old)
            self._latency[name] = new
        if self.metrics is not None:
            usage = response.usage
            self.metrics.llm_call(name, usage.input_tokens, usage.output_tokens, cost, response.latency_s)

    def _learn_answer_length(self, kind: str, tokens: int) -> None:
        with self._lock:
            old = self._answer_tokens.get(kind)
            self._answer_tokens[kind] = tokens if old is None else old + SMOOTHING * (tokens - old)

    def _metric_step(self, task: ModelTask, fell_back: bool) -> None:
        if self.metrics is not None:
            self.metrics.stepped_down(task.role, fell_back)

    def _count(self, key: str) -> None:
        with self._lock:
            self._counts[key] += 1

    def _log_call(
        self,
        task: ModelTask,
        name: Tier,
        client: ModelClient,
        request: ModelRequest,
        attempt: str,
        response: ModelResponse | None,
        latency_s: float,
        error: BaseException | None,
        cost: float = 0.0,
    ) -> None:
        usage = response.usage if response is not None else Usage(input_tokens=0, output_tokens=0)
        self.calls.write(
            {
                "event": "call",
                "role": task.role,
                "answer": task.answer,
                "battle_id": task.battle_id,
                "tier": name,
                "provider": client.provider,
                "model": client.model,
                "endpoint": client.endpoint,
                "attempt": attempt,
                "system": request.system,
                "messages": [
                    {"role": m.role, "text": m.text, "images": len(m.images)} for m in request.messages
                ],
                "response": response.text if response is not None else None,
                "tokens_in": usage.input_tokens,
                "tokens_out": usage.output_tokens,
                "cost_usd": round(cost, 8),
                "latency_s": round(latency_s, 3),
                "breaker": self.breakers.for_endpoint(client.endpoint).current_state,
                "error": f"{type(error).__name__}: {self._one_line(str(error))}" if error else None,
            }
        )

    def _log_validation(self, task: ModelTask, name: Tier, attempt: str, result: str) -> None:
        self.calls.write(
            {"event": "validation", "role": task.role, "answer": task.answer, "tier": name,
             "attempt": attempt, "battle_id": task.battle_id, "validation": result[:500]}
        )  # fmt: skip

    def close(self) -> None:
        """Sends the spans still batched; the SDK clients close their pools when collected."""
        self.tracing.shutdown()


class _Spent:
    """What one `ask` cost across its attempts and tiers, for its Selection."""

    def __init__(self) -> None:
        self.cost = 0.0
        self.tokens_in = 0
        self.tokens_out = 0
        self.latency = 0.0
        self.calls = 0
        self.est_cost = 0.0
        self.est_latency = 0.0

    def estimate(self, cost: float, latency: float) -> None:
        if self.calls == 0:
            self.est_cost, self.est_latency = cost, latency

    def add(self, response: ModelResponse, cost: float) -> None:
        self.calls += 1
        self.cost += cost
        self.tokens_in += response.usage.input_tokens
        self.tokens_out += response.usage.output_tokens
        self.latency += response.latency_s

    def selection(self, tier: Tier, task: ModelTask, steps: list[str]) -> Selection:
        return Selection(
            tier=tier,
            wanted=task.wanted,
            reason=task.reason,
            est_cost_usd=round(self.est_cost, 8),
            est_latency_s=round(self.est_latency, 3),
            steps=tuple(steps),
            cost_usd=round(self.cost, 8),
            tokens_in=self.tokens_in,
            tokens_out=self.tokens_out,
            latency_s=round(self.latency, 3),
            calls=self.calls,
        )


def _first_line(text: str) -> str:
    stripped = text.strip()
    return stripped.splitlines()[0][:300] if stripped else "no detail"
