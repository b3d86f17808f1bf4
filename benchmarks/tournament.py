"""Battle tournament: the search against simple baselines on the whole-game catalogue, paired draw by draw.

    .venv/bin/python -m benchmarks.tournament --rom ROM [--draws 4]
        [--policies search,one_turn,max_damage,first_move] [--category C ...] [--only NAME ...]
        [--from-run DATA_DIR ... [--wild]] [--logs DIR]
        [--workers 2] [--out results.jsonl] [--reuse results.jsonl] [--markdown]
    .venv/bin/python -m benchmarks.tournament --report results.jsonl [--markdown]

The catalogue is tests/support/catalogue.py (about 200 battles from Route 1 to the Champion, none from the
ROM tests). The game boots once to the overworld with fast options and that state is saved; a draw waits
a different number of frames before the set-up, so the game's random numbers differ from draw to draw,
and every policy plays exactly the same draw from the same state. `--logs DIR` keeps the search's battle
logs, for `benchmarks.ko_turns DIR`. The policies (benchmarks/policies.py):
`search` (the engine's default rule-based policy, with the battle search), `one_turn` (the same without
the search), `max_damage` (the strongest move, never a switch) and `first_move` (the first move, every
turn). `--from-run DATA_DIR` plays the battle starts a user's own `engine run` kept instead
(benchmarks/tournament_states.py): every trainer battle of the runs under DATA_DIR, by stage and kind.

Each (scenario, draw) cell is one task; `--workers N` plays the cells in N processes, each with its own
emulator, and prints a line on stderr as each cell is done. Every battle becomes one JSON line in `--out`
(written as it ends, so a run cut short keeps what it played): scenario, category, stage, draw, policy,
outcome, turns, frames, our HP share left, members fainted, the search's win_probability at its first
decision, and each decision's wall time in ms. `--reuse FILE` takes the baselines' results from an earlier
run when the ROM, the scenario (and its set-up) and the draw match: they do not change while the search
does. `--report FILE` prints the report of a results file without playing (see
benchmarks/tournament_report.py); `--markdown` prints it as markdown tables. Figures only: nothing here
passes or fails. Run from the repository root (the catalogue lives in tests/support/).
"""

from __future__ import annotations

import argparse
import atexit
import hashlib
import json
import multiprocessing
import sys
import time
import traceback
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from benchmarks.policies import MAKERS
from benchmarks.tournament_report import Key, Result, read_results, report, reusable
from benchmarks.tournament_states import RunBattle, category_of, run_battles
from engine.battles.policy import Decision, Policy
from engine.combat.judge import win_probability
from engine.combat.position import duel_of
from engine.emulator.session import EmulatorSession
from engine.files import write_bytes_atomic
from engine.game.actions import BattleAction
from engine.game.assessment import Fairness
from engine.game.models import DecisionPoint, GameState
from engine.mechanics.battle_driver import DrivenBattle, DriveOptions, by_policy, drive_battle
from engine.mechanics.intro import set_fast_options
from engine.mechanics.role import EmulatorRole
from tests.support.catalogue import CATALOGUE, CATEGORIES, CatalogueScenario
from tests.support.scenarios import boot_to_overworld, state_of

FRAMES_PER_DRAW = 37  # as benchmarks/strength.py: a prime, so draws do not fall into step with the game
MAX_DECISIONS = 400  # a six-against-six battle with struggling and switching stays well under this
POLICIES = ("search", "one_turn", "max_damage", "first_move")
MENUS = (DecisionPoint.BATTLE_MAIN_MENU, DecisionPoint.BATTLE_MOVE_MENU)


