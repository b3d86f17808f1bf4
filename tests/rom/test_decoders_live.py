"""Decoders and decision points on a real cartridge, in scenarios built with PyBoy's Gen 1 wrapper."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.emulator.session import EmulatorSession
from engine.game.buttons import Button
from engine.game.charmap import decode_string
from engine.game.models import DecisionPoint as D
from tests.support.scenarios import advance_to, boot_to_name_menu, set_party, state_of

pytestmark = pytest.mark.rom

TEAM = [("SQUIRTLE", 13), ("PIKACHU", 12), ("GEODUDE", 15), ("GASTLY", 20), ("PIDGEOTTO", 22), ("MEW", 30)]
WRAPPER_FIELDS = (
    "species",
    "level",
    "hp",
    "max_hp",
    "status",
    "type1",
    "type2",
    "attack",
    "defense",
    "speed",
    "special",
    "nickname",
)


def test_boot_walks_through_title_intro_and_name_menus(boot_record: tuple[bytes, list]) -> None:
    seen = boot_record[1]
    for point in (D.TITLE_MENU, D.DIALOG_WAIT, D.OTHER_MENU, D.OVERWORLD_FREE):
        assert point in seen
    assert seen[-1] is D.OVERWORLD_FREE


def test_bedroom_after_boot(game: EmulatorSession) -> None:
    state = state_of(game)
    assert state.decision_point is D.OVERWORLD_FREE
    assert state.overworld.map_name == "REDS_HOUSE_2F"
    assert state.party == ()
    assert state.battle is None
    assert state.player_name in {"RED", "ASH", "JACK", "BLUE", "GARY", "JOHN"}


def test_start_menu_opens_and_closes(game: EmulatorSession) -> None:
    game.press(Button.START)
    state = advance_to(game, {D.START_MENU})
    assert state.menu is not None and state.menu.item == 0
    game.press(Button.B)
    assert advance_to(game, {D.OVERWORLD_FREE}).decision_point is D.OVERWORLD_FREE


def _wrapper_view(raw: dict) -> dict:
    return {key: raw[key] for key in WRAPPER_FIELDS} | {
        "nickname": decode_string(bytes(raw["nickname"])),
        "moves": tuple(m for m in raw["moves"] if m),
        "pp": tuple(p & 0x3F for m, p in zip(raw["moves"], raw["pp"], strict=True) if m),
    }


def _decoded_view(mon) -> dict:
    return {
        "species": mon.species_id,
        "level": mon.level,
        "hp": mon.hp,
        "max_hp": mon.max_hp,
        "status": mon.status_byte,
        "type1": mon.type1,
        "type2": mon.type2,
        "attack": mon.stats.attack,
        "defense": mon.stats.defense,
        "speed": mon.stats.speed,
        "special": mon.stats.special,
        "nickname": mon.nickname,
        "moves": tuple(m.move_id for m in mon.moves),
        "pp": tuple(m.pp for m in mon.moves),
    }


def test_party_agrees_with_pyboys_reader(game: EmulatorSession) -> None:
    set_party(game, TEAM)
    game.tick(30)
    decoded = state_of(game).party
    wrapper = game.pyboy.game_wrapper.party
    assert [m.species_name for m in decoded] == [name for name, _ in TEAM]
    assert [_decoded_view(m) for m in decoded] == [_wrapper_view(raw) for raw in wrapper]


def test_wild_battle_menus(game: EmulatorSession) -> None:
    set_party(game, [("SQUIRTLE", 9), ("PIKACHU", 8)])
    game.pyboy.game_wrapper.start_wild_battle("PIDGEY", 5)
    state = advance_to(game, {D.BATTLE_MAIN_MENU})
    assert state.battle is not None and state.battle.kind == "wild"
    assert state.battle.enemy is not None
    assert (state.battle.enemy.species_name, state.battle.enemy.level) == ("PIDGEY", 5)
    assert state.battle.player is not None and state.battle.player.species_name == "SQUIRTLE"
    assert state.battle.menu is not None and state.battle.menu.item == 0

    game.press(Button.A)
    moves = advance_to(game, {D.BATTLE_MOVE_MENU})
    assert moves.battle is not None and moves.battle.move_cursor == 0
    game.press(Button.DOWN)
    assert state_of(game).battle.move_cursor == 1  # type: ignore[union-attr]
    game.press(Button.B)
    advance_to(game, {D.BATTLE_MAIN_MENU})

    game.press(Button.RIGHT)
    game.press(Button.A)
    party_menu = advance_to(game, {D.BATTLE_PARTY_MENU})
    assert any("Choose a POKéMON" in line for line in party_menu.screen.text)
    game.press(Button.B)
    assert advance_to(game, {D.BATTLE_MAIN_MENU}).battle is not None


def test_running_from_a_wild_battle_returns_to_the_overworld(game: EmulatorSession) -> None:
    set_party(game, [("PIDGEOTTO", 30)])
    game.pyboy.game_wrapper.start_wild_battle("RATTATA", 3)
    advance_to(game, {D.BATTLE_MAIN_MENU})
    game.press(Button.DOWN)
    game.press(Button.RIGHT)
    game.press(Button.A)
    state = advance_to(game, {D.OVERWORLD_FREE})
    assert state.battle is None


def test_trainer_battle_against_brock(game: EmulatorSession) -> None:
    set_party(game, [("SQUIRTLE", 14)])
    game.pyboy.game_wrapper.start_trainer_battle("BROCK", 1)
    intro = advance_to(game, {D.BATTLE_TEXT})
    assert intro.battle is not None and intro.battle.kind == "trainer"
    state = advance_to(game, {D.BATTLE_MAIN_MENU})
    battle = state.battle
    assert battle is not None
    assert (battle.trainer_class_name, battle.trainer_number) == ("BROCK", 1)
    assert battle.enemy_party_species_names == ("GEODUDE", "ONIX")
    assert battle.enemy is not None and battle.enemy.species_name == "GEODUDE"
    assert battle.enemy_party_pos == 0


def test_inspect_reads_a_real_save_state(game: EmulatorSession, rom_path: Path, tmp_path: Path) -> None:
    set_party(game, [("CHARMANDER", 7)])
    game.pyboy.game_wrapper.start_wild_battle("WEEDLE", 4)
    advance_to(game, {D.BATTLE_MAIN_MENU})
    state_file = tmp_path / "battle.state"
    state_file.write_bytes(game.save_state())
    result = subprocess.run(
        [sys.executable, "-m", "engine.cli", "inspect", "--rom", str(rom_path), "--state", str(state_file)],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    decoded = json.loads(result.stdout)
    assert decoded["decision_point"] == "battle_main_menu"
    assert decoded["battle"]["enemy"]["species_name"] == "WEEDLE"
    assert decoded["party"][0]["species_name"] == "CHARMANDER"


def test_new_name_opens_the_naming_screen(rom_path: Path) -> None:
    with EmulatorSession(rom_path) as session:
        boot_to_name_menu(session)
        session.press(Button.A)  # the cursor starts on NEW NAME
        state = advance_to(session, {D.NAMING_SCREEN}, max_steps=50)
    assert state.screen.text[0] == "YOUR NAME?"
    assert "▶A B C D E F G H I" in state.screen.text
