"""Running many rollouts: one plain worker in this process (`--local`), or a pool of worker actors on Ray.

Either way each rollout is independent of the others, so the results are the same; only the wall time
differs. The decision states are sent to the pool once each, not once per rollout.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Literal, Protocol

from engine.config import EmulatorConfig, PlayerConfig
from engine.replay.models import RolloutResult
from engine.replay.rollouts import RolloutTask, RolloutWorker

Progress = Callable[[int, int], None]  # (rollouts done, rollouts in all)


class Worker(Protocol):
    """What plays rollouts: `RolloutWorker`, or a stand-in in tests."""

    def run(self, state: bytes, task: RolloutTask) -> RolloutResult: ...

    def close(self) -> None: ...


@dataclass(frozen=True)
class PoolSettings:
    rom: Path
    emulator: EmulatorConfig
    player: PlayerConfig
    mode: Literal["local", "ray"] = "local"
    workers: int = 1  # on Ray; --local always plays one rollout after another

    def worker_builder(self) -> Callable[[], RolloutWorker]:
        return partial(RolloutWorker, self.rom, self.emulator, self.player)


def no_progress(done: int, total: int) -> None:
    pass


def _in_order(tasks: Sequence[RolloutTask], results: Sequence[RolloutResult]) -> list[RolloutResult]:
    by_task = {(result.decision, result.action): result for result in results}
    return [by_task[(task.decision, task.action)] for task in tasks]


def run_locally(
    tasks: Sequence[RolloutTask],
    states: Mapping[int, bytes],
    build: Callable[[], Worker],
    on_progress: Progress = no_progress,
) -> list[RolloutResult]:
    worker = build()
    results = []
    try:
        for done, task in enumerate(tasks, start=1):
            results.append(worker.run(states[task.decision], task))
            on_progress(done, len(tasks))
    finally:
        worker.close()
    return results


def run_rollouts(
    tasks: Sequence[RolloutTask],
    states: Mapping[int, bytes],
    settings: PoolSettings,
    on_progress: Progress = no_progress,
) -> tuple[list[RolloutResult], int]:
    """Every task's result, in task order, and how many workers played them. On Ray, the caller must
    have connected (engine.runtime.cluster)."""
    if not tasks:
        return [], 0
    if settings.mode == "local":
        return run_locally(tasks, states, settings.worker_builder(), on_progress), 1
    from engine.replay.ray_pool import run_on_ray

    results, workers = run_on_ray(tasks, states, settings.worker_builder(), settings.workers, on_progress)
    return _in_order(tasks, results), workers
