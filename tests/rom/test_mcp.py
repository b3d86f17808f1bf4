"""`engine mcp` on the cartridge, through the SDK's own client: a session plays from the bedroom state over
stdio and over HTTP (observe, screenshot, press, goto, talk, milestones, states), and the decisions level
plays a wild battle with legal_actions and act."""

from __future__ import annotations

from pathlib import Path

import pytest
from mcp import Client

from engine.config import EngineConfig
from engine.emulator.session import EmulatorSession
from engine.mcp_server.tools import DECISION_TOOLS
from engine.play.errors import PlayError
from engine.play.session import GameSession
from tests.support.mcp_client import (
    http_server,
    play_over_http,
    play_over_stdio,
    png_of,
    png_size,
    structured,
    text_of,
    tool_names,
)
from tests.support.scenarios import set_party, start_battle

pytestmark = pytest.mark.rom

MAX_DECISIONS = 40  # a level 10 SQUIRTLE against a level 3 RATTATA needs a handful


@pytest.fixture
def bedroom(tmp_path: Path, boot_record: tuple[bytes, list[object]]) -> Path:
    path = tmp_path / "bedroom.state"
    path.write_bytes(boot_record[0])
    return path


@pytest.fixture
def wild_battle(tmp_path: Path, rom_path: Path, boot_record: tuple[bytes, list[object]]) -> Path:
    with EmulatorSession(rom_path) as session:
        session.load_state(boot_record[0])
        set_party(session, [("SQUIRTLE", 10)])
        start_battle(session, "RATTATA", 3)
        path = tmp_path / "battle.state"
        path.write_bytes(session.export_state())
    return path


async def out_of_the_house(client: Client) -> None:
    """From the bedroom: look, press, walk downstairs and out, talk, and go back to the start."""
    assert await tool_names(client) == list(DECISION_TOOLS)
    seen = structured(await client.call_tool("observe", {}))
    assert seen["map"] == "REDS_HOUSE_2F" and seen["battle"] is None and seen["minimap"]
    assert "leave_house" in (seen["objective"] or "")
    assert png_size(png_of(await client.call_tool("screenshot", {}))) == (320, 288)
    said = await client.call_tool("talk", {})  # the bedroom's player faces the SNES
    assert not said.is_error and "SNES" in text_of(said), text_of(said)
    pressed = structured(await client.call_tool("press_buttons", {"buttons": ["down"]}))
    assert pressed["frames"] > 0
    moved = structured(await client.call_tool("observe", {}))
    assert (moved["facing"], moved["y"]) != (seen["facing"], seen["y"])
    for place in ("REDS_HOUSE_1F", "PALLET_TOWN"):
        walked = structured(await client.call_tool("goto", {"place": place}))
        assert walked["arrived"] and walked["map"] == place, walked
        assert structured(await client.call_tool("observe", {}))["map"] == place
    nowhere = await client.call_tool("goto", {"place": "PALET_TOWN"})
    assert nowhere.is_error and "PALLET_TOWN" in text_of(nowhere)  # the nearest names
    milestones = structured(await client.call_tool("milestones", {}))["milestones"]
    assert milestones[0]["name"] == "leave_house" and milestones[0]["done"] and milestones[0]["frame"]
    assert not (await client.call_tool("load_state", {"name": "start"})).is_error
    assert structured(await client.call_tool("observe", {}))["map"] == "REDS_HOUSE_2F"


def test_a_stdio_session_plays_from_the_bedroom(rom_path: Path, bedroom: Path) -> None:
    play_over_stdio(out_of_the_house, "--rom", str(rom_path), "--state", str(bedroom))


def test_an_http_session_plays_from_the_bedroom(tmp_path: Path, rom_path: Path, bedroom: Path) -> None:
    with http_server(tmp_path, "--rom", str(rom_path), "--state", str(bedroom), "--harness", "engine") as url:
        play_over_http(url, out_of_the_house)


def test_the_decisions_level_plays_a_battle_by_action_ids(rom_path: Path, wild_battle: Path) -> None:
    async def session(client: Client) -> None:
        assert structured(await client.call_tool("observe", {}))["battle"] is not None
        turn = structured(await client.call_tool("legal_actions", {}))
        assert "Wild RATTATA appeared!" in turn["text"]
        labels = [option["label"] for option in turn["options"]]
        assert "use TACKLE" in labels and "run" in labels
        wrong = await client.call_tool("act", {"action_id": len(labels)})
        assert wrong.is_error and "choose one of 0: use TACKLE" in text_of(wrong)
        tackle = labels.index("use TACKLE")
        for _ in range(MAX_DECISIONS):
            turn = structured(await client.call_tool("act", {"action_id": tackle}))
            if turn["over"]:
                break
            tackle = [option["label"] for option in turn["options"]].index("use TACKLE")
        assert turn["over"] and turn["outcome"] == "victory", turn
        assert structured(await client.call_tool("observe", {}))["battle"] is None
        after = await client.call_tool("legal_actions", {})
        assert after.is_error and "not in a battle" in text_of(after)

    play_over_stdio(session, "--rom", str(rom_path), "--state", str(wild_battle), "--harness", "decisions")


def test_goto_fights_a_battle_on_its_way_only_at_the_engine_level(rom_path: Path, wild_battle: Path) -> None:
    with GameSession.open(rom_path, wild_battle.read_bytes(), EngineConfig()) as game:
        with pytest.raises(PlayError, match="a battle is on: play it with legal_actions and act"):
            game.goto("REDS_HOUSE_1F", fight=False)  # the decisions level leaves battles to the agent
        walked = game.goto("REDS_HOUSE_1F", fight=True)  # the engine level plays them by its policy
        assert walked.arrived and walked.battles == ("victory",), walked
