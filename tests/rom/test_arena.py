"""`engine arena` on the cartridge: two configs from a bedroom state and from power-on, two seeds each,
to the rival's battle, every run's lessons on one Chroma server."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine.arena.matrix import Limits
from engine.arena.runner import ArenaRequest, run_arena
from tests.support.arena_inputs import config_file
from tests.support.chroma_server import running_chroma

pytestmark = [pytest.mark.rom, pytest.mark.ray]


def test_two_configs_from_two_starts_share_their_lessons(
    ray_instance: Any, rom_path: Path, boot_record: tuple[bytes, list[Any]], tmp_path: Path
) -> None:
    bedroom = tmp_path / "bedroom.state"
    bedroom.write_bytes(boot_record[0])
    configs = (
        config_file(tmp_path, "plain"),
        config_file(tmp_path, "slow", "player:\n  fast_options: false\n"),
    )
    with running_chroma(tmp_path / "chroma") as server:
        limits = Limits(until="rival_battle", budget_seconds=300)
        request = ArenaRequest(
            rom=rom_path,
            configs=configs,
            states=(bedroom,),
            power_on=True,
            seeds=2,
            out=tmp_path / "arena",
            limits=limits,
            shared_memory=server,
            plots=False,
        )
        outcome = run_arena(request)
        import chromadb

        client = chromadb.HttpClient(host=server[0], port=server[1])
        stored = sum(collection.count() for collection in client.list_collections())
    assert outcome.failures == () and len(outcome.results) == 8
    assert {result.summary.stopped for result in outcome.results} == {"until"}
    by_key = {result.cell.key: result for result in outcome.results}
    for config in ("plain", "slow"):
        for start in ("bedroom", "power-on"):
            frames = {by_key[f"{config}.{start}.{seed}"].summary.frames for seed in (0, 1)}
            assert len(frames) == 2, "seed 1 is another draw of the same start"
    lessons = sum(result.lessons_stored for result in outcome.results)
    assert lessons > 0 and 0 < stored <= lessons
    assert all(row.milestones.mean >= 1 for row in outcome.report.rows)