@dataclass
class Timed:
    """Times every decision, and keeps the first state at a battle menu (where the search first looks).
    With `forecasting`, also the win probability of every position at a battle menu (computed outside the
    timed part): each is a prediction of the battle's outcome, for the calibration table."""

    inner: Policy
    forecasting: bool = False
    milliseconds: list[float] = field(default_factory=list)
    forecasts: list[float] = field(default_factory=list)
    first: GameState | None = None

    def decide(self, state: GameState, legal: list[BattleAction] | None = None) -> Decision | None:
        if state.decision_point in MENUS:
            self.first = self.first or state
            chance = _predicted(state) if self.forecasting else None
            if chance is not None:
                self.forecasts.append(round(chance, 4))
        start = time.perf_counter()
        decision = self.inner.decide(state, legal)
        self.milliseconds.append(1000 * (time.perf_counter() - start))
        return decision


@dataclass(frozen=True)
class Cell:
    scenario: str
    draw: int
    policies: tuple[str, ...]  # the ones to play: the others were reused
    battle: RunBattle | None = None  # a run's kept battle start (--from-run); None: the catalogue's


Scenario = CatalogueScenario | RunBattle


@dataclass(frozen=True)
class Started:
    """What a cell's battle is, read once it is set up."""

    category: str
    stage: str
    party_size: int


def rom_id(rom: Path) -> str:
    return hashlib.sha256(rom.read_bytes()).hexdigest()[:12]


def _predicted(first: GameState | None) -> float | None:
    duel = duel_of(first, Fairness.VISIBLE_ONLY) if first is not None else None
    return win_probability(duel) if duel is not None else None


def _failed(error: Exception, decisions: int) -> Result:
    """An exception as a result: no outcome, and where it was raised."""
    where = traceback.extract_tb(error.__traceback__)[-1]
    place = f"{Path(where.filename).name}:{where.lineno} in {where.name}"
    message = f"{type(error).__name__}: {error} ({place})"
    return {"outcome": "error", "won": False, "turns": None, "decisions": decisions, "frames": None,
            "hp_left": None, "fainted": None, "error": message}  # fmt: skip


class Player:
    """One emulator, booted once, playing cells from its base state. With `logs`, the search's battle logs
    go to logs/runs/tournament/battles/ (where benchmarks.ko_turns reads them)."""

    def __init__(self, rom: Path, logs: Path | None = None) -> None:
        self.logs = logs
        self.rom = rom_id(rom)
        self.session = EmulatorSession(rom)
        boot_to_overworld(self.session)
        set_fast_options(self.session)
        self.base = self.session.save_state()
        self.game = self.session.game.value

    def close(self) -> None:
        self.session.close()

    def play_cell(self, cell: Cell) -> list[Result]:
        scenario = cell.battle or next(s for s in CATALOGUE if s.name == cell.scenario)
        return [self.play(scenario, cell.draw, policy) for policy in cell.policies]

    def _start(self, scenario: Scenario, draw: int) -> Started:
        if isinstance(scenario, RunBattle):
            scenario.start(self.session, draw, FRAMES_PER_DRAW)
            state = state_of(self.session)
            category = category_of(state)
            return Started(category, category.split("_")[0], len(state.party))
        self.session.load_state(self.base)
        self.session.tick(1 + draw * FRAMES_PER_DRAW)
        scenario.setup(self.session)
        return Started(scenario.category, scenario.stage, len(scenario.party))

    def play(self, scenario: Scenario, draw: int, policy: str) -> Result:
        timed = Timed(MAKERS[policy](), forecasting=policy == "search")
        start = time.perf_counter()
        started = Started("unknown", "unknown", 0)
        try:
            started = self._start(scenario, draw)
            options = DriveOptions(battle_id=f"{scenario.name}-{draw}-{policy}", run_id="tournament",
                                   max_decisions=MAX_DECISIONS)  # fmt: skip
            driven = drive_battle(EmulatorRole.on_session(self.session), by_policy(timed), options)
        except Exception as error:  # a crash is a result too: the search engineer wants to see it
            played = self._row(scenario, started, draw, policy, timed, time.perf_counter() - start)
            return {**played, **_failed(error, len(timed.milliseconds))}
        played = self._row(scenario, started, draw, policy, timed, time.perf_counter() - start)
        if self.logs is not None and policy == "search" and driven.log is not None:
            folder = self.logs / "runs" / "tournament" / "battles"
            folder.mkdir(parents=True, exist_ok=True)
            write_bytes_atomic(folder / f"{options.battle_id}.json", driven.log.model_dump_json().encode())
        return {**played, **self._outcome(driven)}

    def _row(
        self, scenario: Scenario, started: Started, draw: int, policy: str, timed: Timed, wall: float
    ) -> Result:
        return {
            "rom": self.rom,
            "game": self.game,
            "scenario": scenario.name,
            "digest": scenario.digest(),
            "category": started.category,
            "stage": started.stage,
            "party_size": started.party_size,
            "draw": draw,
            "policy": policy,
            "predicted": _predicted(timed.first) if policy == "search" else None,
            "forecasts": timed.forecasts,
            "decision_ms": [round(ms, 2) for ms in timed.milliseconds],
            "wall_s": round(wall, 3),
        }

    def _outcome(self, driven: DrivenBattle) -> Result:
        log = driven.log
        outcome = log.summary.outcome if log is not None else "halted"
        party = state_of(self.session).party
        # A defeat ends in the game's blackout, which heals the party on the way: it had nothing left.
        hp = 0 if outcome == "defeat" else sum(m.hp for m in party)
        fainted = len(party) if outcome == "defeat" else sum(m.hp == 0 for m in party)
        return {
            "outcome": outcome,
            "won": outcome == "victory",
            "turns": log.summary.turns if log is not None else None,
            "decisions": len(driven.steps),
            "frames": driven.frames,
            "hp_left": round(hp / max(1, sum(m.max_hp for m in party)), 4),
            "fainted": fainted,
            "error": driven.halted,
        }


