"""Lessons are kept per (harness level, model) on a real embedded Chroma: one scope never sees another's,
the run's memory role learns in the config's scope, and `engine lessons --harness --model` lists any."""

from __future__ import annotations

import json
from pathlib import Path

import chromadb
import pytest
from chromadb.config import Settings

from engine.actors.factory import _memory
from engine.cli import main
from engine.commands.access import memory_dir
from engine.config import EngineConfig, HarnessConfig, MemoryConfig
from engine.memory.lessons import Lesson, LessonContext
from engine.memory.service import CHROMA_DIR, LessonMemory, collection_name, new_lesson_id
from engine.procedural.scope import Scope

HAIKU = "claude-haiku-4-5"
ENGINE = Scope(level="engine", model=HAIKU)
VISION = Scope(level="vision", model=HAIKU)
ODD = Scope(level="buttons", model="Org/Local Model:7B..q4")


def lesson(text: str, move: str) -> Lesson:
    fields: dict[str, object] = {"lesson_id": new_lesson_id(), "kind": "move", "text": text, "move": move,
                                 "species": ("ONIX",), "confidence": 0.8, "evidence": 1,
                                 "created_play_hours": 0.0, "updated_play_hours": 0.0}  # fmt: skip
    return Lesson.model_validate(fields)


def learn(directory: Path, scope: Scope | None, *lessons: Lesson) -> None:
    memory = LessonMemory(MemoryConfig(), directory, scope=scope)
    try:
        memory.learn(list(lessons))
    finally:
        memory.close()


def texts(directory: Path, scope: Scope | None) -> set[str]:
    memory = LessonMemory(MemoryConfig(), directory, scope=scope)
    try:
        listed = {found.text for found in memory.lessons()}
        searched = {found.text for found, _ in memory.search("BUBBLE TACKLE vs ONIX", k=10)}
        recalled = {found.text for found in memory.recall("ONIX", LessonContext(species=("ONIX",)), k=10)}
        assert searched <= listed and recalled <= listed
        return listed
    finally:
        memory.close()


def test_two_scopes_never_see_each_others_lessons(tmp_path: Path) -> None:
    directory = tmp_path / "memory"
    learn(directory, ENGINE, lesson("BUBBLE vs ONIX works well", "BUBBLE"))
    learn(directory, VISION, lesson("TACKLE vs ONIX barely hurts", "TACKLE"))
    learn(directory, ODD, lesson("EMBER vs ONIX is resisted", "EMBER"))
    assert texts(directory, ENGINE) == {"BUBBLE vs ONIX works well"}
    assert texts(directory, VISION) == {"TACKLE vs ONIX barely hurts"}
    assert texts(directory, ODD) == {"EMBER vs ONIX is resisted"}
    assert texts(directory, Scope(level="vision", model="claude-sonnet-4-5")) == set()
    assert texts(directory, None) == set()  # the unscoped collection of older engines holds none of them
    client = chromadb.PersistentClient(path=str(directory / CHROMA_DIR),
                                       settings=Settings(anonymized_telemetry=False))  # fmt: skip
    names = {collection.name for collection in client.list_collections()}
    config = MemoryConfig()
    assert {collection_name(config, scope) for scope in (ENGINE, VISION, ODD)} <= names


def test_the_run_memory_learns_in_the_configs_scope(tmp_path: Path) -> None:
    config = EngineConfig(harness=HarnessConfig(level="vision"))
    memory = _memory(config, tmp_path / "memory", "run-1")
    try:
        assert memory.scope == VISION
        memory.learn([lesson("WATER GUN vs ONIX is super effective", "WATER_GUN")])
    finally:
        memory.close()
    assert texts(tmp_path / "memory", VISION) == {"WATER GUN vs ONIX is super effective"}
    assert texts(tmp_path / "memory", ENGINE) == set()


def test_the_lessons_command_lists_each_scope(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    directory = memory_dir(tmp_path)
    learn(directory, ENGINE, lesson("BUBBLE vs ONIX works well", "BUBBLE"))
    learn(directory, VISION, lesson("TACKLE vs ONIX barely hurts", "TACKLE"))
    base = ["lessons", "list", "--data-dir", str(tmp_path), "--json"]
    assert main(base) == 0  # the config's scope: the engine level and the acting tier's model
    report = json.loads(capsys.readouterr().out)
    assert report["scope"] == {"level": "engine", "model": HAIKU, "slug": ENGINE.slug}
    assert [entry["text"] for entry in report["lessons"]] == ["BUBBLE vs ONIX works well"]
    assert main([*base, "--harness", "vision"]) == 0
    assert [entry["text"] for entry in json.loads(capsys.readouterr().out)["lessons"]] == [
        "TACKLE vs ONIX barely hurts"
    ]
    assert main([*base, "--harness", "vision", "--model", "claude-sonnet-4-5"]) == 0
    assert json.loads(capsys.readouterr().out)["lessons"] == []
    search = ["lessons", "search", "TACKLE ONIX", "--data-dir", str(tmp_path), "--harness", "vision"]
    assert main(search) == 0
    out = capsys.readouterr().out
    assert "TACKLE vs ONIX barely hurts" in out and "BUBBLE" not in out
    assert "scope vision / claude-haiku-4-5" in out.splitlines()[0]
    assert main([*base, "--harness", "vision", "--address", "auto"]) == 2  # a live engine has its own
    assert "--harness and --model" in capsys.readouterr().err
