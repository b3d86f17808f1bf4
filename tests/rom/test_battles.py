"""Real battles, played to the end by the closed-loop executor: every scenario of the catalogue
(tests/support/battle_scenarios.py) reaches its expected outcome, and some have further checks."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from engine.battles.models import BattleLog
from engine.config import config_from_mapping
from engine.emulator.session import EmulatorSession
from engine.game.actions import BattleAction, Run, SendNext, UseItem, UseMove, legal_actions
from engine.game.models import DecisionPoint, Evolution, GameState
from engine.layout import RunPaths
from engine.mechanics.battle_driver import Chosen, DriveOptions, Halt, by_policy, drive_battle
from engine.mechanics.executor import BattleExecutor
from engine.mechanics.role import EmulatorRole
from engine.runtime.local import run_local
from engine.runtime.options import RunOptions
from engine.tactician.rule_based import RuleBasedPolicy
from engine.tactician.tactician import evolution_wanted
from tests.support.battle_scenarios import (
    POTION_SCENARIO_HP,
    SCENARIOS,
    ZERO_PP_SLOT,
    BattleScenario,
    ScenarioRun,
    run_scenario,
)
from tests.support.scenarios import (
    enemy_party_hp,
    set_bag,
    set_move_pp,
    set_party,
    set_party_hp,
    start_battle,
    state_of,
)

pytestmark = pytest.mark.rom


def actions(run: ScenarioRun) -> list[str]:
    return [record.action for record in run.decisions]


def bag_count(game: EmulatorSession, item: str) -> int:
    return sum(entry.quantity for entry in state_of(game).bag if entry.name == item)


def check_wild(game: EmulatorSession, run: ScenarioRun) -> None:
    assert (run.summary.battle_type, run.summary.opponent) == ("wild", "RATTATA")


def check_trainer(trainer: str) -> Callable[[EmulatorSession, ScenarioRun], None]:
    def check(game: EmulatorSession, run: ScenarioRun) -> None:
        assert (run.summary.battle_type, run.summary.opponent) == ("trainer", trainer)

    return check


def check_switch_first(game: EmulatorSession, run: ScenarioRun) -> None:
    assert actions(run)[0] == "switch to SQUIRTLE"


def check_next_member(game: EmulatorSession, run: ScenarioRun) -> None:
    assert "send out WARTORTLE" in actions(run)


def check_learned(game: EmulatorSession, run: ScenarioRun) -> None:
    learned = [r for r in run.decisions if r.point is DecisionPoint.LEARN_MOVE_PROMPT]
    assert len(learned) == 1 and learned[0].action.startswith("forget move")
    moves = [m.name for m in state_of(game).party[0].moves]
    assert "BUBBLE" in moves and "TACKLE" in moves


def check_evolved(game: EmulatorSession, run: ScenarioRun) -> None:
    assert "let it evolve" in actions(run)
    assert state_of(game).party[0].species_name == "CHARMELEON"


def check_all_members_beaten(game: EmulatorSession, run: ScenarioRun) -> None:
    assert run.summary.opponent == "BUG_CATCHER #5"
    assert enemy_party_hp(game) == [0, 0, 0, 0]


def check_empty_move_never_offered(game: EmulatorSession, run: ScenarioRun) -> None:
    empty = UseMove(slot=ZERO_PP_SLOT)
    menus = [c for c in run.choices if c.point is DecisionPoint.BATTLE_MAIN_MENU]
    assert menus and all(empty not in c.legal and c.action != empty for c in menus)
    assert state_of(game).party[0].moves[ZERO_PP_SLOT].pp == 0


def check_potion_used(game: EmulatorSession, run: ScenarioRun) -> None:
    assert actions(run)[0] == "use POTION on SQUIRTLE"
    assert bag_count(game, "POTION") < 3  # three in the bag before the battle
    assert state_of(game).party[0].hp > POTION_SCENARIO_HP


def check_caught(game: EmulatorSession, run: ScenarioRun) -> None:
    assert run.summary.caught == "RATTATA"
    assert [m.species_name for m in state_of(game).party] == ["SQUIRTLE", "RATTATA"]
    assert bag_count(game, "POKE_BALL") == 4


def check_ran(game: EmulatorSession, run: ScenarioRun) -> None:
    assert actions(run) == ["run"] and run.summary.caught is None


CHECKS: dict[str, Callable[[EmulatorSession, ScenarioRun], None]] = {
    "wild_rattata": check_wild,
    "brock": check_trainer("BROCK #1"),
    "misty": check_trainer("MISTY #1"),
    "lt_surge": check_trainer("LT_SURGE #1"),
    "lead_switches_out": check_switch_first,
    "faint_then_next": check_next_member,
    "learn_move": check_learned,
    "evolution": check_evolved,
    "bug_catcher_four": check_all_members_beaten,
    "zero_pp": check_empty_move_never_offered,
    "potion_in_danger": check_potion_used,
    "catch_with_ball": check_caught,
    "run_from_wild": check_ran,
}


def test_the_catalogue_has_the_required_battles() -> None:
    assert len(SCENARIOS) >= 12
    assert len({s.name for s in SCENARIOS}) == len(SCENARIOS)
    assert {s.expected for s in SCENARIOS} == {"victory", "flee", "defeat"}


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.name for s in SCENARIOS])
def test_battle_scenario(game: EmulatorSession, scenario: BattleScenario) -> None:
    run = run_scenario(game, scenario)
    assert run.summary.outcome == scenario.expected, actions(run)
    after = state_of(game)
    assert after.battle is None and after.decision_point is DecisionPoint.OVERWORLD_FREE
    check = CHECKS.get(scenario.name)
    if check is not None:
        check(game, run)


def test_an_item_the_game_refuses_brings_back_the_battle_menu(game: EmulatorSession) -> None:
    """Not offered by legal_actions (no effect at full HP), but the executor must not get stuck on it:
    "It won't have any effect." reopens the bag, which is closed again."""
    set_party(game, [("SQUIRTLE", 10)])
    set_bag(game, [("POTION", 2)])
    start_battle(game, "RATTATA", 3)
    executor = BattleExecutor(game)
    assert executor.advance().decision_point is DecisionPoint.BATTLE_MAIN_MENU
    state = executor.execute(UseItem(item="POTION", target=0))
    assert state.decision_point is DecisionPoint.BATTLE_MAIN_MENU
    assert bag_count(game, "POTION") == 2


@pytest.mark.parametrize("item", ["X_ATTACK", "X_DEFEND", "X_SPEED", "X_SPECIAL"])
def test_an_x_item_raises_the_stage_of_the_member_in_front(game: EmulatorSession, item: str) -> None:
    set_party(game, [("ALAKAZAM", 30)])
    set_bag(game, [(item, 2)])
    start_battle(game, "RATTATA", 3)
    executor = BattleExecutor(game)
    state = executor.advance()
    assert UseItem(item=item) in legal_actions(state)
    after = executor.execute(UseItem(item=item))
    stage = ("X_ATTACK", "X_DEFEND", "X_SPEED", "X_SPECIAL").index(item)
    assert after.battle is not None and after.battle.player_side.stages[stage] == 1
    assert bag_count(game, item) == 1


# wPlayerBattleStatus2's bits (pret constants/battle_constants.asm): USING_X_ACCURACY, PROTECTED_BY_MIST,
# GETTING_PUMPED.
@pytest.mark.parametrize(("item", "bit"), [("X_ACCURACY", 0), ("GUARD_SPEC", 1), ("DIRE_HIT", 2)])
def test_a_flag_item_sets_its_bit_and_is_offered_once(game: EmulatorSession, item: str, bit: int) -> None:
    set_party(game, [("NIDOKING", 40)])
    set_bag(game, [(item, 2)])
    start_battle(game, "RATTATA", 3)
    executor = BattleExecutor(game)
    assert UseItem(item=item) in legal_actions(executor.advance())
    after = executor.execute(UseItem(item=item))
    assert after.battle is not None and after.battle.player_side.status2 >> bit & 1
    assert bag_count(game, item) == 1
    assert UseItem(item=item) not in legal_actions(after)  # set already: a second would change nothing


@pytest.mark.parametrize(
    ("item", "move", "expected"),
    [("ETHER", 2, (35, 3, 10)), ("MAX_ETHER", 2, (35, 3, 25)), ("ELIXER", None, (35, 13, 10)),
     ("MAX_ELIXER", None, (35, 30, 25))],
)  # fmt: skip
def test_a_pp_item_restores_the_moves_it_names(
    game: EmulatorSession, item: str, move: int | None, expected: tuple[int, int, int]
) -> None:
    """ETHER and MAX ETHER ask which move on the member's move list (the executor takes the cursor there);
    ELIXER and MAX ELIXER restore all of them. RAM's PP say what the game did."""
    set_party(game, [("SQUIRTLE", 20, ["TACKLE", "BUBBLE", "WATER_GUN"])])
    set_move_pp(game, 0, 1, 3)
    set_move_pp(game, 0, 2, 0)
    set_bag(game, [(item, 1)])
    start_battle(game, "RATTATA", 3)
    executor = BattleExecutor(game)
    action = UseItem(item=item, target=0, move=move)
    assert action in legal_actions(executor.advance())
    executor.execute(action)
    assert tuple(m.pp for m in state_of(game).party[0].moves) == expected
    assert bag_count(game, item) == 0


