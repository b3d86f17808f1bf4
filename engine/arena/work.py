"""The arena's cells as Ray tasks across the cluster, each watched to its end.

A cell is one task needing one CPU: Ray places it on any node with a CPU free, and its whole run plays in
that worker (engine.arena.cell). The cartridge and each start are put in the object store once and
passed by reference. No more cells are in flight than the cluster has CPUs, so a cell handed out is a
cell playing, and its deadline (its budget plus the start-up slack) counts from then. A cell whose node
or worker is lost is handed out again, up to `max_attempts`; a cell that raised, or outlived its deadline,
is recorded as failed, and the next run of the same command plays it again.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import ray
from ray.exceptions import GetTimeoutError, RayError, RayTaskError, TaskCancelledError

from engine.actors.factory import EmulatorFactory
from engine.arena.cell import CellOrder, PlayedCell, play_cell
from engine.arena.store import CellFailure
from engine.mechanics.role import EmulatorRole

log = logging.getLogger("engine.arena")
START_SLACK_SECONDS = 300.0  # a worker starting, the cartridge's maps read, the intro played
PROGRESS_SECONDS = 10.0
WAIT_SLICE_SECONDS = 1.0
GET_SECONDS = 60.0  # a finished task's result is already in the object store


def _play_remote(
    order: CellOrder, rom: bytes, state: bytes | None, secrets: Mapping[str, str], factory: EmulatorFactory
) -> PlayedCell:
    node = ray.get_runtime_context().get_node_id()
    return play_cell(order, rom, state, node, secrets=secrets, emulator_factory=factory)


_remote_cell = ray.remote(num_cpus=1, max_retries=0)(_play_remote)


@dataclass
class Flight:
    order: CellOrder
    attempt: int
    started: float
    cancelled: bool = False


@dataclass
class Tally:
    total: int
    done: int = 0
    failed: int = 0
    replayed: int = 0
    started: float = field(default_factory=time.monotonic)

    def line(self, running: int) -> str:
        waiting = self.total - self.done - self.failed - running
        return (f"arena: {self.done}/{self.total} cells played, {running} playing, {waiting} waiting, "
                f"{self.replayed} played again after a lost node, {self.failed} failed, "
                f"{time.monotonic() - self.started:.0f} s")  # fmt: skip


class CellWork:
    """Hands the orders out and calls `on_played` / `on_failed` as each cell ends."""

    def __init__(
        self,
        rom: bytes,
        states: Mapping[str, bytes | None],
        on_played: Callable[[PlayedCell, int], None],
        on_failed: Callable[[CellFailure], None],
        *,
        secrets: Mapping[str, str] | None = None,
        emulator_factory: EmulatorFactory = EmulatorRole,
        max_attempts: int = 3,
    ) -> None:
        self.rom = ray.put(rom)
        # A start's bytes are put once; power-on has none.
        self.states: dict[str, Any] = {}
        for name, data in states.items():
            self.states[name] = None if data is None else ray.put(data)
        self.on_played, self.on_failed = on_played, on_failed
        self.secrets = dict(secrets or {})
        self.factory = emulator_factory
        self.max_attempts = max_attempts
        self.flights: dict[Any, Flight] = {}

    def play(self, orders: list[CellOrder]) -> Tally:
        queue = [(order, 1) for order in orders]
        tally = Tally(total=len(orders))
        told, landed = 0.0, True
        while queue or self.flights:
            while queue and len(self.flights) < _cpus():
                self._hand_out(*queue.pop(0))
            if landed or time.monotonic() - told > PROGRESS_SECONDS:
                log.info("%s", tally.line(len(self.flights)))
                told = time.monotonic()
            ready, _ = ray.wait(list(self.flights), num_returns=1, timeout=WAIT_SLICE_SECONDS)
            for ref in ready:
                self._land(ref, queue, tally)
            landed = bool(ready)
            self._cancel_overdue()
        log.info("%s", tally.line(0))
        return tally

    def _hand_out(self, order: CellOrder, attempt: int) -> None:
        state = self.states[order.cell.start]
        ref = _remote_cell.remote(order, self.rom, state, self.secrets, self.factory)
        self.flights[ref] = Flight(order=order, attempt=attempt, started=time.monotonic())

    def _land(self, ref: Any, queue: list[tuple[CellOrder, int]], tally: Tally) -> None:
        flight = self.flights.pop(ref)
        key = flight.order.cell.key
        try:
            played: PlayedCell = ray.get(ref, timeout=GET_SECONDS)
        except TaskCancelledError:
            self._fail(flight, f"no result within {self._deadline(flight):.0f} s: stopped", tally)
        except RayTaskError as exc:  # the run itself raised: playing it elsewhere would do the same
            first_line = (str(exc.cause).splitlines() or [""])[0]  # an error without a message too
            self._fail(flight, f"{type(exc.cause).__name__}: {first_line}", tally)
        except (RayError, GetTimeoutError) as exc:  # its node or worker is gone
            if flight.attempt >= self.max_attempts:
                self._fail(flight, f"lost {flight.attempt} times ({type(exc).__name__})", tally)
                return
            log.warning("arena: cell %s lost its node or worker (%s): handed out again (attempt %d)",
                        key, type(exc).__name__, flight.attempt + 1)  # fmt: skip
            tally.replayed += 1
            queue.insert(0, (flight.order, flight.attempt + 1))
        else:
            tally.done += 1
            self.on_played(played, flight.attempt)

    def _fail(self, flight: Flight, error: str, tally: Tally) -> None:
        tally.failed += 1
        log.error("arena: cell %s failed: %s", flight.order.cell.key, error)
        self.on_failed(CellFailure(cell=flight.order.cell, error=error, attempts=flight.attempt))

    def _deadline(self, flight: Flight) -> float:
        return flight.order.limits.budget_seconds + START_SLACK_SECONDS

    def _cancel_overdue(self) -> None:
        now = time.monotonic()
        for ref, flight in self.flights.items():
            if not flight.cancelled and now - flight.started > self._deadline(flight):
                ray.cancel(ref, force=True)
                flight.cancelled = True


def _cpus() -> int:
    """CPUs the cluster has now (a lost node takes its CPUs with it); at least one."""
    resources: dict[str, float] = ray.cluster_resources()  # type: ignore[no-untyped-call]
    return max(1, int(resources.get("CPU", 1)))
