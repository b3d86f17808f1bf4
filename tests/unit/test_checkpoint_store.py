"""The checkpoint store: atomic writes, pruning, verification, falling back past broken checkpoints,
refusing incompatible ones, and naming checkpoints the way people type them."""

from __future__ import annotations

import errno
import hashlib
import json
import logging
import os
import pickle
from pathlib import Path

import pytest

from engine.checkpoints.errors import (
    CheckpointCorruptError,
    CheckpointError,
    CheckpointIncompatibleError,
    CheckpointPathError,
    CheckpointWriteError,
    NoCheckpointError,
)
from engine.checkpoints.models import SCHEMA_VERSION, CheckpointHeader, Manifest, StoredCheckpoint
from engine.checkpoints.store import CheckpointStore, check_compatible, data_dir_of, write_synced
from engine.cli import main
from engine.errors import UserInputError

RUN = "20261122-101500-3fa9"
OTHER_RUN = "20261123-090000-77b1"
ROM_SHA = "a1b2c3d4e5f6" + "0" * 52
STATE = bytes(range(256)) * 40
PARTS = {"conductor": {"decisions": 12, "player": "ÉVOLI"}, "observer": [1, 2, 3]}
SEAL = "manifest.sha256"
SEAL_BROKEN = f"{SEAL}: the seal does not match manifest.json"
DEEP = "[" * 100_000 + "]" * 100_000


def header(run_id: str = RUN, reason: str = "periodic", frames: int = 1000) -> CheckpointHeader:
    return CheckpointHeader(
        run_id=run_id,
        reason=reason,
        game="POKEMON RED",
        rom_sha256=ROM_SHA,
        config_hash="cfg1",
        frames=frames,
        decisions=12,
        decisions_offset=0,
        battles=1,
        play_frames=frames,
    )


def write(store: CheckpointStore, run_id: str = RUN, reason: str = "periodic") -> StoredCheckpoint:
    return store.write(header(run_id, reason), PARTS, {"emulator.state": STATE})


def folders(run_dir: Path) -> list[str]:
    return sorted(path.name for path in run_dir.iterdir())


def seal_of(manifest: bytes) -> bytes:
    return f"{hashlib.sha256(manifest).hexdigest()}  manifest.json\n".encode()


def reseal(folder: Path) -> None:
    """What a writer with a bug (or a careful forger) would do: seal whatever the manifest now says."""
    (folder / SEAL).write_bytes(seal_of((folder / "manifest.json").read_bytes()))


def edit_manifest(folder: Path, **changes: object) -> None:
    data = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    (folder / "manifest.json").write_text(json.dumps(data | changes, indent=2) + "\n", encoding="utf-8")


class FullDisk:
    """Writes like the real writer until `quota` bytes are used, then fails the way a full disk does."""

    def __init__(self, quota: int) -> None:
        self.left = quota

    def __call__(self, path: Path, data: bytes) -> None:
        if len(data) > self.left:
            write_synced(path, data[: self.left])
            self.left = 0
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))
        self.left -= len(data)
        write_synced(path, data)


@pytest.fixture
def store(tmp_path: Path) -> CheckpointStore:
    return CheckpointStore(tmp_path / "data" / "checkpoints")


def test_round_trip_keeps_json_parts_and_the_save_state(store: CheckpointStore) -> None:
    stored = write(store, reason="battle_end")
    assert stored.path == store.root / RUN / "000001-battle_end"
    assert stored.name == f"{RUN}/000001-battle_end"
    assert stored.bytes == sum(path.stat().st_size for path in stored.path.iterdir())
    loaded = store.load(stored.path)
    assert loaded.json_parts == PARTS
    assert loaded.blobs == {"emulator.state": STATE}
    assert loaded.manifest == stored.manifest
    assert (
        loaded.manifest.model_dump(include=set(CheckpointHeader.model_fields))
        == header(reason="battle_end").model_dump()
    )
    # On disk: pretty UTF-8 JSON, the raw state, and a manifest naming every part.
    conductor = (stored.path / "conductor.json").read_bytes()
    assert conductor.startswith(b"{\n  ") and "ÉVOLI".encode() in conductor
    assert (stored.path / "emulator.state").read_bytes() == STATE
    manifest_bytes = (stored.path / "manifest.json").read_bytes()
    manifest = json.loads(manifest_bytes.decode("utf-8"))
    assert set(manifest["parts"]) == {"conductor.json", "observer.json", "emulator.state"}
    assert manifest["parts"]["emulator.state"]["bytes"] == len(STATE)
    assert manifest["schema_version"] == SCHEMA_VERSION == 4 and manifest["seq"] == 1
    # The seal: the manifest's sha256, as `sha256sum -c manifest.sha256` reads it.
    assert (stored.path / SEAL).read_bytes() == seal_of(manifest_bytes)
    assert folders(stored.path) == sorted([*manifest["parts"], "manifest.json", SEAL])


