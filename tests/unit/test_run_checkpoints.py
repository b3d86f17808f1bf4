"""Checkpoints in an in-process run with the fixture-backed emulator: when they are written, what a crash
and a full disk leave behind, and a resume that carries the same run on."""

from __future__ import annotations

import errno
import json
import logging
import os
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from engine.actors.errors import RoleDiedError
from engine.actors.factory import build_roles, checkpoint_sources
from engine.actors.handles import LocalHandle, VerbProxy
from engine.checkpointer.role import Checkpointer
from engine.checkpoints.store import CheckpointStore, write_synced
from engine.config import EngineConfig, config_from_mapping, config_hash
from engine.layout import RunPaths
from engine.runtime.battle_journal import BattleJournal
from engine.runtime.conductor import Conductor
from engine.runtime.decision_log import read_decisions
from engine.runtime.local import run_local
from engine.runtime.options import LATEST, RunOptions
from engine.runtime.summary import RunSummary
from tests.conftest import GEN1_FIXTURES
from tests.support.chaos import LONG_BATTLE, LONG_BATTLE_DECISIONS
from tests.support.fake_emulator import FakeEmulator


def fake(**options: Any) -> Any:
    return partial(FakeEmulator, fixtures=GEN1_FIXTURES, script=LONG_BATTLE, **options)


def play(
    paths: RunPaths, config: EngineConfig | None = None, emulator: Any = None, **options: Any
) -> RunSummary:
    base: dict[str, Any] = {"rom": Path("scripted.gb"), "max_battles": 1, "checkpoint_every_decisions": 4}
    return run_local(config or EngineConfig(), RunOptions(**{**base, **options}), paths,
                     emulator_factory=emulator or fake())  # fmt: skip


def reasons(paths: RunPaths) -> list[str]:
    entries = reversed(CheckpointStore(paths.checkpoints).entries(paths.run_id))
    return [entry.manifest.reason for entry in entries if entry.manifest is not None]


@pytest.fixture
def paths(tmp_path: Path) -> RunPaths:
    run = RunPaths(tmp_path, "r1")
    run.create()
    return run


def test_a_run_checkpoints_at_start_every_n_decisions_at_battle_edges_and_at_stop(paths: RunPaths) -> None:
    config = config_from_mapping({"checkpoint": {"keep": 50, "wild_battle_seconds": 0}})
    summary = play(paths, config, max_battles=None, max_decisions=LONG_BATTLE_DECISIONS + 4)
    assert summary.stopped == "max_decisions"
    # The scripted game opens inside the battle: its start is the run's start.
    assert reasons(paths) == ["start", "decisions", "decisions", "wild_battle_end", "decisions", "stop"]
    assert all(entry.ok for entry in CheckpointStore(paths.checkpoints).entries())


def test_a_wild_battle_won_soon_after_a_checkpoint_gets_none_and_the_decision_count_goes_on(
    paths: RunPaths,
) -> None:
    config = config_from_mapping({"checkpoint": {"keep": 50, "wild_battle_seconds": 3600}})
    play(paths, config, max_battles=None, max_decisions=LONG_BATTLE_DECISIONS + 4)
    # Decisions 4 and 8 in the battle, 12 after it: the skipped end did not restart the count.
    assert reasons(paths) == ["start", "decisions", "decisions", "decisions", "stop"]


def test_a_checkpoint_due_anyway_as_a_wild_battle_ends_is_taken_under_its_own_reason(paths: RunPaths) -> None:
    config = config_from_mapping({"checkpoint": {"keep": 50, "wild_battle_seconds": 0}})
    play(paths, config, max_battles=None, max_decisions=LONG_BATTLE_DECISIONS, checkpoint_every_decisions=3)
    # The battle's last decision is the 9th: one checkpoint there, for the count, not two.
    assert reasons(paths) == ["start", "decisions", "decisions", "decisions", "stop"]


