"""The Checkpoint role's background writer: `save` takes the snapshots and returns while the disk is busy;
what the writes came to is told at the next call; the run's last checkpoint, a restore and the name of
the newest intact checkpoint wait for the disk; a full disk stops every later write; the emulator's
state is packed on disk and old plain ones still restore."""

from __future__ import annotations

import errno
import json
import os
import threading
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from engine.actors.factory import build_roles, checkpoint_sources
from engine.actors.roles import Roles
from engine.checkpointer.role import EMULATOR_STATE, Checkpointer, ConductorPart
from engine.checkpoints.errors import CheckpointWriteError
from engine.checkpoints.models import MANIFEST, SEAL
from engine.checkpoints.store import CheckpointStore, write_synced
from engine.checkpoints.verify import seal_for
from engine.config import EngineConfig, config_hash
from engine.emulator.state_file import is_packed, unpack
from engine.game.actions import Run
from engine.layout import RunPaths
from engine.runtime.options import RunOptions
from tests.conftest import GEN1_FIXTURES
from tests.support.chaos import LONG_BATTLE
from tests.support.fake_emulator import FakeEmulator

WAIT = 10.0  # seconds before a test gives up on a thread it expects to move


class GatedDisk:
    """`write_file` that holds every write until the test opens the gate (a slow disk), and can fail
    them (`code`: ENOSPC is a full disk)."""

    def __init__(self) -> None:
        self.gate = threading.Event()
        self.waiting = threading.Event()  # a write is held at the gate
        self.code: int | None = None
        self.files = 0

    def __call__(self, path: Path, data: bytes) -> None:
        self.waiting.set()
        assert self.gate.wait(WAIT), "the test never opened the gate"
        if self.code is not None:
            raise OSError(self.code, os.strerror(self.code), str(path))
        self.files += 1
        write_synced(path, data)


def part(decisions: int) -> ConductorPart:
    return ConductorPart(state={"decisions": decisions}, decisions=decisions, decisions_offset=0, battles=0)


@pytest.fixture
def roles(tmp_path: Path) -> Iterator[Roles]:
    paths = RunPaths(tmp_path, "r1")
    paths.create()
    options = RunOptions(rom=Path("scripted.gb"))
    emulator = partial(FakeEmulator, fixtures=GEN1_FIXTURES, script=LONG_BATTLE)
    built = build_roles(EngineConfig(), options.role_build(paths), "local", emulator)
    yield built
    for handle in built.all():
        handle.close()


def checkpointer(roles: Roles, root: Path, write_file: Any = write_synced) -> Checkpointer:
    config = EngineConfig()
    store = CheckpointStore(root, keep=config.checkpoint.keep, write_file=write_file)
    sources = checkpoint_sources({handle.role: handle for handle in roles.all()})
    return Checkpointer(config.checkpoint, "r1", config_hash(config), store, sources)


def stored(role: Checkpointer) -> CheckpointStore:
    assert role.store is not None
    return role.store


def play_on(roles: Roles) -> None:
    """The game moves on past the checkpoint (the scripted emulator's state changes with an action)."""
    roles.emulator.call.act(Run())


def in_thread(action: Any) -> tuple[threading.Thread, dict[str, Any]]:
    result: dict[str, Any] = {}

    def run() -> None:
        result["value"] = action()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, result


def test_save_returns_while_the_disk_is_still_writing(roles: Roles, tmp_path: Path) -> None:
    disk = GatedDisk()
    role = checkpointer(roles, tmp_path / "checkpoints", disk)
    taken = role.save("decisions", part(4))
    assert taken is not None and taken.written.saved == () and taken.written.failed == ()
    assert disk.waiting.wait(WAIT)  # the write is under way on the writer's thread
    assert CheckpointStore(tmp_path / "checkpoints").entries("r1") == []
    disk.gate.set()
    (saved,) = role.flush().saved
    assert (saved.name, saved.reason) == ("r1/000001-decisions", "decisions")
    assert saved.take_seconds <= taken.seconds
    assert CheckpointStore(tmp_path / "checkpoints").verify(Path(saved.path)) == ()
    role.stop()


def test_writes_finished_in_the_background_are_told_at_the_next_save(roles: Roles, tmp_path: Path) -> None:
    # The gate holds the first write until its save has returned: a writer thread quicker than the save's
    # own look would tell the write in the first save's result, and the test would depend on who ran first.
    disk = GatedDisk()
    role = checkpointer(roles, tmp_path / "checkpoints", disk)
    first = role.save("start", part(0))
    assert first is not None and first.written.saved == ()
    disk.gate.set()
    role.writer.drain()
    taken = role.save("decisions", part(4))
    assert taken is not None and [saved.reason for saved in taken.written.saved] == ["start"]
    assert [saved.reason for saved in role.flush().saved] == ["decisions"]
    assert role.counts["written"] == 2
    role.stop()


def test_the_last_checkpoint_of_a_run_is_on_disk_when_save_returns(roles: Roles, tmp_path: Path) -> None:
    disk = GatedDisk()
    role = checkpointer(roles, tmp_path / "checkpoints", disk)
    first = role.save("decisions", part(4))  # held until its save has returned (see above)
    assert first is not None and first.written.saved == ()
    disk.gate.set()
    taken = role.save("stop", part(5), True)
    assert taken is not None and [saved.reason for saved in taken.written.saved] == ["decisions", "stop"]
    reasons = [entry.manifest.reason for entry in stored(role).entries("r1") if entry.manifest]
    assert reasons == ["stop", "decisions"]
    role.stop()


