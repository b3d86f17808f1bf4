"""Does "KO in N turns" come true? The search's forecast at each decision against the battle that followed.

    .venv/bin/python -m benchmarks.ko_turns DATA_DIR [DATA_DIR ...] [--markdown]

Reads every battle log under DATA_DIR/runs/*/battles/ (what `engine run` writes). At each choice of a move
at the battle menu whose reason names a knock-out ("SURF: 97% to win, KO in 2 turns"; "... then KO in 3
turns instead of 4"), the turns it took are counted in the battle's own messages: one of our member's turns
for each message that starts one ("BLASTOISE used SURF!", "... is fast asleep!", "... must recharge!",
"... lowered its head!", "It hurt itself in its confusion!" after ours is confused, and a turn given to an
item or a switch), up to "Enemy X fainted!" for the enemy that was in front. A forecast is *settled* when
that enemy went down while the same two members stayed in front; otherwise our member fainted first, one
side switched, or the battle ended (`not_settled`). Figures only: nothing here passes or fails.
"""

from __future__ import annotations

import argparse
import re
import statistics
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from engine.battles.errors import BattleLogError
from engine.battles.files import read_battle_log
from engine.battles.models import BattleLog
from engine.game.models import DecisionPoint
from engine.game.tables import game_data

_FORECAST = re.compile(r"KO (?:in (\d+) turns?|never|unlikely)")
# Messages that open a turn of the member they name (pret data/text/text_*.asm), after its name.
_TURN_STARTS = (
    " used ", " is fast asleep!", " woke up!", " is frozen solid!", "'s fully paralyzed!", " flinched!",
    " must recharge!", " lowered its head!", " took in sunlight!", " made a whirlwind!", " is glowing!",
    " flew up high!", " dug a hole!", " is storing energy!", " unleashed energy!", " can't move!",
    "'s attack continues!",
)  # fmt: skip
_SELF_HIT = "It hurt itself in its confusion!"
BUCKETS = ("1", "2", "3", "4", "5+")


@dataclass(frozen=True)
class Forecast:
    battle: str
    decision: int
    predicted: int | None  # None: "KO never" or "KO unlikely"
    actual: int | None  # turns to the enemy's knock-out; None when not settled


def display_name(species: str) -> str:
    found = game_data().species_by_name.get(species)
    return found.display_name if found is not None else species


def _opens_turn(message: str, name: str, last: str) -> bool:
    if message == _SELF_HIT:
        return last == f"{name} is confused!"
    return message.startswith(name) and any(message[len(name) :].startswith(cue) for cue in _TURN_STARTS)


def _outcome(log: BattleLog, start: int) -> int | None:
    """The turns from decision `start` to the knock-out of the enemy then in front, counting that turn as
    the first; None when the same two members did not stay in front until then."""
    first = log.decisions[start]
    if first.ours is None or first.enemy is None:
        return None
    ours, theirs = display_name(first.ours.species), display_name(first.enemy.species)
    turns = 0
    for index in range(start, min(len(log.decisions), len(log.turns))):
        record = log.decisions[index]
        if index > start and (record.ours is None or display_name(record.ours.species) != ours):
            return None
        if record.action.startswith(("switch to", "use ")) and record.move is None:
            turns += 1  # an item or a switch takes the turn
        last = ""
        for message in log.turns[index].text:
            if _opens_turn(message, ours, last):
                turns += 1
            if message == f"Enemy {theirs} fainted!":
                return max(1, turns)
            if message == f"{ours} fainted!" or " sent out " in message:
                return None
            last = message
    return None


def forecasts(log: BattleLog) -> Iterator[Forecast]:
    """Every forecast the log's move choices at the battle menu carry, with what came of it."""
    for index, record in enumerate(log.decisions):
        if record.point is not DecisionPoint.BATTLE_MAIN_MENU or record.move is None:
            continue
        found = _FORECAST.search(record.reason)
        if found is None:
            continue
        predicted = int(found.group(1)) if found.group(1) else None
        yield Forecast(log.summary.battle_id, index, predicted, _outcome(log, index))


