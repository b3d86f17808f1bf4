"""The screen reader on the real game: what it reads from pixels against what RAM says (the tile map's
text, the battle's HP, names, levels and menu cursor), and `engine inspect --from-screen --json`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.cli import main
from engine.emulator.session import EmulatorSession
from engine.game.actions import BattleAction
from engine.game.models import DecisionPoint as D
from engine.game.models import GameState, ScreenKind
from engine.mechanics.battle_driver import Chosen, DriveOptions, Halt, drive_battle
from engine.mechanics.role import EmulatorRole
from engine.tactician.rule_based import RuleBasedPolicy
from engine.vision.screen.reader import ScreenReader
from engine.vision.screen.reading import ScreenReading
from engine.vision.screen.truth import bars_settled, truth_from_ram
from tests.support.scenarios import advance_to, boot_until, set_party, start_battle

pytestmark = pytest.mark.rom

INTRO_DIALOGS = 10  # Oak's speech alone shows more than this many text boxes


def steady_reading(
    session: EmulatorSession, reader: ScreenReader
) -> tuple[ScreenReading, ScreenReading] | None:
    """(read from pixels, derived from RAM) where two frames in a row are drawn alike (the tile map is then
    the one the picture was drawn from), else None."""
    role = EmulatorRole.on_session(session)
    first, second = role.screenshot(), role.screenshot()
    if first != second:
        return None
    return reader.read(second), truth_from_ram(session.memory_image(), session.ram_map)


def test_the_intros_dialogs_read_from_pixels_are_the_tile_maps_text(rom_path: Path) -> None:
    with EmulatorSession(rom_path) as session:
        reader = ScreenReader.from_rom(session.rom_bytes)
        compared: list[tuple[ScreenReading, ScreenReading]] = []

        def look(state: GameState) -> bool:
            # ▼: the text is all printed (the copyright screen, whose pictures use text tiles, has none).
            waiting = state.decision_point is D.DIALOG_WAIT and state.screen.continue_arrow_visible
            pair = steady_reading(session, reader) if waiting else None
            if pair is not None and pair[1].screen is ScreenKind.DIALOG:
                compared.append(pair)
            return len(compared) >= INTRO_DIALOGS

        boot_until(session, look)
    assert all(read.text == truth.text and truth.text for read, truth in compared), compared
    assert all(read.screen is ScreenKind.DIALOG and not read.can_move for read, _ in compared)


def test_a_wild_battle_read_from_pixels_agrees_with_ram(game: EmulatorSession) -> None:
    set_party(game, [("SQUIRTLE", 8)])
    start_battle(game, "RATTATA", 6)
    emulator, reader, policy = (
        EmulatorRole.on_session(game),
        ScreenReader.from_rom(game.rom_bytes),
        RuleBasedPolicy(),
    )
    compared: list[tuple[ScreenReading, ScreenReading]] = []

    def pick(index: int, state: GameState, legal: list[BattleAction]) -> Chosen | Halt:
        pair = steady_reading(game, reader)
        if (
            pair is not None
            and state.decision_point is D.BATTLE_MAIN_MENU
            and bars_settled(game.memory_image(), game.ram_map)
        ):
            compared.append(pair)
        decision = policy.decide(state, legal)
        return Chosen(decision.action, decision.reason) if decision is not None else Halt("no action")

    drive_battle(emulator, pick, DriveOptions(battle_id="vision", run_id="vision"))
    assert len(compared) >= 2
    for read, truth in compared:
        assert read.screen is truth.screen is ScreenKind.BATTLE
        assert (read.enemy_name, read.enemy_level) == (truth.enemy_name, truth.enemy_level) == ("RATTATA", 6)
        assert (read.menu, read.cursor) == (truth.menu, truth.cursor) and read.cursor is not None
        for side in ("player_hp_pct", "enemy_hp_pct"):
            seen, known = getattr(read, side), getattr(truth, side)
            assert seen is not None and known is not None and abs(seen - known) <= 2, (side, seen, known)
    assert any(truth.enemy_hp_pct is not None and truth.enemy_hp_pct < 100 for _, truth in compared)


def test_inspect_from_screen_prints_the_reading_as_json(
    game: EmulatorSession, rom_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    set_party(game, [("CHARMANDER", 7)])
    start_battle(game, "WEEDLE", 4)
    advance_to(game, {D.BATTLE_MAIN_MENU})
    state_file = tmp_path / "battle.state"
    state_file.write_bytes(game.save_state())
    code = main(["inspect", "--rom", str(rom_path), "--state", str(state_file), "--from-screen", "--json"])
    reading = json.loads(capsys.readouterr().out)
    assert code == 0
    assert (reading["screen"], reading["enemy_name"], reading["enemy_level"]) == ("battle", "WEEDLE", 4)
    assert reading["enemy_hp_pct"] == 100.0 and reading["cursor"] == 0
    assert reading["menu"] == ["FIGHT PKMN", "ITEM RUN"] and reading["can_move"] is False


def test_inspect_from_screen_refuses_a_missing_state_in_one_line(
    rom_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["inspect", "--rom", str(rom_path), "--state", str(tmp_path / "none.state"), "--from-screen"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and err[0].startswith("engine: error: ")
