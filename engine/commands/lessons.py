"""`engine lessons list|search`: what the engine has learned, newest first or by relevance, in one
(harness level, model) scope: `--harness` and `--model` pick it (default: the config's, by the rule in
engine/procedural/scope.py)."""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, TextIO

from engine.commands.access import MemorySource, add_memory_source
from engine.commands.arguments import Subparsers, positive
from engine.errors import UserInputError

if TYPE_CHECKING:
    from engine.config import EngineConfig
    from engine.memory.lessons import Lesson
    from engine.procedural.scope import Scope

# engine.config.HarnessLevel (a test keeps them equal; the parser is built without loading the config).
HARNESS_LEVELS = ("engine", "decisions", "buttons", "vision")
MODEL_NAME_MAX = 200


@dataclass(frozen=True)
class LessonsOptions:
    action: Literal["list", "search"]
    query: str | None
    kind: str | None  # a LessonKind
    last: int
    source: MemorySource
    as_json: bool
    harness: str | None = None  # a HarnessLevel; None: the config's
    model: str | None = None  # None: the model the scope rule gives for the level


def model_name(value: str) -> str:
    name = value.strip()
    if not name or len(name) > MODEL_NAME_MAX:
        raise argparse.ArgumentTypeError(f"a model id of 1 to {MODEL_NAME_MAX} characters, not {value!r}")
    return name


def add_scope(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--harness",
        choices=HARNESS_LEVELS,
        help="the harness level whose lessons to show (default: the config's harness.level)",
    )
    command.add_argument(
        "--model",
        type=model_name,
        metavar="NAME",
        help="the model whose lessons to show, e.g. claude-haiku-4-5 or rule_based (default: the model "
        "the level's decisions start on in the config)",
    )


def chosen_scope(config: EngineConfig, harness: str | None, model: str | None) -> Scope:
    """The scope the options name, the config filling in what they leave out."""
    from engine.procedural.scope import Scope, scope_model

    level = config.harness.level if harness is None else harness
    chosen = config.harness.model_copy(update={"level": level})
    return Scope.model_validate({"level": level, "model": model or scope_model(chosen, config.models)})


def register(commands: Subparsers) -> None:
    lessons = commands.add_parser(
        "lessons",
        help="show the lessons learned from battles",
        description="Show lesson memory: kind, confidence now (after decay with play time) and as "
        "stored, evidence (battles), structured keys, measured numbers and text.",
    )
    actions = lessons.add_subparsers(dest="action", metavar="ACTION", required=True)
    listing = actions.add_parser("list", help="newest first", description="Lessons, newest first.")
    listing.add_argument(
        "--kind",
        choices=["type_matchup", "move", "opponent", "resource", "sequence", "outcome"],
        help="only this kind",
    )
    listing.add_argument("-n", "--last", type=positive, default=50, help="how many (default 50)")
    add_scope(listing)
    add_memory_source(listing)
    search = actions.add_parser(
        "search", help="by relevance to a text", description="Lessons ranked by relevance to QUERY."
    )
    search.add_argument("query", help='e.g. "SQUIRTLE vs ONIX ROCK GROUND"')
    search.add_argument("-n", "--last", type=positive, default=10, help="how many (default 10)")
    add_scope(search)
    add_memory_source(search)
    lessons.set_defaults(handler=execute)


def execute(args: argparse.Namespace) -> int:
    options = LessonsOptions(
        action=args.action, query=getattr(args, "query", None), kind=getattr(args, "kind", None),
        last=args.last, source=MemorySource.from_args(args), as_json=args.json, harness=args.harness,
        model=args.model,
    )  # fmt: skip
    return show_lessons(options, sys.stdout)


def show_lessons(options: LessonsOptions, out: TextIO) -> int:
    from engine.commands.access import memory_access
    from engine.memory.lessons import decayed_confidence
    from engine.memory.view import print_lessons

    config = options.source.load_config()
    rate = config.memory.decay_per_hour
    address = options.source.address
    if address is not None and (options.harness is not None or options.model is not None):
        raise UserInputError(
            "--harness and --model pick a scope in the data directory's memory; with --address the "
            "running engine shows its own run's lessons"
        )
    scope = chosen_scope(config, options.harness, options.model)
    with memory_access(config, options.source.data_dir, address, scope=scope) as memory:
        now = memory.play_hours()
        if options.action == "search":
            found = memory.search(options.query or "", options.last)
            rows: list[tuple[Lesson, float, float | None]] = [
                (lesson, decayed_confidence(lesson, now, rate), score) for lesson, score in found
            ]
        else:
            listed = memory.lessons(options.kind)  # type: ignore[arg-type]  # the parser offers the kinds
            rows = [
                (lesson, decayed_confidence(lesson, now, rate), None) for lesson in listed[: options.last]
            ]
    print_lessons(rows, now, options.as_json, out, scope=None if address is not None else scope)
    return 0
