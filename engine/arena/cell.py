"""One cell of the arena, played where Ray put it: every role in this worker's process, on this node.

The cartridge and the start arrive as bytes (through Ray's object store), are written to a folder of
this node's own, and the run's data folder sits beside them, so no path of another machine is read and the
cell's lesson memory is its own unless the order points it at a shared Chroma server. What comes back is
the run's summary, its lesson count and its small files (the decisions, battle logs, model calls and log),
for the driver to write under the arena's folder; checkpoints and save states stay behind.
"""

from __future__ import annotations

import json
import logging
import os
import re
import shutil
import socket
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from engine.actors.factory import EmulatorFactory
from engine.arena.matrix import Cell, Limits
from engine.config import EngineConfig
from engine.frozen import Frozen
from engine.layout import RunPaths, new_run_id
from engine.mechanics.role import EmulatorRole
from engine.runtime.logs import attach_run_logs, detach_run_logs
from engine.runtime.options import RunOptions
from engine.runtime.summary import RunSummary

log = logging.getLogger("engine.arena")
# A seed is a draw of the same start: seed n idles n times this many frames before the first input
# (engine.config EmulatorConfig.idle_frames_at_start). Not a multiple of the 60 frames of a second.
IDLE_FRAMES_PER_SEED = 37
SKIPPED_SUFFIXES = (".state", ".gz")  # save states: large, and not what a comparison reads
FOLDER_PREFIX = "engine-arena-"
# A cell's folder names the machine and the process that made it: only this machine's are swept (a /tmp
# shared between containers would show another's live processes as gone).
_OWNED = re.compile(rf"^{FOLDER_PREFIX}(.+)-(\d+)-[a-z0-9_]+$")


class CellOrder(Frozen):
    """What a worker needs to play one cell, besides the cartridge's and the start's bytes."""

    cell: Cell
    config: EngineConfig
    limits: Limits


class CellResult(Frozen):
    """What the arena keeps of a played cell (`cells/<key>.json`)."""

    cell: Cell
    node: str  # the Ray node it was played on
    attempts: int = 1  # 2 or more: its node was lost and it was played again elsewhere
    summary: RunSummary
    lessons_stored: int


@dataclass(frozen=True)
class PlayedCell:
    result: CellResult
    files: dict[str, bytes]  # the run folder's small files, by path relative to it


def seeded(config: EngineConfig, seed: int) -> EngineConfig:
    emulator = config.emulator.model_copy(update={"idle_frames_at_start": seed * IDLE_FRAMES_PER_SEED})
    return config.model_copy(update={"emulator": emulator})


def play_cell(
    order: CellOrder,
    rom: bytes,
    state: bytes | None,
    node: str,
    *,
    secrets: Mapping[str, str] | None = None,
    emulator_factory: EmulatorFactory = EmulatorRole,
) -> PlayedCell:
    from engine.runtime.local import run_local

    config = seeded(order.config, order.cell.seed)
    sweep_orphans(Path(tempfile.gettempdir()))
    with tempfile.TemporaryDirectory(prefix=folder_prefix()) as folder:
        root = Path(folder)
        rom_path = root / "cartridge.gb"
        rom_path.write_bytes(rom)
        state_path = None
        if state is not None:
            state_path = root / "start.state"
            state_path.write_bytes(state)
        paths = RunPaths(root / "data", new_run_id())
        paths.create()
        handlers = attach_run_logs(paths.log, config.logging.level)
        try:
            log.info("arena cell %s on node %s", order.cell.key, node[:12])
            options = _options(config, order, rom_path, state_path)
            summary = run_local(config, options, paths, emulator_factory=emulator_factory, secrets=secrets)
        finally:
            detach_run_logs(handlers)
        result = CellResult(cell=order.cell, node=node, summary=summary, lessons_stored=_lessons(paths))
        return PlayedCell(result=result, files=_small_files(paths.run_dir))


def folder_prefix() -> str:
    return f"{FOLDER_PREFIX}{socket.gethostname()}-{os.getpid()}-"


def sweep_orphans(root: Path) -> int:
    """Removes the folders of cells whose process is gone, and says how many: a cell stopped by a lost
    node or a killed worker never reaches the end of its `with`, and each left about 240 KB behind."""
    removed = 0
    for folder in root.glob(f"{FOLDER_PREFIX}*"):
        owner = _OWNED.match(folder.name)
        if owner is None or owner.group(1) != socket.gethostname() or not folder.is_dir():
            continue
        if _alive(int(owner.group(2))):
            continue
        shutil.rmtree(folder, ignore_errors=True)
        removed += 1
    return removed


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process
    return True


def _options(config: EngineConfig, order: CellOrder, rom: Path, state: Path | None) -> RunOptions:
    limits = order.limits
    return RunOptions(
        rom=rom,
        state=state,
        max_decisions=limits.max_decisions,
        until=limits.until,
        seed=order.cell.seed,
        max_seconds=limits.budget_seconds,
        screenshots=config.llm.screenshots,
        checkpoint_every_decisions=config.checkpoint.every_decisions,
        keep_battle_states="none",
        max_recoveries=config.runtime.max_recoveries,
        recovery_timeout=config.runtime.recovery_timeout_seconds,
        harness=config.harness,
    )


def _lessons(paths: RunPaths) -> int:
    """Lessons reflection stored in this run: each reflection report lists the ones it stored."""
    count = 0
    for report in sorted((paths.run_dir / "reflections").glob("*.json")):
        try:
            stored = json.loads(report.read_text(encoding="utf-8")).get("stored") or []
        except (OSError, ValueError):
            continue
        count += len(stored) if isinstance(stored, list) else 0
    return count


def _small_files(run_dir: Path) -> dict[str, bytes]:
    return {
        str(path.relative_to(run_dir)): path.read_bytes()
        for path in sorted(run_dir.rglob("*"))
        if path.is_file() and not path.name.endswith(SKIPPED_SUFFIXES)
    }
