"""Every field of the shared Gen 1 ground-truth fixtures that our decoders cover must match."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.game.capture import load_capture
from engine.game.models import BattleState, DecisionPoint, GameState, Mon, MoveSlot
from engine.game.ram import RED_BLUE
from engine.game.state import decode_state
from tests.conftest import gen1_fixture_dirs

FIXTURES = gen1_fixture_dirs()
# The fixtures call a busy frame (transition, wipe) "other"; the engine names it "busy".
TRUTH_POINT_NAMES = {"other": DecisionPoint.BUSY.value}


def _load(path: Path) -> tuple[GameState, dict[str, Any]]:
    truth = json.loads((path / "truth.json").read_text(encoding="utf-8"))
    return decode_state(load_capture(path), RED_BLUE), truth


@pytest.fixture(params=FIXTURES, ids=[p.name for p in FIXTURES])
def decoded(request: pytest.FixtureRequest) -> tuple[GameState, dict[str, Any]]:
    return _load(request.param)


def _moves_as_truth(moves: tuple[MoveSlot, ...]) -> dict[str, list[Any]]:
    padded = list(moves) + [None] * (4 - len(moves))
    return {
        "moves": [m.move_id if m else 0 for m in padded],
        "move_names": [m.name if m else None for m in padded],
        "pp": [m.pp if m else 0 for m in padded],
        "pp_ups": [m.pp_ups if m else 0 for m in padded],
    }


def _mon_as_truth(mon: Mon) -> dict[str, Any]:
    return {
        "species_id": mon.species_id,
        "species_name": mon.species_name,
        "level": mon.level,
        "hp": mon.hp,
        "max_hp": mon.max_hp,
        "status_byte": mon.status_byte,
        "status": mon.status,
        "type1": mon.type1,
        "type2": mon.type2,
        "type1_name": mon.type1_name,
        "type2_name": mon.type2_name,
        **_moves_as_truth(mon.moves),
    }


def _pick(truth: dict[str, Any], keys: list[str]) -> dict[str, Any]:
    return {key: truth[key] for key in keys}


def test_decision_point(decoded: tuple[GameState, dict[str, Any]]) -> None:
    state, truth = decoded
    expected = TRUTH_POINT_NAMES.get(truth["decision_point"], truth["decision_point"])
    assert state.decision_point.value == expected


def test_screen_kind_text_and_arrow(decoded: tuple[GameState, dict[str, Any]]) -> None:
    state, truth = decoded
    assert state.screen.kind.value == truth["screen"]
    assert list(state.screen.text) == truth["text_on_screen"]
    assert state.screen.continue_arrow_visible == truth["continue_arrow_visible"]


def test_overworld_and_progress(decoded: tuple[GameState, dict[str, Any]]) -> None:
    state, truth = decoded
    assert (state.overworld.map_id, state.overworld.map_name) == (truth["map_id"], truth["map_name"])
    assert (state.overworld.x, state.overworld.y) == (truth["x"], truth["y"])
    assert state.progress.badges == truth["badges"]
    assert state.progress.money == truth["money"]


def test_party(decoded: tuple[GameState, dict[str, Any]]) -> None:
    state, truth = decoded
    assert len(state.party) == truth["party_count"]
    for mon, expected in zip(state.party, truth["party"], strict=True):
        keys = list(_mon_as_truth(mon))
        assert _mon_as_truth(mon) == _pick(expected, keys)
        assert mon.nickname == expected["nickname"]
        assert (mon.stats.attack, mon.stats.defense, mon.stats.speed, mon.stats.special) == (
            expected["attack"],
            expected["defense"],
            expected["speed"],
            expected["special"],
        )
        assert mon.species_id == expected["party_species_list_entry"]


def test_battle_header(decoded: tuple[GameState, dict[str, Any]]) -> None:
    state, truth = decoded
    if truth["battle"] is None:
        assert state.battle is None
        return
    battle = state.battle
    assert battle is not None
    assert battle.kind == {1: "wild", 2: "trainer"}[truth["in_battle"]]
    assert battle.battle_type == truth["battle_type"]
    assert battle.cur_opponent == truth["cur_opponent"]
    assert battle.trainer_class == truth.get("trainer_class")
    assert battle.trainer_class_name == truth.get("trainer_class_name")
    assert battle.trainer_number == truth.get("trainer_number")
    assert battle.player_active_slot == truth["battle"]["player_active_slot"]


def _battle_pair(decoded: tuple[GameState, dict[str, Any]]) -> tuple[BattleState, dict[str, Any]] | None:
    """The decoded battle with its truth, or None after checking that neither side is in battle."""
    state, truth = decoded
    if truth["battle"] is None:
        assert state.battle is None
        return None
    assert state.battle is not None
    return state.battle, truth["battle"]


def test_battle_sides(decoded: tuple[GameState, dict[str, Any]]) -> None:
    pair = _battle_pair(decoded)
    if pair is None:
        return
    battle, expected = pair
    for side in ("player", "enemy"):
        mon = getattr(battle, side)
        if expected[side]["species_id"] == 0:
            assert mon is None  # not sent out yet
            continue
        assert mon is not None
        assert _mon_as_truth(mon) == _pick(expected[side], list(_mon_as_truth(mon)))
        assert mon.nickname == expected[f"{side}_nickname"]


def test_enemy_party(decoded: tuple[GameState, dict[str, Any]]) -> None:
    pair = _battle_pair(decoded)
    if pair is None:
        return
    battle, expected = pair
    assert battle.enemy_party_count == expected.get("enemy_party_count")
    assert list(battle.enemy_party_species) == expected.get("enemy_party_species", [])
    assert list(battle.enemy_party_species_names) == expected.get("enemy_party_species_names", [])
    assert battle.enemy_party_pos == expected.get("enemy_party_pos")


def test_menu_cursors(decoded: tuple[GameState, dict[str, Any]]) -> None:
    state, truth = decoded
    if truth["battle"] is not None:
        expected, menu = truth["battle"], state.battle.menu if state.battle else None
        assert (state.battle.move_cursor if state.battle else None) == expected["move_cursor"]
    else:
        expected, menu = truth, state.menu
    if expected.get("menu_cursor") is None:
        assert menu is None
        return
    assert menu is not None
    assert (menu.item, menu.top_x, menu.top_y, menu.max_item) == (
        expected["menu_cursor"],
        expected["menu_top_item_x"],
        expected["menu_top_item_y"],
        expected["menu_max_item"],
    )


def test_every_fixture_is_checked() -> None:
    """Guards against the fixture set silently shrinking (e.g. a wrong path)."""
    assert len(FIXTURES) >= 30
