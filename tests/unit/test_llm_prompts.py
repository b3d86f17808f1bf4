"""The prompts the model tiers see, rendered from real fixture states and compared with snapshots.

Run with UPDATE_SNAPSHOTS=1 to rewrite the files under tests/unit/snapshots/ after a deliberate change,
then read the diff: it is exactly what a model will read.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path

import pytest

from engine.battles.models import BattleLog, BattleSummary, DecisionRecord
from engine.game.actions import SendNext, SwitchTo, UseItem, UseMove, describe, legal_actions
from engine.game.capture import load_capture
from engine.game.models import BagItem, DecisionPoint, GameState
from engine.game.ram import RED_BLUE
from engine.game.state import decode_state
from engine.llm.render import (
    action_options,
    render_reflection,
    render_strategy,
    render_tactical,
)
from engine.messages import Directive, EventName, GameEvent
from tests.conftest import GEN1_FIXTURES, REPO_ROOT

SNAPSHOTS = Path(__file__).parent / "snapshots"
UNFILLED = re.compile(r"\$(\w|\{)")

BROCK_ORDERS = Directive(
    objective="beat BROCK without losing a member",
    priorities=("lead with water moves: GEODUDE and ONIX are ROCK/GROUND", "keep PIKACHU out of this battle"),
    warnings=("ONIX is still to come",),
    trigger=EventName.BATTLE_START,
    frame=120,
)
LESSONS = (
    "BUBBLE knocks out BROCK's GEODUDE in one hit at level 16",
    "ELECTRIC moves do nothing to GROUND types",
)


def fixture_state(name: str) -> GameState:
    return decode_state(load_capture(GEN1_FIXTURES / name), RED_BLUE)


def with_bag(state: GameState) -> GameState:
    return state.model_copy(
        update={
            "bag": (
                BagItem(item_id=20, name="POTION", quantity=3),
                BagItem(item_id=4, name="POKE_BALL", quantity=5),
                BagItem(item_id=11, name="ANTIDOTE", quantity=1),
            )
        }
    )


def tactical(
    state: GameState,
    directive: Directive | None = None,
    recent: Sequence[str] = (),
    lessons: Sequence[str] = (),
) -> tuple[str, str]:
    options = action_options(state, legal_actions(state))
    return render_tactical(state, options, directive, recent, lessons)


def tactical_cases() -> dict[str, tuple[str, str]]:
    recent = [f"use {move}" for move in ("TACKLE", "TAIL_WHIP") * 3] + [
        "switch to WARTORTLE",
        "use BUBBLE",
    ] * 2
    return {
        "tactical_trainer_brock": tactical(
            fixture_state("red_brock_active_slot1"), BROCK_ORDERS, recent=recent, lessons=LESSONS
        ),
        "tactical_wild": tactical(fixture_state("blue_wild_main_menu"), recent=()),
        "tactical_wild_items": tactical(
            with_bag(fixture_state("red_wild_enemy_paralyzed")), recent=["use GROWL"]
        ),
        "tactical_learn_move": tactical(fixture_state("red_learn_move_prompt"), recent=("use TACKLE",)),
    }


def strategy_cases() -> dict[str, tuple[str, str]]:
    onix = GameEvent(name=EventName.NEW_ENEMY, frame=2400, detail="BROCK sent out ONIX")
    heartbeat = GameEvent(name=EventName.HEARTBEAT, frame=9000, detail="500 looks")
    overworld = with_bag(fixture_state("red_wild_post_battle_overworld"))
    return {
        "strategy_battle": render_strategy(
            fixture_state("red_brock_second_mon_onix"), onix, BROCK_ORDERS, LESSONS
        ),
        "strategy_overworld": render_strategy(overworld, heartbeat, None),
    }


def small_log(decisions: int = 4) -> BattleLog:
    records = [
        DecisionRecord(
            point=DecisionPoint.BATTLE_MAIN_MENU,
            action="use TACKLE",
            reason="TACKLE: ~6 of ~33 HP expected, 0% KO chance",
        ),
        DecisionRecord(
            point=DecisionPoint.BATTLE_MAIN_MENU,
            action="use BUBBLE",
            reason="BUBBLE: ~33 of ~33 HP expected, 100% KO chance",
        ),
        DecisionRecord(
            point=DecisionPoint.BATTLE_MAIN_MENU,
            action="use WATER_GUN",
            reason="WATER_GUN: ~31 of ~38 HP expected, 62% KO chance",
        ),
        DecisionRecord(
            point=DecisionPoint.LEARN_MOVE_PROMPT,
            action="forget move 2",
            reason="BITE replaces the weaker TAIL_WHIP",
        ),
    ]
    summary = BattleSummary(
        battle_id="battle-0003",
        outcome="victory",
        battle_type="trainer",
        opponent="BROCK #1",
        turns=3,
        decisions=decisions,
        frames=2710,
        wall_seconds=4.5,
    )
    chosen = tuple(records[n % len(records)] for n in range(decisions))
    return BattleLog(summary=summary, run_id="run-1", start_frame=1000, decisions=chosen)


def all_cases() -> dict[str, tuple[str, str]]:
    return {**tactical_cases(), **strategy_cases(), "reflection": render_reflection(small_log())}


def as_snapshot(rendered: tuple[str, str]) -> str:
    system, user = rendered
    return f"=== system ===\n{system}\n=== user ===\n{user}"


@pytest.mark.parametrize("name", sorted(all_cases()))
def test_snapshot(name: str) -> None:
    text = as_snapshot(all_cases()[name])
    path = SNAPSHOTS / f"{name}.txt"
    if os.environ.get("UPDATE_SNAPSHOTS") == "1":
        SNAPSHOTS.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return
    assert path.is_file(), f"no snapshot {path.name}: run with UPDATE_SNAPSHOTS=1 to create it"
    assert text == path.read_text(encoding="utf-8")


def test_renderings_are_deterministic() -> None:
    assert all_cases() == all_cases()


@pytest.mark.parametrize("name", sorted(all_cases()))
def test_no_unfilled_placeholders_and_no_machine_paths(name: str) -> None:
    text = as_snapshot(all_cases()[name])
    assert UNFILLED.search(text) is None
    for path in (str(GEN1_FIXTURES), str(REPO_ROOT), str(Path.home())):
        assert path not in text


@pytest.mark.parametrize(
    "fixture",
    [
        "red_brock_active_slot1",
        "red_brock_second_mon_onix",
        "blue_misty_enemy_poisoned",
        "blue_wild_main_menu",
        "red_wild_enemy_paralyzed",
        "red_wild_use_next_mon_prompt",
        "red_learn_move_prompt",
        "red_evolution",
    ],
)
def test_every_legal_action_is_offered_by_id(fixture: str) -> None:
    state = fixture_state(fixture)
    options = action_options(state, legal_actions(state))
    _, user = render_tactical(state, options, None, ())
    assert [option.id for option in options] == list(range(len(options)))
    for option in options:
        assert re.search(rf"^  {option.id}: {re.escape(option.label)}", user, re.MULTILINE)
    assert f"<one of {', '.join(str(o.id) for o in options)}>" in user


@pytest.mark.parametrize(
    "fixture", ["red_wild_use_next_mon_prompt", "blue_misty_enemy_poisoned", "red_brock_main_menu"]
)
def test_the_enemy_hp_shows_only_as_a_percentage(fixture: str) -> None:
    state = fixture_state(fixture)
    assert state.battle is not None and state.battle.enemy is not None
    enemy = state.battle.enemy
    for _, user in (tactical(state, recent=()), render_strategy(state, _event(), None)):
        assert f"{enemy.hp}/{enemy.max_hp}" not in user
        enemy_lines = [line for line in user.splitlines() if f"{enemy.species_name} L{enemy.level}" in line]
        assert enemy_lines
        for line in enemy_lines:
            after = line.split(f"{enemy.species_name} L{enemy.level}", 1)[1]
            numbers = re.findall(r"\d+%?", after)
            assert numbers and numbers[0].endswith("%"), line  # HP as the bar's percentage
            assert str(enemy.hp) not in [n.rstrip("%") for n in numbers if not n.endswith("%")], line


def test_a_wild_enemy_at_partial_hp_shows_the_bar() -> None:
    _, user = tactical(fixture_state("red_wild_use_next_mon_prompt"), recent=())
    assert "SPEAROW L10, HP 85% (the HP bar; exact HP unseen)" in user  # 25 of 29 HP: 41 of 48 pixels


def test_only_the_last_eight_choices_are_shown() -> None:
    recent = [f"choice {n}" for n in range(12)]
    _, user = tactical(fixture_state("red_wild_main_menu"), recent=recent)
    assert "choice 3" not in user and "choice 4" in user and "choice 11" in user


def test_notes_for_moves_switches_and_items() -> None:
    state = with_bag(fixture_state("red_wild_enemy_paralyzed"))
    legal = legal_actions(state)
    options = {o.label: o for o in action_options(state, legal)}
    assert [o.label for o in action_options(state, legal)] == [describe(a, state) for a in legal]
    assert options["use QUICK_ATTACK"].note.startswith("NORMAL, power 40, PP 30, ~")
    assert "% KO chance, search: " in options["use QUICK_ATTACK"].note
    assert re.search(r"search: [<>]?\d+% to win the battle", options["use THUNDERSHOCK"].note)
    assert "not very effective" in options["use THUNDERSHOCK"].note
    assert options["use GROWL"].note.startswith("NORMAL, status move, PP 40, search: ")
    assert options["use POTION on PIKACHU"].note.startswith(
        "POTION, PIKACHU HP 23/28 → 28/28, 3 in the bag, search: "
    )
    assert options["throw POKE_BALL"].note == "POKE_BALL, 5 in the bag"
    assert options["run"].note == ""
    kinds = {type(a) for a in legal}
    assert {UseMove, UseItem} <= kinds
    (switch,) = action_options(fixture_state("red_brock_active_slot1"), [SwitchTo(slot=0)])
    assert (switch.id, switch.label) == (0, "switch to PIKACHU")
    assert switch.note.startswith("PIKACHU L12, HP 34/34, type ELECTRIC, search: ")
    send = action_options(fixture_state("red_brock_bring_out_which"), [SendNext(slot=1)])
    assert send[0].note.startswith("WARTORTLE L")


def test_reflection_shows_the_last_sixty_decisions() -> None:
    _, user = render_reflection(small_log(decisions=63))
    assert "(the first 3 of 63 are left out)" in user
    numbered = re.findall(r"^  (\d+)\. \[", user, re.MULTILINE)
    assert numbered[0] == "4" and numbered[-1] == "63" and len(numbered) == 60


def test_strategy_in_the_overworld_names_the_place() -> None:
    _, user = render_strategy(fixture_state("red_pallet_town_overworld"), _event(), None)
    assert "On PALLET_TOWN at x 5, y 6" in user
    assert "  none yet" in user


def _event() -> GameEvent:
    return GameEvent(name=EventName.BATTLE_START, frame=1, detail="test")
