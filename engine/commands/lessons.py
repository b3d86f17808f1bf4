"""`engine lessons list|search`: what the engine has learned, newest first or by relevance."""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, TextIO

from engine.commands.access import MemorySource, add_memory_source
from engine.commands.arguments import Subparsers, positive

if TYPE_CHECKING:
    from engine.memory.lessons import Lesson


@dataclass(frozen=True)
class LessonsOptions:
    action: Literal["list", "search"]
    query: str | None
    kind: str | None  # a LessonKind
    last: int
    source: MemorySource
    as_json: bool


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
        choices=["type_matchup", "move", "opponent", "resource", "sequence"],
        help="only this kind",
    )
    listing.add_argument("-n", "--last", type=positive, default=50, help="how many (default 50)")
    add_memory_source(listing)
    search = actions.add_parser(
        "search", help="by relevance to a text", description="Lessons ranked by relevance to QUERY."
    )
    search.add_argument("query", help='e.g. "SQUIRTLE vs ONIX ROCK GROUND"')
    search.add_argument("-n", "--last", type=positive, default=10, help="how many (default 10)")
    add_memory_source(search)
    lessons.set_defaults(handler=execute)


def execute(args: argparse.Namespace) -> int:
    options = LessonsOptions(
        action=args.action, query=getattr(args, "query", None), kind=getattr(args, "kind", None),
        last=args.last, source=MemorySource.from_args(args), as_json=args.json,
    )  # fmt: skip
    return show_lessons(options, sys.stdout)


def show_lessons(options: LessonsOptions, out: TextIO) -> int:
    from engine.commands.access import memory_access
    from engine.memory.lessons import decayed_confidence
    from engine.memory.view import print_lessons

    config = options.source.load_config()
    rate = config.memory.decay_per_hour
    with memory_access(config, options.source.data_dir, options.source.address) as memory:
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
    print_lessons(rows, now, options.as_json, out)
    return 0