def test_a_revive_brings_a_fainted_member_back_at_half_its_hp(game: EmulatorSession) -> None:
    set_party(game, [("RATTATA", 20), ("PIKACHU", 20)])
    set_party_hp(game, 1, 0)
    set_bag(game, [("REVIVE", 1)])
    start_battle(game, "PIDGEY", 3)
    executor = BattleExecutor(game)
    state = executor.advance()
    assert UseItem(item="REVIVE", target=1) in legal_actions(state)
    executor.execute(UseItem(item="REVIVE", target=1))
    pikachu = state_of(game).party[1]
    assert pikachu.hp == pikachu.max_hp // 2 and bag_count(game, "REVIVE") == 0


SLEEP_TURNS = 3  # the status byte's sleep counter
TRAPPING = 1 << 5  # USING_TRAPPING_MOVE in wEnemyBattleStatus1 (pret constants/battle_constants.asm)
ENEMY_ATTACKS_LEFT = 0xD06F  # wEnemyNumAttacksLeft (pret ram/wram.asm)


@pytest.mark.parametrize("condition", ["asleep", "wrapped"])
def test_fight_goes_straight_to_the_turn_when_no_move_can_be_chosen(
    game: EmulatorSession, condition: str
) -> None:
    """Asleep, or caught in the enemy's WRAP, FIGHT opens no move menu: the game plays the turn at once,
    and the executor must take that as the move done."""
    set_party(game, [("SQUIRTLE", 20)])
    start_battle(game, "RATTATA", 3)
    executor = BattleExecutor(game)
    assert executor.advance().decision_point is DecisionPoint.BATTLE_MAIN_MENU
    ram = game.ram_map
    if condition == "asleep":
        game.write_u8(ram.wBattleMon + ram.battle.status, SLEEP_TURNS)
    else:
        game.write_u8(ram.wEnemyBattleStatus1, TRAPPING)
        game.write_u8(ENEMY_ATTACKS_LEFT, 2)
    state = executor.execute(UseMove(slot=0))
    text = " ".join(executor.take_battle_text())
    assert state.battle is None or state.decision_point is not DecisionPoint.BATTLE_MOVE_MENU
    assert ("asleep" in text) if condition == "asleep" else ("attack cont" in text), text


