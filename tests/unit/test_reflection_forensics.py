"""Reflection phase 2: turning points, mistakes, effectiveness, resources and the measured numbers, from
hand-built battle logs (with the newer per-turn fields, and without them as older logs are)."""

from __future__ import annotations

from typing import Literal

import pytest

from engine.battles.models import BattleLog, BattleSummary, DecisionRecord, Outcome, SideView, TurnOutcome
from engine.game.models import DecisionPoint
from engine.reflection.forensics import analyse
from engine.reflection.turns import read_turns

MENU = DecisionPoint.BATTLE_MAIN_MENU


def side(species: str, percent: float, level: int = 12, status: str = "OK") -> SideView:
    return SideView(species=species, level=level, hp_percent=percent, status=status)


def record(
    action: str, ours: SideView | None, enemy: SideView | None, point: DecisionPoint = MENU
) -> DecisionRecord:
    return DecisionRecord(point=point, action=action, reason="r", ours=ours, enemy=enemy)


def log_of(
    records: list[DecisionRecord],
    turns: list[TurnOutcome],
    outcome: Outcome = "victory",
    battle_type: Literal["wild", "trainer"] = "trainer",
) -> BattleLog:
    summary = BattleSummary(
        battle_id="r-b001",
        outcome=outcome,
        battle_type=battle_type,
        opponent="BROCK #1",
        turns=sum(r.point is MENU for r in records),
        decisions=len(records),
        frames=100,
        wall_seconds=1.0,
    )
    return BattleLog(summary=summary, run_id="r", start_frame=0, decisions=tuple(records), turns=tuple(turns))


def turn(
    index: int, action: str, dealt: float | None, taken: float | None = 0.0, **fields: object
) -> TurnOutcome:
    return TurnOutcome.model_validate(
        {"decision": index, "action": action, "hp_lost_percent": taken, "enemy_hp_lost_percent": dealt}
        | fields
    )


def brock_battle() -> BattleLog:
    """SQUIRTLE against BROCK: GEODUDE falls to BUBBLE (the KO turn's bar is unreadable: ONIX is out
    next), then BUBBLE on ONIX hits 40, misses, hits 35 and knocks it out with the last 25."""
    squirtle = side("SQUIRTLE", 100)
    records = [
        record("use TACKLE", squirtle, side("GEODUDE", 100)),
        record("use BUBBLE", squirtle, side("GEODUDE", 90)),
        record("use BUBBLE", side("SQUIRTLE", 90), side("ONIX", 100, 14)),
        record("use BUBBLE", side("SQUIRTLE", 70), side("ONIX", 60, 14)),
        record("use BUBBLE", side("SQUIRTLE", 50), side("ONIX", 60, 14)),
        record("use BUBBLE", side("SQUIRTLE", 40), side("ONIX", 25, 14)),
    ]
    turns = [
        turn(0, "use TACKLE", 10, move="TACKLE", effectiveness="not_very", pp_used=1),
        turn(1, "use BUBBLE", None, 10, move="BUBBLE", effectiveness="super", pp_used=1),
        turn(2, "use BUBBLE", 40, 20, move="BUBBLE", effectiveness="super", missed=False, pp_used=1),
        turn(3, "use BUBBLE", 0, 20, move="BUBBLE", missed=True, pp_used=1),
        turn(4, "use BUBBLE", 35, 10, move="BUBBLE", effectiveness="super", missed=False, pp_used=1),
        turn(
            5,
            "use BUBBLE",
            25,
            0,
            move="BUBBLE",
            effectiveness="super",
            missed=False,
            enemy_fainted=True,
            pp_used=1,
        ),
    ]
    return log_of(records, turns)