# -- workers -----------------------------------------------------------------------------------------------
_PLAYER: Player | None = None


def _start_worker(rom: Path, logs: Path | None) -> None:
    global _PLAYER
    _PLAYER = Player(rom, logs)
    # Closed before the interpreter tears down, or the emulator's threads complain as the worker exits.
    atexit.register(_PLAYER.close)


def _play_in_worker(cell: Cell) -> list[Result]:
    assert _PLAYER is not None, "the worker was not started"
    return _PLAYER.play_cell(cell)


def play_cells(
    rom: Path, cells: list[Cell], workers: int, logs: Path | None = None
) -> Iterator[tuple[Cell, list[Result]]]:
    """Each cell's results as it is done: in this process with one worker, else in a pool of processes
    (spawned, so that no emulator state is forked)."""
    if workers <= 1:
        player = Player(rom, logs)
        try:
            for cell in cells:
                yield cell, player.play_cell(cell)
        finally:
            player.close()
        return
    context = multiprocessing.get_context("spawn")
    pool_of = ProcessPoolExecutor(
        workers, mp_context=context, initializer=_start_worker, initargs=(rom, logs)
    )
    with pool_of as pool:
        futures = {pool.submit(_play_in_worker, cell): cell for cell in cells}
        for future in as_completed(futures):
            yield futures[future], future.result()


# -- the run -----------------------------------------------------------------------------------------------
def chosen_scenarios(categories: list[str] | None, only: list[str] | None) -> list[CatalogueScenario]:
    return [s for s in CATALOGUE
            if (not categories or s.category in categories) and (not only or s.name in only)]  # fmt: skip


