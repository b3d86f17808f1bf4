"""`engine story`: the story's objectives, in order, and where a save state stands in them."""

from __future__ import annotations

import argparse
from pathlib import Path

from engine.commands.arguments import Subparsers, add_config


def register(commands: Subparsers) -> None:
    story = commands.add_parser(
        "story",
        help="list the story's objectives and milestones (done and open ones for a save state)",
        description="Print the objective graph the engine plays by: each objective's name (for "
        "`engine run --until NAME`), its title, its milestone number among the twelve, what it comes after "
        "and its plan. With --rom and --state, each is marked done, open or waiting for that save state.",
    )
    story.add_argument("--rom", type=Path, help="cartridge image of Pokémon Red or Blue (with --state)")
    story.add_argument("--state", type=Path, help="PyBoy save state made with the same ROM")
    add_config(story)
    story.set_defaults(handler=execute)


def execute(args: argparse.Namespace) -> int:
    from engine.story.graph import story_graph

    graph = story_graph()
    marks: dict[str, str] = {}
    if args.state is not None or args.rom is not None:
        marks = _marks(args)
    for objective in graph.objectives:
        number = f"{objective.milestone:>2}" if objective.milestone else "  "
        optional = " (optional)" if objective.optional else ""
        mark = f"[{marks.get(objective.name, ' ')}] " if marks else ""
        after = f"  after {', '.join(objective.after)}" if objective.after else ""
        print(f"{mark}{number} {objective.name:<20} {objective.title}{optional}{after}")
        for step in objective.steps:
            print(f"{'':{len(mark) + 4}}- {step.words()}")
    if marks:
        print("[x] done  [>] open now  [ ] waiting for an earlier objective")
    return 0


def _marks(args: argparse.Namespace) -> dict[str, str]:
    from engine.config import load_config
    from engine.emulator.session import open_session
    from engine.errors import UserInputError
    from engine.game.state import decode_state
    from engine.story.graph import story_graph

    if args.rom is None or args.state is None:
        raise UserInputError("engine story: --rom and --state go together")
    config = load_config(args.config)
    with open_session(args.rom, config.emulator) as session:
        session.load_state_file(args.state)
        state = decode_state(session.memory_image(), session.ram_map)
    graph = story_graph()
    done = graph.done(state)
    open_now = {objective.name for objective in graph.open(state, done)}
    return {name: "x" for name in done} | {name: ">" for name in open_now}
