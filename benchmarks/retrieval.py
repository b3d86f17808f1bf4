"""Lesson retrieval at scale: `LessonStore.retrieve` latency over stores of 1,000 to 100,000 lessons.

    .venv/bin/python -m benchmarks.retrieval [--sizes 1000,10000,100000] [--queries 200] [--seed 0]

One store in a temporary directory grows through the sizes (filled with `add_many`, in Chroma's largest
batches; `fill s` is the time spent in it from empty, `lessons/s` the lessons handed to it per second,
a few of which merge into equivalent ones); at each size ~200 battle moments are asked for their lessons
as the memory role asks (`retrieve(query, context, now, k=5, threshold=0.2)`, which marks what it
returns used), and once more without marking (a person browsing). The lessons are synthetic but shaped
like the reflection's: all five kinds, keyed by real species, types, moves and trainers from the game's
tables, with varied wording. Progress goes to stderr; figures to stdout.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from engine.game.tables import Species, game_data
from engine.memory.lessons import Lesson, LessonContext, LessonKind, Measurement
from engine.memory.store import LessonStore

DEFAULT_SIZES = (1_000, 10_000, 100_000)
FILL_CHUNK = 5_000  # lessons generated and handed to add_many at a time (progress is reported per chunk)
KINDS: tuple[LessonKind, ...] = ("type_matchup", "move", "opponent", "resource", "sequence")
KIND_WEIGHTS = (0.3, 0.35, 0.15, 0.1, 0.1)
ITEMS = ("POTION", "SUPER_POTION", "ANTIDOTE", "PARLYZ_HEAL", "POKE_BALL", "GREAT_BALL", "ESCAPE_ROPE")
EFFECT_WORDS = {2.0: "super effective", 0.5: "not very effective", 0.0: "no effect"}


class Generator:
    """Random lessons and battle moments over the game's own names."""

    def __init__(self, seed: int) -> None:
        data = game_data()
        self.random = random.Random(seed)
        self.species: list[Species] = list(data.species_by_name.values())
        self.moves = [move for move in data.moves_by_name.values() if move.name not in {"STRUGGLE"}]
        self.matchups = [(m.attacker, m.defender, m.multiplier) for m in data.type_chart]
        self.trainers = [entry.name for entry in data.trainer_classes.values()]
        self.serial = 0

    def _pick_species(self, count: int = 1) -> list[Species]:
        return self.random.sample(self.species, count)

    def _moves_of(self, species: Species) -> list[str]:
        known = list(species.start_moves) + [move for _, move in species.learnset]
        return known or [self.random.choice(self.moves).name]

    def lesson(self) -> Lesson:
        self.serial += 1
        kind = self.random.choices(KINDS, KIND_WEIGHTS)[0]
        hours = round(self.random.uniform(0.0, 40.0), 2)
        fields: dict[str, object] = {
            "lesson_id": f"bench-{self.serial:07d}",
            "kind": kind,
            "confidence": round(self.random.uniform(0.3, 0.95), 2),
            "evidence": self.random.randint(1, 12),
            "provenance": (f"bench-run-b{self.random.randint(1, 999):03d}",),
            "created_play_hours": hours,
            "updated_play_hours": round(hours + self.random.uniform(0.0, 5.0), 2),
        }
        fields.update(getattr(self, f"_{kind}")())
        return Lesson.model_validate(fields)

    def _type_matchup(self) -> dict[str, object]:
        attacker, defender, multiplier = self.random.choice(self.matchups)
        examples = [s.name for s in self.species if defender in s.types] or [self.species[0].name]
        example = self.random.choice(examples)
        moves = [move.name for move in self.moves if move.type == attacker and move.power]
        move = self.random.choice(moves) if moves else None
        phrase = EFFECT_WORDS.get(multiplier, "effective")
        text = self.random.choice(
            (
                f"{attacker} moves are {phrase} against {defender} types like {example}",
                f"Against {example} ({defender}), {attacker} attacks are {phrase}",
                f"{defender} types such as {example} take {phrase} hits from {attacker} moves",
            )
        )
        if move is not None:
            text += f"; {move} showed it"
        return {
            "text": text,
            "attacker_types": (attacker,),
            "defender_types": (defender,),
            "species": (example,),
            "move": move,
        }

    def _move(self) -> dict[str, object]:
        user, target = self._pick_species(2)
        move = self.random.choice(self._moves_of(user))
        damage = round(self.random.uniform(2.0, 60.0), 1)
        hit_rate = round(self.random.uniform(0.5, 1.0), 2)
        text = self.random.choice(
            (
                f"{move} from {user.name} takes about {damage:.0f}% of {target.name}'s HP",
                f"{user.name}'s {move} hits {target.name} {hit_rate:.0%} of the time for ~{damage:.0f}%",
                f"Use {move} on {target.name}: about {damage:.0f}% a hit, rarely wasted",
            )
        )
        measured = Measurement(uses=self.random.randint(1, 30), damage_percent=damage, hit_rate=hit_rate)
        return {"text": text, "move": move, "species": (user.name, target.name), "measured": measured}

    def _opponent(self) -> dict[str, object]:
        trainer = f"{self.random.choice(self.trainers)} #{self.random.randint(1, 8)}"
        team = [s.name for s in self._pick_species(self.random.randint(1, 3))]
        text = self.random.choice(
            (
                f"{trainer} leads with {team[0]}" + (f" then {' and '.join(team[1:])}" if team[1:] else ""),
                f"{trainer}'s team: {', '.join(team)}; bring a counter to {team[-1]}",
            )
        )
        return {"text": text, "opponent": trainer, "species": tuple(team)}

    def _resource(self) -> dict[str, object]:
        item = self.random.choice(ITEMS)
        threshold = self.random.choice(("a third", "half", "a quarter"))
        trainer = f"{self.random.choice(self.trainers)} #{self.random.randint(1, 8)}"
        threat = self._pick_species()[0].name
        choice = self.random.randrange(3)
        if choice == 0:
            return {
                "text": f"Heal with {item} when HP falls under {threshold} against {trainer}",
                "opponent": trainer,
            }
        if choice == 1:
            return {"text": f"Keep two {item}s before facing {trainer}", "opponent": trainer}
        return {"text": f"{item} saved a battle against {threat}", "species": (threat,)}

    def _sequence(self) -> dict[str, object]:
        user, target = self._pick_species(2)
        first, second = self.random.sample(self._moves_of(user) * 2, 2)
        text = f"{user.name}: {first} first, then {second} against {target.name}"
        return {"text": text, "move": second, "species": (user.name, target.name)}

    def moment(self) -> tuple[str, LessonContext]:
        """A battle moment as the memory role queries it (engine/memory/context.py battle_context)."""
        ours, enemy = self._pick_species(2)
        moves = tuple(self.random.sample(self._moves_of(ours), min(4, len(self._moves_of(ours)))))
        opponent = None
        if self.random.random() < 0.4:
            opponent = f"{self.random.choice(self.trainers)} #{self.random.randint(1, 8)}"
        query = " ".join(
            part
            for part in (
                f"{ours.name} {' '.join(ours.types)}",
                f"vs {enemy.name} {' '.join(enemy.types)}",
                opponent or "",
                " ".join(moves),
            )
            if part
        )
        context = LessonContext(
            our_types=ours.types,
            enemy_types=enemy.types,
            species=(ours.name, enemy.name),
            moves=moves,
            opponent=opponent,
        )
        return query, context