def plan(
    scenarios: Sequence[Scenario],
    draws: int,
    policies: tuple[str, ...],
    reused: dict[Key, Result],
    rom: str,
) -> tuple[list[Cell], list[Result]]:
    """The cells to play, draw by draw (a run cut short has then seen every scenario), and the results
    taken over from an earlier run."""
    cells, kept = [], []
    for draw in range(draws):
        for scenario in scenarios:
            keys = {p: (scenario.name, scenario.digest(), draw, p, rom) for p in policies}
            kept += [reused[keys[p]] for p in policies if keys[p] in reused]
            to_play = tuple(p for p in policies if keys[p] not in reused)
            if to_play:
                battle = scenario if isinstance(scenario, RunBattle) else None
                cells.append(Cell(scenario.name, draw, to_play, battle))
    return cells, kept


def _progress(done: int, total: int, cell: Cell, results: list[Result]) -> str:
    outcomes = " ".join(f"{r['policy']}={'won' if r['won'] else r['outcome']}" for r in results)
    wall = sum(r["wall_s"] for r in results)
    return f"[{done}/{total}] {cell.scenario} draw {cell.draw}: {outcomes} ({wall:.1f} s)"


def _write(out: IO[str] | None, results: list[Result]) -> None:
    if out is None:
        return
    for result in results:
        out.write(json.dumps(result) + "\n")
    out.flush()


def run(args: argparse.Namespace) -> list[Result]:
    policies = tuple(p.strip() for p in args.policies.split(",") if p.strip())
    unknown = [p for p in policies if p not in MAKERS]
    if unknown:
        raise SystemExit(f"unknown policies {unknown}; known: {', '.join(MAKERS)}")
    scenarios: Sequence[Scenario]
    if args.from_run:
        scenarios = [b for b in run_battles(args.from_run, args.wild) if not args.only or b.name in args.only]
        if not scenarios:
            raise SystemExit("no kept battle start under --from-run (checkpoint.keep_battle_states)")
    else:
        scenarios = chosen_scenarios(args.category, args.only)
    if not scenarios:
        raise SystemExit("no scenario matches --category/--only")
    rom = rom_id(args.rom)
    reused = reusable(read_results(args.reuse), rom, policies) if args.reuse else {}
    cells, results = plan(scenarios, args.draws, policies, reused, rom)
    print(f"{len(scenarios)} scenarios × {args.draws} draws, {len(cells)} cells to play "
          f"({len(results)} results reused), {args.workers} worker(s)", file=sys.stderr)  # fmt: skip
    out = args.out.open("w", encoding="utf-8") if args.out else None
    try:
        _write(out, results)
        for done, (cell, played) in enumerate(play_cells(args.rom, cells, args.workers, args.logs), start=1):
            results += played
            _write(out, played)
            print(_progress(done, len(cells), cell, played), file=sys.stderr, flush=True)
    finally:
        if out is not None:
            out.close()
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rom", type=Path, help="the cartridge image (not needed with --report)")
    parser.add_argument("--draws", type=int, default=4)
    parser.add_argument("--policies", default=",".join(POLICIES), help="comma-separated")
    parser.add_argument("--category", nargs="*", choices=CATEGORIES, help="only these categories")
    parser.add_argument("--only", nargs="*", help="only these scenarios (battle ids with --from-run)")
    parser.add_argument(
        "--from-run",
        nargs="+",
        type=Path,
        metavar="DATA_DIR",
        help="play the battle starts these runs kept instead of the catalogue",
    )
    parser.add_argument("--wild", action="store_true", help="with --from-run: the wild battles too")
    parser.add_argument("--logs", type=Path, help="write the search's battle logs here (benchmarks.ko_turns)")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", type=Path, help="the results, one JSON line per battle")
    parser.add_argument("--reuse", type=Path, help="take the baselines' results from this earlier file")
    parser.add_argument("--report", type=Path, help="print the report of this results file; play nothing")
    parser.add_argument("--markdown", action="store_true", help="the report as markdown")
    args = parser.parse_args(argv)
    if args.report is not None:
        print(report(read_results(args.report), markdown=args.markdown), end="")
        return 0
    if args.rom is None:
        parser.error("--rom is needed to play (or --report FILE to read results)")
    print(report(run(args), markdown=args.markdown), end="")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
