"""A catalogue of battle scenarios on a real cartridge: party, opponent, policy and the expected outcome.

The ROM tests play every scenario (tests/rom/test_battles.py); a benchmark can run the same catalogue
with `run_scenario` and compare frames and outcomes. Each setup starts from the bedroom in the overworld
(after `boot_to_overworld`) and leaves the game at the start of the battle, or at its first menu.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from engine.battles.models import BattleLog, BattleSummary, DecisionRecord, Outcome
from engine.battles.policy import Decision, Policy
from engine.emulator.session import EmulatorSession
from engine.game.actions import BattleAction, Run, UseItem, UseMove, legal_actions
from engine.game.models import DecisionPoint, GameState
from engine.mechanics.battle_driver import DriveOptions, by_policy, drive_battle
from engine.mechanics.role import EmulatorRole
from engine.tactician.rule_based import ActionDecision, RuleBasedPolicy
from tests.support.scenarios import (
    advance_to,
    set_bag,
    set_enemy_hp,
    set_move_pp,
    set_party,
    set_party_exp,
    set_party_hp,
    start_battle,
)

# Medium-slow growth (pret data/growth_rates.asm): 6/5·n³ − 15·n² + 100·n − 140 EXP at level n.
SQUIRTLE_EXP_FOR_LEVEL_8 = 314
CHARMANDER_EXP_PAST_LEVEL_16 = 4096  # level 16 needs 3,963: the first win levels up and evolves


class PreferPolicy:
    """Takes the first legal action `prefer` accepts; otherwise asks the rule-based policy. For
    scenarios that force a choice the default policy would not make (throwing a ball, running)."""

    def __init__(self, prefer: Callable[[BattleAction], bool], label: str) -> None:
        self.prefer = prefer
        self.label = label
        self.fallback = RuleBasedPolicy()

    def decide(self, state: GameState, legal: list[BattleAction] | None = None) -> ActionDecision | None:
        legal = legal_actions(state) if legal is None else legal
        chosen = next((action for action in legal if self.prefer(action)), None)
        if chosen is not None:
            return ActionDecision(action=chosen, reason=f"scenario policy: {self.label}")
        return self.fallback.decide(state, legal)


def throw_poke_balls() -> Policy:
    return PreferPolicy(lambda a: isinstance(a, UseItem) and a.item == "POKE_BALL", "throw a POKé BALL")


def always_run() -> Policy:
    return PreferPolicy(lambda a: isinstance(a, Run), "run")


class AttackUntilFaint:
    """The lead attacks with its first move until it faints (at 1 HP it soon does); from then on the default
    policy plays, starting with the game's "bring out which?" (the search would switch the weak lead out
    at once, and the faint would never come)."""

    def __init__(self) -> None:
        self.fainted = False
        self.default = RuleBasedPolicy()

    def decide(self, state: GameState, legal: list[BattleAction] | None = None) -> ActionDecision | None:
        legal = legal_actions(state) if legal is None else legal
        self.fainted = self.fainted or state.decision_point is DecisionPoint.BATTLE_NEXT_MON_PROMPT
        attack = next((a for a in legal if isinstance(a, UseMove)), None)
        if attack is not None and not self.fainted:
            return ActionDecision(action=attack, reason="scenario policy: attack until the lead faints")
        return self.default.decide(state, legal)


def attack_then_default() -> Policy:
    return AttackUntilFaint()


@dataclass(frozen=True)
class Choice:
    """One decision as the policy saw it: the point, every legal action, the one taken."""

    point: DecisionPoint
    legal: tuple[BattleAction, ...]
    action: BattleAction


class RecordingPolicy:
    """Wraps a policy and keeps what it was offered and what it chose."""

    def __init__(self, inner: Policy) -> None:
        self.inner = inner
        self.choices: list[Choice] = []

    def decide(self, state: GameState, legal: list[BattleAction] | None = None) -> Decision | None:
        legal = legal_actions(state) if legal is None else legal
        decision = self.inner.decide(state, legal)
        if decision is not None:
            self.choices.append(Choice(state.decision_point, tuple(legal), decision.action))
        return decision


@dataclass(frozen=True)
class BattleScenario:
    name: str
    description: str
    setup: Callable[[EmulatorSession], None]
    expected: Outcome
    policy: Callable[[], Policy] = field(default=RuleBasedPolicy)
    max_decisions: int = 200


@dataclass(frozen=True)
class ScenarioRun:
    log: BattleLog
    choices: tuple[Choice, ...]
    looks: int  # the executor's full decodes of the game state

    @property
    def summary(self) -> BattleSummary:
        return self.log.summary

    @property
    def decisions(self) -> tuple[DecisionRecord, ...]:
        return self.log.decisions


def run_scenario(session: EmulatorSession, scenario: BattleScenario) -> ScenarioRun:
    """Set the scenario up on a session in the overworld and play the battle to its end, with the battle
    steps the conductor plays."""
    scenario.setup(session)
    policy = RecordingPolicy(scenario.policy())
    emulator = EmulatorRole.on_session(session)
    options = DriveOptions(battle_id=f"scenario-{scenario.name}", run_id="scenarios",
                           max_decisions=scenario.max_decisions)  # fmt: skip
    driven = drive_battle(emulator, by_policy(policy), options)
    assert driven.log is not None, driven.halted
    return ScenarioRun(log=driven.log, choices=tuple(policy.choices), looks=emulator.executor.looks)


# -- setups ----------------------------------------------------------------------------------------
def _wild_rattata(session: EmulatorSession) -> None:
    set_party(session, [("SQUIRTLE", 8)])
    start_battle(session, "RATTATA", 6)


def _brock(session: EmulatorSession) -> None:
    set_party(session, [("SQUIRTLE", 13)])
    start_battle(session, "BROCK", 1)


def _misty(session: EmulatorSession) -> None:
    set_party(session, [("IVYSAUR", 24), ("PIKACHU", 22)])
    start_battle(session, "MISTY", 1)


def _lt_surge(session: EmulatorSession) -> None:
    # Ground types shrug off VOLTORB's, PIKACHU's and RAICHU's electric moves.
    set_party(session, [("DUGTRIO", 30), ("SANDSLASH", 28)])
    start_battle(session, "LT_SURGE", 1)


def _lead_switches_out(session: EmulatorSession) -> None:
    set_party(session, [("PIKACHU", 14), ("SQUIRTLE", 14)])
    start_battle(session, "BROCK", 1)


def _faint_then_next(session: EmulatorSession) -> None:
    set_party(session, [("RATTATA", 4), ("WARTORTLE", 20)])
    set_party_hp(session, 0, 1)
    start_battle(session, "PIDGEY", 12)


def _learn_move(session: EmulatorSession) -> None:
    set_party(session, [("SQUIRTLE", 7, ["TACKLE", "TAIL_WHIP", "GROWL", "LEER"])])
    set_party_exp(session, 0, SQUIRTLE_EXP_FOR_LEVEL_8 - 1)
    start_battle(session, "RATTATA", 3)


def _evolution(session: EmulatorSession) -> None:
    set_party(session, [("CHARMANDER", 15)])
    set_party_exp(session, 0, CHARMANDER_EXP_PAST_LEVEL_16)
    start_battle(session, "PIDGEY", 3)


def _bug_catcher_four(session: EmulatorSession) -> None:
    # BUG_CATCHER #5 (Viridian Forest): WEEDLE, KAKUNA, CATERPIE, METAPOD, all level 9.
    set_party(session, [("CHARMANDER", 14)])
    start_battle(session, "BUG_CATCHER", 5)


ZERO_PP_SLOT = 3  # WATER_GUN, the strongest move: empty, so BUBBLE has to do


def _zero_pp(session: EmulatorSession) -> None:
    set_party(session, [("SQUIRTLE", 14, ["TACKLE", "TAIL_WHIP", "BUBBLE", "WATER_GUN"])])
    set_move_pp(session, 0, ZERO_PP_SLOT, 0)
    start_battle(session, "BROCK", 1)


POTION_SCENARIO_HP = 4
POTION_SCENARIO_BAG = [
    ("REPEL", 1),
    ("ANTIDOTE", 1),
    ("ESCAPE_ROPE", 1),
    ("TOWN_MAP", 1),
    ("POKE_BALL", 2),
    ("POTION", 3),
    ("SUPER_POTION", 1),
]


def _potion_in_danger(session: EmulatorSession) -> None:
    # Four HP left against a RATTATA whose TACKLE knocks that out; a POTION (+20) outlasts its hits.
    # The POTIONs are sixth in the bag: the list has to scroll to reach them.
    set_party(session, [("SQUIRTLE", 12)])
    set_party_hp(session, 0, POTION_SCENARIO_HP)
    set_bag(session, POTION_SCENARIO_BAG)
    start_battle(session, "RATTATA", 8)


def _catch(session: EmulatorSession) -> None:
    # RATTATA's catch rate is 255: at 1 HP a POKé BALL always holds (ItemUseBall's second test passes
    # whenever MaxHP·255/12 / max(HP/4, 1) exceeds 255).
    set_party(session, [("SQUIRTLE", 10)])
    set_bag(session, [("POTION", 1), ("POKE_BALL", 5)])
    start_battle(session, "RATTATA", 3)
    advance_to(session, {DecisionPoint.BATTLE_MAIN_MENU})
    set_enemy_hp(session, 1)


def _run_from_wild(session: EmulatorSession) -> None:
    # Faster than the enemy: the escape always succeeds (pret engine/battle/core.asm TryRunningFromBattle).
    set_party(session, [("PIDGEOTTO", 20)])
    start_battle(session, "RATTATA", 3)


def _hopeless(session: EmulatorSession) -> None:
    set_party(session, [("CATERPIE", 3)])
    start_battle(session, "PRIMEAPE", 40)


SCENARIOS: tuple[BattleScenario, ...] = (
    BattleScenario("wild_rattata", "SQUIRTLE L8 vs a wild RATTATA L6", _wild_rattata, "victory"),
    BattleScenario("brock", "SQUIRTLE L13 vs BROCK", _brock, "victory"),
    BattleScenario("misty", "IVYSAUR L24 and PIKACHU L22 vs MISTY", _misty, "victory"),
    BattleScenario("lt_surge", "DUGTRIO L30 and SANDSLASH L28 vs LT_SURGE", _lt_surge, "victory"),
    BattleScenario(
        "lead_switches_out",
        "PIKACHU L14 leads against BROCK, SQUIRTLE L14 waits",
        _lead_switches_out,
        "victory",
    ),
    BattleScenario(
        "faint_then_next",
        "RATTATA L4 at 1 HP attacks and faints, then WARTORTLE L20, vs PIDGEY L12",
        _faint_then_next,
        "victory",
        policy=attack_then_default,
    ),
    BattleScenario("learn_move", "SQUIRTLE L7 one EXP short of L8 and BUBBLE", _learn_move, "victory"),
    BattleScenario("evolution", "CHARMANDER L15 about to reach L16 and evolve", _evolution, "victory"),
    BattleScenario(
        "bug_catcher_four", "CHARMANDER L14 vs BUG_CATCHER #5's four bugs", _bug_catcher_four, "victory"
    ),
    BattleScenario("zero_pp", "SQUIRTLE L14 with WATER_GUN at 0 PP vs BROCK", _zero_pp, "victory"),
    BattleScenario(
        "potion_in_danger", "SQUIRTLE L12 at 4 HP with POTIONs vs RATTATA L8", _potion_in_danger, "victory"
    ),
    BattleScenario(
        "catch_with_ball",
        "POKé BALLs at a 1-HP wild RATTATA; a catch ends the battle as an escape does",
        _catch,
        "flee",
        policy=throw_poke_balls,
    ),
    BattleScenario(
        "run_from_wild", "PIDGEOTTO L20 runs from a wild RATTATA", _run_from_wild, "flee", policy=always_run
    ),
    BattleScenario("hopeless", "CATERPIE L3 vs a wild PRIMEAPE L40", _hopeless, "defeat"),
)


def scenario(name: str) -> BattleScenario:
    return next(s for s in SCENARIOS if s.name == name)
