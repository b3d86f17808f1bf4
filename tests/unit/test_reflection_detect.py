"""Reflection phase 1: how a battle is classified (defeat, pyrrhic, suboptimal, clean), and why."""

from __future__ import annotations

from typing import Literal

from engine.battles.models import BattleLog, BattleSummary, DecisionRecord, Outcome, SideView, TurnOutcome
from engine.game.models import DecisionPoint
from engine.reflection.detect import detect, turns_needed
from engine.reflection.turns import read_turns

MENU = DecisionPoint.BATTLE_MAIN_MENU


def side(species: str, percent: float, level: int = 12, status: str = "OK") -> SideView:
    return SideView(species=species, level=level, hp_percent=percent, status=status)


def battle(
    steps: list[tuple[str, SideView, SideView, TurnOutcome | dict[str, object]]],
    outcome: Outcome = "victory",
    battle_type: Literal["wild", "trainer"] = "trainer",
    point: DecisionPoint = MENU,
) -> BattleLog:
    """A log from (action, ours before, enemy before, outcome or outcome fields) per decision."""
    records, turns = [], []
    for index, (action, ours, enemy, after) in enumerate(steps):
        records.append(DecisionRecord(point=point, action=action, reason="r", ours=ours, enemy=enemy))
        if isinstance(after, dict):
            fields = {"hp_lost_percent": 0.0, "enemy_hp_lost_percent": 0.0} | after
            after = TurnOutcome.model_validate({"decision": index, "action": action} | fields)
        turns.append(after)
    summary = BattleSummary(
        battle_id="r-b001",
        outcome=outcome,
        battle_type=battle_type,
        opponent="BROCK #1" if battle_type == "trainer" else steps[0][2].species,
        turns=sum(r.point is MENU for r in records),
        decisions=len(records),
        frames=100,
        wall_seconds=1.0,
    )
    return BattleLog(summary=summary, run_id="r", start_frame=0, decisions=tuple(records), turns=tuple(turns))


def test_a_loss_is_a_defeat_with_the_fallen_named() -> None:
    log = battle(
        [("use TACKLE", side("PIKACHU", 30), side("ONIX", 100), {"hp_lost_percent": 30, "fainted": True})],
        outcome="defeat",
    )
    failure = detect(log)
    assert failure.kind == "defeat"
    assert failure.reasons == ("we lost", "fainted: PIKACHU")


def test_a_draw_counts_as_a_defeat() -> None:
    log = battle([("use TACKLE", side("PIKACHU", 30), side("ONIX", 10), {})], outcome="draw")
    assert detect(log).kind == "defeat" and detect(log).reasons[0] == "a draw: no win"


def test_a_win_that_cost_half_the_fighters_is_pyrrhic() -> None:
    log = battle(
        [
            ("use TACKLE", side("PIKACHU", 20), side("ONIX", 100), {"hp_lost_percent": 20, "fainted": True}),
            ("use BUBBLE", side("SQUIRTLE", 100), side("ONIX", 100), {"enemy_hp_lost_percent": 60}),
            ("use BUBBLE", side("SQUIRTLE", 100), side("ONIX", 40), {"enemy_hp_lost_percent": 40}),
        ]
    )
    failure = detect(log)
    assert failure.kind == "pyrrhic"
    assert failure.reasons == ("1 of the 2 Pokémon that fought fainted (PIKACHU)",)


def test_a_win_that_left_the_survivor_in_the_red_is_pyrrhic() -> None:
    log = battle(
        [
            (
                "use BUBBLE",
                side("SQUIRTLE", 60),
                side("ONIX", 100),
                {"hp_lost_percent": 20, "enemy_hp_lost_percent": 50},
            ),
            (
                "use BUBBLE",
                side("SQUIRTLE", 40),
                side("ONIX", 50),
                {"hp_lost_percent": 20, "enemy_hp_lost_percent": 50},
            ),
        ]
    )
    failure = detect(log)
    assert failure.kind == "pyrrhic" and failure.reasons == ("the survivor ended at 20% HP",)


