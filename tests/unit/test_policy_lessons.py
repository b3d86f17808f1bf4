"""The rule-based policy learning from observed numbers, and the tactician fetching them from memory."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from engine.combat.fighter import Attack
from engine.combat.search import Scored, Verdict
from engine.config import Tier
from engine.game.actions import BattleAction, UseMove, describe
from engine.llm.tasks import ModelOutcome, ModelTask
from engine.memory.lessons import Lesson, LessonContext, Measurement
from engine.messages import Selection
from engine.tactician.lookahead import PREFER_MARGIN, _lesson_followed
from engine.tactician.rule_based import MIN_OBSERVED_USES, RuleBasedPolicy
from engine.tactician.tactician import Tactician
from tests.unit.test_actions_and_policy import fixture_state


def choice(policy: RuleBasedPolicy, fixture: str) -> tuple[str, str]:
    state = fixture_state(fixture)
    decision = policy.decide(state)
    assert decision is not None
    return describe(decision.action, state), decision.reason


@pytest.mark.parametrize("lookahead", [True, False], ids=["search", "one_turn"])
def test_observed_damage_overrules_the_estimate_with_enough_uses(lookahead: bool) -> None:
    policy = RuleBasedPolicy(lookahead=lookahead)
    enemy = fixture_state("red_brock_main_menu").battle.enemy.species_name  # type: ignore[union-attr]
    assert choice(policy, "red_brock_main_menu")[0] == "use BUBBLE"
    # BUBBLE was seen to do nothing to this species (say it kept missing), TACKLE to hurt it.
    policy.remember(enemy, {"BUBBLE": Measurement(uses=200, damage_percent=0.0),
                            "TACKLE": Measurement(uses=20, damage_percent=45.0)})  # fmt: skip
    action, reason = choice(policy, "red_brock_main_menu")
    assert action == "use TACKLE" and "45%" not in reason  # more than the estimate: it never raises a move
    assert "BUBBLE do 0% a use in 200" in reason or not lookahead  # the search names every lesson it used


def test_a_lesson_never_makes_a_move_look_stronger() -> None:
    """A measurement pooled over a species' levels (a wild L3 and a trainer's L11) may say more than the
    calculator; it is left out, so memory never makes the search overconfident."""
    plain = choice(RuleBasedPolicy(), "red_brock_main_menu")
    policy = RuleBasedPolicy()
    enemy = fixture_state("red_brock_main_menu").battle.enemy.species_name  # type: ignore[union-attr]
    policy.remember(enemy, {"TACKLE": Measurement(uses=20, damage_percent=95.0)})
    assert choice(policy, "red_brock_main_menu") == plain


def test_too_few_observations_change_nothing() -> None:
    policy = RuleBasedPolicy()
    enemy = fixture_state("red_brock_main_menu").battle.enemy.species_name  # type: ignore[union-attr]
    few = MIN_OBSERVED_USES - 1
    policy.remember(enemy, {"BUBBLE": Measurement(uses=few, damage_percent=0.0),
                            "TACKLE": Measurement(uses=few, damage_percent=90.0)})  # fmt: skip
    action, reason = choice(policy, "red_brock_main_menu")
    assert action == "use BUBBLE" and "seen" not in reason


def test_observations_of_another_species_do_not_apply() -> None:
    policy = RuleBasedPolicy()
    policy.remember("MEWTWO", {"BUBBLE": Measurement(uses=50, damage_percent=0.0)})
    assert choice(policy, "red_brock_main_menu")[0] == "use BUBBLE"


class FakeMemory:
    """Stands in for the memory actor's two read verbs; counts calls to show the caching."""

    role = "memory"

    def __init__(self, lessons: list[Lesson]) -> None:
        self.lessons = lessons
        self.calls: list[tuple[str, tuple[Any, ...]]] = []

    def measured_for(self, enemy_species: str) -> list[Lesson]:
        self.calls.append(("measured_for", (enemy_species,)))
        return [lesson for lesson in self.lessons if lesson.measured and enemy_species in lesson.species]

    def preferences_for(self, enemy_species: str, opponent: str | None) -> list[Lesson]:
        self.calls.append(("preferences_for", (enemy_species, opponent)))
        return [lesson for lesson in self.lessons if lesson.prefer and lesson.species[-1:] == (enemy_species,)
                and lesson.opponent in (None, opponent)]  # fmt: skip

    def recall(self, query: str, context: LessonContext, k: int | None = None) -> list[Lesson]:
        self.calls.append(("recall", (query, context)))
        return self.lessons[:1]


class SilentGateway:
    """A gateway with a live tier whose every ask comes back without an answer (the rule stands)."""

    def available(self) -> tuple[Tier, ...]:
        return ("acting",)

    def ask(self, task: ModelTask) -> ModelOutcome:
        return ModelOutcome(answer=None, selection=Selection(tier="rule_based", wanted=task.wanted,
                                                             reason=task.reason))  # fmt: skip


def bubble_lesson(enemy: str) -> Lesson:
    return Lesson(lesson_id="x", kind="move", text="BUBBLE does nothing here", move="BUBBLE",
                  species=(enemy,), confidence=0.9, evidence=3, created_play_hours=0.0,
                  updated_play_hours=0.0, measured=Measurement(uses=20, damage_percent=0.0))  # fmt: skip