@pytest.mark.parametrize(("battle", "starts"), [("red_brock_main_menu", 1), ("red_wild_main_menu", 0)])
def test_a_trainer_battle_start_gets_a_checkpoint_and_a_wild_one_does_not(
    paths: RunPaths, battle: str, starts: int
) -> None:
    script = ("red_pallet_town_overworld", battle, battle, "red_wild_post_battle_overworld")
    emulator = partial(FakeEmulator, fixtures=GEN1_FIXTURES, script=script, travel_moves_on=True)
    play(paths, config_from_mapping({"checkpoint": {"keep": 50}}), emulator=emulator,
         checkpoint_every_decisions=100)  # fmt: skip
    assert reasons(paths).count("battle_start") == starts
    assert reasons(paths)[0] == "start" and reasons(paths)[-1] == "stop"


def test_battle_checkpoints_can_be_turned_off(paths: RunPaths) -> None:
    config = config_from_mapping({"checkpoint": {"keep": 50, "at_battles": False}})
    play(paths, config)
    assert "battle_end" not in reasons(paths) and reasons(paths)[-1] == "stop"


def test_only_the_newest_k_are_kept(paths: RunPaths) -> None:
    play(paths, config_from_mapping({"checkpoint": {"keep": 2}}), checkpoint_every_decisions=1)
    assert reasons(paths) == ["decisions", "stop"]


def test_a_resumed_run_carries_on_with_the_same_id_counts_and_logs(
    paths: RunPaths, caplog: pytest.LogCaptureFixture
) -> None:
    first = play(paths, max_battles=None, max_decisions=5)
    assert (first.decisions, first.battles) == (5, ())
    with caplog.at_level(logging.INFO, logger="engine.run"):
        second = play(paths, resume=LATEST)
    assert (second.run_id, second.stopped, second.decisions) == ("r1", "max_battles", LONG_BATTLE_DECISIONS)
    (battle,) = second.battles
    assert (battle.outcome, battle.decisions) == ("victory", LONG_BATTLE_DECISIONS)
    entries = read_decisions(paths.decisions)
    assert [entry["kind"] for entry in entries].count("resume") == 1
    live = [entry["seq"] for entry in entries if "seq" in entry and not entry.get("rolled_back")]
    assert live == list(range(1, LONG_BATTLE_DECISIONS + 1))
    assert second.wall_seconds >= first.wall_seconds  # the run's time adds up over both processes
    assert "resumed run r1 (engine run --resume) from checkpoint r1/000003-stop" in caplog.text


def test_a_crash_leaves_a_checkpoint_of_the_last_cycle_boundary_to_resume_from(paths: RunPaths) -> None:
    crashed = play(paths, emulator=fake(fail_after={"execute": 3}))
    assert crashed.stopped == "error" and "refused execute" in (crashed.error or "")
    assert reasons(paths)[-1] == "crash"
    newest = CheckpointStore(paths.checkpoints).latest("r1")
    assert newest.manifest.decisions == 3  # the fourth decision failed: its cycle does not count
    resumed = play(paths, resume=LATEST)
    assert resumed.stopped == "max_battles" and resumed.battles[0].decisions == LONG_BATTLE_DECISIONS


class DiskQuota:
    """A checkpoint folder on a disk that fills up after `limit` bytes (or refuses every write with
    `code`, e.g. EACCES: a folder the run may not write to)."""

    def __init__(self, limit: int, code: int = errno.ENOSPC) -> None:
        self.limit = limit
        self.code = code
        self.used = 0

    def __call__(self, path: Path, data: bytes) -> None:
        if self.used + len(data) > self.limit:
            raise OSError(self.code, os.strerror(self.code), str(path))
        self.used += len(data)
        write_synced(path, data)


def checkpointer_on(disk: DiskQuota, config: EngineConfig, roles: Any, paths: RunPaths) -> Checkpointer:
    store = CheckpointStore(paths.checkpoints, write_file=disk)
    sources = checkpoint_sources({handle.role: handle for handle in roles.all()})
    return Checkpointer(config.checkpoint, "r1", config_hash(config), store, sources)


