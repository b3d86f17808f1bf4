"""`engine arena` on the test session's Ray instance: the matrix played, its results written as cells end,
a rerun that plays only what is missing, failures kept apart, and the exports readable."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from engine.arena.matrix import Limits
from engine.arena.runner import ArenaRequest, run_arena
from engine.errors import UserInputError
from tests.support.arena_inputs import cartridge, config_file, fake_factory, save_states
from tests.support.chroma_server import running_chroma
from tests.support.fake_emulator import BrokenCartridge

pytestmark = pytest.mark.ray


@pytest.fixture
def request_for(tmp_path: Path) -> Any:
    rom = cartridge(tmp_path)
    (state,) = save_states(rom, tmp_path, 1)
    configs = (
        config_file(tmp_path, "plain"),
        config_file(tmp_path, "forgetful", "memory:\n  enabled: false\n"),
    )

    def build(**changes: Any) -> ArenaRequest:
        values: dict[str, Any] = {"rom": rom, "configs": configs, "states": (state,), "seeds": 2,
                                  "out": tmp_path / "arena", "limits": Limits(max_decisions=6),
                                  "plots": False}  # fmt: skip
        return ArenaRequest(**{**values, **changes})

    return build


def test_every_cell_is_played_once_and_written_as_it_ends(ray_instance: Any, request_for: Any) -> None:
    request = request_for()
    outcome = run_arena(request, emulator_factory=fake_factory())
    keys = [result.cell.key for result in outcome.results]
    assert keys == ["forgetful.start0.0", "forgetful.start0.1", "plain.start0.0", "plain.start0.1"]
    assert outcome.failures == () and outcome.skipped == 0
    assert {result.summary.stopped for result in outcome.results} == {"max_decisions"}
    for result in outcome.results:
        kept = json.loads((request.out / "cells" / f"{result.cell.key}.json").read_text(encoding="utf-8"))
        assert kept["summary"]["run_id"] == result.summary.run_id
        run_dir = request.out / "runs" / result.summary.run_id
        assert (run_dir / "decisions.jsonl").is_file() and (run_dir / "run.log").is_file()
        assert not list(run_dir.rglob("*.state")), "save states stay on the worker"
    assert len({result.summary.run_id for result in outcome.results}) == 4
    rows = list(csv.DictReader(io.StringIO((request.out / "cells.csv").read_text(encoding="utf-8"))))
    assert [row["cell"] for row in rows] == keys
    assert {row["stopped"] for row in rows} == {"max_decisions"}
    assert [row["config"] for row in outcome.report.model_dump()["rows"]] == ["plain", "forgetful"]


def test_a_rerun_plays_only_the_cells_missing_or_changed(ray_instance: Any, request_for: Any) -> None:
    first = run_arena(request_for(), emulator_factory=fake_factory())
    (request_for().out / "cells" / "plain.start0.1.json").unlink()
    again = run_arena(request_for(), emulator_factory=fake_factory())
    assert again.skipped == 3
    replayed = {r.cell.key: r.summary.run_id for r in again.results}
    before = {r.cell.key: r.summary.run_id for r in first.results}
    assert [key for key in before if replayed[key] != before[key]] == ["plain.start0.1"]
    changed = run_arena(request_for(limits=Limits(max_decisions=4)), emulator_factory=fake_factory())
    assert changed.skipped == 0
    assert {result.summary.decisions for result in changed.results} == {4}


def test_a_run_that_fails_is_a_result_and_a_cell_that_cannot_run_is_played_again(
    ray_instance: Any, request_for: Any
) -> None:
    request = request_for(seeds=1)
    erring = run_arena(request, emulator_factory=fake_factory(fail_on="advance"))
    assert erring.failures == () and {result.summary.stopped for result in erring.results} == {"error"}
    elsewhere = request_for(seeds=1, out=request.out.parent / "broken")
    broken = run_arena(elsewhere, emulator_factory=partial(BrokenCartridge))
    assert broken.results == () and len(broken.failures) == 2
    assert all("RomError" in failure.error for failure in broken.failures)
    assert sorted(path.name for path in (elsewhere.out / "cells").iterdir()) == [
        "forgetful.start0.0.failed.json", "plain.start0.0.failed.json"]  # fmt: skip
    mended = run_arena(elsewhere, emulator_factory=fake_factory())
    assert mended.skipped == 0 and len(mended.results) == 2 and mended.failures == ()
    assert not list((elsewhere.out / "cells").glob("*.failed.json"))


def test_the_exports_are_readable_and_parquet_matches_csv(ray_instance: Any, request_for: Any) -> None:
    import pyarrow.parquet as pq

    request = request_for(seeds=1)
    run_arena(request, emulator_factory=fake_factory())
    table = pq.read_table(request.out / "cells.parquet").to_pylist()
    rows = list(csv.DictReader(io.StringIO((request.out / "cells.csv").read_text(encoding="utf-8"))))
    assert [row["cell"] for row in table] == [row["cell"] for row in rows]
    assert [int(row["decisions"]) for row in rows] == [row["decisions"] for row in table]
    lines = (request.out / "cells.jsonl").read_text(encoding="utf-8").splitlines()
    assert [json.loads(line)["cell"] for line in lines] == [row["cell"] for row in rows]
    report = json.loads((request.out / "report.json").read_text(encoding="utf-8"))
    assert {(row["config"], row["start"], row["runs"]) for row in report["rows"]} == {
        ("plain", "start0", 1), ("forgetful", "start0", 1)}  # fmt: skip


def test_bad_inputs_are_one_line_before_anything_is_played(ray_instance: Any, request_for: Any) -> None:
    request = request_for()
    with pytest.raises(UserInputError, match="config file not found"):
        run_arena(
            request_for(configs=(request.out.parent / "missing.yaml",)), emulator_factory=fake_factory()
        )
    junk = request.out.parent / "junk.state"
    junk.write_bytes(b"not a state")
    with pytest.raises(UserInputError):
        run_arena(request_for(states=(junk,)), emulator_factory=fake_factory())
    with pytest.raises(UserInputError, match="no Chroma server answers"):
        run_arena(request_for(shared_memory=("127.0.0.1", 9)), emulator_factory=fake_factory())
    assert not (request.out / "cells").exists()


@pytest.fixture
def chroma_server(tmp_path: Path) -> Iterator[tuple[str, int]]:
    with running_chroma(tmp_path / "chroma") as address:
        yield address


def test_shared_memory_puts_every_run_on_one_chroma_server(
    ray_instance: Any, request_for: Any, chroma_server: tuple[str, int]
) -> None:
    import chromadb

    request = request_for(seeds=1, shared_memory=chroma_server)
    outcome = run_arena(request, emulator_factory=fake_factory())
    assert len(outcome.results) == 2 and {r.summary.stopped for r in outcome.results} == {"max_decisions"}
    assert all(result.lessons_stored == 0 for result in outcome.results)  # the scripted game teaches nothing
    client = chromadb.HttpClient(host=chroma_server[0], port=chroma_server[1])
    names = [collection.name for collection in client.list_collections()]
    assert names and all(name.startswith("lessons-hashing-") for name in names)