def test_measured_numbers_per_move_and_enemy_species() -> None:
    found = {(m.move, m.species): m for m in analyse(brock_battle()).measured}
    onix = found[("BUBBLE", "ONIX")]
    # (40 + 0 + 35) / 3: the last BUBBLE took the 25 ONIX had left, connected but measured nothing
    assert (onix.uses, onix.damage_percent, onix.hits, onix.hit_known) == (3, 25.0, 3, 4)
    assert onix.hit_rate == 0.75
    assert (onix.attacker_types, onix.defender_types, onix.users) == (
        ("WATER",),
        ("ROCK", "GROUND"),
        ("SQUIRTLE",),
    )
    assert (onix.observed, onix.chart, onix.move_type) == ("super", "super", "WATER")
    geodude = found[("BUBBLE", "GEODUDE")]
    assert (geodude.uses, geodude.damage_percent, geodude.unknown_uses) == (0, None, 1)
    tackle = found[("TACKLE", "GEODUDE")]
    assert (tackle.uses, tackle.damage_percent, tackle.observed) == (1, 10.0, "not_very")


def test_a_knock_out_whose_next_foe_shows_a_full_bar_is_no_use_that_did_nothing() -> None:
    """A JUGGLER's DROWZEE falls to DIG and the next DROWZEE comes out at full HP: the bar reads 100 before
    and after, which measured DIG at "0% a use" and turned the next run's BLASTOISE to BITE."""
    blastoise = side("BLASTOISE", 100, 45)
    records = [
        record("use DIG", blastoise, side("DROWZEE", 100, 31)),
        record("use DIG", blastoise, side("DROWZEE", 100, 31)),
    ]
    text = ("BLASTOISE dug a hole!", "BLASTOISE used DIG!", "Enemy DROWZEE fainted!")
    turns = [
        turn(0, "use DIG", 0, move="DIG", missed=False, enemy_fainted=True, text=text, pp_used=1),
        turn(1, "use DIG", 100, move="DIG", missed=False, enemy_fainted=True, text=text, pp_used=1),
    ]
    found = {(m.move, m.species): m for m in analyse(log_of(records, turns)).measured}
    dig = found[("DIG", "DROWZEE")]
    assert (dig.uses, dig.damage_percent, dig.hits, dig.hit_known) == (0, None, 2, 2)


def test_turning_points_are_the_biggest_swing_and_every_faint() -> None:
    found = analyse(brock_battle())
    assert [(p.decision, p.kind, p.detail) for p in found.turning_points] == [
        (1, "enemy_faint", "the enemy GEODUDE L12 fainted"),
        (5, "enemy_faint", "the enemy ONIX L14 fainted"),
    ]  # no swing reaches SWING_POINTS here
    assert found.enemy_faints == ("GEODUDE L12", "ONIX L14") and found.our_faints == ()
    assert found.participants == ("SQUIRTLE",) and found.enemies == ("GEODUDE L12", "ONIX L14")
    assert found.final_hp_percent == 40.0


def test_a_big_swing_and_our_faint_are_turning_points() -> None:
    records = [
        record("use TACKLE", side("PIKACHU", 100), side("ONIX", 100)),
        record(
            "send out SQUIRTLE", side("PIKACHU", 0), side("ONIX", 90), DecisionPoint.BATTLE_NEXT_MON_PROMPT
        ),
        record("use BUBBLE", side("SQUIRTLE", 100), side("ONIX", 90)),
    ]
    turns = [
        turn(0, "use TACKLE", 10, 100, fainted=True),
        turn(1, "send out SQUIRTLE", None, None),
        turn(2, "use BUBBLE", 90, 0, enemy_fainted=True),
    ]
    found = analyse(log_of(records, turns))
    # Two 90-point swings: the first is named (one swing per battle), then every faint.
    assert [(p.decision, p.kind) for p in found.turning_points] == [
        (0, "swing"),
        (0, "faint"),
        (2, "enemy_faint"),
    ]
    (swing,) = [p for p in found.turning_points if p.kind == "swing"]
    assert swing.detail == "the enemy lost 10 and we lost 100 HP bar points: 90 against us"
    assert found.our_faints == ("PIKACHU",)


