"""An arena on a simulated three-node cluster that loses a node half-way, in a process of its own (a
process holds one Ray connection, and the test session's is its private instance):

    python -m tests.support.arena_cluster FOLDER [ROM]

A head and two worker nodes (ray.cluster_utils), one CPU each; 2 configs × 2 starts × 3 seeds of the
scripted game (with ROM: the cartridge itself, from a bedroom state made here and from power-on, to the
starter). Once a cell has begun on a worker node, that node is removed. FOLDER/outcome.json then
says which node went, and every cell's key, attempts and node.
"""

from __future__ import annotations

import json
import logging
import sys
import threading
import time
from pathlib import Path
from typing import Any

NODE_LOSS_WAIT_SECONDS = 120.0
ARENA_WAIT_SECONDS = 600.0


def _first_worker_with_a_cell(marks: Path, workers: dict[str, Any]) -> Any:
    deadline = time.monotonic() + NODE_LOSS_WAIT_SECONDS
    while time.monotonic() < deadline:
        for mark in marks.iterdir():
            node_id = mark.name.split(".")[0]
            if node_id in workers:
                return workers[node_id]
        time.sleep(0.1)
    raise TimeoutError("no cell began on a worker node")


def main(folder: Path, real_rom: Path | None) -> None:
    import ray
    from ray.cluster_utils import Cluster

    from engine.arena.matrix import Limits
    from engine.arena.runner import ArenaOutcome, ArenaRequest, run_arena
    from tests.support.arena_inputs import (
        bedroom,
        cartridge,
        config_file,
        fake_factory,
        marked_role,
        save_states,
    )

    logging.basicConfig(level=logging.INFO, format="%(message)s")
    marks = folder / "marks"
    marks.mkdir()
    if real_rom is None:
        rom = cartridge(folder)
        states = tuple(save_states(rom, folder, 2))
        factory, limits = fake_factory(marks, delay=0.1), Limits(max_decisions=60)
    else:
        rom, states = real_rom, (bedroom(real_rom, folder),)
        factory, limits = marked_role(marks), Limits(until="get_starter", budget_seconds=600)
    configs = (config_file(folder, "plain"), config_file(folder, "forgetful", "memory:\n  enabled: false\n"))
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1})
    workers = {node.node_id: node for node in (cluster.add_node(num_cpus=1) for _ in range(2))}
    cluster.wait_for_nodes()
    ray.init(address=cluster.address, namespace="arena-cluster", log_to_driver=False)
    request = ArenaRequest(rom=rom, configs=configs, states=states, power_on=real_rom is not None, seeds=3,
                           out=folder / "arena", limits=limits, plots=False)  # fmt: skip
    outcomes: list[ArenaOutcome] = []
    arena = threading.Thread(target=lambda: outcomes.append(run_arena(request, emulator_factory=factory)))
    started = time.monotonic()
    arena.start()
    victim = _first_worker_with_a_cell(marks, workers)
    cluster.remove_node(victim)
    arena.join(ARENA_WAIT_SECONDS)
    (outcome,) = outcomes
    report = {
        "removed": victim.node_id,
        "head": ray.get_runtime_context().get_node_id(),
        "workers": sorted(workers),
        "cells": [{"key": r.cell.key, "attempts": r.attempts, "node": r.node, "stopped": r.summary.stopped}
                  for r in outcome.results],
        "failures": [failure.cell.key for failure in outcome.failures],
        "wall_seconds": round(time.monotonic() - started, 1),
    }  # fmt: skip
    (folder / "outcome.json").write_text(json.dumps(report, indent=1), encoding="utf-8")
    ray.shutdown()
    cluster.shutdown()


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]) if len(sys.argv) > 2 else None)