def _directory_bytes(path: Path) -> int:
    return sum(item.stat().st_size for item in path.rglob("*") if item.is_file())


def _latencies_ms(
    call: Callable[[str, LessonContext], object], moments: list[tuple[str, LessonContext]]
) -> list[float]:
    samples = []
    for query, context in moments:
        start = time.perf_counter()
        call(query, context)
        samples.append((time.perf_counter() - start) * 1000)
    return samples


def _percentiles(samples: list[float]) -> tuple[float, float, float]:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return statistics.median(ordered), p95, ordered[-1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", default=",".join(str(size) for size in DEFAULT_SIZES),
                        help="store sizes to measure at, ascending (default: %(default)s)")  # fmt: skip
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    sizes = sorted(int(size) for size in args.sizes.split(","))
    generator = Generator(args.seed)
    moments = [generator.moment() for _ in range(args.queries)]
    now = 50.0  # play hours: after every lesson's last update, so decay and recency both count

    print(f"lesson retrieval, {args.queries} queries per size, k=5, threshold 0.2 (hashing embedding)")
    print(f"{'lessons':>8} {'fill s':>7} {'lessons/s':>9} {'disk MB':>8}   {'retrieve p50':>12} {'p95':>6} "
          f"{'max':>6}   {'unmarked p50':>12} {'p95':>6} {'max':>6}  ms")  # fmt: skip
    with tempfile.TemporaryDirectory(prefix="lesson-bench-") as directory:
        path = Path(directory) / "memory"
        with LessonStore(path) as store:
            generated, stored, fill_seconds = 0, 0, 0.0
            for size in sizes:
                # Equivalent lessons merge as they would in play, so the store grows a little slower than
                # the lessons handed to it: fill until it holds `size`.
                while stored < size:
                    batch = [generator.lesson() for _ in range(min(FILL_CHUNK, size - stored))]
                    start = time.perf_counter()
                    store.add_many(batch, now)
                    fill_seconds += time.perf_counter() - start
                    generated += len(batch)
                    stored = store.count()
                    print(f"  {stored:,} lessons stored ({generated:,} added) in {fill_seconds:.1f} s",
                          file=sys.stderr)  # fmt: skip
                store.retrieve(*moments[0], now, mark_used=False)  # the first query loads the index
                marked = _latencies_ms(lambda q, c: store.retrieve(q, c, now, k=5, threshold=0.2), moments)
                unmarked = _latencies_ms(
                    lambda q, c: store.retrieve(q, c, now, k=5, threshold=0.2, mark_used=False), moments
                )
                store.flush()
                m50, m95, mmax = _percentiles(marked)
                u50, u95, umax = _percentiles(unmarked)
                print(f"{stored:>8,} {fill_seconds:>7.1f} {generated / fill_seconds:>9,.0f} "
                      f"{_directory_bytes(path) / 1e6:>8.1f}   {m50:>12.2f} {m95:>6.2f} {mmax:>6.2f}   "
                      f"{u50:>12.2f} {u95:>6.2f} {umax:>6.2f}", flush=True)  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