def test_an_enemy_shown_fainted_at_several_decisions_counts_once() -> None:
    records = [
        record("use BUBBLE", side("SQUIRTLE", 100), side("GEODUDE", 30)),
        record("forget move 2", side("SQUIRTLE", 100), side("GEODUDE", 0), DecisionPoint.LEARN_MOVE_PROMPT),
        record("use BUBBLE", side("SQUIRTLE", 100), side("ONIX", 100, 14)),
    ]
    turns = [
        turn(0, "use BUBBLE", 30, enemy_fainted=True),
        turn(1, "forget move 2", None),
        turn(2, "use BUBBLE", 40),
    ]
    assert analyse(log_of(records, turns)).enemy_faints == ("GEODUDE L12",)


def test_mistakes_no_effect_not_very_effective_missed_and_a_bad_switch() -> None:
    records = [
        record("use THUNDERSHOCK", side("PIKACHU", 100), side("ONIX", 100)),
        record("use TACKLE", side("PIKACHU", 100), side("ONIX", 100)),
        record("switch to SQUIRTLE", side("PIKACHU", 90), side("ONIX", 95)),
        record("use BUBBLE", side("SQUIRTLE", 100), side("ONIX", 95)),
        record("switch to PIKA", side("SQUIRTLE", 100), side("ONIX", 95)),
        record("use QUICK_ATTACK", side("PIKACHU", 90), side("ONIX", 95)),
    ]
    turns = [
        turn(0, "use THUNDERSHOCK", 0),
        turn(1, "use TACKLE", 5, 10),
        turn(2, "switch to SQUIRTLE", None),
        turn(3, "use BUBBLE", 0, missed=True),
        turn(4, "switch to PIKA", None),
        turn(5, "use QUICK_ATTACK", 0),
    ]
    found = analyse(log_of(records, turns))
    assert [(m.decision, m.kind, m.detail) for m in found.mistakes] == [
        (0, "no_effect", "THUNDERSHOCK has no effect on ONIX (ROCK/GROUND)"),
        (1, "not_very_effective", "TACKLE is not very effective against ONIX (ROCK/GROUND)"),
        (3, "missed", "BUBBLE missed ONIX"),
        (
            4,
            "bad_switch",
            "PIKACHU (ELECTRIC) came in against ONIX (ROCK/GROUND): GROUND moves are super "
            "effective against it",
        ),
        (5, "no_damage", "QUICK_ATTACK moved no HP bar of ONIX (a miss?)"),
    ]


def test_older_logs_take_the_move_from_the_label_and_leave_the_rest_unknown() -> None:
    records = [
        record("use BUBBLE", side("SQUIRTLE", 100), side("ONIX", 100)),
        record("use BUBBLE", side("SQUIRTLE", 90), side("ONIX", 100)),
        record("use BUBBLE", side("SQUIRTLE", 80, status="SLP"), side("ONIX", 100)),
        record("use BUBBLE", side("SQUIRTLE", 70), side("ONIX", 60)),
    ]
    turns = [
        TurnOutcome(decision=0, action="use BUBBLE", hp_lost_percent=10, enemy_hp_lost_percent=0),
        TurnOutcome(decision=1, action="use BUBBLE", hp_lost_percent=10, enemy_hp_lost_percent=0),
        TurnOutcome(decision=2, action="use BUBBLE", hp_lost_percent=10, enemy_hp_lost_percent=0),
        TurnOutcome(decision=3, action="use BUBBLE", hp_lost_percent=10, enemy_hp_lost_percent=40),
    ]
    reads = read_turns(log_of(records, turns))
    assert [r.move for r in reads] == ["BUBBLE"] * 4 and all(
        r.missed is None and r.observed is None for r in reads
    )
    # No HP moved although we could act: an inferred miss. Asleep: we may never have moved, so unknown.
    assert [r.use() for r in reads] == [(0.0, False), (0.0, False), (None, None), (40.0, True)]
    (bubble,) = analyse(log_of(records, turns)).measured
    assert (bubble.uses, bubble.damage_percent, bubble.hits, bubble.hit_known) == (
        3,
        pytest.approx(13.3),
        1,
        3,
    )
    assert analyse(log_of(records, turns)).effectiveness == ()


