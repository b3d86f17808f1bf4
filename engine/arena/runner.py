"""An arena from its request to its report: the inputs checked, the cells played on the cluster Ray is
connected to, each result written as it lands, then the table, the comparisons, the exports and the
charts. The caller holds the Ray connection (engine.runtime.cluster)."""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Mapping
from pathlib import Path

from engine.actors.factory import EmulatorFactory
from engine.arena.cell import CellOrder, CellResult, PlayedCell
from engine.arena.errors import ArenaError
from engine.arena.matrix import POWER_ON, Cell, Entrant, Limits, Start, cells, unique_names
from engine.arena.report import ArenaReport, build
from engine.arena.store import ArenaFolder, CellFailure
from engine.arena.text import cell_rows
from engine.arena.work import CellWork
from engine.config import EngineConfig, load_config
from engine.emulator.rom import check_rom_file
from engine.emulator.session import check_state_file
from engine.errors import EngineError, UserInputError
from engine.files import write_bytes_atomic, write_json_atomic
from engine.frozen import Frozen
from engine.llm.gateway import secrets_from
from engine.mechanics.role import EmulatorRole

log = logging.getLogger("engine.arena")
PROBE_SECONDS = 3.0


class ArenaRequest(Frozen):
    rom: Path
    configs: tuple[Path, ...]
    states: tuple[Path, ...] = ()
    power_on: bool = False  # also (or, without states, only) from power-on
    seeds: int = 3
    limits: Limits = Limits()
    out: Path = Path("arena")
    shared_memory: tuple[str, int] | None = None  # a Chroma server every run shares (`chroma run`)
    plots: bool = True


class ArenaOutcome(Frozen):
    report: ArenaReport
    results: tuple[CellResult, ...]
    failures: tuple[CellFailure, ...]
    skipped: int  # cells a previous run of the command had already played


def entrants(paths: tuple[Path, ...], shared_memory: tuple[str, int] | None) -> list[Entrant]:
    if not paths:
        raise UserInputError("give at least one --config")
    found = []
    for name, path in zip(unique_names(list(paths)), paths, strict=True):
        config = load_config(path)
        if shared_memory is not None:
            memory = config.memory.model_copy(
                update={
                    "enabled": True,
                    "backend": "http",
                    "host": shared_memory[0],
                    "port": shared_memory[1],
                }
            )
            config = config.model_copy(update={"memory": memory})
        found.append(Entrant(name=name, config=config))
    return found


def starts(request: ArenaRequest, config: EngineConfig) -> list[Start]:
    """Each --state (checked against the cartridge), then power-on if asked or if no state was given."""
    found = []
    for name, path in zip(unique_names(list(request.states)), request.states, strict=True):
        check_state_file(request.rom, path, config.emulator)
        found.append(Start(name=name, state=path.read_bytes()))
    if request.power_on or not found:
        found.append(Start(name=POWER_ON))
    return found


def check_chroma(address: tuple[str, int]) -> None:
    try:
        with socket.create_connection(address, timeout=PROBE_SECONDS):
            pass
    except OSError as exc:
        raise UserInputError(
            f"--shared-memory {address[0]}:{address[1]}: no Chroma server answers ({exc.strerror or exc}); "
            "start one with `chroma run --path DIR --port PORT`"
        ) from exc


class ArenaPlan(Frozen):
    """An arena checked and laid out, before anything is played: a wrong input costs one line, not a
    Ray start."""

    request: ArenaRequest
    entrants: tuple[Entrant, ...]
    starts: tuple[Start, ...]
    cells: tuple[Cell, ...]
    finished: dict[str, CellResult]


def plan_arena(request: ArenaRequest) -> ArenaPlan:
    check_rom_file(request.rom)
    if request.shared_memory is not None:
        check_chroma(request.shared_memory)
    field = entrants(request.configs, request.shared_memory)
    beginnings = starts(request, field[0].config)
    folder = ArenaFolder(request.out)
    folder.create()
    matrix = cells(field, beginnings, request.seeds, request.limits)
    finished = folder.finished(matrix)
    if finished:
        log.info("arena: %d of %d cells already played in %s: not played again", len(finished), len(matrix),
                 request.out)  # fmt: skip
    return ArenaPlan(request=request, entrants=tuple(field), starts=tuple(beginnings), cells=tuple(matrix),
                     finished=finished)  # fmt: skip


