"""The new-game intro and the OPTION menu on a real cartridge."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.config import PlayerConfig
from engine.emulator.session import EmulatorSession
from engine.game.models import DecisionPoint as D
from engine.game.options import (
    ANIMATION_OFF_BIT,
    BATTLE_SET_BIT,
    TEXT_DELAY_FAST,
    TEXT_DELAY_MASK,
    TEXT_DELAY_MEDIUM,
)
from engine.mechanics.intro import IntroReport, reach_overworld, set_fast_options, start_new_game
from tests.support.scenarios import BEDROOM, boot_until, state_of

pytestmark = pytest.mark.rom

# Letters from all three letter rows, both ends of a row (A and I, S and Z) and names of different lengths.
PLAYER = PlayerConfig(player_name="ASH", rival_name="GARY")
LONG_NAMES = PlayerConfig(player_name="ZYXWVUT", rival_name="QIJ", fast_options=False)


def _options(session: EmulatorSession) -> int:
    return session.read_u8(session.ram_map.wOptions)


@pytest.fixture(scope="module")
def new_game(rom_path: Path) -> tuple[IntroReport, bytes, list[str]]:
    steps: list[str] = []
    with EmulatorSession(rom_path) as session:
        report = reach_overworld(session, PLAYER, on_step=steps.append)
        return report, session.save_state(), steps


def test_power_on_to_the_bedroom_with_typed_names(
    rom_path: Path, new_game: tuple[IntroReport, bytes, list[str]]
) -> None:
    report, saved, steps = new_game
    with EmulatorSession(rom_path) as session:
        session.load_state(saved)
        state = state_of(session)
        options = _options(session)
    assert state.decision_point is D.OVERWORLD_FREE
    assert state.overworld.map_name == BEDROOM
    assert (state.player_name, state.rival_name) == ("ASH", "GARY")
    assert (report.player_name, report.rival_name) == ("ASH", "GARY")
    assert options & TEXT_DELAY_MASK == TEXT_DELAY_FAST
    assert options & ANIMATION_OFF_BIT
    assert not options & BATTLE_SET_BIT  # battle style left at SHIFT
    assert report.started_in == "intro"
    assert report.options_before.text_speed == "medium" and report.options_after.fast
    assert 1_000 < report.frames < 10_000
    # The options are set on the main menu, before NEW GAME, and the names in order.
    assert steps.index("main menu: OPTION") < steps.index("main menu: NEW GAME")
    assert steps.index("naming the player ASH") < steps.index("naming the rival GARY")
    assert steps[-1] == "in the overworld"


def test_the_bedroom_is_free_to_walk_after_the_intro(
    rom_path: Path, new_game: tuple[IntroReport, bytes, list[str]]
) -> None:
    with EmulatorSession(rom_path) as session:
        session.load_state(new_game[1])
        report = reach_overworld(session, PLAYER)
    assert report.started_in == "overworld"
    assert report.frames < 120  # nothing to do: the options are set already
    assert report.player_name is None and report.options_before == report.options_after


def test_without_fast_options_the_defaults_stay(rom_path: Path) -> None:
    with EmulatorSession(rom_path) as session:
        report = start_new_game(session, LONG_NAMES)
        state = state_of(session)
        options = _options(session)
    assert (state.player_name, state.rival_name) == ("ZYXWVUT", "QIJ")
    assert state.decision_point is D.OVERWORLD_FREE and state.overworld.map_name == BEDROOM
    assert options == TEXT_DELAY_MEDIUM  # InitOptions: medium text, animations on, SHIFT
    assert report.options_before == report.options_after
    assert not report.options_after.fast


def test_fast_options_through_the_start_menu(game: EmulatorSession) -> None:
    before = state_of(game)
    assert before.decision_point is D.OVERWORLD_FREE
    steps: list[str] = []
    change = set_fast_options(game, on_step=steps.append)
    after = state_of(game)
    assert change.changed and change.after.fast and change.before.text_speed == "medium"
    assert change.after.battle_style == change.before.battle_style
    assert _options(game) == change.after.raw
    assert after.decision_point is D.OVERWORLD_FREE
    assert after.overworld == before.overworld  # the menus are closed and nobody walked
    assert steps[0] == "START menu: OPTION"
    again = set_fast_options(game)
    assert not again.changed and again.frames == 0


def test_reach_overworld_from_a_save_state_applies_only_the_options(game: EmulatorSession) -> None:
    names = (state_of(game).player_name, state_of(game).rival_name)
    report = reach_overworld(game, PLAYER)
    assert report.started_in == "overworld"
    assert report.player_name is None and report.rival_name is None
    assert report.options_after.fast and not report.options_before.fast
    state = state_of(game)
    assert (state.player_name, state.rival_name) == names
    assert state.decision_point is D.OVERWORLD_FREE


def test_reach_overworld_without_fast_options_presses_nothing(game: EmulatorSession) -> None:
    before = _options(game)
    report = reach_overworld(game, PlayerConfig(fast_options=False))
    assert report.options_after.raw == before == TEXT_DELAY_MEDIUM
    assert report.frames < 120


def test_fast_options_from_the_title_menu(rom_path: Path) -> None:
    with EmulatorSession(rom_path) as session:
        boot_until(session, lambda state: state.decision_point is D.TITLE_MENU)
        change = set_fast_options(session)
        assert change.after.fast
        assert state_of(session).decision_point is D.TITLE_MENU
        # The intro then has nothing left to set and goes straight to NEW GAME.
        steps: list[str] = []
        report = start_new_game(session, PLAYER, on_step=steps.append)
    assert "main menu: OPTION" not in steps and "main menu: NEW GAME" in steps
    assert report.options_before.fast and report.options_after.fast
