"""Battle strength: the search against the one-turn policy against a max-damage bot, on the same draws.

    .venv/bin/python -m benchmarks.strength --rom ROM [--draws 3] [--only NAME ...]

Every battle of the ROM test catalogue that is fought (tests/support/battle_scenarios.py)
and every battle-strength scenario (tests/support/strength_scenarios.py), each from several draws: the
game's random numbers move with the frames waited before the battle starts, and all three policies play
each draw from the same state. Prints per scenario the wins of each policy; the search's decision time
(p50/p95, as `decide` takes it) and the wall time per battle; how well `win_probability`, asked at the
first decision of each battle the search played, predicted the outcome (predicted against observed win
rate in bins, and the Brier score); and every draw the one-turn policy won and the search lost. Run from
the repository root (the scenarios live in tests/support/).
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks.policies import MaxDamagePolicy
from engine.battles.policy import Decision, Policy
from engine.combat.judge import win_probability
from engine.combat.position import duel_of
from engine.emulator.session import EmulatorSession
from engine.game.actions import BattleAction
from engine.game.assessment import Fairness
from engine.game.models import DecisionPoint, GameState
from engine.mechanics.battle_driver import DriveOptions, by_policy, drive_battle
from engine.mechanics.intro import set_fast_options
from engine.mechanics.role import EmulatorRole
from engine.tactician.rule_based import RuleBasedPolicy
from tests.support.battle_scenarios import SCENARIOS
from tests.support.scenarios import boot_to_overworld
from tests.support.strength_scenarios import STRENGTH_SCENARIOS

FRAMES_PER_DRAW = 37
POLICIES = ("search", "one_turn", "max_damage")
BINS = (0.0, 0.2, 0.4, 0.6, 0.8, 1.0001)
MENUS = (DecisionPoint.BATTLE_MAIN_MENU, DecisionPoint.BATTLE_MOVE_MENU)


@dataclass
class Timed:
    """Times every decision at a battle menu, and keeps the first such state."""

    inner: Policy
    times: list[float] = field(default_factory=list)
    first: GameState | None = None

    def decide(self, state: GameState, legal: list[BattleAction] | None = None) -> Decision | None:
        if state.decision_point in MENUS and self.first is None:
            self.first = state
        start = time.perf_counter()
        decision = self.inner.decide(state, legal)
        if state.decision_point in MENUS:
            self.times.append(time.perf_counter() - start)
        return decision


@dataclass(frozen=True)
class Played:
    scenario: str
    draw: int
    policy: str
    won: bool
    wall: float
    predicted: float | None


MAKERS: dict[str, Callable[[], Policy]] = {
    "search": RuleBasedPolicy,
    "one_turn": lambda: RuleBasedPolicy(lookahead=False),
    "max_damage": MaxDamagePolicy,
}


def scenarios() -> list[tuple[str, Callable[[EmulatorSession], None]]]:
    # The catalogue's battles to be fought (not the ball and running ones); each policy plays them itself.
    catalogue = [(s.name, s.setup) for s in SCENARIOS if s.expected != "flee"]
    return catalogue + [(s.name, s.setup) for s in STRENGTH_SCENARIOS]


def play(
    session: EmulatorSession,
    base: bytes,
    name: str,
    setup: Callable[[EmulatorSession], None],
    draw: int,
    policy: str,
) -> tuple[Played, list[float]]:
    session.load_state(base)
    session.tick(1 + draw * FRAMES_PER_DRAW)
    setup(session)
    timed = Timed(MAKERS[policy]())
    start = time.perf_counter()
    driven = drive_battle(
        EmulatorRole.on_session(session), by_policy(timed), DriveOptions(battle_id=name, run_id="strength")
    )
    wall = time.perf_counter() - start
    won = driven.log is not None and driven.log.summary.outcome == "victory"
    predicted = None
    if policy == "search" and timed.first is not None:
        duel = duel_of(timed.first, Fairness.VISIBLE_ONLY)
        predicted = win_probability(duel) if duel is not None else None
    return Played(name, draw, policy, won, wall, predicted), timed.times


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def report(game: str, played: list[Played], times: dict[str, list[float]], draws: int) -> None:
    names = list(dict.fromkeys(p.scenario for p in played))
    print(f"\n{game}: wins out of {draws} draws")
    print(f"{'scenario':<36}" + "".join(f"{p:>12}" for p in POLICIES) + f"{'predicted':>11}")
    for name in names:
        wins = [sum(p.won for p in played if p.scenario == name and p.policy == pol) for pol in POLICIES]
        guesses = [p.predicted for p in played if p.scenario == name and p.predicted is not None]
        guess = f"{statistics.fmean(guesses):>11.2f}" if guesses else f"{'':>11}"
        print(f"{name:<36}" + "".join(f"{w:>12}" for w in wins) + guess)
    totals = [sum(p.won for p in played if p.policy == pol) for pol in POLICIES]
    battles = len(played) // len(POLICIES)
    print(f"{'total':<36}" + "".join(f"{t:>9}/{battles}" for t in totals))
    for pol in POLICIES:
        walls = [p.wall for p in played if p.policy == pol]
        print(
            f"{pol}: decision p50 {1000 * _percentile(times[pol], 0.5):.1f} ms, "
            f"p95 {1000 * _percentile(times[pol], 0.95):.1f} ms over {len(times[pol])}; "
            f"battle wall median {statistics.median(walls):.2f} s"
        )
    lost = [(p.scenario, p.draw) for p in played if p.policy == "one_turn" and p.won]
    searched = {(p.scenario, p.draw): p.won for p in played if p.policy == "search"}
    regressions = [key for key in lost if not searched.get(key, False)]
    print(f"won by one_turn, lost by search: {regressions or 'none'}")
    _calibration([p for p in played if p.predicted is not None])


def _calibration(played: list[Played]) -> None:
    print("win_probability at the first decision against the search's outcomes:")
    print(f"{'predicted':<14}{'battles':>9}{'mean predicted':>16}{'observed':>10}")
    for low, high in itertools.pairwise(BINS):
        group = [p for p in played if p.predicted is not None and low <= p.predicted < high]
        if not group:
            continue
        mean = statistics.fmean(p.predicted or 0.0 for p in group)
        observed = statistics.fmean(p.won for p in group)
        print(f"{low:.1f}-{min(high, 1.0):.1f}{'':<7}{len(group):>9}{mean:>16.2f}{observed:>10.2f}")
    brier = statistics.fmean(((p.predicted or 0.0) - p.won) ** 2 for p in played)
    print(f"Brier score {brier:.3f} over {len(played)} battles (0 is perfect, 0.25 a coin's)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rom", type=Path, required=True)
    parser.add_argument("--draws", type=int, default=3)
    parser.add_argument("--only", nargs="*", default=None, help="scenario names to play (default: all)")
    args = parser.parse_args(argv)
    chosen = [(n, s) for n, s in scenarios() if args.only is None or n in args.only]
    played: list[Played] = []
    times: dict[str, list[float]] = {p: [] for p in POLICIES}
    with EmulatorSession(args.rom) as session:
        boot_to_overworld(session)
        set_fast_options(session)
        base = session.save_state()
        for name, setup in chosen:
            for draw in range(args.draws):
                for policy in POLICIES:
                    result, taken = play(session, base, name, setup, draw, policy)
                    played.append(result)
                    times[policy] += taken
            wins = [sum(p.won for p in played if p.scenario == name and p.policy == pol) for pol in POLICIES]
            print(f"  {name}: {dict(zip(POLICIES, wins, strict=True))}", file=sys.stderr)
        report(session.game.value, played, times, args.draws)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