def test_the_battle_messages_tell_a_miss_from_a_move_that_never_ran() -> None:
    onix = side("ONIX", 100)
    records = [record("use BUBBLE", side("SQUIRTLE", 100), onix) for _ in range(4)]
    turns = [
        # Ran, no miss announced, no pixel moved: it connected.
        turn(0, "use BUBBLE", 0, move="BUBBLE", missed=False, text=("SQUIRTLE used BUBBLE!",)),
        # Only the enemy moved (SQUIRTLE flinched or was fully paralysed): tells nothing about BUBBLE.
        turn(1, "use BUBBLE", 0, move="BUBBLE", missed=False, text=("Enemy ONIX used BIDE!",)),
        turn(
            2,
            "use BUBBLE",
            0,
            move="BUBBLE",
            missed=True,
            text=("SQUIRTLE used BUBBLE!", "SQUIRTLE's attack missed!"),
        ),
        # The flag without the messages it is read from says nothing: inferred from the bar instead.
        turn(3, "use BUBBLE", 0, move="BUBBLE", missed=False),
    ]
    reads = read_turns(log_of(records, turns))
    assert [r.missed for r in reads] == [False, False, True, None]
    assert [r.use() for r in reads] == [(0.0, True), (None, None), (0.0, False), (0.0, False)]


def test_a_heal_or_a_fresh_pokemon_of_the_same_species_is_not_damage() -> None:
    records = [record("use TACKLE", side("RATTATA", 100), side("PIDGEY", 40))]
    turns = [turn(0, "use TACKLE", -60)]
    (tackle,) = analyse(log_of(records, turns)).measured
    assert (tackle.uses, tackle.unknown_uses, tackle.damage_percent) == (0, 1, None)


def test_observed_effectiveness_is_grouped_by_move_and_species() -> None:
    found = analyse(brock_battle()).effectiveness
    assert {(e.move, e.species, e.effectiveness, e.times) for e in found} == {
        ("TACKLE", "GEODUDE", "not_very", 1),
        ("BUBBLE", "GEODUDE", "super", 1),
        ("BUBBLE", "ONIX", "super", 3),
    }


def test_resources_items_balls_pp_struggles_and_runs() -> None:
    pidgey = side("PIDGEY", 50)
    records = [
        record("use POTION on SQUIRTLE", side("SQUIRTLE", 20), pidgey),
        record("use POTION", side("SQUIRTLE", 40), pidgey),
        record("throw POKE_BALL", side("SQUIRTLE", 40), pidgey),
        record("use BUBBLE", side("SQUIRTLE", 40), pidgey),
        record("struggle", side("SQUIRTLE", 40), pidgey),
        record("switch to PIKA", side("SQUIRTLE", 40), pidgey),
        record("run", side("PIKACHU", 40), pidgey),
    ]
    turns = [turn(3, "use BUBBLE", 10, move="BUBBLE", pp_used=1), turn(4, "struggle", 5, move="STRUGGLE")]
    assert [r.move for r in read_turns(log_of(records, turns)) if r.kind == "struggle"] == ["STRUGGLE"]
    resources = analyse(log_of(records, turns, outcome="flee", battle_type="wild")).resources
    assert [(c.name, c.count) for c in resources.items] == [("POTION", 2)]
    assert [(c.name, c.count) for c in resources.balls] == [("POKE_BALL", 1)]
    assert [(m.move, m.uses, m.pp_used) for m in resources.moves] == [("BUBBLE", 1, 1)]
    assert (resources.struggles, resources.runs, resources.switches) == (1, 1, 1)
