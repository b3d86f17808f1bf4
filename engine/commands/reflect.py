"""`engine reflect --battle ID`: the five reflection phases on a stored battle, now.

Standalone, it builds what a run would (the model gateway from the config and the keys in this
environment, the data directory's lesson memory) and reflects in this process; model calls are logged to
the battle's run (llm.jsonl). With --address the running engine's Reflection actor does it, with that
engine's gateway and memory.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from engine.commands.access import MemorySource, add_memory_source
from engine.commands.arguments import Subparsers

if TYPE_CHECKING:
    from engine.config import EngineConfig
    from engine.reflection.report import ReflectionReport


def _standalone(config: EngineConfig, data_dir: Path, log_path: Path) -> ReflectionReport:
    from engine.commands.access import memory_access
    from engine.layout import RunPaths
    from engine.llm.gateway import ModelGateway, secrets_from
    from engine.reflection.inbox import Reflection

    secrets = secrets_from(config.models, os.environ)
    run_dir = log_path.parent.parent
    llm_log = RunPaths(data_dir=run_dir.parent.parent, run_id=run_dir.name).llm_log
    gateway = ModelGateway(config.models, config.llm, secrets, log_path=llm_log)
    try:
        with memory_access(config, data_dir, None, must_exist=False) as memory:
            reflection = Reflection(config.routing, gateway, memory)
            return reflection.reflect_now(str(log_path))
    finally:
        gateway.close()


def _on_engine(config: EngineConfig, address: str, log_path: Path) -> ReflectionReport:
    from engine.actors.live import live_role
    from engine.reflection.port import ReflectionPort
    from engine.runtime.cluster import ray_connection

    namespace = config.runtime.namespace
    with ray_connection(address, namespace, log_to_driver=False):
        reflection: ReflectionPort = live_role(namespace, "reflection").call
        return reflection.reflect_now(str(log_path.resolve()))


def render_report(report: ReflectionReport, out: TextIO) -> None:
    lines = [
        f"battle {report.battle_id}: {report.outcome} ({report.battle_type} vs {report.opponent})",
        f"failure: {report.failure.kind}"
        + (f" - {'; '.join(report.failure.reasons)}" if report.failure.reasons else ""),
        f"synthesized by: {', '.join(report.synthesized_by)}"
        + (f" (model skipped: {report.model_skipped})" if report.model_skipped else ""),
    ]
    if report.selection is not None and report.selection.calls:
        lines.append(f"model cost: ${report.selection.cost_usd:.4f}, {report.selection.latency_s:.1f} s")
    lines.append(f"accepted {len(report.accepted)}:")
    lines += [f"  + [{lesson.kind}] {lesson.text}" for lesson in report.accepted]
    lines.append(f"rejected {len(report.rejected)}:")
    lines += [
        f"  - {rejection.text} ({rejection.reason}; from {rejection.by})" for rejection in report.rejected
    ]
    lines.append(f"memory: {report.memory}, {len(report.stored)} lessons stored or merged")
    if report.error:
        lines.append(f"error: {report.error}")
    out.write("\n".join(lines) + "\n")


@dataclass(frozen=True)
class ReflectOptions:
    battle: str
    source: MemorySource
    as_json: bool


def register(commands: Subparsers) -> None:
    reflect = commands.add_parser(
        "reflect",
        help="re-run reflection on a stored battle",
        description="Run the five reflection phases (failure detection, forensics, insight synthesis, "
        "validation, memory) on a logged battle and print what was accepted and rejected and why. "
        "Standalone it uses the data directory's memory and the configured model tiers (keys from the "
        "environment); with --address the running engine's Reflection actor does it.",
    )
    reflect.add_argument(
        "--battle", required=True, metavar="ID", help="battle id, e.g. 20261122-101500-3fa9-b002"
    )
    add_memory_source(reflect)
    reflect.set_defaults(handler=execute)


def execute(args: argparse.Namespace) -> int:
    options = ReflectOptions(battle=args.battle, source=MemorySource.from_args(args), as_json=args.json)
    return reflect(options, sys.stdout)


def reflect(options: ReflectOptions, out: TextIO) -> int:
    """Exit code 1 when the reflection reports an error (a failing model or memory), else 0."""
    config = options.source.load_config()
    data_dir, address = options.source.data_dir, options.source.address
    from engine.battles.files import battle_log_path

    log_path = battle_log_path(data_dir, options.battle)
    if address is not None:
        report = _on_engine(config, address, log_path)
    else:
        report = _standalone(config, data_dir, log_path)
    if options.as_json:
        json.dump(report.model_dump(mode="json"), out, indent=2, ensure_ascii=False)
        out.write("\n")
    else:
        render_report(report, out)
    return 1 if report.error else 0
