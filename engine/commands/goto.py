"""`engine goto`: walk from a save state to a place, battles on the way played by the rule-based policy."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from engine.commands.arguments import Subparsers, add_config, positive

if TYPE_CHECKING:
    from engine.mechanics.role import EmulatorRole
    from engine.mechanics.trip import Healer, TripReport

EXIT_ARRIVED, EXIT_NOT_THERE = 0, 1
DEFAULT_MAX_STEPS = 2000


@dataclass(frozen=True)
class GotoOptions:
    rom: Path
    state: Path
    to: str
    save_state: Path | None
    max_steps: int
    json: bool
    config: Path | None

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> GotoOptions:
        return cls(rom=args.rom, state=args.state, to=args.to, save_state=args.save_state,
                   max_steps=args.max_steps, json=args.json, config=args.config)  # fmt: skip


def register(commands: Subparsers) -> None:
    goto = commands.add_parser(
        "goto",
        help="walk from a save state to a place (a map, or a square on one)",
        description="Load the save state, plan a walk over the cartridge's maps and walk it, every step "
        "checked on RAM. Battles on the way are played by the rule-based policy, dialogs are read to their "
        "end, and the walk goes on. Progress goes to stderr; exit code 0 when the place was reached, 1 when "
        "not (no path, the way blocked, --max-steps spent).",
    )
    goto.add_argument("--rom", type=Path, required=True, help="cartridge image of Pokémon Red or Blue")
    goto.add_argument("--state", type=Path, required=True, help="PyBoy save state made with the same ROM")
    goto.add_argument(
        "--to",
        required=True,
        metavar="PLACE",
        help="a map as pret spells it (VIRIDIAN_MART, PEWTER_GYM) or a square on one (PEWTER_CITY:16,17)",
    )
    goto.add_argument("--save-state", type=Path, metavar="OUT", help="write the game where the walk ended")
    goto.add_argument(
        "--max-steps", type=positive, default=DEFAULT_MAX_STEPS, metavar="N",
        help=f"give up after this many steps (default {DEFAULT_MAX_STEPS})",
    )  # fmt: skip
    goto.add_argument("--json", action="store_true", help="print the report as JSON on stdout")
    add_config(goto)
    goto.set_defaults(handler=execute)


def execute(args: argparse.Namespace) -> int:
    options = GotoOptions.from_args(args)
    from engine.config import load_config
    from engine.emulator.session import open_session
    from engine.files import write_bytes_atomic
    from engine.mechanics.battle_driver import by_policy
    from engine.mechanics.role import EmulatorRole
    from engine.mechanics.trip import take_trip
    from engine.tactician.rule_based import RuleBasedPolicy
    from engine.world.goals import Leg
    from engine.world.places import parse_place

    config = load_config(options.config)
    with open_session(options.rom, config.emulator) as session:
        role = EmulatorRole.on_session(session, config.emulator, config.player)
        goal = parse_place(role.world, options.to)  # an unknown place fails before the state is touched
        session.load_state_file(options.state)
        role.start(None)  # a state in a battle plays it first; otherwise only the options are set
        leg = Leg(goal=goal, intent="travel", max_steps=options.max_steps, reason=f"goto {options.to}")
        print(f"engine goto: walking to {options.to}", file=sys.stderr)
        report = take_trip(role, leg, by_policy(RuleBasedPolicy()), _progress, heal=_nurse_finder(role))
        if options.save_state is not None:
            write_bytes_atomic(options.save_state, session.export_state())
    _print(report, options)
    return EXIT_ARRIVED if report.arrived else EXIT_NOT_THERE


def _nurse_finder(role: EmulatorRole) -> Healer | None:
    """The leg to the nearest Pokémon Center's nurse, as the story's pilot finds it (None without maps)."""
    from engine.story.graph import story_graph
    from engine.tactician.explorer import Explorer
    from engine.tactician.pilot import Pilot

    if role.world is None:
        return None
    return Pilot(role.world, story_graph(), Explorer(role.world), stuck_legs=1).nearest_center


def _progress(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def _print(report: TripReport, options: GotoOptions) -> None:
    if options.json:
        json.dump(report.as_json(), sys.stdout, indent=2)
        sys.stdout.write("\n")
        return
    facts = report.as_json()
    verdict = "arrived at" if report.arrived else f"did not reach {options.to} ({report.reason}); stopped at"
    print(f"{verdict} {facts['map']} ({facts['x']}, {facts['y']}): {report.steps} steps "
          f"({report.planned_steps} planned), {report.frames} frames, {len(report.battles)} battles, "
          f"{len(report.interruptions)} interruptions, {report.wall_seconds:.2f} s")  # fmt: skip
