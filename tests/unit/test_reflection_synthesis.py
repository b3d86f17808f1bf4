"""Reflection phase 3: the rule-based lessons (measured, type matchups, opponents, resources), the model's
insights as lessons, and what the model is shown."""

from __future__ import annotations

from typing import Any, Literal

from engine.battles.models import BattleLog, BattleSummary, DecisionRecord, Outcome, SideView, TurnOutcome
from engine.game.models import DecisionPoint
from engine.llm.answers import Insight, ReflectionAnswer
from engine.llm.render import render_reflection
from engine.llm.tasks import ModelOutcome, ModelTask
from engine.memory.lessons import Lesson, Measurement
from engine.messages import Selection
from engine.reflection.detect import detect
from engine.reflection.forensics import analyse
from engine.reflection.synthesis import ask_model, findings, from_insight, rule_based

MENU = DecisionPoint.BATTLE_MAIN_MENU


def side(species: str, percent: float, level: int = 14) -> SideView:
    return SideView(species=species, level=level, hp_percent=percent, status="OK")


def log_of(
    steps: list[tuple[str, SideView, SideView, TurnOutcome | None]],
    outcome: Outcome = "victory",
    battle_type: Literal["wild", "trainer"] = "trainer",
    opponent: str = "BROCK #1",
) -> BattleLog:
    records = tuple(DecisionRecord(point=MENU, action=a, reason="r", ours=o, enemy=e) for a, o, e, _ in steps)
    summary = BattleSummary(
        battle_id="r-b007",
        outcome=outcome,
        battle_type=battle_type,
        opponent=opponent,
        turns=len(steps),
        decisions=len(steps),
        frames=900,
        wall_seconds=1.0,
    )
    turns = tuple(t for *_, t in steps if t is not None)
    return BattleLog(summary=summary, run_id="r", start_frame=0, decisions=records, turns=turns)


def bubble(index: int, dealt: float, **fields: Any) -> TurnOutcome:
    return TurnOutcome(
        decision=index,
        action="use BUBBLE",
        hp_lost_percent=5,
        enemy_hp_lost_percent=dealt,
        move="BUBBLE",
        **fields,
    )


def onix_battle() -> BattleLog:
    """BUBBLE on ONIX three times: 38, 37 and 39 points, every one announced super effective."""
    dealt = [38.0, 37.0, 39.0]
    left = [100.0, 62.0, 25.0]
    return log_of(
        [
            (
                "use BUBBLE",
                side("SQUIRTLE", 90),
                side("ONIX", hp),
                bubble(n, d, effectiveness="super", missed=False),
            )
            for n, (d, hp) in enumerate(zip(dealt, left, strict=True))
        ]
    )


def lessons(log: BattleLog) -> list[Lesson]:
    candidates = rule_based(log, detect(log), analyse(log))
    assert all(c.lesson is not None and c.by == "rule_based" for c in candidates)
    return [c.lesson for c in candidates if c.lesson is not None]


def test_a_measured_move_lesson() -> None:
    (move,) = [lesson for lesson in lessons(onix_battle()) if lesson.kind == "move"]
    assert move.text == "BUBBLE vs ONIX: 38% of its HP per use over 3 uses, hit 3/3 (super effective)"
    assert (move.move, move.species, move.attacker_types, move.defender_types) == (
        "BUBBLE",
        ("ONIX",),
        ("WATER",),
        ("ROCK", "GROUND"),
    )
    assert move.measured == Measurement(uses=3, damage_percent=38.0, hit_rate=1.0)
    assert (move.confidence, move.evidence, move.provenance) == (0.6, 1, ("r-b007",))
    assert (move.created_play_hours, move.updated_play_hours) == (0.0, 0.0)
    assert len(move.lesson_id) == 32 and int(move.lesson_id, 16) >= 0


def test_a_type_matchup_lesson_only_where_the_game_announced_one() -> None:
    (matchup,) = [lesson for lesson in lessons(onix_battle()) if lesson.kind == "type_matchup"]
    assert matchup.text == "WATER moves are super effective against ROCK/GROUND (seen: BUBBLE vs ONIX)"
    assert (matchup.attacker_types, matchup.defender_types, matchup.confidence) == (
        ("WATER",),
        ("ROCK", "GROUND"),
        0.9,
    )
    unannounced = log_of([("use BUBBLE", side("SQUIRTLE", 90), side("ONIX", 100), None)])
    assert [lesson.kind for lesson in lessons(unannounced)] == ["opponent"]


def test_opponent_lessons_for_trainer_battles_only() -> None:
    (won,) = [lesson for lesson in lessons(onix_battle()) if lesson.kind == "opponent"]
    assert (
        won.text
        == "Beat BROCK #1 in 3 turns with SQUIRTLE; best: BUBBLE vs ONIX, 38% of its HP per use (clean)"
    )
    assert (won.opponent, won.species, won.confidence) == ("BROCK #1", ("ONIX",), 0.6)
    lost = log_of(
        [
            ("use THUNDERSHOCK", side("PIKACHU", 40), side("ONIX", 100), None),
            (
                "use THUNDERSHOCK",
                side("PIKACHU", 20),
                side("ONIX", 100),
                TurnOutcome(
                    decision=1,
                    action="use THUNDERSHOCK",
                    hp_lost_percent=20,
                    enemy_hp_lost_percent=0,
                    fainted=True,
                ),
            ),
        ],
        outcome="defeat",
    )
    (opponent,) = [lesson for lesson in lessons(lost) if lesson.kind == "opponent"]
    assert opponent.text == (
        "Lost to BROCK #1 after 2 turns with PIKACHU; fainted: PIKACHU; "
        "knocked out 0 of the 1 of theirs seen; THUNDERSHOCK has no effect on ONIX (ROCK/GROUND) (defeat)"
    )
    wild = log_of(
        [("use BUBBLE", side("SQUIRTLE", 90), side("PIDGEY", 100), bubble(0, 100))],
        battle_type="wild",
        opponent="PIDGEY",
    )
    assert "opponent" not in [lesson.kind for lesson in lessons(wild)]


