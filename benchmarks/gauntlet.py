"""The gauntlet's forecast against the gauntlet played: is a chain forecast of 70% a 70% chance?

    .venv/bin/python -m benchmarks.gauntlet --rom ROM --from-run DATA_DIR [DATA_DIR ...] [--draws 6]
        [--out results.jsonl] [--wall-limit SECONDS] [--report results.jsonl]

The plan enters the Elite Four when the chain forecast (team/gauntlet.py: the five rooms in a row, HP and
PP carried, the bag between rooms) reaches its bar, and trains until then; a forecast that is too low costs
hours of training, one too high costs entries. For each data folder, the run's first battle against
LORELEI whose start state was kept (the entry the plan made) is played again to its end with the command a
user types (`engine run --local --state … --config`), once per draw: a draw waits `draw × 37` frames
before the first decision (emulator.idle_frames_at_start), so the game's random numbers differ and draw 0
is the run's own. A play stops at its first defeat or in the Hall of Fame. Beside each entry: the forecast
the plan read at the door (`settled_forecast`, what `train` steps wait for), per room and for the chain.
Then the forecasts' mean against the share of draws that finished, per entry and over all. Figures only;
one JSON line per play in --out, and `--report FILE` prints the tables again without playing.
"""

from __future__ import annotations

import argparse
import json
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from benchmarks.processes import stop_like_a_user
from engine.config import EmulatorConfig
from engine.emulator.session import open_session
from engine.game.state import decode_state
from engine.game.stock import gauntlet_stock
from engine.jsonl import read_objects
from engine.team.gauntlet import settled_forecast
from engine.team.planner import gauntlet

ENGINE = str(Path(sys.executable).parent / "engine")
FRAMES_PER_DRAW = 37  # as benchmarks/tournament.py: a prime, so draws do not fall into step with the game
ROOMS = ("LORELEI", "BRUNO", "AGATHA", "LANCE", "RIVAL3")
POLL_SECONDS = 2.0
COLUMNS = ("entry", "team at the door", "forecast: chain (rooms)", "draws", "finished", "rooms won (mean)",
           "lost to")  # fmt: skip


@dataclass(frozen=True)
class Entry:
    """A run's first kept battle start against LORELEI."""

    data_dir: Path
    battle_id: str
    state: Path


def first_entry(data_dir: Path) -> Entry | None:
    for battles in sorted(data_dir.glob("runs/*/battles.jsonl")):
        for battle in read_objects(battles).entries:
            if str(battle.get("opponent", "")).startswith(ROOMS[0]):
                state = battles.parent / "battles" / f"{battle['battle_id']}.state"
                if state.is_file():
                    return Entry(data_dir, str(battle["battle_id"]), state)
    return None


def forecast_at(rom: Path, entry: Entry) -> dict[str, object]:
    """The chain forecast the plan reads for this team and bag (healed, the lobby's stock bought)."""
    with open_session(rom, EmulatorConfig()) as session:
        session.load_state_file(entry.state)
        state = decode_state(session.memory_image(), session.ram_map)
    found = settled_forecast(state, gauntlet(state), gauntlet_stock(state))
    team = ", ".join(f"{mon.species_name} L{mon.level}" for mon in state.party)
    if found is None:
        return {"chance": None, "team": team}
    rooms = [round(share, 3) for share in found.beaten]  # reached past each room, of all samples
    return {"chance": found.chance, "rooms": rooms, "samples": found.samples, "team": team}


def play(rom: Path, entry: Entry, draw: int, wall_limit: float) -> dict[str, object]:
    """One play from the entry's state to its first defeat or the Hall of Fame."""
    with tempfile.TemporaryDirectory(prefix="gauntlet-") as folder:
        config = Path(folder) / "draw.yaml"
        config.write_text(f"emulator:\n  idle_frames_at_start: {draw * FRAMES_PER_DRAW}\n")
        command = [ENGINE, "run", "--rom", str(rom), "--local", "--state", str(entry.state),
                   "--config", str(config), "--data-dir", folder]  # fmt: skip
        started = time.perf_counter()
        with (Path(folder) / "out.log").open("w") as log:
            process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
            battles = _watch(process, Path(folder), started + wall_limit)
        wall = time.perf_counter() - started
        summary = _summary(Path(folder))
    won = 0
    for battle in battles:
        if battle.get("outcome") != "victory":
            break
        if str(battle.get("opponent", "")).split(" ")[0] in ROOMS:
            won += 1
    return {
        "entry": entry.battle_id, "data_dir": str(entry.data_dir), "draw": draw,
        "finished": summary.get("stopped") == "story_done", "rooms_won": won,
        "lost_to": next((b.get("opponent") for b in battles if b.get("outcome") == "defeat"), None),
        "frames": summary.get("frames") or sum(int(str(b.get("frames") or 0)) for b in battles),
        "wall_s": round(wall, 1),
    }  # fmt: skip