def test_rage_plays_turn_after_turn_without_a_menu_to_the_end(game: EmulatorSession) -> None:
    """Once RAGE is used the game plays every later turn by itself (pret engine/battle/core.asm
    MainInBattleLoop skips the menu): one action, then many turns of text, to the battle's end."""
    set_party(game, [("CHARMANDER", 12, ["RAGE"])])
    start_battle(game, "GEODUDE", 14)
    executor = BattleExecutor(game)
    assert executor.advance().decision_point is DecisionPoint.BATTLE_MAIN_MENU
    state = executor.execute(UseMove(slot=0))
    assert state.decision_point is not DecisionPoint.BATTLE_MAIN_MENU  # no menu came back
    assert state.battle is None or state.decision_point is DecisionPoint.BATTLE_NEXT_MON_PROMPT


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.name for s in SCENARIOS])
def test_the_conductor_and_the_driver_play_a_scenario_on_the_same_frames(
    game: EmulatorSession, rom_path: Path, tmp_path: Path, scenario: BattleScenario
) -> None:
    """One battle step: the conductor (engine run --state, the rule-based tactician) and the driver the
    scenarios and the benchmark use make the same decisions on the same frames to the same outcome."""
    if scenario.policy is not RuleBasedPolicy:
        pytest.skip("the conductor's tactician plays the rule-based policy only")
    scenario.setup(game)
    start = tmp_path / "start.state"
    start.write_bytes(game.export_state())
    config = config_from_mapping({"memory": {"enabled": False}})
    paths = RunPaths(tmp_path / "data", "same-frames")
    paths.create()
    options = RunOptions(rom=rom_path, state=start, max_battles=1)
    summary = run_local(config, options, paths)
    (battle,) = summary.battles
    conducted = BattleLog.model_validate_json(paths.battle_log(battle.battle_id).read_text(encoding="utf-8"))
    emulator = EmulatorRole(rom_path, config.emulator, config.player)
    try:
        emulator.start(start.read_bytes())
        drive = DriveOptions(battle_id="driven", run_id="driven", max_decisions=scenario.max_decisions)
        driven = drive_battle(emulator, by_policy(RuleBasedPolicy()), drive)
    finally:
        emulator.close()
    assert driven.log is not None
    assert conducted.summary.outcome == driven.log.summary.outcome == scenario.expected
    assert [(r.action, r.frame) for r in conducted.decisions] == [
        (r.action, r.frame) for r in driven.log.decisions
    ]
    assert conducted.summary.frames == driven.log.summary.frames