def test_sequence_numbers_count_up_per_run_past_broken_folders(store: CheckpointStore) -> None:
    assert [write(store).manifest.seq for _ in range(3)] == [1, 2, 3]
    assert write(store, OTHER_RUN).manifest.seq == 1
    (store.root / RUN / "000007-periodic").mkdir()  # broken (no manifest) but its name is taken
    assert write(store, reason="battle_start").path.name == "000008-battle_start"


def test_pruning_keeps_the_newest_k_of_each_run(tmp_path: Path) -> None:
    store = CheckpointStore(tmp_path / "checkpoints", keep=3)
    write(store, OTHER_RUN)
    for _ in range(5):
        write(store)
    assert folders(store.root / RUN) == ["000003-periodic", "000004-periodic", "000005-periodic"]
    assert folders(store.root / OTHER_RUN) == ["000001-periodic"]
    single = CheckpointStore(store.root, keep=1)
    newest = write(single)
    assert folders(store.root / RUN) == [newest.path.name]
    with pytest.raises(ValueError):
        CheckpointStore(store.root, keep=0)


def test_a_pruning_failure_is_logged_not_raised(
    store: CheckpointStore, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    store.keep = 1
    first = write(store)
    real_rename = os.rename

    def refuse_prune(source: Path, target: Path) -> None:
        if "prune" in Path(target).name:
            raise OSError(errno.EACCES, os.strerror(errno.EACCES), str(source))
        real_rename(source, target)

    monkeypatch.setattr(os, "rename", refuse_prune)
    with caplog.at_level(logging.WARNING, logger="engine.checkpoints"):
        second = write(store)
    assert f"could not remove old checkpoint {first.name}: Permission denied" in caplog.text
    assert folders(store.root / RUN) == [first.path.name, second.path.name]


@pytest.mark.parametrize(
    "quota", [0, len(STATE) // 2, -1, -2], ids=["first-part", "mid-state", "manifest", "seal"]
)
def test_a_full_disk_mid_write_leaves_the_previous_checkpoint_intact(
    store: CheckpointStore, quota: int
) -> None:
    first = write(store)
    if quota < 0:  # every part fits, the manifest does not (-1), or the manifest fits, the seal not (-2)
        manifest = (first.path / "manifest.json").stat().st_size if quota == -2 else 0
        quota = sum(part.bytes for part in first.manifest.parts.values()) + manifest
    (store.root / RUN / ".tmp-000042").mkdir()  # left over from a crash
    full = CheckpointStore(store.root, write_file=FullDisk(quota))
    with pytest.raises(CheckpointWriteError) as caught:
        write(full)
    message = str(caught.value)
    assert "No space left on device" in message and str(store.root / RUN) in message
    assert f"newest intact checkpoint: {first.name}" in message and "\n" not in message
    assert caught.value.intact == first.name
    assert folders(store.root / RUN) == [first.path.name]  # no temp folder, no new checkpoint
    assert store.verify(first.path) == ()
    assert store.load(first.path).blobs["emulator.state"] == STATE
    assert [entry.name for entry in store.entries()] == [first.name]


def test_a_write_error_before_any_checkpoint_says_none_yet(store: CheckpointStore) -> None:
    full = CheckpointStore(store.root, write_file=FullDisk(10))
    with pytest.raises(CheckpointWriteError, match=r"No space left on device; .*: none yet$"):
        write(full)
    assert folders(store.root / RUN) == []


def test_a_truncated_part_is_reported_and_skipped(
    store: CheckpointStore, caplog: pytest.LogCaptureFixture
) -> None:
    first = write(store)
    second = write(store)
    (second.path / "emulator.state").write_bytes(STATE[:100])
    problem = f"emulator.state: 100 bytes, the manifest says {len(STATE)}"
    assert store.verify(second.path) == (problem,)
    with caplog.at_level(logging.WARNING, logger="engine.checkpoints"):
        loaded = store.latest()
    assert loaded.path == first.path and loaded.blobs["emulator.state"] == STATE
    assert f"checkpoint {second.name} failed verification ({problem}): trying the previous one" in caplog.text
    with pytest.raises(CheckpointCorruptError) as caught:
        store.load(second.path)
    assert caught.value.problems == (problem,)


def test_a_flipped_byte_in_a_part_is_a_sha256_mismatch(store: CheckpointStore) -> None:
    stored = write(store)
    state = bytearray(STATE)
    state[1234] ^= 0x01
    (stored.path / "emulator.state").write_bytes(bytes(state))
    with pytest.raises(CheckpointCorruptError) as caught:
        store.load(stored.path)
    assert (
        str(caught.value) == f"checkpoint {stored.name} failed verification: emulator.state: sha256 mismatch"
    )


def _flip_first_brace(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(b"[" + data[1:])


def _change_a_sha(path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    data["parts"]["conductor.json"]["sha256"] = "0" * 64
    path.write_text(json.dumps(data), encoding="utf-8")


def _drop_a_field(path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    del data["frames"]
    path.write_text(json.dumps(data), encoding="utf-8")


def _nest_deeply(path: Path) -> None:
    path.write_text(DEEP, encoding="utf-8")


def _nest_objects_deeply(path: Path) -> None:
    path.write_text('{"a":' * 100_000 + "1" + "}" * 100_000, encoding="utf-8")


@pytest.mark.parametrize(
    ("damage", "resealed", "expected"),
    [
        (_flip_first_brace, False, "manifest.json: not valid JSON"),
        (_change_a_sha, False, SEAL_BROKEN),
        (_change_a_sha, True, "conductor.json: sha256 mismatch"),
        (_drop_a_field, False, SEAL_BROKEN),
        (_drop_a_field, True, "manifest.json: invalid (frames: Field required)"),
        (Path.unlink, False, "manifest.json: missing"),
        (_nest_deeply, False, "manifest.json: not valid JSON (nested too deeply)"),
        (_nest_objects_deeply, False, "manifest.json: not valid JSON (nested too deeply)"),
    ],
    ids=[
        "invalid-json", "changed-sha", "changed-sha-resealed", "missing-field", "missing-field-resealed",
        "deleted", "deep-list", "deep-object",
    ],
)  # fmt: skip
def test_a_damaged_manifest_is_reported_and_skipped(
    store: CheckpointStore, caplog: pytest.LogCaptureFixture, damage: object, resealed: bool, expected: str
) -> None:
    first = write(store)
    second = write(store)
    damage(second.path / "manifest.json")  # type: ignore[operator]
    if resealed:  # past the seal, the manifest's own checks still hold
        reseal(second.path)
    problems = store.verify(second.path)
    assert len(problems) == 1 and problems[0].startswith(expected)
    with caplog.at_level(logging.WARNING, logger="engine.checkpoints"):
        assert store.latest().path == first.path
    assert f"checkpoint {second.name} failed verification" in caplog.text
    listed = {entry.name: entry.problems for entry in store.entries()}
    assert listed == {first.name: (), second.name: problems}


def test_nothing_usable_is_no_checkpoint_error(store: CheckpointStore) -> None:
    with pytest.raises(NoCheckpointError, match=r"no usable checkpoint in .*checkpoints$"):
        store.latest()
    for stored in (write(store), write(store)):
        (stored.path / "observer.json").unlink()
    with pytest.raises(NoCheckpointError) as caught:
        store.latest(RUN)
    assert str(caught.value) == f"no usable checkpoint in {store.root} for run {RUN} (2 failed verification)"
    assert isinstance(caught.value, UserInputError)


def _set_schema(path: Path, version: int) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    data["schema_version"] = version
    path.write_text(json.dumps(data), encoding="utf-8")


NEWER = SCHEMA_VERSION + 1


def test_another_schema_is_refused_not_skipped(store: CheckpointStore) -> None:
    write(store)
    newer = write(store)
    _set_schema(newer.path / "manifest.json", NEWER)
    assert store.verify(newer.path) == (f"schema v{NEWER}, this engine reads v3 and v4",)
    refusal = (
        f"checkpoint {newer.name} was written with checkpoint schema v{NEWER}; this engine reads v3 and v4"
    )
    with pytest.raises(CheckpointIncompatibleError) as caught:
        store.latest()
    assert str(caught.value) == refusal
    with pytest.raises(CheckpointIncompatibleError, match=f"schema v{NEWER}; this engine reads v3 and v4"):
        store.load(newer.path)
    assert store.entries()[0].manifest is None
    with pytest.raises(CheckpointIncompatibleError) as direct:
        check_compatible(newer.manifest.model_copy(update={"schema_version": NEWER}), "POKEMON RED", ROM_SHA)
    assert str(direct.value) == refusal


def test_an_unsealed_checkpoint_of_an_older_engine_is_refused_by_its_schema(store: CheckpointStore) -> None:
    older = write(store)
    _set_schema(older.path / "manifest.json", 1)
    (older.path / SEAL).unlink()  # schema v1 had no seal
    assert store.verify(older.path) == ("schema v1, this engine reads v3 and v4",)
    with pytest.raises(CheckpointIncompatibleError, match="schema v1; this engine reads v3 and v4"):
        store.latest()


def test_another_cartridge_is_refused_naming_both(store: CheckpointStore) -> None:
    write(store)
    newest = write(store)
    blue_sha = "ffeeddccbbaa" + "9" * 52
    with pytest.raises(CheckpointIncompatibleError) as caught:
        store.latest(check=lambda manifest: check_compatible(manifest, "POKEMON BLUE", blue_sha))
    assert str(caught.value) == (
        f"checkpoint {newest.name} was made with another cartridge (POKEMON RED, sha256 a1b2c3d4e5f6); "
        "--rom is POKEMON BLUE, sha256 ffeeddccbbaa"
    )
    assert isinstance(caught.value, UserInputError)
    same = store.latest(check=lambda manifest: check_compatible(manifest, "POKEMON RED", ROM_SHA.upper()))
    assert same.path == newest.path


def test_resolve_every_spec_form(store: CheckpointStore) -> None:
    first = write(store)
    second = write(store, reason="battle_end")
    other = write(store, OTHER_RUN)
    assert store.resolve("latest") == other.path
    assert store.resolve(str(first.path)) == first.path
    assert store.resolve(str(store.root / RUN)) == second.path
    assert store.resolve(f"{RUN}/000001-periodic") == first.path
    assert store.resolve(f"{RUN}/1") == first.path
    assert store.resolve(RUN) == second.path
    (second.path / "manifest.json").unlink()  # still named by its path: verification will say why
    assert store.resolve(str(second.path)) == second.path
    unknown_specs = ("nope", f"{RUN}/9", f"{RUN}/../{OTHER_RUN}", str(store.root.parent), str(store.root))
    for unknown in unknown_specs:
        with pytest.raises(NoCheckpointError, match=r"no checkpoint .* in "):
            store.resolve(unknown)


def test_resolve_latest_with_no_checkpoints(store: CheckpointStore) -> None:
    with pytest.raises(NoCheckpointError, match="no checkpoints in"):
        store.resolve("latest")


def test_entries_are_newest_first_broken_by_folder_time_temps_hidden(store: CheckpointStore) -> None:
    a1 = write(store)
    b1 = write(store, OTHER_RUN)
    a2 = write(store)
    (a2.path / "manifest.json").unlink()
    os.utime(a2.path, (1_000_000, 1_000_000))  # long ago: it sorts last
    (store.root / RUN / ".tmp-000050").mkdir()
    assert [entry.name for entry in store.entries()] == [b1.name, a1.name, a2.name]
    assert [entry.name for entry in store.entries(RUN)] == [a1.name, a2.name]
    assert store.entries("no-such-run") == [] and store.entries("../x") == []


@pytest.mark.parametrize(
    ("json_parts", "blobs", "message"),
    [
        ({"../x": {}}, {}, "not a simple name"),
        ({"a/b": {}}, {}, "not a simple name"),
        ({".hidden": {}}, {}, "not a simple name"),
        ({}, {"": b""}, "not a simple name"),
        ({"manifest": {}}, {}, "reserved"),
        ({}, {"manifest.json": b"x"}, "must not end in .json"),
        ({}, {SEAL: b"x"}, "reserved for the checkpoint's seal"),
        ({}, {"state.json": b"x"}, "must not end in .json"),
        ({"bad": object()}, {}, "is not JSON data"),
        ({"bad": float("nan")}, {}, "is not JSON data"),
    ],
)
def test_bad_parts_are_refused_before_writing(
    store: CheckpointStore, json_parts: dict[str, object], blobs: dict[str, bytes], message: str
) -> None:
    with pytest.raises(CheckpointError, match=message):
        store.write(header(), json_parts, blobs)
    assert not store.root.exists()


@pytest.mark.parametrize(("run_id", "reason"), [("..", "periodic"), (RUN, "battle/end"), (RUN, "")])
def test_run_id_and_reason_must_be_simple_names(store: CheckpointStore, run_id: str, reason: str) -> None:
    with pytest.raises(CheckpointError, match="not a simple name"):
        store.write(header(run_id, reason), PARTS, {})


def test_data_dir_of_a_checkpoint(store: CheckpointStore, tmp_path: Path) -> None:
    stored = write(store)
    assert data_dir_of(stored.path) == tmp_path / "data"
    with pytest.raises(CheckpointPathError, match="is not a checkpoint folder") as caught:
        data_dir_of(tmp_path / "elsewhere" / "000001-periodic")
    assert isinstance(caught.value, UserInputError)


def test_errors_survive_pickling_with_their_fields(tmp_path: Path) -> None:
    corrupt = CheckpointCorruptError(tmp_path / RUN / "000001-periodic", ("emulator.state: missing",))
    write_error = CheckpointWriteError(tmp_path, "No space left on device", f"{RUN}/000001-periodic")
    refusals = [CheckpointIncompatibleError("other cartridge"), NoCheckpointError("none")]
    for error in [corrupt, write_error, *refusals]:
        copy = pickle.loads(pickle.dumps(error))
        assert type(copy) is type(error) and str(copy) == str(error)
    copied = pickle.loads(pickle.dumps(corrupt))
    assert copied.problems == ("emulator.state: missing",) and copied.path == corrupt.path
    assert pickle.loads(pickle.dumps(write_error)).intact == f"{RUN}/000001-periodic"


def test_manifest_rejects_unknown_fields() -> None:
    data = header().model_dump() | {"schema_version": 1, "seq": 1, "created_at": "x", "parts": {}}
    Manifest.model_validate(data)
    with pytest.raises(ValueError, match="extra"):
        Manifest.model_validate(data | {"surprise": 1})


def test_a_changed_manifest_value_breaks_the_seal_and_latest_takes_the_previous(
    store: CheckpointStore, caplog: pytest.LogCaptureFixture
) -> None:
    first = write(store)
    second = store.write(header().model_copy(update={"decisions": 200}), PARTS, {"emulator.state": STATE})
    edit_manifest(second.path, decisions=300)  # still a valid manifest, every part still matches it
    (problem,) = store.verify(second.path)
    assert problem.startswith(SEAL_BROKEN)
    with caplog.at_level(logging.WARNING, logger="engine.checkpoints"):
        assert store.latest().path == first.path
    assert f"checkpoint {second.name} failed verification ({problem})" in caplog.text
    with pytest.raises(CheckpointCorruptError, match="the seal does not match"):
        store.load(second.path)
    untrusted = {entry.name: entry.manifest is None for entry in store.entries()}
    assert untrusted == {first.name: False, second.name: True}  # an unsealed manifest is not shown


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda seal: (b"1" if seal.startswith(b"0") else b"0") + seal[1:], SEAL_BROKEN),
        (lambda seal: seal.upper(), SEAL_BROKEN),
        (lambda seal: seal.rstrip(b"\n"), SEAL_BROKEN),
        (lambda seal: seal + b"\n", SEAL_BROKEN),
        (lambda seal: b"", SEAL_BROKEN),
        (None, f"{SEAL}: seal missing"),
    ],
    ids=["digit", "upper-case", "no-newline", "extra-newline", "empty", "removed"],
)
def test_a_changed_or_missing_seal_is_broken(store: CheckpointStore, change: object, expected: str) -> None:
    first = write(store)
    second = write(store)
    seal = second.path / SEAL
    if change is None:
        seal.unlink()
    else:
        seal.write_bytes(change(seal.read_bytes()))  # type: ignore[operator]
    (problem,) = store.verify(second.path)
    assert problem.startswith(expected)
    assert store.latest().path == first.path


def test_every_flipped_byte_of_every_file_is_found(store: CheckpointStore) -> None:
    stored = store.write(header(), {"conductor": {"n": 1}}, {"emulator.state": b"\x00\x01state"})
    names = folders(stored.path)
    assert names == ["conductor.json", "emulator.state", "manifest.json", SEAL]
    for name in names:
        path = stored.path / name
        original = path.read_bytes()
        for at in range(len(original)):
            for bit in (0x01, 0x80):
                flipped = bytearray(original)
                flipped[at] ^= bit
                path.write_bytes(bytes(flipped))
                assert store.verify(stored.path), f"{name}: byte {at} ^ {bit:#x} went unnoticed"
        path.write_bytes(original)
    assert store.verify(stored.path) == ()
    # A file the manifest does not name is never loaded, so it cannot change what the checkpoint restores:
    # it is left alone rather than turning a good checkpoint into a broken one.
    (stored.path / "notes.txt").write_text("mine", encoding="utf-8")
    assert store.verify(stored.path) == ()


def test_deep_manifest_makes_checkpoints_verify_exit_1(
    store: CheckpointStore, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = write(store)
    deep = write(store)
    (deep.path / "manifest.json").write_text(DEEP, encoding="utf-8")
    assert main(["checkpoints", "verify", "--data-dir", str(tmp_path / "data")]) == 1
    out = capsys.readouterr().out
    assert f"BROKEN  {deep.name}" in out and "nested too deeply" in out and f"OK      {good.name}" in out
    assert main(["checkpoints", "verify", "--data-dir", str(tmp_path / "data"), good.name]) == 0


class FailAt:
    """Writes like the real writer, but the file number `at` (0 = the first) fills the disk halfway;
    with `at` None every file is written, and the names tell how many a checkpoint has."""

    def __init__(self, at: int | None) -> None:
        self.at = at
        self.written: list[str] = []

    def __call__(self, path: Path, data: bytes) -> None:
        if len(self.written) == self.at:
            write_synced(path, data[: len(data) // 2])
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))
        self.written.append(path.name)
        write_synced(path, data)


def test_a_full_disk_at_any_file_leaves_no_temp_folder(store: CheckpointStore) -> None:
    earlier = [write(store), write(store, reason="battle_end")]
    count = FailAt(None)
    earlier.append(write(CheckpointStore(store.root, write_file=count)))
    assert count.written[-2:] == ["manifest.json", SEAL]  # the seal is the last file written
    for at in range(len(count.written)):
        with pytest.raises(CheckpointWriteError, match="No space left on device"):
            write(CheckpointStore(store.root, write_file=FailAt(at)))
        assert not [name for name in folders(store.root / RUN) if name.startswith(".tmp-")], at
        assert folders(store.root / RUN) == sorted(item.path.name for item in earlier)
        assert all(store.verify(item.path) == () for item in earlier)


def test_an_interrupted_write_leaves_no_temp_folder(store: CheckpointStore) -> None:
    first = write(store)

    def interrupted(path: Path, data: bytes) -> None:
        if path.name == SEAL:
            raise KeyboardInterrupt
        write_synced(path, data)

    with pytest.raises(KeyboardInterrupt):
        write(CheckpointStore(store.root, write_file=interrupted))
    assert folders(store.root / RUN) == [first.path.name]
    assert store.verify(first.path) == ()
