"""The Reflection role: receives every finished battle without holding up the game loop, and asks the
reflection tier (by default `thinking`) what the battle teaches.

`receive` only queues the record; one worker thread reflects in order, so a slow model never delays a
decision, whether Reflection is a Ray actor or a plain object in the conductor's process. `settle` waits
for the queue (the end of a run calls it before the cost is added up).
"""

from __future__ import annotations

import logging
import queue
import threading
from pathlib import Path

from engine.actors.handles import RoleHandle
from engine.config import RoutingConfig
from engine.llm.render import render_reflection
from engine.llm.tasks import ModelOutcome, ModelTask
from engine.messages import BattleRecord, RoleReport
from engine.runtime.layout import write_json_atomic
from engine.runtime.summary import BattleLog

log = logging.getLogger("engine.reflection")
REFLECTIONS_DIR = "reflections"  # beside battles/ in the run's directory


class Reflection:
    def __init__(self, routing: RoutingConfig | None = None, gateway: RoleHandle | None = None) -> None:
        self.routing = routing or RoutingConfig()
        self.gateway = gateway
        self.received: list[BattleRecord] = []
        self.insights: dict[str, list[dict[str, object]]] = {}
        self.counts = {"battles_received": 0, "reflections": 0, "insights": 0, "skipped": 0, "failed": 0}
        self._queue: queue.Queue[BattleRecord | None] = queue.Queue()
        self._worker: threading.Thread | None = None
        self._lock = threading.Lock()

    def receive(self, record: BattleRecord) -> str:
        """Queue the battle for reflection; acknowledge with its id."""
        self.received.append(record)
        self.counts["battles_received"] += 1
        if self.gateway is not None and self.routing.reflection != "rule_based":
            self._start_worker()
            self._queue.put(record)
        return record.battle_id

    def settle(self, timeout: float = 60.0) -> bool:
        """Wait until every queued battle has been reflected on; False if `timeout` ran out first."""
        done = threading.Event()
        if self._worker is None:
            return True
        watcher = threading.Thread(target=lambda: (self._queue.join(), done.set()), daemon=True)
        watcher.start()
        return done.wait(timeout)

    def close(self) -> None:
        if self._worker is not None:
            self._queue.put(None)
            self._worker.join(timeout=5.0)

    # -- the worker --------------------------------------------------------------------------------
    def _start_worker(self) -> None:
        with self._lock:
            if self._worker is None:
                self._worker = threading.Thread(target=self._work, name="reflection", daemon=True)
                self._worker.start()

    def _work(self) -> None:
        while (record := self._queue.get()) is not None:
            try:
                self._reflect(record)
            except Exception:  # one battle's failure must not stop reflection on the next
                self.counts["failed"] += 1
                log.exception("reflection on %s failed", record.battle_id)
            finally:
                self._queue.task_done()
        self._queue.task_done()

    def _reflect(self, record: BattleRecord) -> None:
        battle = BattleLog.model_validate_json(Path(record.log_path).read_text(encoding="utf-8"))
        if not worth_reflecting(battle):
            self.counts["skipped"] += 1
            return
        assert self.gateway is not None
        system, user = render_reflection(battle)
        task = ModelTask(
            role="reflection", answer="reflection", wanted=self.routing.reflection, reason="reflection",
            system=system, user=user, battle_id=record.battle_id,
        )  # fmt: skip
        outcome: ModelOutcome = self.gateway.call("ask", task)
        if outcome.answer is None:
            log.info("no reflection on %s: %s", record.battle_id, "; ".join(outcome.selection.steps))
            return
        insights = list(outcome.answer["insights"])
        self.insights[record.battle_id] = insights
        self.counts["reflections"] += 1
        self.counts["insights"] += len(insights)
        target = Path(record.log_path).parent.parent / REFLECTIONS_DIR / f"{record.battle_id}.json"
        write_json_atomic(target, {"battle_id": record.battle_id, "answer": outcome.answer,
                                   "selection": outcome.selection.model_dump(mode="json")})  # fmt: skip
        log.info(
            "reflection on %s: %d insights (%s)", record.battle_id, len(insights), outcome.selection.tier
        )

    def report(self) -> RoleReport:
        return RoleReport(
            role="reflection",
            healthy=True,
            counters={key: float(value) for key, value in self.counts.items()},
        )


def worth_reflecting(battle: BattleLog) -> bool:
    """Every battle but a routine wild win: losses, escapes, catches and every trainer battle teach more."""
    summary = battle.summary
    return not (summary.battle_type == "wild" and summary.outcome == "victory")