def read_forecasts(data_dirs: list[Path]) -> list[Forecast]:
    found: list[Forecast] = []
    for data_dir in data_dirs:
        for path in sorted(data_dir.glob("runs/*/battles/*.json")):
            try:
                found += forecasts(read_battle_log(path))
            except BattleLogError:
                continue
    return found


def _bucket(turns: int) -> str:
    return str(turns) if turns < len(BUCKETS) else BUCKETS[-1]


@dataclass(frozen=True)
class Agreement:
    forecasts: int
    settled: int  # finite forecasts whose knock-out came with the same two members in front
    exact: int
    within_one: int
    mean_error: float  # predicted - actual, over the settled ones: the bias
    mean_absolute_error: float
    median_absolute_error: float  # the long stalls (a 1% ABSORB for 50 turns) weigh on the mean alone
    not_settled: int  # finite forecasts that did not come to a knock-out by this member
    never: int  # "KO never" forecasts
    never_wrong: int  # of those, knocked out all the same
    by_prediction: dict[str, tuple[int, float]]  # predicted bucket -> (settled, mean actual)


def agreement(found: list[Forecast]) -> Agreement:
    finite = [f for f in found if f.predicted is not None]
    settled = [f for f in finite if f.actual is not None]
    errors = [f.predicted - f.actual for f in settled if f.predicted is not None and f.actual is not None]
    by_prediction: dict[str, list[int]] = {}
    for f in settled:
        assert f.predicted is not None and f.actual is not None
        by_prediction.setdefault(_bucket(f.predicted), []).append(f.actual)
    never = [f for f in found if f.predicted is None]
    return Agreement(
        forecasts=len(found),
        settled=len(settled),
        exact=sum(e == 0 for e in errors),
        within_one=sum(abs(e) <= 1 for e in errors),
        mean_error=statistics.fmean(errors) if errors else 0.0,
        mean_absolute_error=statistics.fmean(abs(e) for e in errors) if errors else 0.0,
        median_absolute_error=statistics.median(abs(e) for e in errors) if errors else 0.0,
        not_settled=len(finite) - len(settled),
        never=len(never),
        never_wrong=sum(f.actual is not None for f in never),
        by_prediction={
            bucket: (len(by_prediction[bucket]), statistics.fmean(by_prediction[bucket]))
            for bucket in BUCKETS
            if bucket in by_prediction
        },
    )


def report(result: Agreement, markdown: bool = False) -> str:
    settled = max(1, result.settled)
    rows = [
        ("forecasts read", f"{result.forecasts}"),
        ("settled (the enemy in front went down, same members)", f"{result.settled}"),
        ("exactly right", f"{result.exact} ({result.exact / settled:.0%})"),
        ("within one turn", f"{result.within_one} ({result.within_one / settled:.0%})"),
        ("mean error, predicted - actual", f"{result.mean_error:+.2f} turns"),
        ("mean absolute error", f"{result.mean_absolute_error:.2f} turns"),
        ("median absolute error", f"{result.median_absolute_error:.1f} turns"),
        ("finite, not settled (ours fainted, a switch, the end)", f"{result.not_settled}"),
        ("'KO never', then knocked out all the same", f"{result.never_wrong} of {result.never}"),
    ]
    rows += [
        (f"predicted {bucket}: mean actual", f"{actual:.2f} over {count}")
        for bucket, (count, actual) in result.by_prediction.items()
    ]
    if markdown:
        return "| | |\n| --- | ---: |\n" + "".join(f"| {name} | {value} |\n" for name, value in rows)
    width = max(len(name) for name, _ in rows)
    return "".join(f"{name:<{width}}  {value}\n" for name, value in rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("data_dirs", nargs="+", type=Path, help="folders `engine run --data-dir` wrote to")
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args(argv)
    print(report(agreement(read_forecasts(args.data_dirs)), markdown=args.markdown), end="")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
