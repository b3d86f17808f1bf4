"""What a battle log says each decision led to, from the visible sides at consecutive decisions."""

from __future__ import annotations

from engine.game.battle import DecisionRecord, SideView
from engine.game.capture import load_capture
from engine.game.models import DecisionPoint
from engine.game.ram import RED_BLUE
from engine.game.state import decode_state
from engine.runtime.battles import enemy_side, our_side, turn_outcomes
from tests.conftest import GEN1_FIXTURES


def side(species: str, percent: float, status: str = "OK", hp: int | None = None) -> SideView:
    return SideView(species=species, level=10, hp=hp, max_hp=40 if hp is not None else None,
                    hp_percent=percent, status=status)  # fmt: skip


def record(action: str, ours: SideView, enemy: SideView) -> DecisionRecord:
    return DecisionRecord(point=DecisionPoint.BATTLE_MAIN_MENU, action=action, reason="r", ours=ours,
                          enemy=enemy)  # fmt: skip


def test_sides_show_our_hp_exactly_and_the_enemys_as_its_bar() -> None:
    state = decode_state(load_capture(GEN1_FIXTURES / "red_wild_enemy_paralyzed"), RED_BLUE)
    ours, enemy = our_side(state), enemy_side(state)
    assert ours is not None and enemy is not None
    assert (ours.species, ours.hp, ours.max_hp) == (
        "PIKACHU",
        state.battle.player.hp,
        state.battle.player.max_hp,
    )
    assert enemy.hp is None and enemy.max_hp is None and enemy.status == "PAR"
    assert 0 < enemy.hp_percent <= 100


def test_turn_outcomes_from_consecutive_looks() -> None:
    records = [
        record("use BUBBLE", side("SQUIRTLE", 100, hp=40), side("GEODUDE", 100)),
        record("use BUBBLE", side("SQUIRTLE", 80, hp=32), side("GEODUDE", 37.5, status="OK")),
        record("use TACKLE", side("SQUIRTLE", 80, hp=32), side("ONIX", 100)),
    ]
    final = decode_state(load_capture(GEN1_FIXTURES / "red_wild_enemy_paralyzed"), RED_BLUE)
    first, second, third = turn_outcomes(records, final)
    assert (first.hp_lost_percent, first.enemy_hp_lost_percent) == (20, 62.5)
    assert not first.fainted and not first.enemy_fainted
    # GEODUDE went down and ONIX came out: no difference can be taken across a change of Pokémon.
    assert second.enemy_hp_lost_percent is None and second.hp_lost_percent == 0
    # The last look is another battle entirely (PIKACHU vs ODDISH): nothing to compare either.
    assert (third.hp_lost_percent, third.enemy_hp_lost_percent) == (None, None)
    assert [t.action for t in (first, second, third)] == ["use BUBBLE", "use BUBBLE", "use TACKLE"]


def test_faints_and_status_changes_are_named() -> None:
    records = [
        record("use TACKLE", side("PIKACHU", 50, hp=14), side("ODDISH", 20)),
        record("use TACKLE", side("PIKACHU", 0, status="PSN", hp=0), side("ODDISH", 0)),
    ]
    final = decode_state(load_capture(GEN1_FIXTURES / "red_wild_enemy_paralyzed"), RED_BLUE)
    first, _ = turn_outcomes(records, final)
    assert first.fainted and first.enemy_fainted
    assert first.status_change == "OK->PSN" and first.enemy_status_change is None