def run_on_disk(disk: DiskQuota, paths: RunPaths, caplog: pytest.LogCaptureFixture) -> RunSummary:
    config = EngineConfig()
    options = RunOptions(rom=Path("scripted.gb"), max_battles=1, checkpoint_every_decisions=4)
    roles = build_roles(config, options.role_build(paths), "local", fake())
    roles = replace(roles, checkpoint=LocalHandle("checkpoint", checkpointer_on(disk, config, roles, paths)))
    with caplog.at_level(logging.INFO, logger="engine"):
        try:
            return Conductor(roles, options, paths).run()
        finally:
            for handle in roles.all():
                handle.close()


def test_a_full_disk_stops_the_run_with_one_error_line_and_the_previous_checkpoint_stays(
    paths: RunPaths, caplog: pytest.LogCaptureFixture
) -> None:
    # Room for the start checkpoint (about 15 KB), not for the next (about 30 KB): its write fails in the
    # background, and the next decision, still inside the battle, hears of it before it is recorded.
    summary = run_on_disk(DiskQuota(limit=40_000), paths, caplog)
    assert summary.stopped == "error" and summary.battles == ()
    problems = [record for record in caplog.records if record.levelno >= logging.WARNING]
    (line,) = [record.getMessage() for record in problems]
    assert line.startswith("run stopped: cannot write ") and "No space left on device" in line
    entries = CheckpointStore(paths.checkpoints).entries("r1")
    assert entries and all(entry.ok for entry in entries)
    assert f"newest intact checkpoint: {entries[0].name}" in line and "--resume latest" in line
    assert summary.error is not None and entries[0].name in summary.error
    assert not [p for p in (paths.checkpoints / "r1").iterdir() if p.name.startswith(".tmp")]
    assert not any(record.exc_info for record in caplog.records)
    # Room again: the run carries on from that checkpoint and finishes its battle.
    resumed = play(paths, resume=LATEST)
    assert resumed.stopped == "max_battles" and resumed.battles[0].decisions == LONG_BATTLE_DECISIONS


def test_a_checkpoint_folder_that_refuses_writes_is_one_line_each_and_the_run_goes_on(
    paths: RunPaths, caplog: pytest.LogCaptureFixture
) -> None:
    summary = run_on_disk(DiskQuota(limit=0, code=errno.EACCES), paths, caplog)
    assert summary.stopped == "max_battles" and summary.battles[0].outcome == "victory"
    failures = [record.getMessage() for record in caplog.records if "not written" in record.getMessage()]
    assert failures and all("Permission denied" in failure for failure in failures)


class DyingHandle(LocalHandle[Any]):
    """A role whose actor dies at the given calls of its verbs (the call raises, as a dead actor's does),
    and comes back as a new incarnation."""

    def __init__(self, handle: LocalHandle[Any], deaths: dict[str, tuple[int, ...]]) -> None:
        super().__init__(handle.role, handle.target)
        self.deaths, self.calls, self.life = deaths, dict.fromkeys(deaths, 0), 0

    @property
    def call(self) -> Any:
        return VerbProxy(self._dying_call)

    @property
    def tell(self) -> Any:
        return VerbProxy(self._dying_call)

    def _dying_call(self, method: str, args: tuple[Any, ...]) -> Any:
        if method in self.deaths:
            self.calls[method] += 1
            if self.calls[method] in self.deaths[method]:
                self.life += 1
                raise RoleDiedError(self.role, f"killed in {method}")
        return getattr(self.target, method)(*args)

    def incarnation(self) -> str:
        return f"life {self.life}"


