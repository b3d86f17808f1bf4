"""Checkpoint verbs of the stateful roles: every snapshot is plain JSON, `restore(snapshot())` on a fresh
instance makes the same decisions from then on as the original, and restoring onto a live instance that
moved on replaces its state. The gateway is the exception by design: it only takes a snapshot back when
it has recorded nothing itself."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest

from engine.config import EmulatorConfig, LLMConfig, ModelsConfig, ModelTierConfig, PlayerConfig, Tier
from engine.emulator.errors import SaveStateError
from engine.frozen import Frozen
from engine.game.actions import UseMove
from engine.game.capture import load_capture
from engine.game.models import GameState, Overworld
from engine.game.ram import RED_BLUE
from engine.game.state import decode_state
from engine.llm.gateway import GatewaySnapshot, ModelGateway
from engine.llm.ledger import HOUR
from engine.llm.tasks import ModelOutcome, ModelTask
from engine.mechanics.snapshot import EmulatorSnapshot
from engine.memory.lessons import Lesson, Measurement
from engine.messages import EventName, GameEvent, Perception, Selection
from engine.observer.journey import STUCK_AFTER_LOOKS, Observer
from engine.strategist.strategist import Strategist
from engine.tactician.tactician import Tactician
from engine.world.goals import Leg
from tests.conftest import GEN1_FIXTURES
from tests.support.fake_emulator import FakeEmulator
from tests.support.stub_llm import StubLLMServer, StubReply, script
from tests.support.tiny_world import INDOOR, TinyMap, build_world, walk_leg
from tests.unit.test_policy_lessons import FakeMemory, SilentGateway


def state(name: str) -> GameState:
    return decode_state(load_capture(GEN1_FIXTURES / name), RED_BLUE)


PALLET = state("red_pallet_town_overworld")
WILD = state("red_wild_main_menu")
WILD_MOVES = state("red_wild_move_menu_move1")
BROCK = state("red_brock_main_menu")
ONIX = state("red_brock_second_mon_onix")


Snapshot = TypeVar("Snapshot")


def as_json(snapshot: Snapshot) -> Snapshot:
    """Through text and back, as a checkpoint stores it (no default: anything not JSON fails here)."""
    if isinstance(snapshot, Frozen):
        text = json.dumps(snapshot.model_dump(mode="json"))
        return type(snapshot).model_validate(json.loads(text))  # type: ignore[return-value]
    return json.loads(json.dumps(snapshot))  # type: ignore[no-any-return]


def at(x: int, y: int, map_id: int = 0) -> GameState:
    return PALLET.model_copy(
        update={"overworld": Overworld(map_id=map_id, map_name=None, x=x, y=y, facing="down")}
    )


# -- Observer ----------------------------------------------------------------------------------------
def look(observer: Observer, game: GameState, frame: int) -> list[GameEvent]:
    return observer.observe(Perception(frame=frame, digest=f"d{frame}", state=game))


def observer_mid_battle() -> Observer:
    """A journey with ground walked, one battle won, and a second battle under way."""
    observer = Observer()
    for step in range(12):
        look(observer, at(step % 6, step // 6), step)
    look(observer, WILD, 20)
    look(observer, WILD_MOVES, 21)
    observer.battle_ended("victory", "PIDGEY", 22, ["SQUIRTLE"])
    look(observer, at(3, 3, map_id=1), 23)
    look(observer, BROCK, 24)
    return observer


def observer_future(observer: Observer) -> list[list[GameEvent]]:
    """What happens next: the battle goes on (a new enemy), ends, and the walk crosses old and new ground
    long enough for the stuck report."""
    events = [look(observer, BROCK, 30), look(observer, ONIX, 31)]
    events.append([observer.battle_ended("victory", "BROCK", 32, ["SQUIRTLE", "PIDGEY"])])
    events.append(look(observer, at(0, 0), 33))
    events.append(look(observer, at(5, 5), 34))
    events += [look(observer, at(frame % 2, 0), frame) for frame in range(35, 35 + STUCK_AFTER_LOOKS + 5)]
    return events


def test_observer_snapshot_restores_into_a_fresh_observer() -> None:
    original = observer_mid_battle()
    snapshot = original.snapshot()
    fresh = Observer()
    fresh.restore(as_json(snapshot))
    assert fresh.snapshot() == snapshot and fresh.journey() == original.journey()
    expected = observer_future(original)
    got = observer_future(fresh)
    assert got == expected
    names = [event.name for events in expected for event in events]
    # The battle under way goes on (no second BATTLE_START), (5, 5) is the only new ground, and the
    # walk is reported stuck once: each depends on restored state.
    assert names == [EventName.NEW_ENEMY, EventName.BATTLE_END, EventName.STUCK]
    assert fresh.snapshot() == original.snapshot()


def test_observer_restore_replaces_the_state_of_one_that_moved_on() -> None:
    original = observer_mid_battle()
    snapshot = original.snapshot()
    live = observer_mid_battle()
    observer_future(live)
    look(live, at(9, 9, map_id=7), 999)
    assert live.snapshot() != snapshot
    live.restore(as_json(snapshot))
    assert live.snapshot() == snapshot
    assert observer_future(live) == observer_future(original)
    assert live.journey() == original.journey()


# -- Strategist --------------------------------------------------------------------------------------
class PlanningGateway:
    """Answers every strategic ask with a plan and keeps the tasks, so the prompts can be compared."""

    def __init__(self) -> None:
        self.tasks: list[ModelTask] = []

    def available(self) -> tuple[Tier, ...]:
        return ("acting", "thinking")

    def ask(self, task: ModelTask) -> ModelOutcome:
        self.tasks.append(task)
        answer = {"objective": f"plan {len(self.tasks)}", "priorities": ["hit hard"], "warnings": []}
        selection = Selection(tier=task.wanted, wanted=task.wanted, reason=task.reason, calls=1)
        return ModelOutcome(answer=answer, selection=selection)


def event(name: EventName, detail: str, frame: int) -> GameEvent:
    return GameEvent(name=name, frame=frame, detail=detail)


def planned_strategist() -> tuple[Strategist, PlanningGateway]:
    gateway = PlanningGateway()
    strategist = Strategist(gateway=gateway)
    strategist.consider([event(EventName.HEARTBEAT, "500 looks", 1)], PALLET)
    strategist.consider([event(EventName.BATTLE_START, "trainer vs BROCK", 2)], BROCK)
    return strategist, gateway


def next_plan(strategist: Strategist, gateway: PlanningGateway) -> tuple[Any, str]:
    """The next directive and the prompt it was asked with (which shows the standing directive)."""
    directive = strategist.consider([event(EventName.HP_LOW, "active member at 20%", 3)], BROCK)
    return directive, gateway.tasks[-1].user


def test_strategist_snapshot_restores_into_a_fresh_strategist() -> None:
    original, original_gateway = planned_strategist()
    snapshot = original.snapshot()
    assert snapshot.model_directives == 1 and snapshot.directive is not None
    assert snapshot.directive.objective == "plan 1"
    gateway = PlanningGateway()
    gateway.tasks.append(original_gateway.tasks[0])  # the same plan number next
    fresh = Strategist(gateway=gateway)
    fresh.restore(as_json(snapshot))
    assert fresh.snapshot() == snapshot and fresh.directive == original.directive
    assert fresh.report() == original.report()
    assert next_plan(fresh, gateway) == next_plan(original, original_gateway)
    assert "plan 1" in gateway.tasks[-1].user  # the standing directive was part of the prompt


def test_strategist_restore_replaces_a_live_directive() -> None:
    original, _ = planned_strategist()
    snapshot = original.snapshot()
    live, _ = planned_strategist()
    live.consider([event(EventName.STUCK, "no new ground on map 0", 9)], PALLET)
    assert live.directive is not None and live.directive.trigger is EventName.STUCK
    live.restore(as_json(snapshot))
    assert live.directive == original.directive and live.snapshot() == snapshot
    assert live.report() == original.report()


# -- Tactician -----------------------------------------------------------------------------------------
ROOM, HALL = 1, 2
TINY = build_world(
    TinyMap(ROOM, "ROOM", ("D" + "." * 13,) + ("." * 14,) * 11, warps=[(0, 0, HALL, 0)]),
    TinyMap(HALL, "HALL", ("########", "#......#", "#......#", "#......#"), tileset=INDOOR,
            warps=[(3, 3, ROOM, 0)]),
)  # fmt: skip


def walk(tactician: Tactician, here: GameState, legs: int) -> tuple[list[Leg], GameState]:
    """Legs the tactician chooses, walked on a small drawn world of a room and a hall."""
    chosen = []
    for _ in range(legs):
        leg = tactician.choose_leg(here, None)
        report = walk_leg(TINY, here, leg)
        tactician.travelled(here, leg, report)
        chosen.append(leg)
        here = report.state
    return chosen, here


def played_tactician(seed: int = 7) -> tuple[Tactician, GameState]:
    tactician = Tactician(seed=seed, world=TINY)
    tactician.choose_battle(WILD, None)
    _, here = walk(tactician, at(6, 6, ROOM), 6)
    tactician.choose_battle(BROCK, None)
    return tactician, here


def test_tactician_snapshot_restores_the_walk_into_a_fresh_tactician() -> None:
    original, here = played_tactician()
    snapshot = original.snapshot()
    fresh = Tactician(seed=12345, world=TINY)  # the random generator's state comes from the snapshot
    fresh.restore(as_json(snapshot))
    assert fresh.snapshot() == snapshot and fresh.report() == original.report()
    expected, _ = walk(original, here, 12)
    got, _ = walk(fresh, here, 12)
    assert got == expected
    assert fresh.snapshot() == original.snapshot()
    # The walk depends on what the explorer knew: without it, the same seed walks elsewhere.
    assert walk(Tactician(seed=7, world=TINY), here, 12)[0] != expected
    assert {leg.goal.kind for leg in expected} >= {"square", "step"}


def test_tactician_restore_replaces_the_state_of_one_that_moved_on() -> None:
    original, here = played_tactician()
    snapshot = original.snapshot()
    live, there = played_tactician()
    walk(live, there, 8)
    live.choose_battle(ONIX, None)
    assert live.snapshot() != snapshot
    live.restore(as_json(snapshot))
    assert live.snapshot() == snapshot
    assert walk(live, here, 10)[0] == walk(original, here, 10)[0]
    assert live.choose_battle(BROCK, None) == original.choose_battle(BROCK, None)
    assert live.report() == original.report()


def test_tactician_restore_asks_lesson_memory_again() -> None:
    enemy = BROCK.battle.enemy.species_name  # type: ignore[union-attr]
    lesson = Lesson(lesson_id="x", kind="move", text="BUBBLE does nothing here", move="BUBBLE",
                    species=(enemy,), confidence=0.9, evidence=3, created_play_hours=0.0,
                    updated_play_hours=0.0, measured=Measurement(uses=20, damage_percent=0.0))  # fmt: skip
    memory = FakeMemory([lesson])
    tactician = Tactician(memory=memory, gateway=SilentGateway())  # type: ignore[arg-type]
    before = tactician.choose_battle(BROCK, None, battle_id="b1")
    snapshot = tactician.snapshot()
    tactician.choose_battle(BROCK, None, battle_id="b1")
    assert [method for method, _ in memory.calls] == [
        "measured_for",
        "preferences_for",
        "recall",
    ]  # cached per battle
    tactician.restore(as_json(snapshot))
    assert tactician.lessons.texts == () and tactician.policy.observed == {}
    after = tactician.choose_battle(BROCK, None, battle_id="b1")
    assert [method for method, _ in memory.calls] == ["measured_for", "preferences_for", "recall"] * 2
    assert after.action == before.action and "0% a use in 20" in after.reason
    assert tactician.lessons.texts == ("BUBBLE does nothing here",)


# -- ModelGateway ------------------------------------------------------------------------------------
KEY = "sk-stub-0123456789abcdef"
GOOD = json.dumps({"action_id": 1, "reasoning": "BUBBLE is super effective", "confidence": 0.8})
CHEAP = StubReply(text=GOOD, input_tokens=1000, output_tokens=100)  # $0.003 at the prices below
DOWN = StubReply(text="overloaded", status=500)
LLM = LLMConfig(retry_attempts=1, retry_initial_seconds=0.01, retry_max_seconds=0.02, breaker_failures=2,
                breaker_reset_seconds=600.0)  # fmt: skip


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def server() -> Iterator[StubLLMServer]:
    with StubLLMServer(script(CHEAP)) as stub:
        yield stub


def gateway_on(server: StubLLMServer, clock: Callable[[], float], llm: LLMConfig = LLM) -> ModelGateway:
    tier = ModelTierConfig.model_validate(
        {"provider": "openai", "model": "stub", "base_url": server.openai_base_url, "api_key_env": "STUB_KEY",
         "max_tokens": 200, "timeout_s": 2.0, "price_input_per_mtok": 2.0, "price_output_per_mtok": 10.0}
    )  # fmt: skip
    return ModelGateway(ModelsConfig(acting=tier), llm, {"STUB_KEY": KEY}, strict=True, clock=clock)


def tactical() -> ModelTask:
    return ModelTask(role="tactician", answer="tactical", wanted="acting", reason="trainer battle",
                     system="You play.", user="pick", action_ids=(0, 1, 2), battle_id="r-b001")  # fmt: skip


def worn_gateway(server: StubLLMServer) -> tuple[ModelGateway, GatewaySnapshot]:
    """Two paid calls, then the provider goes down and its breaker opens; the snapshot ten minutes on."""
    server.responder = script(CHEAP, CHEAP, DOWN)
    clock = Clock(1000.0)
    gateway = gateway_on(server, clock)
    outcomes = [gateway.ask(tactical()) for _ in range(4)]
    assert [outcome.answer is not None for outcome in outcomes] == [True, True, False, False]
    assert list(gateway.breaker_states().values()) == ["open"]
    clock.now += 600.0
    return gateway, gateway.snapshot()


def test_gateway_snapshot_is_json_and_says_what_it_holds(server: StubLLMServer) -> None:
    _, snapshot = worn_gateway(server)
    assert as_json(snapshot) == snapshot
    stored = snapshot.model_dump(mode="json")
    assert stored["ledger"]["tiers"]["acting"] == {"calls": 2, "tokens_in": 2000, "tokens_out": 200,
                                                   "cost_usd": pytest.approx(0.006)}  # fmt: skip
    assert stored["ledger"]["recent"] == [[600.0, pytest.approx(0.003)]] * 2
    assert stored["counts"]["asks"] == 4 and stored["counts"]["fallbacks"] == 2
    assert list(stored["breakers"].values()) == ["open"]
    assert set(stored["latency"]) == {"acting"} and set(stored["answer_tokens"]) == {"tactical"}


def test_a_fresh_gateway_gets_totals_and_open_breakers_back(server: StubLLMServer) -> None:
    original, snapshot = worn_gateway(server)
    clock = Clock(50.0)  # another process, another monotonic clock
    fresh = gateway_on(server, clock)
    fresh.restore(as_json(snapshot))
    assert fresh.usage() == original.usage()
    assert fresh.breaker_states() == original.breaker_states()
    assert fresh.estimate("acting", tactical()) == original.estimate("acting", tactical())
    asked = len(server.requests)
    outcome = fresh.ask(tactical())
    assert outcome.answer is None and "circuit breaker open" in outcome.selection.steps[0]
    assert len(server.requests) == asked  # the dead provider is not called again at once
    # Without the restore, a new gateway would have called it.
    gateway_on(server, clock).ask(tactical())
    assert len(server.requests) == asked + 1


def test_restored_spends_still_count_against_the_budgets(server: StubLLMServer) -> None:
    budget = LLM.model_copy(update={"budget_hourly_usd": 0.0065})
    _, snapshot = worn_gateway(server)
    server.responder = script(CHEAP)
    clock = Clock(50.0)
    fresh = gateway_on(server, clock, budget)
    fresh.restore(as_json(snapshot))
    (endpoint,) = fresh.breaker_states()
    fresh.breakers.for_endpoint(endpoint).close()  # the provider is back: only the budget is in the way
    asked = len(server.requests)
    over = fresh.ask(tactical())
    assert over.answer is None and over.selection.steps[0].startswith("acting: over hourly budget")
    assert fresh.usage().spent_last_hour_usd == pytest.approx(0.006)
    assert len(server.requests) == asked
    clock.now += HOUR - 600.0 + 1  # the spends are now just over an hour old
    assert fresh.usage().spent_last_hour_usd == 0.0 and fresh.usage().spent_last_day_usd > 0
    assert fresh.ask(tactical()).answer is not None


def test_a_live_gateway_keeps_its_own_ledger(server: StubLLMServer) -> None:
    _, snapshot = worn_gateway(server)
    server.responder = script(CHEAP)
    live = gateway_on(server, Clock(5.0))
    assert live.ask(tactical()).answer is not None
    before = (live.usage(), live.breaker_states(), live.snapshot())
    live.restore(as_json(snapshot))
    assert (live.usage(), live.breaker_states(), live.snapshot()) == before
    assert live.usage().calls == 1 and list(live.breaker_states().values()) == ["closed"]
    asked = len(server.requests)
    assert live.ask(tactical()).answer is not None and len(server.requests) == asked + 1


# -- FakeEmulator ------------------------------------------------------------------------------------
def fake_emulator() -> FakeEmulator:
    return FakeEmulator(Path("fake.gb"), EmulatorConfig(), PlayerConfig(), fixtures=GEN1_FIXTURES)


def test_fake_emulator_round_trip() -> None:
    emulator = fake_emulator()
    emulator.advance()
    emulator.act(UseMove(slot=0))
    snapshot = emulator.snapshot()
    assert snapshot.frames == 180 and snapshot.last_in_battle == emulator.end_battle().final
    stored = EmulatorSnapshot.from_parts(as_json(snapshot.to_json()), snapshot.state)
    assert stored == snapshot and "state" not in snapshot.to_json()
    expected = (emulator.advance(), emulator.frame_count(), emulator.frame())
    emulator.advance()
    emulator.act(UseMove(slot=0))
    emulator.restore(stored)
    assert (emulator.advance(), emulator.frame_count(), emulator.frame()) == expected
    fresh = fake_emulator()
    fresh.restore(stored)
    assert fresh.end_battle().final == snapshot.last_in_battle
    assert (fresh.advance(), fresh.frame_count(), fresh.frame()) == expected
    assert fresh.cartridge_sha256() == emulator.cartridge_sha256() and len(fresh.cartridge_sha256()) == 64


@pytest.mark.parametrize("junk", [b"", b"junk", b"[1, 2]", b'{"index": 99, "acted": false}', b"\xff\xfe"])
def test_fake_emulator_refuses_junk_and_keeps_its_state(junk: bytes) -> None:
    emulator = fake_emulator()
    emulator.advance()
    emulator.act(UseMove(slot=0))
    before = emulator.snapshot()
    with pytest.raises(SaveStateError):
        emulator.restore(EmulatorSnapshot(state=junk, frames=5, last_in_battle=None))
    assert emulator.snapshot() == before
