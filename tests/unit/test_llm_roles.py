"""The deciding roles with a model gateway: a scripted gateway with the real interface (`available`,
`ask`) behind a LocalHandle, on real captures."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from engine.battles.models import BattleLog, BattleSummary, DecisionRecord
from engine.config import RoutingConfig
from engine.files import write_json_atomic
from engine.game.actions import describe, legal_actions
from engine.game.capture import load_capture
from engine.game.models import DecisionPoint, GameState
from engine.game.ram import RED_BLUE
from engine.game.state import decode_state
from engine.llm.tasks import ModelOutcome, ModelTask
from engine.messages import BattleRecord, EventName, GameEvent, Selection, Tier
from engine.reflection.inbox import Reflection
from engine.strategist.strategist import Strategist
from engine.tactician.tactician import Tactician
from tests.conftest import GEN1_FIXTURES
from tests.support.tiny_world import TinyMap, build_world


class ScriptedGateway:
    """Answers every ask with the next scripted answer (None: fall back), and keeps the tasks it saw."""

    def __init__(
        self, answers: list[dict[str, Any] | None], tiers: tuple[Tier, ...] = ("acting", "thinking")
    ):
        self.answers = answers
        self.tiers = tiers
        self.tasks: list[ModelTask] = []

    def available(self) -> tuple[Tier, ...]:
        return self.tiers

    def ask(self, task: ModelTask) -> ModelOutcome:
        self.tasks.append(task)
        answer = self.answers.pop(0) if self.answers else None
        tier: Tier = task.wanted if answer is not None else "rule_based"
        steps = () if answer is not None else (f"{task.wanted}: circuit breaker open for stub",)
        selection = Selection(tier=tier, wanted=task.wanted, reason=task.reason, steps=steps,
                              cost_usd=0.001 if answer else 0.0, calls=1 if answer else 0)  # fmt: skip
        return ModelOutcome(answer=answer, selection=selection)


def state(name: str) -> GameState:
    return decode_state(load_capture(GEN1_FIXTURES / name), RED_BLUE)


def tactician_with(gateway: ScriptedGateway) -> Tactician:
    return Tactician(gateway=gateway)


def test_a_boss_battle_decision_is_the_models_pick_from_the_legal_set() -> None:
    brock = state("red_brock_main_menu")
    legal = legal_actions(brock)
    pick = len(legal) - 1  # not what the free policy would choose first
    gateway = ScriptedGateway([{"action_id": pick, "reasoning": "test pick", "observations": "o",
                                "confidence": 0.4}])  # fmt: skip
    choice = tactician_with(gateway).choose_battle(brock, None, None, "r-b001")
    assert choice.action == legal[pick] and choice.label == describe(legal[pick], brock)
    # One SQUIRTLE against BROCK's two: outnumbered, so one tier above the boss default (acting).
    assert (choice.reason, choice.tier, choice.confidence) == ("test pick", "thinking", 0.4)
    (task,) = gateway.tasks
    assert task.action_ids == tuple(range(len(legal))) and task.battle_id == "r-b001"
    assert "BROCK" in task.reason and "outnumbered 1 to 2" in task.reason and task.wanted == "thinking"
    assert all(f"{i}: " in task.user for i in task.action_ids)


def test_a_failed_ask_keeps_the_rule_based_choice_and_says_why() -> None:
    brock = state("red_brock_main_menu")
    gateway = ScriptedGateway([None])
    free = Tactician().choose_battle(brock, None)
    choice = tactician_with(gateway).choose_battle(brock, None)
    assert choice.action == free.action and choice.reason == free.reason
    assert choice.tier == "rule_based" and choice.selection.wanted == "thinking"
    assert choice.selection.steps == ("thinking: circuit breaker open for stub",)


def test_a_routine_wild_battle_never_asks() -> None:
    gateway = ScriptedGateway([])
    choice = tactician_with(gateway).choose_battle(state("red_wild_main_menu"), None)
    assert gateway.tasks == [] and choice.tier == "rule_based" and choice.selection.wanted == "rule_based"


def test_without_live_tiers_nothing_is_asked() -> None:
    gateway = ScriptedGateway([], tiers=())
    choice = tactician_with(gateway).choose_battle(state("red_brock_main_menu"), None)
    assert gateway.tasks == []
    assert choice.selection.steps == ("no model tier is available",)


def test_a_screenshot_travels_as_a_png_image() -> None:
    gateway = ScriptedGateway([None])
    tactician_with(gateway).choose_battle(state("red_brock_main_menu"), None, b"\x89PNG fake", None)
    (image,) = gateway.tasks[0].images
    assert image.media_type == "image/png" and image.data_base64 == "iVBORyBmYWtl"


def battle_start(detail: str) -> GameEvent:
    return GameEvent(name=EventName.BATTLE_START, frame=100, detail=detail)


def test_a_boss_battle_is_planned_by_the_thinking_tier() -> None:
    gateway = ScriptedGateway([{"objective": "beat BROCK with water", "priorities": ["use WATER_GUN"],
                                "warnings": ["ONIX is next"]}])  # fmt: skip
    strategist = Strategist(gateway=gateway)
    directive = strategist.consider([battle_start("trainer vs BROCK")], state("red_brock_main_menu"))
    assert directive is not None and directive.objective == "beat BROCK with water"
    assert directive.tier == "thinking" and directive.warnings == ("ONIX is next",)
    assert gateway.tasks[0].answer == "strategic"
    assert strategist.report().counters["model_directives"] == 1.0


def test_a_heartbeat_or_a_wild_battle_never_pays_for_a_plan() -> None:
    gateway = ScriptedGateway([])
    strategist = Strategist(gateway=gateway)
    heartbeat = GameEvent(name=EventName.HEARTBEAT, frame=1, detail="200 steps")
    assert strategist.consider([heartbeat], state("red_brock_main_menu")) is not None
    assert strategist.consider([battle_start("wild vs PIDGEY")], state("red_wild_main_menu")) is not None
    assert gateway.tasks == []


def test_without_live_tiers_a_boss_plan_is_rule_based_and_says_why() -> None:
    gateway = ScriptedGateway([{"objective": "never asked", "priorities": [], "warnings": []}], tiers=())
    strategist = Strategist(gateway=gateway)
    directive = strategist.consider([battle_start("trainer vs BROCK")], state("red_brock_main_menu"))
    assert directive is not None and directive.tier == "rule_based"
    assert directive.selection.wanted == "thinking"
    assert directive.selection.steps == ("no model tier is available",)
    assert gateway.tasks == []


def write_battle(tmp_path: Path, battle_type: str, outcome: str) -> BattleRecord:
    summary = BattleSummary.model_validate(
        {"battle_id": f"r-{battle_type}", "outcome": outcome, "battle_type": battle_type,
         "opponent": "BROCK #1", "turns": 2, "decisions": 2, "frames": 900, "wall_seconds": 0.5}
    )  # fmt: skip
    record = DecisionRecord(point=DecisionPoint.BATTLE_MAIN_MENU, action="use BUBBLE", reason="r")
    log = BattleLog(summary=summary, run_id="r", start_frame=0, decisions=(record, record))
    path = tmp_path / "battles" / f"{summary.battle_id}.json"
    write_json_atomic(path, log.model_dump(mode="json"))
    return BattleRecord(battle_id=summary.battle_id, outcome=outcome, opponent="BROCK #1", log_path=str(path))


def test_reflection_runs_in_the_background_and_writes_its_insights(tmp_path: Path) -> None:
    answer = {"summary": "won", "insights": [{"lesson": "water beats rock", "applies_to": "vs BROCK",
                                              "confidence": 0.8}]}  # fmt: skip
    gateway = ScriptedGateway([answer])
    reflection = Reflection(gateway=gateway)
    trainer = write_battle(tmp_path, "trainer", "victory")
    wild = write_battle(tmp_path, "wild", "victory")
    assert reflection.receive(trainer) == trainer.battle_id
    reflection.receive(wild)
    assert reflection.settle(10.0)
    counts = reflection.report().counters
    # Both battles get the free rule-based phases; only the trainer battle is worth a model call.
    assert (counts["reflections"], counts["model_reflections"]) == (2.0, 1.0)
    assert (counts["insights"], counts["skipped"], counts["failed"]) == (1.0, 1.0, 0.0)
    written = json.loads((tmp_path / "reflections" / f"{trainer.battle_id}.json").read_text())
    assert written["answer"] == answer and written["selection"]["tier"] == "thinking"
    assert written["synthesized_by"] == ["rule_based", "thinking"]
    assert [lesson["text"] for lesson in written["accepted"]][-1] == "water beats rock [vs BROCK]"
    assert written["memory"] == "no_memory" and written["stored"] == []
    routine = json.loads((tmp_path / "reflections" / f"{wild.battle_id}.json").read_text())
    assert routine["model_skipped"] == "a routine wild win" and routine["synthesized_by"] == ["rule_based"]
    assert [task.answer for task in gateway.tasks] == ["reflection"]
    reflection.close()


def test_reflection_without_a_gateway_reflects_by_rules_only(tmp_path: Path) -> None:
    reflection = Reflection()
    record = write_battle(tmp_path, "trainer", "defeat")
    reflection.receive(record)
    assert reflection.settle(5.0)
    assert reflection.report().counters["reflections"] == 1.0 and len(reflection.received) == 1
    written = json.loads((tmp_path / "reflections" / f"{record.battle_id}.json").read_text())
    assert written["failure"]["kind"] == "defeat" and written["model_skipped"] == "no model gateway"
    reflection.close()


def test_a_plan_out_of_battle_shows_the_model_the_map_around_the_player() -> None:
    pallet = state("red_pallet_town_overworld")
    where = pallet.overworld
    art = tuple("." * 20 if y != 2 else "." * 8 + "####" + "." * 8 for y in range(18))
    world = build_world(TinyMap(where.map_id, "PALLET_TOWN", art))
    gateway = ScriptedGateway([{"objective": "find the way north", "priorities": [], "warnings": []}])
    strategist = Strategist(RoutingConfig(strategy_overworld="acting"), gateway, world=world)
    stuck = GameEvent(name=EventName.STUCK, frame=5, detail="no new square for 300 looks")
    directive = strategist.consider([stuck], pallet)
    assert directive is not None and gateway.tasks, "overworld planning asks the acting tier"
    user = gateway.tasks[0].user
    assert f"PALLET_TOWN, you at ({where.x}, {where.y})" in user and "# # # #" in user
    assert user.count("@") == 2  # the player on the map, and the legend naming it
    in_battle = Strategist(gateway=ScriptedGateway([None]), world=world)
    in_battle.consider([battle_start("trainer vs BROCK")], state("red_brock_main_menu"))
    assert "Where you are" not in in_battle.gateway.tasks[0].user  # type: ignore[union-attr]