def run_with_dying_tactician(
    paths: RunPaths,
    deaths: dict[str, tuple[int, ...]],
    checkpoint_deaths: dict[str, tuple[int, ...]] | None = None,
    disk: DiskQuota | None = None,
    reflection: dict[str, tuple[int, ...]] | None = None,
    config: EngineConfig | None = None,
    **changes: Any,
) -> RunSummary:
    config = config or EngineConfig()
    options = RunOptions(**{"rom": Path("scripted.gb"), "max_battles": 1, "checkpoint_every_decisions": 2,
                            "recovery_timeout": 5.0, **changes})  # fmt: skip
    roles = build_roles(config, options.role_build(paths), "local", fake())
    roles = replace(roles, tactician=DyingHandle(roles.tactician, deaths))  # type: ignore[arg-type]
    if disk is not None:
        roles = replace(
            roles, checkpoint=LocalHandle("checkpoint", checkpointer_on(disk, config, roles, paths))
        )
    if checkpoint_deaths:
        roles = replace(roles, checkpoint=DyingHandle(roles.checkpoint, checkpoint_deaths))  # type: ignore[arg-type]
    if reflection:
        roles = replace(roles, reflection=DyingHandle(roles.reflection, reflection))  # type: ignore[arg-type]
    try:
        return Conductor(roles, options, paths).run()
    finally:
        for handle in roles.all():
            handle.close()


def test_a_role_that_dies_is_rolled_back_with_every_other_role(paths: RunPaths) -> None:
    summary = run_with_dying_tactician(paths, {"choose_battle": (6,)})
    assert (summary.stopped, summary.recoveries) == ("max_battles", 1)
    assert summary.battles[0].decisions == LONG_BATTLE_DECISIONS
    entries = read_decisions(paths.decisions)
    (rollback,) = [entry for entry in entries if entry["kind"] == "rollback"]
    assert rollback["reason"] == "the tactician actor died: killed in choose_battle"
    assert rollback["decisions"] == 4 and rollback["decisions_rolled_back"] == 1  # decision 5, since seq 4
    live = [entry["seq"] for entry in entries if "seq" in entry and not entry.get("rolled_back")]
    assert live == list(range(1, LONG_BATTLE_DECISIONS + 1))


def test_a_death_during_the_rollback_starts_it_again(paths: RunPaths) -> None:
    summary = run_with_dying_tactician(paths, {"choose_battle": (6,)}, {"restore": (1,)}, max_recoveries=5)
    assert (summary.stopped, summary.recoveries) == ("max_battles", 2)
    entries = read_decisions(paths.decisions)
    (rollback,) = [entry for entry in entries if entry["kind"] == "rollback"]  # one rollback finished
    assert rollback["reason"] == "the checkpoint actor died: killed in restore"
    assert summary.battles[0].decisions == LONG_BATTLE_DECISIONS


def test_too_many_deaths_end_the_run_with_the_error(paths: RunPaths) -> None:
    summary = run_with_dying_tactician(paths, {"choose_battle": (2, 3, 4)}, max_recoveries=2)
    assert summary.stopped == "error" and summary.error == "the tactician actor died: killed in choose_battle"
    assert summary.recoveries == 3


def test_a_death_with_no_checkpoint_to_go_back_to_ends_the_run_saying_so(paths: RunPaths) -> None:
    unwritable = DiskQuota(limit=0, code=errno.EACCES)
    summary = run_with_dying_tactician(paths, {"choose_battle": (2,)}, disk=unwritable)
    assert summary.stopped == "error"
    assert "the tactician actor died" in (summary.error or "")
    assert "no checkpoint to roll back to" in (summary.error or "")


def test_a_battle_played_again_after_a_rollback_is_in_the_battles_journal_once(paths: RunPaths) -> None:
    # The observer dies as the battle ends (after its summary went to battles.jsonl, before the battle_end
    # checkpoint): the rollback goes back into the battle, which ends a second time.
    config = EngineConfig()
    options = RunOptions(rom=Path("scripted.gb"), max_battles=1, checkpoint_every_decisions=2,
                         recovery_timeout=5.0)  # fmt: skip
    roles = build_roles(config, options.role_build(paths), "local", fake())
    roles = replace(roles, observer=DyingHandle(roles.observer, {"battle_ended": (1,)}))  # type: ignore[arg-type]
    try:
        summary = Conductor(roles, options, paths).run()
    finally:
        for handle in roles.all():
            handle.close()
    assert (summary.stopped, summary.recoveries) == ("max_battles", 1)
    journal = BattleJournal(paths.battle_journal).read()
    assert [battle.battle_id for battle in journal] == [battle.battle_id for battle in summary.battles]
    assert len(journal) == 1 and journal[0].decisions == LONG_BATTLE_DECISIONS