def test_a_species_the_config_keeps_unevolved_stays_as_it_is(game: EmulatorSession) -> None:
    """The evolution scenario with CHARMANDER kept: the evolution is stopped with B during its
    animation, and the member levels up without changing species."""
    scenario = next(s for s in SCENARIOS if s.name == "evolution")
    scenario.setup(game)
    policy, keep = RuleBasedPolicy(), frozenset({"CHARMANDER"})
    seen: list[Evolution | None] = []

    def pick(index: int, state: GameState, legal: list[BattleAction]) -> Chosen | Halt:
        if state.decision_point is DecisionPoint.EVOLUTION:
            seen.append(state.evolution)
        decision = policy.decide(state, evolution_wanted(state, legal, keep))
        return Halt("no choice") if decision is None else Chosen(decision.action, decision.reason)

    options = DriveOptions(battle_id="scenario-kept", run_id="scenarios", max_decisions=200)
    driven = drive_battle(EmulatorRole.on_session(game), pick, options)
    assert driven.log is not None and driven.log.summary.outcome == "victory"
    assert seen and seen[0] == Evolution(species="CHARMANDER", into="CHARMELEON")
    member = state_of(game).party[0]
    assert member.species_name == "CHARMANDER" and member.level >= 16
    assert "stop the evolution" in [record.action for record in driven.log.decisions]


POISONED = 0b1000  # the status byte's PSN bit


def test_no_on_use_next_is_answered_once_and_the_escape_waited_for(game: EmulatorSession) -> None:
    """NO on "Use next POKéMON?" tries to run; the box stays drawn while the game weighs the escape, and a
    look then took it for the question again: a run answered it twice and stopped with "never reached
    battle_next_mon_prompt" (a poisoned member fainting at the end of its turn, as here)."""
    start = game.save_state()
    asked = 0
    for enemy, level in (("MACHOP", 15), ("GEODUDE", 12)):
        game.load_state(start)
        party = [("WARTORTLE", 20, ["TACKLE"]), ("PIDGEY", 12), ("RATTATA", 10)]
        escaped = _no_at_use_next(game, party, enemy, level, poisoned=True)
        asked += escaped is not None
    assert asked > 0


# Foes each by another margin faster or slower than a RATTATA of L3: the escape's draw goes either way.
FOES = (("MACHOP", 30), ("ELECTRODE", 50), ("GEODUDE", 8), ("RHYHORN", 30), ("GRAVELER", 25), ("MACHOP", 10))


def test_after_a_failed_escape_a_member_is_brought_out_and_running_is_not_offered(
    game: EmulatorSession,
) -> None:
    """After "Can't escape!" the game asks which member comes out (pret engine/battle/core.asm
    HandlePlayerMonFainted: ChooseNextMon): running is no longer offered there. Foes are tried until one
    escape has failed."""
    start = game.save_state()
    for enemy, level in FOES:
        game.load_state(start)
        if _no_at_use_next(game, [("RATTATA", 3, ["TACKLE"]), ("PIDGEY", 12)], enemy, level) is False:
            return
    pytest.fail(f"every escape succeeded among {FOES}")


def _no_at_use_next(
    game: EmulatorSession,
    party: list[tuple[str, int, list[str]]],
    enemy: str,
    level: int,
    poisoned: bool = False,
) -> bool | None:
    """NO at "Use next POKéMON?" once the front member (at 1 HP) faints: whether it got away (None: the
    battle never asked). Checks the box is gone once the executor is done, and what follows a failure."""
    set_party(game, party)
    set_party_hp(game, 0, 1)
    if poisoned:
        game.write_u8(game.ram_map.wPartyMon1 + game.ram_map.party.status, POISONED)
    start_battle(game, enemy, level)
    executor = BattleExecutor(game)
    state = executor.advance()
    for _ in range(5):  # until the front member faints
        if state.decision_point is not DecisionPoint.BATTLE_MAIN_MENU:
            break
        executor.execute(UseMove(slot=0))
        state = executor.advance()
    if state.decision_point is not DecisionPoint.BATTLE_NEXT_MON_PROMPT:
        return None
    assert any("Use next" in line for line in state.screen.text) and Run() in legal_actions(state)
    after = executor.execute(Run())
    assert not any("Use next" in line for line in after.screen.text), after.screen.text
    state = executor.advance()
    if state.battle is None:
        return True
    assert state.decision_point is DecisionPoint.BATTLE_NEXT_MON_PROMPT
    assert legal_actions(state) == [SendNext(slot=1)]  # "Bring out which POKéMON?"
    assert executor.execute(SendNext(slot=1)).party[1].hp > 0
    assert executor.advance().decision_point is DecisionPoint.BATTLE_MAIN_MENU
    return False