def test_a_failed_write_is_told_with_its_reason_and_the_next_checkpoint_is_still_taken(
    roles: Roles, tmp_path: Path
) -> None:
    disk = GatedDisk()
    disk.code = errno.EACCES
    role = checkpointer(roles, tmp_path / "checkpoints", disk)
    first = role.save("battle_start", part(4))  # held at the gate until the save has returned (see above)
    assert first is not None and first.written.failed == ()
    disk.gate.set()
    role.writer.drain()
    disk.code = None  # the next write goes through
    taken = role.save("battle_end", part(6))
    assert taken is not None
    (failure,) = taken.written.failed
    assert isinstance(failure, CheckpointWriteError) and failure.reason == "battle_start"
    assert "Permission denied" in str(failure)
    assert [saved.reason for saved in role.flush().saved] == ["battle_end"]
    assert role.counts == {"written": 1, "failed": 1, "restored": 0}
    role.stop()


def test_after_a_full_disk_nothing_more_is_written(roles: Roles, tmp_path: Path) -> None:
    disk = GatedDisk()
    disk.code = errno.ENOSPC
    role = checkpointer(roles, tmp_path / "checkpoints", disk)
    role.save("decisions", part(4))
    assert disk.waiting.wait(WAIT)
    role.save("decisions", part(8))  # waits behind the first one, which is about to fail
    disk.gate.set()
    role.writer.drain()
    assert role.writer.disk_full()
    taken = role.save("battle_end", part(9))
    assert taken is not None
    (failure,) = taken.written.failed  # the one behind it was dropped, not tried
    assert isinstance(failure, CheckpointWriteError) and failure.code == errno.ENOSPC
    assert role.flush().failed == () and disk.files == 0
    assert not [path for path in (tmp_path / "checkpoints" / "r1").iterdir() if path.name.startswith(".")]
    role.stop()


def test_a_third_checkpoint_waits_for_room_behind_a_slow_disk(roles: Roles, tmp_path: Path) -> None:
    disk = GatedDisk()
    role = checkpointer(roles, tmp_path / "checkpoints", disk)
    role.save("decisions", part(2))
    assert disk.waiting.wait(WAIT)
    role.save("decisions", part(4))  # waits behind the one being written
    third, result = in_thread(lambda: role.save("decisions", part(6)))
    third.join(0.3)
    assert third.is_alive(), "a third checkpoint must wait, not pile up in memory"
    disk.gate.set()
    third.join(WAIT)
    assert not third.is_alive() and result["value"] is not None
    assert len(role.flush().saved) + len(result["value"].written.saved) == 3
    role.stop()


def test_restoring_and_naming_the_newest_wait_for_the_checkpoint_on_its_way(
    roles: Roles, tmp_path: Path
) -> None:
    disk = GatedDisk()
    role = checkpointer(roles, tmp_path / "checkpoints", disk)
    role.save("decisions", part(4))
    assert disk.waiting.wait(WAIT)
    newest, named = in_thread(role.newest_intact)
    newest.join(0.2)
    assert newest.is_alive()
    disk.gate.set()
    newest.join(WAIT)
    assert named["value"] == "r1/000001-decisions"
    role.save("decisions", part(8))
    restored = role.restore(None)  # the second one, though it may not have been on disk when asked
    assert (restored.name, restored.conductor) == ("r1/000002-decisions", {"decisions": 8})
    role.stop()


def test_stop_writes_every_checkpoint_taken(roles: Roles, tmp_path: Path) -> None:
    disk = GatedDisk()
    role = checkpointer(roles, tmp_path / "checkpoints", disk)
    role.save("decisions", part(4))
    threading.Timer(0.2, disk.gate.set).start()
    role.stop()
    assert [entry.name for entry in stored(role).entries("r1")] == ["r1/000001-decisions"]


def test_the_emulator_state_is_packed_on_disk_and_restores_as_it_was(roles: Roles, tmp_path: Path) -> None:
    role = checkpointer(roles, tmp_path / "checkpoints")
    before = roles.emulator.call.snapshot()
    role.save("stop", part(0), True)
    (entry,) = stored(role).entries("r1")
    on_disk = (entry.path / EMULATOR_STATE).read_bytes()
    assert is_packed(on_disk) and unpack(on_disk) == before.state
    play_on(roles)
    role.restore(None)
    assert roles.emulator.call.snapshot().state == before.state
    role.stop()


def test_a_checkpoint_of_schema_v3_with_a_plain_state_still_restores(roles: Roles, tmp_path: Path) -> None:
    role = checkpointer(roles, tmp_path / "checkpoints")
    before = roles.emulator.call.snapshot()
    role.save("stop", part(0), True)
    (entry,) = stored(role).entries("r1")
    as_v3(entry.path, before.state)
    assert stored(role).verify(entry.path) == ()
    play_on(roles)
    restored = role.restore(None)
    assert restored.manifest.schema_version == 3
    assert roles.emulator.call.snapshot().state == before.state
    role.stop()


def as_v3(folder: Path, machine: bytes) -> None:
    """Rewrite a checkpoint as an engine before packing wrote it: the plain state, schema v3, sealed."""
    import hashlib

    (folder / EMULATOR_STATE).write_bytes(machine)
    manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    manifest["schema_version"] = 3
    manifest["parts"][EMULATOR_STATE] = {"sha256": hashlib.sha256(machine).hexdigest(), "bytes": len(machine)}
    data = (json.dumps(manifest, indent=2) + "\n").encode("utf-8")
    (folder / MANIFEST).write_bytes(data)
    (folder / SEAL).write_bytes(seal_for(data))