def test_a_checkpoint_keeps_the_count_of_battles_not_their_summaries(paths: RunPaths) -> None:
    summary = play(paths)
    (battle,) = summary.battles
    newest = CheckpointStore(paths.checkpoints).latest("r1")
    conductor = json.loads((newest.path / "conductor.json").read_text())
    assert conductor["battles_ended"] == 1 and "battles" not in conductor
    assert [item["battle_id"] for item in conductor["recent_battles"]] == [battle.battle_id]


def test_a_battle_goes_to_reflection_after_the_checkpoint_of_its_end(
    paths: RunPaths, monkeypatch: pytest.MonkeyPatch
) -> None:
    from engine.reflection.inbox import Reflection
    from engine.runtime.supervisor import Supervisor

    order: list[str] = []
    checkpoint, receive = Supervisor.checkpoint, Reflection.receive

    def checkpoint_noted(self: Supervisor, reason: str, *args: Any, **kwargs: Any) -> None:
        order.append(reason)
        checkpoint(self, reason, *args, **kwargs)

    def receive_noted(self: Reflection, record: Any) -> str:
        order.append("reflection")
        return receive(self, record)

    monkeypatch.setattr(Supervisor, "checkpoint", checkpoint_noted)
    monkeypatch.setattr(Reflection, "receive", receive_noted)
    play(paths, config_from_mapping({"checkpoint": {"keep": 50, "wild_battle_seconds": 0}}),
         checkpoint_every_decisions=100)  # fmt: skip
    # Reflection's work then never runs beside the save state of the checkpoint (it slowed it by half).
    assert order == ["start", "wild_battle_end", "reflection", "stop"]


def test_a_battle_whose_reflection_actor_died_when_told_is_reflected_on_once_after_the_rollback(
    paths: RunPaths, monkeypatch: pytest.MonkeyPatch
) -> None:
    from engine.reflection.inbox import Reflection

    # Reflection is told after the boundary's checkpoint, so the rollback lands after the battle: it is not
    # played again, and the supervisor hands the re-created Reflection the battle that has no report.
    received: list[str] = []
    receive = Reflection.receive

    def receive_counted(self: Reflection, record: Any) -> str:
        received.append(record.battle_id)
        return receive(self, record)

    monkeypatch.setattr(Reflection, "receive", receive_counted)
    config = config_from_mapping({"checkpoint": {"wild_battle_seconds": 0}})
    summary = run_with_dying_tactician(paths, {}, reflection={"receive": (1,)}, config=config)
    assert (summary.stopped, summary.recoveries) == ("max_battles", 1)
    (rollback,) = [entry for entry in read_decisions(paths.decisions) if entry["kind"] == "rollback"]
    assert rollback["decisions_rolled_back"] == 0
    (battle,) = summary.battles
    assert received == [battle.battle_id]  # the death came before Reflection had it; then once, not twice
    assert paths.reflection(battle.battle_id).exists()


def test_start_up_is_frozen_out_of_the_collector_during_a_run_and_only_then(
    paths: RunPaths, monkeypatch: pytest.MonkeyPatch
) -> None:
    import gc

    frozen: list[int] = []
    run = Conductor.run

    def run_noted(self: Conductor) -> RunSummary:
        frozen.append(gc.get_freeze_count())
        return run(self)

    monkeypatch.setattr(Conductor, "run", run_noted)
    play(paths)
    # The roles (the world, the tables, the store's client) were built before: they are all frozen.
    assert frozen[0] > 10_000 and gc.get_freeze_count() == 0