def run_arena(
    request: ArenaRequest,
    *,
    emulator_factory: EmulatorFactory = EmulatorRole,
    secrets: Mapping[str, str] | None = None,
) -> ArenaOutcome:
    """Plans and plays the arena on the Ray this process is connected to."""
    return play_arena(plan_arena(request), emulator_factory=emulator_factory, secrets=secrets)


def play_arena(
    plan: ArenaPlan,
    *,
    emulator_factory: EmulatorFactory = EmulatorRole,
    secrets: Mapping[str, str] | None = None,
) -> ArenaOutcome:
    request, folder = plan.request, ArenaFolder(plan.request.out)
    results, failures = list(plan.finished.values()), []

    def played(cell: PlayedCell, attempts: int) -> None:
        result = cell.result.model_copy(update={"attempts": attempts})
        results.append(folder.keep(PlayedCell(result=result, files=cell.files)))

    def failed(failure: CellFailure) -> None:
        folder.keep_failure(failure)
        failures.append(failure)

    configs = {entrant.name: entrant.config for entrant in plan.entrants}
    orders = [CellOrder(cell=cell, config=configs[cell.entrant], limits=request.limits)
              for cell in plan.cells if cell.key not in plan.finished]  # fmt: skip
    if secrets is None:
        secrets = {}
        for entrant in plan.entrants:
            secrets.update(secrets_from(entrant.config.models, os.environ))
    states = {start.name: start.state for start in plan.starts}
    work = CellWork(request.rom.read_bytes(), states, played, failed, secrets=secrets,
                    emulator_factory=emulator_factory)  # fmt: skip
    try:
        work.play(orders)
    except KeyboardInterrupt:
        log.info("arena: stopped with %d of %d cells played in %s; the same command plays the rest",
                 len(results), len(plan.cells), request.out)  # fmt: skip
        raise
    report = build(results, _failed_by_row(failures), [entrant.name for entrant in plan.entrants])
    _write(folder, report, results, request.plots)
    return ArenaOutcome(report=report, results=tuple(sorted(results, key=lambda r: r.cell.key)),
                        failures=tuple(failures), skipped=len(plan.finished))  # fmt: skip


def _failed_by_row(failures: list[CellFailure]) -> dict[tuple[str, str], int]:
    rows: dict[tuple[str, str], int] = {}
    for failure in failures:
        key = (failure.cell.entrant, failure.cell.start)
        rows[key] = rows.get(key, 0) + 1
    return rows


def _write(folder: ArenaFolder, report: ArenaReport, results: list[CellResult], plots: bool) -> None:
    from engine.runtime.export import encode

    write_json_atomic(folder.root / "report.json", report.model_dump(mode="json"))
    table = cell_rows(results)
    for form, name in (("csv", "cells.csv"), ("jsonl", "cells.jsonl"), ("parquet", "cells.parquet")):
        write_bytes_atomic(folder.root / name, encode(table, form))  # type: ignore[arg-type]
    if plots and results:
        _charts(folder, results)


def _charts(folder: ArenaFolder, results: list[CellResult]) -> None:
    """`engine stats --plot`'s charts, one folder per config."""
    from engine.runtime.plots import write_charts
    from engine.runtime.stats_report import gather

    by_config: dict[str, list[Path]] = {}
    for result in results:
        by_config.setdefault(result.cell.entrant, []).append(folder.run_dir(result))
    for name, run_dirs in by_config.items():
        try:
            write_charts(gather(sorted(run_dirs)), folder.root / "plots" / name)
        except EngineError as exc:  # nothing to draw (runs without a battle or a decision)
            log.info("arena: no charts for %s (%s)", name, exc)


__all__ = ["ArenaError", "ArenaOutcome", "ArenaPlan", "ArenaRequest", "plan_arena", "play_arena", "run_arena"]
