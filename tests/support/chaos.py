"""Helpers of the chaos tests: a long scripted battle, waiting on the decision log, breaking checkpoints,
and (run as `python -m tests.support.chaos DATA_DIR RUN_ID ADDRESS NAMESPACE`) a driver to kill."""

from __future__ import annotations

import subprocess
import sys
import time
from functools import partial
from pathlib import Path
from typing import Any

# Eight turns at the battle menu, the learn-move prompt after the win, then the overworld.
LONG_BATTLE = ("red_wild_main_menu",) * 8 + ("red_learn_move_prompt", "red_wild_post_battle_overworld")
LONG_BATTLE_DECISIONS = 9
CHAOS_SETTINGS: dict[str, Any] = {
    "checkpoint": {"every_decisions": 2},
    "runtime": {"max_restarts": 3, "recovery_timeout_seconds": 60.0},
}
WAIT_SECONDS = 120.0


def wait_for_decision_lines(
    path: Path, lines: int, *, process: subprocess.Popen[bytes] | None = None, timeout: float = WAIT_SECONDS
) -> None:
    """Until decisions.jsonl holds `lines` lines (rollback lines included: the file only grows)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.is_file() and len(path.read_bytes().splitlines()) >= lines:
            return
        if process is not None and process.poll() is not None:
            raise AssertionError(
                f"the driver ended early: {process.stderr.read().decode() if process.stderr else ''}"
            )
        time.sleep(0.05)
    raise AssertionError(f"{path.name} never reached {lines} lines")


def newest_checkpoint(run_checkpoints: Path) -> Path:
    return max((folder for folder in run_checkpoints.iterdir() if not folder.name.startswith(".")),
               key=lambda folder: folder.name)  # fmt: skip


def break_newest_checkpoint(run_checkpoints: Path, damage: str) -> Path:
    """Damage the newest checkpoint the way a failing disk or a half-finished copy would."""
    newest = newest_checkpoint(run_checkpoints)
    if damage == "truncate a part":
        part = newest / "emulator.state"
        part.write_bytes(part.read_bytes()[: len(part.read_bytes()) // 2])
    elif damage == "flip a byte in the manifest":
        manifest = newest / "manifest.json"
        data = bytearray(manifest.read_bytes())
        middle = len(data) // 2
        data[middle] ^= 0x01
        manifest.write_bytes(bytes(data))
    else:
        raise ValueError(damage)
    return newest


def _drive(data_dir: str, run_id: str, address: str, namespace: str) -> None:
    import ray

    from engine.config import config_from_mapping
    from engine.layout import RunPaths
    from engine.runtime.options import RunOptions
    from engine.runtime.ray_run import run_on_ray
    from tests.conftest import GEN1_FIXTURES
    from tests.support.fake_emulator import FakeEmulator

    ray.init(address=address, namespace=namespace, log_to_driver=False)
    config = config_from_mapping(
        {**CHAOS_SETTINGS, "runtime": {**CHAOS_SETTINGS["runtime"], "namespace": namespace}}
    )
    options = RunOptions(rom=Path("scripted.gb"), max_battles=1, checkpoint_every_decisions=2)
    emulator = partial(FakeEmulator, fixtures=GEN1_FIXTURES, script=LONG_BATTLE, delay=0.3)
    run_on_ray(config, options, RunPaths(Path(data_dir), run_id), emulator)


if __name__ == "__main__":
    _drive(*sys.argv[1:5])