def test_resource_lessons_for_items_and_struggle() -> None:
    log = log_of(
        [
            ("use POTION on SQUIRTLE", side("SQUIRTLE", 20), side("ONIX", 50), None),
            ("use POTION on SQUIRTLE", side("SQUIRTLE", 30), side("ONIX", 50), None),
            ("struggle", side("SQUIRTLE", 60), side("ONIX", 50), None),
        ]
    )
    found = [
        (lesson.text, lesson.opponent, lesson.move) for lesson in lessons(log) if lesson.kind == "resource"
    ]
    assert found == [
        ("Used POTION x2 against BROCK #1; the battle ended in victory after 3 turns", "BROCK #1", None),
        ("Ran out of PP against BROCK #1: STRUGGLE 1 times", "BROCK #1", "STRUGGLE"),
    ]


def insight(lesson: str, applies_to: str = "always", confidence: float = 0.7) -> Lesson:
    made = from_insight(
        Insight(lesson=lesson, applies_to=applies_to, confidence=confidence), onix_battle(), "thinking"
    )
    assert made.lesson is not None and made.by == "thinking"
    return made.lesson


def test_insights_become_lessons_keyed_by_the_game_names_they_use() -> None:
    claim = insight("THUNDERSHOCK has no effect on ONIX: switch PIKACHU out", "ONIX")
    assert (claim.kind, claim.attacker_types, claim.defender_types) == (
        "type_matchup",
        ("ELECTRIC",),
        ("ROCK", "GROUND"),
    )
    assert (claim.species, claim.move, claim.text) == (("ONIX", "PIKACHU"), "THUNDERSHOCK", claim.text)
    move = insight("BUBBLE takes ONIX down in three uses", "vs BROCK")
    assert (move.kind, move.move, move.species, move.opponent) == ("move", "BUBBLE", ("ONIX",), "BROCK #1")
    assert (
        move.defender_types == ("ROCK", "GROUND")
        and move.text == "BUBBLE takes ONIX down in three uses [vs BROCK]"
    )
    resource = insight("Heal with a POTION below 30% HP before ONIX's BIDE lands")
    assert (resource.kind, resource.species, resource.move) == ("resource", ("ONIX",), "BIDE")
    assert insight("Lead with your strongest Pokémon", "vs BROCK #1").kind == "opponent"
    general = insight("Attack first when the enemy is slower", "always", 0.55)
    assert (general.kind, general.confidence, general.provenance) == ("sequence", 0.55, ("r-b007",))


def test_the_model_sees_the_findings_and_each_turns_outcome() -> None:
    log = onix_battle()
    lines = findings(detect(log), analyse(log))
    assert lines[0] == "classification: clean (won in 3 turns, 0 knocked out)"
    assert "measured: BUBBLE vs ONIX: 38% of its HP per use over 3 uses, hit 3/3 (super effective)" in lines
    _, user = render_reflection(log, lines)
    assert "What the engine measured in this battle:\n  - classification: clean" in user
    assert "  1. [battle_main_menu] use BUBBLE — r → super effective, enemy HP -38%, our HP -5%" in user


class FakeGateway:
    def __init__(self, answer: dict[str, Any] | None) -> None:
        self.answer = answer
        self.tasks: list[ModelTask] = []

    def ask(self, task: ModelTask) -> ModelOutcome:
        self.tasks.append(task)
        tier = "thinking" if self.answer is not None else "rule_based"
        steps = () if self.answer is not None else ("thinking: over budget",)
        return ModelOutcome(
            answer=self.answer, selection=Selection(tier=tier, wanted="thinking", reason="r", steps=steps)
        )


def test_the_model_synthesizer_asks_the_reflection_tier() -> None:
    log = onix_battle()
    answer = {
        "summary": "BUBBLE won it",
        "insights": [{"lesson": "BUBBLE beats ONIX", "applies_to": "vs BROCK #1", "confidence": 0.8}],
    }
    gateway = FakeGateway(answer)
    made = ask_model(gateway, "thinking", log, detect(log), analyse(log))  # type: ignore[arg-type]
    (task,) = gateway.tasks
    assert (task.role, task.answer, task.wanted, task.battle_id) == (
        "reflection",
        "reflection",
        "thinking",
        "r-b007",
    )
    assert "What the engine measured in this battle:" in task.user
    assert made.summary == "BUBBLE won it" and made.answer == ReflectionAnswer.model_validate(answer)
    (candidate,) = made.candidates
    assert (
        candidate.by == "thinking"
        and candidate.lesson is not None
        and candidate.lesson.opponent == "BROCK #1"
    )
    nothing = ask_model(FakeGateway(None), "thinking", log, detect(log), analyse(log))  # type: ignore[arg-type]
    assert nothing.candidates == () and nothing.selection.steps == ("thinking: over budget",)
