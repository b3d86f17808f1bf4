"""The rollout pool on Ray: worker actors (thin shells around `RolloutWorker`) and an `ActorPool`.

Each actor reserves one CPU, because a rollout emulates flat out; the pool is never larger than this
node's CPUs. The actors stay on this node, as the emulator role does: they open the cartridge by the
path the user gave here.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import ray
from ray.util import ActorPool
from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

from engine.actors.ray_handles import resolve
from engine.actors.shells import RoleShell
from engine.replay.errors import ReplayError
from engine.replay.models import RolloutResult
from engine.replay.rollouts import RolloutTask, RolloutWorker

log = logging.getLogger("engine.replay")
READY_SECONDS = 60.0  # starting an actor takes ~1-2 s; longer means the node has no CPU free for it
SHUTDOWN_SECONDS = 10.0
ROLE = "rollout worker"


@ray.remote(num_cpus=1)
class RolloutActor(RoleShell):
    """A `RolloutWorker` in its own process (built there: a PyBoy object cannot be sent)."""


def _node_cpus(node_id: str) -> int:
    for node in ray.nodes():  # type: ignore[no-untyped-call]
        if node.get("NodeID") == node_id and node.get("Alive"):
            return int(node.get("Resources", {}).get("CPU", 0))
    return 0


def start_workers(build: Callable[[], RolloutWorker], wanted: int) -> list[Any]:
    """Up to `wanted` actors that have answered once; those the cluster cannot place in time are ended."""
    node = ray.get_runtime_context().get_node_id()
    count = max(1, min(wanted, _node_cpus(node)))
    if count < wanted:
        log.warning("%d rollout workers asked for, this node has CPUs for %d", wanted, count)
    here = NodeAffinitySchedulingStrategy(node, soft=False)
    shell: Any = RolloutActor  # Ray's stubs type the decorated class as the class itself
    actors = [shell.options(scheduling_strategy=here).remote(build) for _ in range(count)]
    refs = [actor.call.remote("ready") for actor in actors]
    done, _ = ray.wait(refs, num_returns=len(refs), timeout=READY_SECONDS)
    ready = []
    for actor, ref in zip(actors, refs, strict=True):
        if ref in done:
            resolve(ref, ROLE)  # a worker that could not open the cartridge raises its error here
            ready.append(actor)
        else:
            ray.kill(actor, no_restart=True)
    if not ready:
        raise ReplayError(f"no rollout worker started within {READY_SECONDS:.0f} s: no CPU free on this node")
    return ready


def stop_workers(actors: Sequence[Any]) -> None:
    """Let each worker close its emulator, then end it."""
    refs = [actor.shutdown.remote() for actor in actors]
    ray.wait(refs, num_returns=len(refs), timeout=SHUTDOWN_SECONDS)
    for actor in actors:
        ray.kill(actor, no_restart=True)


def run_on_ray(
    tasks: Sequence[RolloutTask],
    states: Mapping[int, bytes],
    build: Callable[[], RolloutWorker],
    workers: int,
    on_progress: Callable[[int, int], None],
) -> tuple[list[RolloutResult], int]:
    """The results in the order they finished, and the pool's size."""
    actors = start_workers(build, workers)
    try:
        # Top-level ObjectRef arguments reach the actor as the bytes themselves.
        refs = {decision: ray.put(state) for decision, state in states.items()}
        pool = ActorPool(actors)

        def submit(actor: Any, task: RolloutTask) -> Any:
            return actor.call.options(name="rollout.run").remote("run", refs[task.decision], task)

        results = []
        for done, result in enumerate(pool.map_unordered(submit, list(tasks)), start=1):
            results.append(result)
            on_progress(done, len(tasks))
        return results, len(actors)
    finally:
        stop_workers(actors)
