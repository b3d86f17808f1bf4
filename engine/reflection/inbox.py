"""The Reflection role: receives every finished battle without holding up the game loop, and reflects on
it in five phases:

1. failure detection (detect.py): defeat, pyrrhic, suboptimal or clean, with reasons;
2. forensic analysis (forensics.py): turning points, mistakes, effectiveness, resources, measured numbers;
3. insight synthesis (synthesis.py): rule-based lessons for every battle (free), plus the reflection tier
   through the model gateway when a live tier exists, routing allows it and the battle is worth it;
4. memory integration: the accepted lessons go to the memory service (`learn`), which merges equivalent
   ones and answers with what it stores;
5. validation (validation.py), applied to every candidate before integration.
The report (report.py) is written to runs/<run id>/reflections/<battle id>.json.

After a battle lost to a trainer, and with a replayer given (the runtime builds one from
engine/replay/after_loss.py when memory.replay_losses is on), counterfactual replays of the battle's
latest choices run from the same thread, and their lessons go to memory too: the next try follows their
regrets. A lost battle also weakens the regrets it followed (memory's `contradict`).

`receive` only queues the record; one worker thread reflects in order, so a slow model never delays a
decision, whether Reflection is a Ray actor or a plain object in the conductor's process, and a failing
reflection is logged and counted, never raised into play. `settle` waits for the queue (the end of a run
calls it before the cost is added up). `reflect_now` runs the phases at once on one stored battle log and
returns the report (what `engine reflect --battle ID` calls).
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

from engine.battles.files import read_battle_log
from engine.battles.models import BattleLog
from engine.config import RoutingConfig, Tier
from engine.files import StorageError, write_json_atomic
from engine.llm.port import GatewayPort
from engine.memory.lessons import LESSON_MARK, Lesson
from engine.memory.port import MemoryPort
from engine.messages import BattleRecord, RoleReport
from engine.procedural.screening import injection
from engine.reflection.detect import Failure, detect
from engine.reflection.forensics import analyse
from engine.reflection.report import MemoryStatus, ReflectionReport
from engine.reflection.synthesis import RULE_BASED, Candidate, ModelSynthesis, ask_model, rule_based
from engine.reflection.turns import read_turns
from engine.reflection.validation import Rejection, validate
from engine.telemetry.tracing import TraceCarrier, continued, trace_carrier

log = logging.getLogger("engine.reflection")
REFLECTIONS_DIR = "reflections"  # beside battles/ in the run's directory
RECEIVED_KEPT = 100
REPORTS_KEPT = 100  # the newest reports stay in memory for `reports`; every one is on disk


class Replayer(Protocol):
    """A lost battle's log path -> the lessons its counterfactual replays teach; `stop` ends one running."""

    def __call__(self, log_path: Path) -> Sequence[Lesson]: ...

    def stop(self) -> None: ...


def reflection_path(log_path: Path, battle_id: str) -> Path:
    """runs/<run id>/reflections/<battle id>.json for a log at runs/<run id>/battles/<battle id>.json."""
    return log_path.parent.parent / REFLECTIONS_DIR / f"{battle_id}.json"


def worth_reflecting(battle: BattleLog, failure: Failure | None = None) -> bool:
    """Worth a model call: every battle but a routine wild win. Losses, escapes, catches and trainer
    battles teach more; a wild win that cost half the team (pyrrhic) is not routine either."""
    summary = battle.summary
    routine = summary.battle_type == "wild" and summary.outcome == "victory"
    return not routine or (failure is not None and failure.kind in ("defeat", "pyrrhic"))