def test_repeated_misses_make_a_win_suboptimal() -> None:
    log = battle(
        [
            (
                "use BUBBLE",
                side("SQUIRTLE", 100),
                side("ONIX", 100),
                TurnOutcome(
                    decision=0, action="use BUBBLE", hp_lost_percent=0, enemy_hp_lost_percent=0, missed=True
                ),
            ),
            (
                "use BUBBLE",
                side("SQUIRTLE", 100),
                side("ONIX", 100),
                TurnOutcome(
                    decision=1, action="use BUBBLE", hp_lost_percent=0, enemy_hp_lost_percent=0, missed=True
                ),
            ),
            (
                "use BUBBLE",
                side("SQUIRTLE", 100),
                side("ONIX", 100),
                {"enemy_hp_lost_percent": 100, "enemy_fainted": True},
            ),
        ]
    )
    failure = detect(log)
    assert failure.kind == "suboptimal"
    assert failure.reasons == ("2 moves missed or moved no HP bar (BUBBLE x2)",)


def test_a_move_that_cannot_touch_the_target_is_suboptimal_at_once() -> None:
    log = battle(
        [
            ("use THUNDERSHOCK", side("PIKACHU", 100), side("ONIX", 100), {}),
            ("use QUICK_ATTACK", side("PIKACHU", 100), side("ONIX", 100), {"enemy_hp_lost_percent": 100}),
        ]
    )
    failure = detect(log)
    assert failure.kind == "suboptimal"
    assert failure.reasons == ("used moves that cannot affect the target (THUNDERSHOCK)",)


def test_far_more_turns_than_the_best_move_needed_is_suboptimal() -> None:
    slow = [
        ("use TACKLE", side("SQUIRTLE", 100), side("ONIX", 100 - 5 * n), {"enemy_hp_lost_percent": 5})
        for n in range(6)
    ]
    fast = [
        ("use BUBBLE", side("SQUIRTLE", 100), side("ONIX", 70), {"enemy_hp_lost_percent": 35}),
        (
            "use BUBBLE",
            side("SQUIRTLE", 100),
            side("ONIX", 35),
            {"enemy_hp_lost_percent": 35, "enemy_fainted": True},
        ),
    ]
    log = battle(slow + fast)
    assert turns_needed(read_turns(log)) == 3  # 100% at 35 per BUBBLE
    failure = detect(log)
    assert failure.kind == "suboptimal"
    assert failure.reasons == ("8 turns where our best measured moves needed about 3",)


def test_turns_needed_is_unknown_when_an_enemy_was_never_damaged() -> None:
    log = battle([("use GROWL", side("SQUIRTLE", 100), side("ONIX", 100), {})])
    assert turns_needed(read_turns(log)) is None


def test_turns_on_status_moves_and_failed_runs_are_suboptimal() -> None:
    growls = [("use GROWL", side("SQUIRTLE", 100), side("PIDGEY", 100), {}) for _ in range(3)]
    runs = [("run", side("SQUIRTLE", 100), side("PIDGEY", 100), {}) for _ in range(3)]
    failure = detect(battle(growls + runs, outcome="flee", battle_type="wild"))
    assert failure.kind == "suboptimal"
    assert failure.reasons == ("3 turns on moves that deal no damage (GROWL x3)", "2 attempts to run failed")


def test_a_quick_win_is_clean() -> None:
    log = battle(
        [
            ("use BUBBLE", side("SQUIRTLE", 100), side("GEODUDE", 100), {"enemy_hp_lost_percent": 60}),
            (
                "use BUBBLE",
                side("SQUIRTLE", 95),
                side("GEODUDE", 40),
                {"enemy_hp_lost_percent": 40, "enemy_fainted": True},
            ),
        ],
        battle_type="wild",
    )
    failure = detect(log)
    assert failure.kind == "clean" and failure.reasons == ("won in 2 turns, 1 knocked out",)


def test_the_most_severe_class_wins_and_every_reason_is_kept() -> None:
    log = battle(
        [
            (
                "use THUNDERSHOCK",
                side("PIKACHU", 30),
                side("ONIX", 100),
                {"hp_lost_percent": 30, "fainted": True},
            ),
            ("use BUBBLE", side("SQUIRTLE", 100), side("ONIX", 100), {"enemy_hp_lost_percent": 100}),
        ]
    )
    failure = detect(log)
    assert failure.kind == "pyrrhic"
    assert failure.reasons == (
        "1 of the 2 Pokémon that fought fainted (PIKACHU)",
        "used moves that cannot affect the target (THUNDERSHOCK)",
    )
