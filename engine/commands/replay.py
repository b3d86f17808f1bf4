"""`engine replay`: replay a logged battle, compare it with its log and (with --counterfactuals) try every
other choice it offered. The console script registers `add_replay_parser` and `run_replay`; the emulator
and Ray are imported only when a replay runs, so building the parser stays cheap."""

from __future__ import annotations

import argparse
import math
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from engine.commands.arguments import Subparsers, positive
from engine.replay.defaults import DEFAULT_MAX_DECISIONS, default_workers

if TYPE_CHECKING:
    from engine.config import EngineConfig
    from engine.replay.models import ReplayReport
    from engine.replay.replayer import ReplayOptions

EXIT_MATCHES, EXIT_DIVERGES = 0, 1
PROGRESS_SECONDS = 1.0


def register(commands: Subparsers) -> None:
    replay = commands.add_parser(
        "replay",
        help="replay a logged battle, compare it with its log, try the other choices",
        description="Play a battle logged by `engine run` (runs/<run id>/battles/<battle id>.json and its "
        "start state) again with the logged actions and compare it with the log: decisions, HP bars, "
        "outcome. Exit code 0 when it matches, 1 when it diverges. With --counterfactuals, every other "
        "legal action at every decision is played out (then the rule-based policy) against the logged "
        "action played out the same way; alternatives that would have won what was lost are reported "
        "as regrets, with the lessons they teach.",
    )
    replay.add_argument("--battle", metavar="ID", required=True, help="the battle id, e.g. <run id>-b001")
    replay.add_argument(
        "--rom", type=Path, required=True, help="the cartridge image the battle was played on"
    )
    replay.add_argument(
        "--data-dir", type=Path, default=Path("."), help="where runs/ is (default: the current directory)"
    )
    replay.add_argument("--config", type=Path, help="YAML config overlaying configs/default.yaml")
    replay.add_argument(
        "--counterfactuals", action="store_true", help="also play out every other legal action"
    )
    replay.add_argument(
        "--max-rollouts",
        type=positive,
        metavar="N",
        help="with --counterfactuals: at most N rollouts, at the latest decisions (what a run asks after a "
        "battle lost to a trainer)",
    )
    replay.add_argument(
        "--workers",
        type=positive,
        metavar="N",
        default=default_workers(),
        help=f"rollout workers on Ray (default: min(4, CPUs) = {default_workers()})",
    )
    replay.add_argument(
        "--max-decisions",
        type=positive,
        metavar="N",
        default=DEFAULT_MAX_DECISIONS,
        help=f"decisions a rollout may take before it counts as unfinished (default {DEFAULT_MAX_DECISIONS})",
    )
    where = replay.add_mutually_exclusive_group()
    where.add_argument(
        "--local", action="store_true", help="play the rollouts in this process, one after another"
    )
    where.add_argument(
        "--address",
        metavar="ADDR",
        help="play the rollouts on the Ray cluster at ADDR ('auto': the one `ray start --head` started "
        "on this machine); without --address or --local, on a private Ray instance",
    )
    replay.add_argument("--json", action="store_true", help="print the report as JSON on stdout")
    replay.add_argument(
        "--no-learn",
        action="store_true",
        help="do not store the counterfactuals' lessons (regrets, measured damage) in lesson memory",
    )
    replay.set_defaults(handler=execute)


@dataclass(frozen=True)
class ReplayCommand:
    """`engine replay` as asked."""

    battle: str
    rom: Path
    data_dir: Path
    config: Path | None
    counterfactuals: bool
    max_rollouts: int | None
    workers: int
    max_decisions: int
    local: bool
    address: str | None
    as_json: bool
    no_learn: bool

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> ReplayCommand:
        return cls(
            battle=args.battle, rom=args.rom, data_dir=args.data_dir, config=args.config,
            counterfactuals=args.counterfactuals, max_rollouts=args.max_rollouts, workers=args.workers,
            max_decisions=args.max_decisions,
            local=args.local, address=args.address, as_json=args.json, no_learn=args.no_learn,
        )  # fmt: skip


class StderrProgress:
    """'rollouts 12/30' lines, at most one a second (and the last one always)."""

    def __init__(self, stream: TextIO | None = None, every_seconds: float = PROGRESS_SECONDS) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.every_seconds = every_seconds
        # Not 0.0: monotonic time may read less than the interval on a machine booted moments ago, and the
        # first line would then be held back.
        self.last = -math.inf

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if done == total or now - self.last >= self.every_seconds:
            self.last = now
            print(f"rollouts {done}/{total}", file=self.stream, flush=True)


def _options(config: EngineConfig, args: ReplayCommand) -> ReplayOptions:
    from engine.replay.pool import PoolSettings
    from engine.replay.replayer import ReplayOptions

    pool = PoolSettings(
        rom=args.rom,
        emulator=config.emulator,
        player=config.player,
        mode="local" if args.local else "ray",
        workers=args.workers,
    )
    return ReplayOptions(
        pool=pool,
        counterfactuals=args.counterfactuals,
        max_rollouts=args.max_rollouts,
        max_rollout_decisions=args.max_decisions,
        screenshots=config.llm.screenshots,
    )


def _report(config: EngineConfig, args: ReplayCommand) -> ReplayReport:
    from engine.replay.logs import find_battle_log
    from engine.replay.replayer import replay_battle

    logged = find_battle_log(args.data_dir, args.battle)
    options = _options(config, args)
    print(f"replaying {args.battle} ({len(logged.log.decisions)} decisions)", file=sys.stderr, flush=True)
    if not options.counterfactuals or args.local:
        return replay_battle(logged, options, StderrProgress())
    from engine.runtime.cluster import ray_connection

    # Connected before the replay: a wrong --address fails in seconds, not after the replay.
    with ray_connection(args.address, config.runtime.namespace, log_to_driver=False):
        return replay_battle(logged, options, StderrProgress())


def _learn(config: EngineConfig, args: ReplayCommand, report: ReplayReport) -> ReplayReport:
    """Regrets and measured numbers go to lesson memory: the running engine's (--address), or the data
    directory's."""
    from engine.commands.access import memory_access

    address = args.address if not args.local else None
    with memory_access(config, args.data_dir, address, must_exist=False) as memory:
        stored = memory.learn(list(report.lessons))
    print(f"lessons: {len(stored)} stored in memory", file=sys.stderr, flush=True)
    return report.model_copy(update={"learned": tuple(lesson.lesson_id for lesson in stored)})


def execute(parsed: argparse.Namespace) -> int:
    return replay(ReplayCommand.from_args(parsed))


def replay(args: ReplayCommand) -> int:
    """Exit code 0 when the replay matches the log, 1 when it diverges (a bad input raises
    UserInputError, which the console script reports in one line)."""
    from engine.config import load_config
    from engine.emulator.rom import check_rom_file
    from engine.replay.render import render_report

    config = load_config(args.config)
    check_rom_file(args.rom)
    report = _report(config, args)
    if report.lessons and not args.no_learn:
        report = _learn(config, args, report)
    if args.as_json:
        sys.stdout.write(report.model_dump_json(indent=2) + "\n")
    else:
        sys.stdout.write(render_report(report) + "\n")
    return EXIT_MATCHES if report.matches_log else EXIT_DIVERGES