class Reflection:
    def __init__(
        self,
        routing: RoutingConfig | None = None,
        gateway: GatewayPort | None = None,
        memory: MemoryPort | None = None,
        replayer: Replayer | None = None,
    ) -> None:
        self.routing = routing or RoutingConfig()
        self.gateway = gateway
        self.memory = memory
        self.replayer = replayer
        # The newest battles received (a long run receives thousands): what `report` counts is in `counts`.
        self.received: deque[BattleRecord] = deque(maxlen=RECEIVED_KEPT)
        self.reports: OrderedDict[str, ReflectionReport] = OrderedDict()
        self.counts = {
            "battles_received": 0, "reflections": 0, "model_reflections": 0, "insights": 0, "skipped": 0,
            "lessons_accepted": 0, "lessons_rejected": 0, "lessons_stored": 0, "failed": 0,
            "replays": 0, "replay_lessons": 0, "replays_failed": 0,
        }  # fmt: skip
        self._tiers: tuple[Tier, ...] | None = None  # asked once: the gateway's live tiers do not change
        # Each battle with the trace context it arrived in: its model calls join the trace of the decision
        # cycle that ended the battle, though they are made later, on the worker's thread.
        self._queue: queue.Queue[tuple[BattleRecord, TraceCarrier | None] | None] = queue.Queue()
        self._worker: threading.Thread | None = None
        self._lock = threading.Lock()

    # -- the API ---------------------------------------------------------------------------------------
    def receive(self, record: BattleRecord) -> str:
        """Queue the battle for reflection; acknowledge with its id."""
        with self._lock:
            self.received.append(record)
            self.counts["battles_received"] += 1
        self._start_worker()
        self._queue.put((record, trace_carrier()))
        return record.battle_id

    def reflect_now(self, log_path: str) -> ReflectionReport:
        """Every phase, now, on the battle log at `log_path`; the report is also written beside the run's
        battles. Raises BattleLogError when the log is missing or is not a battle log."""
        path = Path(log_path)
        return self._reflect(read_battle_log(path), path)

    def settle(self, timeout: float = 60.0) -> bool:
        """Wait until every queued battle has been reflected on; False if `timeout` ran out first."""
        done = threading.Event()
        if self._worker is None:
            return True

        def wait_for_the_queue() -> None:
            self._queue.join()
            done.set()

        watcher = threading.Thread(target=wait_for_the_queue, daemon=True)
        watcher.start()
        return done.wait(timeout)

    def close(self) -> None:
        if self.replayer is not None:
            self.replayer.stop()  # a replay still running is given up: the run is over
        if self._worker is not None:
            self._queue.put(None)
            self._worker.join(timeout=5.0)

    def report(self) -> RoleReport:
        with self._lock:
            counters = {key: float(value) for key, value in self.counts.items()}
        memory = "no memory configured" if self.memory is None else "memory attached"
        return RoleReport(role="reflection", healthy=True, counters=counters, detail=memory)

    # -- the worker ------------------------------------------------------------------------------------
    def _start_worker(self) -> None:
        with self._lock:
            if self._worker is None:
                self._worker = threading.Thread(target=self._work, name="reflection", daemon=True)
                self._worker.start()

    def _work(self) -> None:
        while (queued := self._queue.get()) is not None:
            record, carrier = queued
            try:
                path = Path(record.log_path)
                with continued(carrier):
                    report = self._reflect(read_battle_log(path), path)
                    self._replay_loss(report, path)
            except Exception:  # one battle's failure must not stop reflection on the next
                self._count("failed")
                log.exception("reflection on %s failed", record.battle_id)
            finally:
                self._queue.task_done()
        self._queue.task_done()

    # -- the phases ------------------------------------------------------------------------------------
    def _reflect(self, battle: BattleLog, log_path: Path) -> ReflectionReport:
        summary = battle.summary
        reads = read_turns(battle)
        failure = detect(battle, reads)  # 1
        forensics = analyse(battle, reads)  # 2
        candidates: list[Candidate] = rule_based(battle, failure, forensics)  # 3, rule-based
        synthesized_by = [RULE_BASED]
        errors: list[str] = []
        skipped = self._model_skip_reason(battle, failure)
        model: ModelSynthesis | None = None
        if skipped is None:  # 3, the model
            assert self.gateway is not None
            try:
                model = ask_model(self.gateway, self.routing.reflection, battle, failure, forensics)
            except Exception as exc:  # the rule-based lessons still count
                log.warning("model reflection on %s failed: %s", summary.battle_id, exc)
                errors.append(f"model synthesis failed: {type(exc).__name__}: {exc}")
            if model is not None and model.answer is None:
                skipped = "no model tier answered: " + ("; ".join(model.selection.steps) or "no reason given")
            elif model is not None:
                synthesized_by.append(model.selection.tier)
                candidates += model.candidates
        verdict = validate(candidates)  # 5, before anything reaches memory
        rejected = list(verdict.rejected)
        model_summary = model.summary if model is not None else None
        if model is not None and model_summary and (why := injection(model_summary)):
            rejected.append(Rejection(text=model_summary, reason=why, by=model.selection.tier))
            model_summary = None
        memory, stored, memory_error = self._integrate(list(verdict.accepted), summary.battle_id)  # 4
        if memory_error:
            errors.append(memory_error)
        if summary.outcome == "defeat":
            self._contradict(battle)
        report = ReflectionReport(
            battle_id=summary.battle_id,
            run_id=battle.run_id,
            outcome=summary.outcome,
            battle_type=summary.battle_type,
            opponent=summary.opponent,
            failure=failure,
            forensics=forensics,
            synthesized_by=tuple(synthesized_by),
            model_skipped=skipped,
            model_summary=model_summary,
            answer=model.answer if model is not None else None,
            accepted=verdict.accepted,
            rejected=tuple(rejected),
            memory=memory,
            stored=stored,
            selection=model.selection if model is not None else None,
            error="; ".join(errors) or None,
        )
        report = self._write(report, reflection_path(log_path, summary.battle_id))
        self._keep(report, model)
        return report

    def _contradict(self, battle: BattleLog) -> None:
        """Replays' regrets the lost battle followed (their text after "lesson: " in a decision's reason)
        lose confidence: a lesson that did not win is soon no longer followed."""
        texts = list(dict.fromkeys(record.reason.split(LESSON_MARK, 1)[1] for record in battle.decisions
                                   if LESSON_MARK in record.reason))  # fmt: skip
        if not texts or self.memory is None:
            return
        try:
            weakened = self.memory.contradict(texts)
        except Exception as exc:  # memory down: the lessons keep their weight until the next loss
            log.warning("memory did not weaken the lessons %s followed: %s", battle.summary.battle_id, exc)
            return
        for lesson in weakened:
            log.info(
                "lesson followed in a lost battle, its confidence now %.2f: %s",
                lesson.confidence,
                lesson.text,
            )

    def _replay_loss(self, report: ReflectionReport, log_path: Path) -> None:
        """A battle lost to a trainer: its replays' lessons to memory, in one line of the log."""
        if self.replayer is None or self.memory is None:
            return
        if report.outcome != "defeat" or report.battle_type != "trainer":
            return
        started = time.monotonic()
        try:
            lessons = list(self.replayer(log_path))
        except Exception as exc:  # the battle's reflection stands; the next try plays as it would have
            self._count("replays_failed")
            log.warning("replays of %s (lost to %s) failed: %s", report.battle_id, report.opponent, exc)
            return
        _, stored, error = self._integrate(lessons, report.battle_id)
        with self._lock:
            self.counts["replays"] += 1
            self.counts["replay_lessons"] += len(stored)
        regrets = sum(lesson.prefer is not None for lesson in lessons)
        log.info("replays of %s (lost to %s): %d regrets, %d lessons kept in %.0f s%s", report.battle_id,
                 report.opponent, regrets, len(stored), time.monotonic() - started,
                 f"; {error}" if error else "")  # fmt: skip

    def _model_skip_reason(self, battle: BattleLog, failure: Failure) -> str | None:
        """Why the model is not asked about this battle, or None when it is."""
        if self.gateway is None:
            return "no model gateway"
        if self.routing.reflection == "rule_based":
            return "routing.reflection is rule_based"
        if not worth_reflecting(battle, failure):
            self._count("skipped")
            return "a routine wild win"
        if not self._live_tiers():
            return "no model tier is available"
        return None

    def _live_tiers(self) -> tuple[Tier, ...]:
        if self._tiers is None:
            assert self.gateway is not None
            try:
                self._tiers = tuple(self.gateway.available())
            except Exception as exc:  # asked again next battle
                log.warning("the model gateway did not say which tiers are live: %s", exc)
                return ()
        return self._tiers

    def _integrate(
        self, accepted: list[Lesson], battle_id: str
    ) -> tuple[MemoryStatus, tuple[str, ...], str | None]:
        if self.memory is None:
            return "no_memory", (), None
        if not accepted:
            return "nothing_to_store", (), None
        try:
            kept: list[Lesson] = self.memory.learn(accepted)
        except Exception as exc:  # memory down: the report still says what would have been stored
            log.warning("memory did not take the lessons of %s: %s", battle_id, exc)
            return "failed", (), f"memory failed: {type(exc).__name__}: {exc}"
        return "stored", tuple(lesson.lesson_id for lesson in kept), None

    def _write(self, report: ReflectionReport, target: Path) -> ReflectionReport:
        try:
            write_json_atomic(target, report.model_dump(mode="json"))
        except StorageError as exc:
            log.warning("could not write the reflection on %s: %s", report.battle_id, exc)
            note = f"report not written: {exc}"
            report = report.model_copy(update={"error": f"{report.error}; {note}" if report.error else note})
        return report

    def _keep(self, report: ReflectionReport, model: ModelSynthesis | None) -> None:
        with self._lock:
            self.reports[report.battle_id] = report
            while len(self.reports) > REPORTS_KEPT:
                self.reports.popitem(last=False)
            self.counts["reflections"] += 1
            if model is not None and model.answer is not None:
                self.counts["model_reflections"] += 1
                self.counts["insights"] += len(model.candidates)
            self.counts["lessons_accepted"] += len(report.accepted)
            self.counts["lessons_rejected"] += len(report.rejected)
            self.counts["lessons_stored"] += len(report.stored)
        log.info(
            "reflection on %s: %s; %d lessons kept, %d rejected; memory: %s (%s)",
            report.battle_id, report.failure.kind, len(report.accepted), len(report.rejected), report.memory,
            ", ".join(report.synthesized_by),
        )  # fmt: skip

    def _count(self, key: str) -> None:
        with self._lock:
            self.counts[key] += 1
