"""`engine lessons list|search`: what the engine has learned, newest first or by relevance."""

from __future__ import annotations

import argparse
import sys

from engine.config import EngineConfig
from engine.memory.lessons import Lesson, decayed_confidence
from engine.memory.view import print_lessons
from engine.runtime.memory_access import memory_access


def lessons_command(config: EngineConfig, args: argparse.Namespace) -> int:
    rate = config.memory.decay_per_hour
    with memory_access(config, args.data_dir, args.address) as memory:
        now: float = memory.play_hours()
        if args.action == "search":
            found: list[tuple[Lesson, float]] = memory.search(args.query, args.last)
            rows = [(lesson, decayed_confidence(lesson, now, rate), score) for lesson, score in found]
        else:
            listed: list[Lesson] = memory.lessons(args.kind)
            rows = [(lesson, decayed_confidence(lesson, now, rate), None) for lesson in listed[: args.last]]
    print_lessons(rows, now, args.json, sys.stdout)
    return 0
