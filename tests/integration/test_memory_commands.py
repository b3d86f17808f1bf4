"""`engine lessons list|search` on a real embedded memory in a temporary data directory."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.cli import main
from engine.commands.access import config_scope, memory_dir
from engine.config import EngineConfig, MemoryConfig
from engine.memory.lessons import Lesson, Measurement
from engine.memory.service import LessonMemory, new_lesson_id


def lesson(text: str, kind: str = "move", **keys: object) -> Lesson:
    fields: dict[str, object] = {"lesson_id": new_lesson_id(), "kind": kind, "text": text,
                                 "confidence": 0.8, "evidence": 1, "created_play_hours": 0.0,
                                 "updated_play_hours": 0.0}  # fmt: skip
    return Lesson.model_validate(fields | keys)


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    # The scope the commands read by default: the default config's (harness level, model).
    memory = LessonMemory(MemoryConfig(), memory_dir(tmp_path), scope=config_scope(EngineConfig()))
    memory.learn([
        lesson("DOUBLE KICK vs RATICATE", move="DOUBLE_KICK", species=("RATICATE",),
               measured=Measurement(uses=4, damage_percent=41.0, hit_rate=1.0)),
        lesson("WATER beats ROCK", kind="type_matchup", attacker_types=("WATER",), defender_types=("ROCK",)),
    ])  # fmt: skip
    memory.close()
    return tmp_path


def test_list_as_json(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lessons", "list", "--data-dir", str(data_dir), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert {entry["kind"] for entry in report["lessons"]} == {"move", "type_matchup"}
    assert all(entry["confidence_now"] == pytest.approx(0.8) for entry in report["lessons"])
    assert main(["lessons", "list", "--data-dir", str(data_dir), "--kind", "move", "--json"]) == 0
    (only,) = json.loads(capsys.readouterr().out)["lessons"]
    assert only["measured"] == {"uses": 4, "damage_percent": 41.0, "hit_rate": 1.0}


def test_list_and_search_as_text(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lessons", "list", "--data-dir", str(data_dir)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("2 lessons") and "[4 uses, 41%/use, hit 100%]" in out
    assert main(["lessons", "search", "RATICATE DOUBLE KICK", "--data-dir", str(data_dir), "-n", "1"]) == 0
    out = capsys.readouterr().out
    assert "DOUBLE KICK vs RATICATE" in out and "WATER beats ROCK" not in out


def test_no_memory_yet_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lessons", "list", "--data-dir", str(tmp_path)]) == 2
    assert "no lesson memory in" in capsys.readouterr().err
    assert not memory_dir(tmp_path).exists()  # looking did not create anything


def test_memory_open_elsewhere_is_refused(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    holder = LessonMemory(MemoryConfig(), memory_dir(data_dir))
    try:
        # flock locks belong to the open file, so a second open in this process is refused too.
        assert main(["lessons", "list", "--data-dir", str(data_dir)]) == 2
        assert "--address" in capsys.readouterr().err
    finally:
        holder.close()


def test_an_unreachable_chroma_server_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "http.yaml"
    config.write_text("memory:\n  backend: http\n  host: 127.0.0.1\n  port: 9\n")  # discard port: nothing
    assert main(["lessons", "list", "--data-dir", str(tmp_path), "--config", str(config)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("engine: error: lesson store:") and "Traceback" not in err