def _watch(process: subprocess.Popen[bytes], folder: Path, deadline: float) -> list[dict[str, object]]:
    """Until the run ends by itself, loses a battle or passes the deadline (then it is stopped the way
    a user stops it, so it writes its summary); the battles it played."""
    battles: list[dict[str, object]] = []
    while process.poll() is None:
        time.sleep(POLL_SECONDS)
        battles = _battles(folder)
        if any(b.get("outcome") == "defeat" for b in battles) or time.perf_counter() > deadline:
            stop_like_a_user(process, signal.SIGTERM)
    return _battles(folder)


def _battles(folder: Path) -> list[dict[str, object]]:
    found = sorted(folder.glob("runs/*/battles.jsonl"))
    return read_objects(found[-1]).entries if found else []


def _summary(folder: Path) -> dict[str, object]:
    found = sorted(folder.glob("runs/*/summary.json"))
    return json.loads(found[-1].read_text()) if found else {}


def report(rows: list[dict[str, object]]) -> None:
    entries = [r for r in rows if r.get("kind") == "entry"]
    plays = [r for r in rows if r.get("kind") == "play"]
    print("| " + " | ".join(COLUMNS) + " |")
    print("| --- | --- | ---: | ---: | ---: | ---: | --- |")
    forecasts, outcomes = [], []
    for entry in entries:
        mine = [p for p in plays if p["entry"] == entry["entry"]]
        if not mine:
            continue
        chance = entry.get("chance")
        rooms = " / ".join(f"{r:.0%}" for r in entry.get("rooms") or [])  # type: ignore[attr-defined]
        done = sum(bool(p["finished"]) for p in mine)
        won = sum(int(p["rooms_won"]) for p in mine) / len(mine)  # type: ignore[call-overload]
        lost = ", ".join(sorted({str(p["lost_to"]) for p in mine if p["lost_to"]}))
        shown = f"{chance:.0%} ({rooms})" if isinstance(chance, float) else "none"
        print(f"| {entry['entry']} | {entry['team']} | {shown} | {len(mine)} | {done} | {won:.1f} | {lost} |")
        if isinstance(chance, float):
            forecasts += [chance] * len(mine)
            outcomes += [1.0 if p["finished"] else 0.0 for p in mine]
    if forecasts:
        mean, share = sum(forecasts) / len(forecasts), sum(outcomes) / len(outcomes)
        brier = sum((f - o) ** 2 for f, o in zip(forecasts, outcomes, strict=True)) / len(forecasts)
        print(f"\nplays: {len(forecasts)}; forecast mean {mean:.0%}, finished {share:.0%}; ", end="")
        print(f"Brier score {brier:.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rom", type=Path)
    parser.add_argument("--from-run", type=Path, nargs="*", default=[], help="data folders of earlier runs")
    parser.add_argument("--draws", type=int, default=6)
    parser.add_argument("--out", type=Path, default=Path("gauntlet-results.jsonl"))
    parser.add_argument(
        "--wall-limit", type=float, default=900.0, help="seconds a play may take (default 900)"
    )
    parser.add_argument("--report", type=Path, help="print the tables of an earlier --out, without playing")
    args = parser.parse_args()
    if args.report is not None:
        report(read_objects(args.report).entries)
        return
    if args.rom is None or not args.from_run:
        parser.error("give --rom and at least one --from-run DATA_DIR (or --report FILE)")
    rows: list[dict[str, object]] = []
    for data_dir in args.from_run:
        entry = first_entry(data_dir)
        if entry is None:
            print(f"{data_dir}: no kept battle start against {ROOMS[0]}", file=sys.stderr)
            continue
        found = {
            "kind": "entry",
            "entry": entry.battle_id,
            "data_dir": str(data_dir),
            **forecast_at(args.rom, entry),
        }
        rows.append(found)
        _append(args.out, found)
        print(
            f"{entry.battle_id}: {found['team']}; forecast {found.get('chance')}", file=sys.stderr, flush=True
        )
        for draw in range(args.draws):
            result = {"kind": "play", **play(args.rom, entry, draw, args.wall_limit)}
            rows.append(result)
            _append(args.out, result)
            line = f"  draw {draw}: finished {result['finished']}, rooms won {result['rooms_won']}, "
            print(f"{line}lost to {result['lost_to']}, {result['wall_s']} s", file=sys.stderr, flush=True)
    report(rows)


def _append(path: Path, row: dict[str, object]) -> None:
    with path.open("a") as out:
        out.write(json.dumps(row) + "\n")


if __name__ == "__main__":
    main()
