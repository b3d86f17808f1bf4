"""`engine mcp` against a generated cartridge (tests.support.romgen: it passes the cartridge check and PyBoy
runs it; its RAM is junk), through the SDK's own client over stdio and over HTTP. What holds whatever the
RAM says: the tools of each harness level, a screenshot is a PNG of the size asked for, buttons are
checked as the JSON format checks them, and a bad call is a tool error the session plays on after."""

from __future__ import annotations

import subprocess
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path

import anyio
import pytest
from mcp import Client

from engine.config import EngineConfig, HarnessLevel
from engine.mcp_server.server import build_server
from engine.mcp_server.tools import BUTTON_TOOLS, DECISION_TOOLS, VISION_TOOLS, GameTools
from engine.mcp_server.worker import GameWorker
from engine.play.session import GameSession
from tests.conftest import REPO_ROOT
from tests.support.mcp_client import (
    engine_command,
    http_server,
    play_over_http,
    play_over_stdio,
    png_of,
    png_size,
    structured,
    text_of,
    tool_names,
)
from tests.support.romgen import build_rom, write_titled

SCREEN = (160, 144)


@pytest.fixture
def rom(tmp_path: Path) -> Path:
    return write_titled(tmp_path, "red")


async def screenshots_and_presses(client: Client) -> None:
    """The buttons level's tools on any cartridge: images of the sizes asked for, presses that count
    their frames, and every bad argument a tool error after which the next call works."""
    assert await tool_names(client) == list(BUTTON_TOOLS)
    assert png_size(png_of(await client.call_tool("screenshot", {}))) == (2 * SCREEN[0], 2 * SCREEN[1])
    assert png_size(png_of(await client.call_tool("screenshot", {"scale": 1}))) == SCREEN
    assert png_size(png_of(await client.call_tool("screenshot", {"scale": 3}))) == (
        3 * SCREEN[0],
        3 * SCREEN[1],
    )
    pressed = structured(await client.call_tool("press_buttons", {"buttons": ["a", "up", "start"]}))
    assert pressed["buttons"] == ["a", "up", "start"] and pressed["frames"] > 0
    bad_calls = [
        ("press_buttons", {"buttons": ["a", "b", "up", "down"]}, "at most 3"),
        ("press_buttons", {"buttons": ["jump"]}, "not a button: 'jump'"),
        ("press_buttons", {"buttons": ["A"]}, "not a button: 'A'"),
        ("press_buttons", {"buttons": []}, "not none"),
        ("press_buttons", {}, "buttons"),
        ("press_buttons", {"buttons": 3}, "buttons"),
        ("screenshot", {"scale": 0}, "scale must be 1 to 8"),
        ("screenshot", {"scale": "big"}, "scale"),
        ("goto", {"place": "PALLET_TOWN"}, "Unknown tool"),
    ]
    for name, arguments, words in bad_calls:
        result = await client.call_tool(name, arguments)
        assert result.is_error, (name, arguments)
        assert words in text_of(result), text_of(result)
        assert "\n" not in text_of(result), text_of(result)  # one line, whatever was wrong
    assert not (await client.call_tool("press_buttons", {"buttons": ["b"]})).is_error
    assert not (await client.call_tool("observe", {})).is_error  # RAM's text: junk here, but text


def test_a_stdio_session_at_the_buttons_level(rom: Path) -> None:
    play_over_stdio(screenshots_and_presses, "--rom", str(rom), "--harness", "buttons")


def test_an_http_session_at_the_buttons_level(tmp_path: Path, rom: Path) -> None:
    with http_server(tmp_path, "--rom", str(rom), "--harness", "buttons") as url:
        assert url.startswith("http://127.0.0.1:") and url.endswith("/mcp")
        play_over_http(url, screenshots_and_presses)
        play_over_http(url, screenshots_and_presses)  # a second client: the same game, still served


def test_the_vision_level_shows_only_the_screen(rom: Path) -> None:
    async def session(client: Client) -> None:
        assert await tool_names(client) == list(VISION_TOOLS)
        # observe reads the screen from its pixels with the cartridge's font: this one has none.
        reading = await client.call_tool("observe", {})
        assert reading.is_error and "FontGraphics" in text_of(reading)
        assert png_size(png_of(await client.call_tool("screenshot", {"scale": 1}))) == SCREEN
        assert not (await client.call_tool("press_buttons", {"buttons": ["right"]})).is_error

    play_over_stdio(session, "--rom", str(rom), "--harness", "vision")


