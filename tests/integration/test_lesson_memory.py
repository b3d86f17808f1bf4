"""The memory role on real embedded Chroma: play clock, learning, recall, the one-writer lock."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.config import MemoryConfig
from engine.memory.clock import FRAMES_PER_HOUR, PlayClock
from engine.memory.errors import MemoryStoreError
from engine.memory.lessons import Lesson, LessonContext, Measurement
from engine.memory.service import LessonMemory, MemoryBusyError, new_lesson_id
from engine.telemetry.metrics import RunMetrics


def lesson(text: str, **keys: object) -> Lesson:
    fields: dict[str, object] = {
        "lesson_id": new_lesson_id(),
        "kind": "move",
        "text": text,
        "confidence": 0.8,
        "evidence": 1,
        "provenance": ("b1",),
        "created_play_hours": 0.0,
        "updated_play_hours": 0.0,
    }
    return Lesson.model_validate(fields | keys)


@pytest.fixture
def memory(tmp_path: Path) -> Iterator[LessonMemory]:
    opened = LessonMemory(MemoryConfig(), tmp_path / "memory")
    yield opened
    opened.close()


def test_clock_survives_restarts_and_only_moves_with_frames(tmp_path: Path) -> None:
    path = tmp_path / "clock.json"
    clock = PlayClock(path)
    assert clock.hours() == 0.0 and not path.exists()
    clock.add_frames(int(FRAMES_PER_HOUR / 2))
    clock.add_frames(-500)  # never backwards
    reopened = PlayClock(path)
    assert reopened.hours() == pytest.approx(0.5, abs=1e-5) == clock.hours()
    assert json.loads(path.read_text())["play_hours"] == pytest.approx(0.5, abs=1e-5)


def test_unreadable_clock_is_a_memory_error(tmp_path: Path) -> None:
    (tmp_path / "clock.json").write_text("{not json")
    with pytest.raises(MemoryStoreError, match="play clock"):
        PlayClock(tmp_path / "clock.json")


def test_learn_stamps_play_time_and_merges(memory: LessonMemory) -> None:
    memory.played(int(FRAMES_PER_HOUR * 2))
    first = lesson("BUBBLE vs ONIX", move="BUBBLE", species=("ONIX",),
                   measured=Measurement(uses=2, damage_percent=40.0, hit_rate=1.0))  # fmt: skip
    (stored,) = memory.learn([first])
    assert stored.created_play_hours == pytest.approx(2.0) == stored.updated_play_hours
    again = lesson("BUBBLE vs ONIX again", move="BUBBLE", species=("ONIX",),
                   measured=Measurement(uses=2, damage_percent=20.0, hit_rate=0.5))  # fmt: skip
    (merged,) = memory.learn([again])
    assert merged.lesson_id == first.lesson_id and merged.evidence == 2
    assert merged.measured == Measurement(uses=4, damage_percent=30.0, hit_rate=0.75)
    assert memory.counts["learned"] == 1 and memory.counts["merged"] == 1


def test_measured_for_and_recall(memory: LessonMemory) -> None:
    bubble = Measurement(uses=3, damage_percent=35)
    memory.learn([
        lesson("BUBBLE vs ONIX", move="BUBBLE", species=("ONIX",), measured=bubble),
        lesson("TACKLE vs ONIX is weak", move="TACKLE", species=("ONIX",)),
        lesson("EMBER vs ONIX", move="EMBER", species=("GEODUDE",), measured=Measurement(uses=1, hit_rate=1)),
    ])  # fmt: skip
    assert [found.move for found in memory.measured_for("onix")] == ["BUBBLE"]
    recalled = memory.recall("ONIX battle", LessonContext(species=("ONIX",), moves=("TACKLE",)), k=1)
    assert [found.move for found in recalled] == ["TACKLE"]
    assert len(memory.lessons()) == 3 and len(memory.lessons("type_matchup")) == 0
    assert memory.search("EMBER", k=1)[0][0].move == "EMBER"


def test_a_replays_regret_is_found_for_its_enemy_and_opponent_and_kept_apart_from_another(
    memory: LessonMemory,
) -> None:
    regret = {"kind": "move", "move": "BUBBLE", "species": ("SQUIRTLE", "GEODUDE"), "opponent": "BROCK #1"}
    memory.learn([
        lesson("SQUIRTLE should use BUBBLE, not TAIL WHIP", prefer="use BUBBLE", instead_of="use TAIL_WHIP",
               **regret),
        lesson("SQUIRTLE should use BUBBLE, not TACKLE", prefer="use BUBBLE", instead_of="use TACKLE",
               **regret),
        lesson("BUBBLE vs GEODUDE", move="BUBBLE", species=("GEODUDE",), measured=Measurement(uses=3)),
    ])  # fmt: skip
    found = memory.preferences_for("geodude", "BROCK #1")
    assert sorted(lesson.instead_of or "" for lesson in found) == ["use TACKLE", "use TAIL_WHIP"]
    assert memory.preferences_for("GEODUDE", "BROCK #2") == []  # another trainer's battle
    assert memory.preferences_for("GEODUDE", None) == []  # a wild battle asks nothing
    assert memory.preferences_for("SQUIRTLE", "BROCK #1") == []  # our side's species is not the enemy


def test_a_wrong_regret_loses_its_weight_once_contradicted_and_is_no_longer_followed(
    memory: LessonMemory,
) -> None:
    # A deliberately wrong lesson: TAIL WHIP "wins" against BROCK's GEODUDE. Each battle lost while it was
    # followed halves its confidence; below FOLLOWED_FROM the policy is no longer given it.
    keys = {"species": ("SQUIRTLE", "GEODUDE"), "opponent": "BROCK #1", "move": "TAIL_WHIP"}
    regret = {"prefer": "use TAIL_WHIP", "instead_of": "use BUBBLE", "confidence": 0.5}
    wrong = lesson("SQUIRTLE should use TAIL WHIP, not BUBBLE", **keys, **regret)
    memory.learn([wrong])
    assert [found.text for found in memory.preferences_for("GEODUDE", "BROCK #1")] == [wrong.text]
    (weakened,) = memory.contradict([wrong.text, "a text no lesson has"])
    assert weakened.confidence == pytest.approx(0.25) and memory.counts["contradicted"] == 1
    assert memory.preferences_for("GEODUDE", "BROCK #1") == []  # retired: 0.25 < FOLLOWED_FROM
    assert [found.confidence for found in memory.lessons()] == [pytest.approx(0.25)]  # kept, weighed less


def test_lessons_stored_and_recalled_are_counted_for_the_run(tmp_path: Path) -> None:
    metrics = RunMetrics("r", export=False)
    counted = LessonMemory(MemoryConfig(), tmp_path / "memory", metrics=metrics)
    try:
        counted.learn([lesson("BUBBLE vs ONIX", move="BUBBLE", species=("ONIX",)),
                       lesson("TACKLE vs ONIX is weak", move="TACKLE", species=("ONIX",))])  # fmt: skip
        found = counted.recall("ONIX battle", LessonContext(species=("ONIX",), moves=("TACKLE",)), k=1)
    finally:
        counted.close()
    assert metrics.value("engine_lessons", event="stored") == 2.0
    assert metrics.value("engine_lessons", event="recalled") == len(found) == 1


def test_second_writer_is_refused_with_a_clear_error(memory: LessonMemory, tmp_path: Path) -> None:
    script = (
        "import sys\nfrom pathlib import Path\nfrom engine.config import MemoryConfig\n"
        "from engine.memory.service import LessonMemory, MemoryBusyError\n"
        "try:\n    LessonMemory(MemoryConfig(), Path(sys.argv[1]))\n"
        "except MemoryBusyError as error:\n    print(error)\n    sys.exit(3)\n"
    )
    other = subprocess.run([sys.executable, "-c", script, str(tmp_path / "memory")],
                           capture_output=True, text=True, timeout=120)  # fmt: skip
    assert other.returncode == 3, other.stderr
    assert "is open in process" in other.stdout and "--data-dir" in other.stdout
    memory.close()
    reopened = LessonMemory(MemoryConfig(), tmp_path / "memory")  # released on close
    reopened.close()
    assert MemoryBusyError.__mro__[1] is MemoryStoreError


def test_disabled_memory_answers_with_nothing(tmp_path: Path) -> None:
    off = LessonMemory(MemoryConfig(enabled=False), tmp_path / "memory")
    assert off.learn([lesson("x", move="TACKLE")]) == [] and off.recall("x", LessonContext()) == []
    assert off.played(1000) > 0 and not (tmp_path / "memory").exists()
    assert off.report().detail == "disabled"
    off.close()


def test_prunes_faded_lessons_when_opened(tmp_path: Path) -> None:
    config = MemoryConfig(decay_per_hour=1.0, prune_below=0.5)
    first = LessonMemory(config, tmp_path / "memory")
    first.learn([lesson("fades", move="TACKLE", confidence=0.6)])
    first.played(int(FRAMES_PER_HOUR * 1))  # 0.6 / (1 + 1) = 0.3 < 0.5
    first.close()
    second = LessonMemory(config, tmp_path / "memory")
    assert second.counts["pruned"] == 1 and second.lessons() == []
    second.close()


def test_the_marks_of_recalled_lessons_are_written_at_a_battles_end_at_most_every_marks_seconds(
    memory: LessonMemory, monkeypatch: pytest.MonkeyPatch
) -> None:
    from engine.memory import service

    store = memory.store
    assert store is not None
    memory.learn([lesson("BUBBLE vs ONIX", move="BUBBLE", species=("ONIX",))])
    written: list[int] = []
    flush = store.flush
    monkeypatch.setattr(store, "flush", lambda: written.append(len(store._marks)) or flush())
    assert memory.recall("BUBBLE ONIX", LessonContext(species=("ONIX",)))
    memory.played(100)
    assert written == []  # the memory opened less than MARKS_SECONDS ago: the mark waits, read at once
    assert memory.recall("BUBBLE ONIX", LessonContext(species=("ONIX",)))[0].last_used_play_hours is not None
    monkeypatch.setattr(service, "MARKS_SECONDS", 0.0)
    memory.played(100)
    assert written == [1] and store._marks == {}
