"""The arena on a simulated three-node cluster (ray.cluster_utils) that loses a worker node while a cell
plays on it: every cell of 2 configs × 2 starts × 3 seeds still ends with a result, the lost cell played
again on a node that is still there. In a process of its own (tests.support.arena_cluster)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.conftest import REPO_ROOT

CLUSTER_SECONDS = 900


def test_an_arena_survives_the_loss_of_a_node_with_every_cell_filled(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tests.support.arena_cluster", str(tmp_path)],
        cwd=REPO_ROOT, capture_output=True, text=True, timeout=CLUSTER_SECONDS, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    outcome = json.loads((tmp_path / "outcome.json").read_text(encoding="utf-8"))
    cells = outcome["cells"]
    expected = {f"{config}.start{start}.{seed}" for config in ("plain", "forgetful") for start in (0, 1)
                for seed in range(3)}  # fmt: skip
    assert {cell["key"] for cell in cells} == expected and outcome["failures"] == []
    assert {cell["stopped"] for cell in cells} == {"max_decisions"}
    replayed = [cell for cell in cells if cell["attempts"] > 1]
    assert replayed, "the removed node had a cell playing: it must have been played again"
    assert all(cell["node"] != outcome["removed"] for cell in replayed)
    nodes = {outcome["head"], *outcome["workers"]}
    assert {cell["node"] for cell in cells} <= nodes and len({cell["node"] for cell in cells}) >= 2
    assert "lost its node or worker" in done.stderr
    for cell in cells:
        assert (tmp_path / "arena" / "cells" / f"{cell['key']}.json").is_file()