@pytest.mark.parametrize(
    ("content", "words"),
    [(None, "ROM file not found"), (b"junk", "not a Game Boy ROM"), (build_rom(title=b"TETRIS"), "TETRIS")],
)
def test_a_bad_cartridge_is_one_line_and_exit_2(tmp_path: Path, content: bytes | None, words: str) -> None:
    path = tmp_path / "cartridge.gb"
    if content is not None:
        path.write_bytes(content)
    ended = subprocess.run(engine_command("--rom", str(path)), cwd=REPO_ROOT, capture_output=True, text=True,
                           timeout=120, stdin=subprocess.DEVNULL)  # fmt: skip
    assert ended.returncode == 2, ended.stderr
    lines = [line for line in ended.stderr.splitlines() if line.startswith("engine:")]
    assert len(lines) == 1 and words in lines[0], ended.stderr
    assert "Traceback" not in ended.stderr and ended.stdout == ""


def test_a_bad_state_is_one_line_and_exit_2(tmp_path: Path, rom: Path) -> None:
    state = tmp_path / "broken.state"
    state.write_bytes(b"not a save state at all")
    ended = subprocess.run(engine_command("--rom", str(rom), "--state", str(state)), cwd=REPO_ROOT,
                           capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)  # fmt: skip
    assert ended.returncode == 2, ended.stderr
    assert "engine: error:" in ended.stderr and "broken.state" in ended.stderr
    assert "Traceback" not in ended.stderr


@pytest.fixture
def unstarted_game(rom: Path) -> Iterator[GameSession]:
    """The generated cartridge as a game the engine has not brought anywhere (its intro cannot run)."""
    game = GameSession.open(rom, None, EngineConfig(), start=False)
    yield game
    game.close()


def in_process(game: GameSession, level: HarnessLevel, session: Callable[[Client], Awaitable[None]]) -> None:
    """The server built as `engine mcp` builds it, its client in this process (the SDK's own transport)."""
    worker = GameWorker(seconds=60.0)
    tools = GameTools(game, worker, level, scale=2)
    tools.keep_start()

    async def main() -> None:
        async with Client(build_server(tools)) as client:
            await session(client)

    try:
        anyio.run(main)
    finally:
        worker.close(lambda: None)


@pytest.mark.parametrize("level", ["decisions", "engine"])
def test_the_decision_levels_add_walking_battles_story_and_states(
    unstarted_game: GameSession, level: HarnessLevel
) -> None:
    async def session(client: Client) -> None:
        assert await tool_names(client) == list(DECISION_TOOLS)
        for name, arguments, words in [
            ("goto", {"place": "PALLET_TOWN"}, "maps cannot be read"),  # no maps in this cartridge
            ("goto", {"place": "PALLET_TOWN", "max_steps": 0}, "max_steps must be 1 to"),
            ("talk", {"answer": "maybe"}, "yes or no"),
            ("legal_actions", {}, "not in a battle"),
            ("act", {"action_id": 0}, "not in a battle"),
            ("act", {}, "act: action_id: Field required"),
            ("act", {"action_id": "first"}, "act: action_id: Input should be a valid integer"),
            ("goto", {"place": ["PALLET_TOWN"]}, "goto: place: Input should be a valid string"),
            ("load_state", {"name": "never saved"}, "a state's name is"),
            ("load_state", {"name": "later"}, "no state saved as 'later' (saved: start)"),
        ]:
            result = await client.call_tool(name, arguments)
            assert result.is_error and words in text_of(result), (name, text_of(result))
            assert "\n" not in text_of(result), text_of(result)
        assert "milestones" in text_of(await client.call_tool("milestones", {}))
        assert not (await client.call_tool("objectives", {})).is_error
        frame = structured(await client.call_tool("observe", {}))["frame"]
        assert "saved as 'here'" in text_of(await client.call_tool("save_state", {"name": "here"}))
        await client.call_tool("press_buttons", {"buttons": ["a", "a", "a"]})
        assert structured(await client.call_tool("observe", {}))["frame"] > frame
        assert not (await client.call_tool("load_state", {"name": "here"})).is_error
        assert not (await client.call_tool("load_state", {"name": "start"})).is_error

    in_process(unstarted_game, level, session)