def test_tactician_asks_memory_once_per_battle_and_enemy() -> None:
    state = fixture_state("red_brock_main_menu")
    memory = FakeMemory([bubble_lesson(state.battle.enemy.species_name)])  # type: ignore[union-attr]
    tactician = Tactician(memory=memory, gateway=SilentGateway())  # type: ignore[arg-type]
    first = tactician.choose_battle(state, None, battle_id="b1")
    tactician.choose_battle(state, None, battle_id="b1")
    assert "0% a use in 20" in first.reason
    assert [method for method, _ in memory.calls] == ["measured_for", "preferences_for", "recall"]
    assert tactician.lessons.texts == ("BUBBLE does nothing here",)
    tactician.choose_battle(state, None, battle_id="b2")
    assert len(memory.calls) == 6


def test_without_a_model_only_the_numbers_are_fetched() -> None:
    state = fixture_state("red_brock_main_menu")
    memory = FakeMemory([bubble_lesson(state.battle.enemy.species_name)])  # type: ignore[union-attr]
    tactician = Tactician(memory=memory)  # type: ignore[arg-type]
    choice = tactician.choose_battle(state, None, battle_id="b1")
    assert "0% a use in 20" in choice.reason  # the measurement still steers the rule-based policy
    assert [method for method, _ in memory.calls] == ["measured_for", "preferences_for"]
    assert choice.lessons == ()


def regret(prefer: str, instead_of: str, opponent: str = "BROCK #1") -> Lesson:
    text = f"vs {opponent}: SQUIRTLE should {prefer}, not {instead_of}"
    return Lesson(lesson_id="r", kind="move", text=text,
                  species=("SQUIRTLE", "GEODUDE"), opponent=opponent, prefer=prefer, instead_of=instead_of,
                  confidence=0.7, evidence=1, created_play_hours=0.0, updated_play_hours=0.0)  # fmt: skip


def test_a_replays_regret_is_followed_where_the_search_rates_it_as_well() -> None:
    # BROCK's GEODUDE falls to any of SQUIRTLE's moves (100% each): the search's BUBBLE gives way to what a
    # replay of a lost try found better, and says why.
    state = fixture_state("red_brock_main_menu")
    tactician = Tactician(memory=FakeMemory([regret("use TACKLE", "use BUBBLE")]))  # type: ignore[arg-type]
    choice = tactician.choose_battle(state, None, battle_id="b1")
    assert choice.label == "use TACKLE" and "lesson: vs BROCK #1" in choice.reason
    for other in (regret("use TACKLE", "use TAIL_WHIP"), regret("use TACKLE", "use BUBBLE", "BROCK #2")):
        unmoved = Tactician(memory=FakeMemory([other]))  # type: ignore[arg-type]
        assert unmoved.choose_battle(state, None, battle_id="b1").label == "use BUBBLE"  # not this choice


def test_a_regret_never_takes_a_line_the_search_rates_clearly_worse() -> None:
    actions: list[BattleAction] = [UseMove(slot=0), UseMove(slot=1)]
    state = fixture_state("red_brock_main_menu")
    labels = [describe(action, state) for action in actions]
    scored = (
        Scored(Attack(0), win=0.9, kept=1.0, standing=1.0, turns_to_ko=2.0),
        Scored(Attack(1), win=0.9 - PREFER_MARGIN - 0.01, kept=1.0, standing=1.0, turns_to_ko=2.0),
    )
    verdict = Verdict(best=scored[0], index=0, scored=scored, reason="")
    worse = (regret(labels[1], labels[0]),)
    assert _lesson_followed(state, actions, verdict, worse) is None
    close = replace(verdict, scored=(scored[0], replace(scored[1], win=0.9 - PREFER_MARGIN)))
    assert _lesson_followed(state, actions, close, worse) == (
        1,
        f"{labels[1]}: 80% to win; lesson: {worse[0].text}",
    )
    third = [*actions, UseMove(slot=2)]
    labels.append(describe(third[2], state))
    three = replace(close, scored=(*close.scored, replace(scored[1], action=Attack(2), win=0.85)))
    both = (*worse, regret(labels[2], labels[0]))  # two regrets of one choice: the better-rated is followed
    assert _lesson_followed(state, third, three, both) == (
        2,
        f"{labels[2]}: 85% to win; lesson: {both[1].text}",
    )


def test_a_failing_memory_costs_the_lessons_not_the_decision() -> None:
    class Broken(FakeMemory):
        def measured_for(self, enemy_species: str) -> list[Lesson]:
            raise RuntimeError("actor died")

    tactician = Tactician(memory=Broken([]))  # type: ignore[arg-type]
    assert tactician.choose_battle(fixture_state("red_brock_main_menu"), None, battle_id="b1").label == (
        "use BUBBLE"
    )


@pytest.mark.parametrize("fixture", ["red_wild_main_menu", "red_brock_main_menu"])
def test_battle_context_names_both_sides(fixture: str) -> None:
    from engine.memory.context import battle_context

    state = fixture_state(fixture)
    query, context = battle_context(state)
    battle = state.battle
    assert battle is not None and battle.enemy is not None and battle.player is not None
    assert battle.enemy.species_name in query and battle.enemy.species_name in context.species
    assert context.enemy_types and context.moves
    assert (context.opponent is not None) == (battle.kind == "trainer")
