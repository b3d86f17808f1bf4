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
from pathlib import Path
from typing import TextIO

from engine.config import EngineConfig
from engine.layout import RunPaths
from engine.llm.gateway import ModelGateway, secrets_from
from engine.reflection.inbox import Reflection
from engine.reflection.port import ReflectionPort
from engine.reflection.report import ReflectionReport
from engine.replay.logs import battle_log_path
from engine.runtime.memory_access import memory_access


def _standalone(config: EngineConfig, data_dir: Path, log_path: Path) -> ReflectionReport:
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
    from engine.runtime.cluster import ray_connection
    from engine.runtime.live import live_role

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


def reflect_command(config: EngineConfig, args: argparse.Namespace) -> int:
    log_path = battle_log_path(args.data_dir, args.battle)
    if args.address is not None:
        report = _on_engine(config, args.address, log_path)
    else:
        report = _standalone(config, args.data_dir, log_path)
    if args.json:
        json.dump(report.model_dump(mode="json"), sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        render_report(report, sys.stdout)
    return 1 if report.error else 0
