"""`engine status`: what the engine running on a Ray cluster is doing."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, TextIO

from engine.commands.arguments import Subparsers, add_config, add_json

if TYPE_CHECKING:
    from engine.messages import RoleReport, RunStatus

EXIT_FOUND, EXIT_NONE = 0, 1


@dataclass(frozen=True)
class StatusOptions:
    address: str
    namespace: str | None
    as_json: bool


def register(commands: Subparsers) -> None:
    status = commands.add_parser(
        "status",
        help="print the state of the engine running on a Ray cluster",
        description="Ask the live conductor(s) in the namespace for their run: run id, state, current "
        "battle or map, decisions, frames, last checkpoint tick and each role's health. Exit code 1 "
        "when no engine is running, 2 when nothing answers at an explicit --address.",
    )
    status.add_argument(
        "--address",
        metavar="ADDR",
        default="auto",
        help="the Ray cluster to ask (default 'auto': the one running on this machine)",
    )
    status.add_argument(
        "--namespace", metavar="NS", help="Ray namespace of the runs (default: from the config)"
    )
    add_config(status)
    add_json(status)
    status.set_defaults(handler=execute)


def execute(args: argparse.Namespace) -> int:
    from engine.config import load_config

    options = StatusOptions(address=args.address, namespace=args.namespace, as_json=args.json)
    namespace = options.namespace or load_config(args.config).runtime.namespace
    return show_status(options, namespace, sys.stdout)


def _counters(report: RoleReport) -> str:
    return " ".join(f"{key}={value:g}" for key, value in report.counters.items() if value >= 0)


def _models_line(status: RunStatus) -> str:
    gateway = next((report for report in status.roles if report.role == "gateway"), None)
    if gateway is None or not gateway.healthy:
        return "unknown (the gateway did not answer)"
    c = gateway.counters
    return (
        f"{c.get('llm_calls', 0):g} calls, {c.get('tokens_in', 0):g} tokens in, "
        f"{c.get('tokens_out', 0):g} out, ${c.get('cost_usd', 0.0):.4f}, "
        f"{c.get('fallbacks', 0):g} fallbacks to rule_based ({gateway.detail})"
    )


def render(status: RunStatus) -> str:
    since = status.seconds_since_checkpoint
    checkpoint = "none yet" if since is None else f"{since:.1f} s ago"
    lines = [
        f"run {status.run_id} ({status.game}): {status.state}",
        f"  where        {status.where}",
        f"  battles      {status.battles}",
        f"  decisions    {status.decisions}",
        f"  frames       {status.frames}",
        f"  checkpoint   {checkpoint}",
        f"  models       {_models_line(status)}",
        "  roles",
    ]
    for report in status.roles:
        health = "ok" if report.healthy else "DOWN"
        detail = f"  {report.detail}" if report.detail else ""
        lines.append(f"    {report.role:<11} {health:<5} {_counters(report)}{detail}".rstrip())
    return "\n".join(lines)


def print_status(statuses: list[RunStatus], as_json: bool, namespace: str, out: TextIO) -> None:
    if as_json:
        runs = [status.model_dump(mode="json") for status in statuses]
        json.dump({"namespace": namespace, "runs": runs}, out, indent=2, ensure_ascii=False)
        out.write("\n")
        return
    out.write("\n\n".join(render(status) for status in statuses) + "\n")


def show_status(options: StatusOptions, namespace: str, out: TextIO) -> int:
    from engine.actors.errors import ClusterUnavailableError
    from engine.runtime.cluster import AUTO, ray_connection
    from engine.runtime.status import ask_conductors

    try:
        # log_to_driver=False: a status query must not echo the running engine's log lines; it starts no
        # actor of its own, so the cluster is not probed for that.
        with ray_connection(options.address, namespace, log_to_driver=False, probe_actors=False):
            statuses, problems = ask_conductors(namespace)
    except ClusterUnavailableError as exc:
        if options.address != AUTO:
            raise  # an address that answers nothing is bad input, as for every other command (exit 2)
        print(f"engine: no running engine: {exc}", file=sys.stderr)
        return EXIT_NONE
    for problem in problems:
        print(f"engine: {problem}", file=sys.stderr)
    if not statuses:
        if not problems:
            print(f"engine: no running engine in namespace {namespace!r}", file=sys.stderr)
        return EXIT_NONE
    print_status(statuses, options.as_json, namespace, out)
    return EXIT_FOUND
