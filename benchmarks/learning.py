"""Learning figure: does the engine win more often after reflecting on battles it lost?

    .venv/bin/python -m benchmarks.learning --rom ROM [--seeds 10]

The scenario: NIDORINO L22 (HORN ATTACK, DOUBLE KICK) against a wild RATICATE L24. The damage calculator
scores one hit per use, so it rates HORN ATTACK (65 power) above DOUBLE KICK (30 power, super effective
on a NORMAL type, but two hits): the rule-based policy attacks with the weaker move and loses more often
than not. Each seed is a different battle (the game's random numbers move with the frames waited before
it starts). Every battle is played by `engine run --local` from a save state made here, with the full
pipeline: battle log, reflection after each battle, lessons in the data directory's memory.

Seeds 0-9 are training battles, seeds 10-19 the test battles; the figure is the test battles' win count:
- before: with lesson memory turned off (the rule-based policy as it is);
- after reflection: after the training battles were played in a fresh data directory, where reflection
  stores what it measured after each battle (damage per use of the moves the policy chose);
- after reflection + counterfactual replays: also after `engine replay --counterfactuals` on every lost
  training battle, whose rollouts try the moves the policy did not choose and store what they did.
Prints the win counts, the measured lessons and the wall time of each step. Needs a ROM; run from the
repository root (the scenario helpers live in tests/support/).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

from engine.cli import main as engine
from engine.emulator.session import EmulatorSession
from tests.support.scenarios import boot_to_overworld, set_party, start_battle

PARTY = ("NIDORINO", 22, ["HORN_ATTACK", "DOUBLE_KICK"])
ENEMY = ("RATICATE", 24)
FRAMES_PER_SEED = 37  # frames waited before the battle: moves the game's random numbers


def make_states(rom: Path, seeds: range, folder: Path) -> dict[int, Path]:
    states = {}
    with EmulatorSession(rom) as session:
        boot_to_overworld(session)
        bedroom = session.save_state()
        for seed in seeds:
            session.load_state(bedroom)
            session.tick(1 + seed * FRAMES_PER_SEED)
            set_party(session, [PARTY])
            start_battle(session, *ENEMY)
            states[seed] = folder / f"seed{seed:02d}.state"
            states[seed].write_bytes(session.save_state())
    return states


def quiet(args: list[str]) -> tuple[int, str]:
    """Run an engine command with its log lines silenced; its stdout is returned."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = engine(args)
    return code, out.getvalue()


def play(rom: Path, state: Path, data_dir: Path, config: Path | None) -> dict[str, str]:
    data_dir.mkdir(parents=True, exist_ok=True)
    summary = data_dir / "last-summary.json"
    extra = ["--config", str(config)] if config else []
    args = ["run", "--local", "--rom", str(rom), "--state", str(state), "--max-battles", "1",
            "--data-dir", str(data_dir), "--summary", str(summary), *extra]  # fmt: skip
    code, _ = quiet(args)
    if code != 0:
        raise SystemExit(f"engine run failed ({code}) on {state.name}")
    (battle,) = json.loads(summary.read_text(encoding="utf-8"))["battles"]
    return battle


def group(name: str, rom: Path, states: dict[int, Path], data_dir: Path, config: Path | None) -> list[dict]:
    started = time.monotonic()
    battles = []
    for seed, state in states.items():
        battle = play(rom, state, data_dir, config)
        battles.append(battle)
        print(f"  {name} seed {seed}: {battle['outcome']} in {battle['turns']} turns", file=sys.stderr)
    wins = sum(battle["outcome"] == "victory" for battle in battles)
    print(f"{name}: {wins}/{len(battles)} won ({time.monotonic() - started:.0f} s)")
    return battles


def counterfactuals(rom: Path, data_dir: Path, lost: list[str]) -> None:
    started = time.monotonic()
    for battle_id in lost:
        _, out = quiet(["replay", "--battle", battle_id, "--rom", str(rom), "--data-dir", str(data_dir),
                           "--counterfactuals", "--local", "--json"])  # fmt: skip
        report = json.loads(out)
        print(f"  replay {battle_id}: matches_log {report['matches_log']}, {len(report['regrets'])} regrets, "
              f"{len(report['lessons'])} lessons", file=sys.stderr)  # fmt: skip
    print(f"counterfactual replays of {len(lost)} lost battles: {time.monotonic() - started:.0f} s")


def show_measured(data_dir: Path) -> None:
    stored = lessons(data_dir)
    measured = [lesson for lesson in stored if lesson.get("measured")]
    print(f"lessons: {len(stored)}, {len(measured)} with measured numbers")
    for lesson in measured:
        seen = lesson["measured"]
        print(f"  {lesson['move']} vs {','.join(lesson['species'])}: {seen['damage_percent']:.1f}% per use "
              f"over {seen['uses']} uses")  # fmt: skip


def lessons(data_dir: Path) -> list[dict]:
    _, out = quiet(["lessons", "list", "--data-dir", str(data_dir), "--json", "-n", "100"])
    return json.loads(out)["lessons"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rom", type=Path, required=True)
    parser.add_argument("--seeds", type=int, default=10)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        before_seeds, after_seeds = range(args.seeds), range(args.seeds, 2 * args.seeds)
        states = make_states(args.rom, range(2 * args.seeds), root)
        off = root / "memory-off.yaml"
        off.write_text("memory:\n  enabled: false\n", encoding="utf-8")
        data = root / "data"
        train = {s: states[s] for s in before_seeds}
        test = {s: states[s] for s in after_seeds}
        print(f"scenario: {PARTY[0]} L{PARTY[1]} {'/'.join(PARTY[2])} vs wild {ENEMY[0]} L{ENEMY[1]}")
        group("before (test seeds, memory off)", args.rom, test, root / "before", off)
        training = group("training (memory on)", args.rom, train, data, None)
        show_measured(data)
        reflected_only = root / "reflected-only"
        shutil.copytree(data, reflected_only)
        group("after reflection (test seeds)", args.rom, test, reflected_only, None)
        lost = [battle["battle_id"] for battle in training if battle["outcome"] != "victory"]
        counterfactuals(args.rom, data, lost)
        show_measured(data)
        group("after reflection + counterfactual replays (test seeds)", args.rom, test, data, None)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
