"""`engine status`: find the live conductors in a namespace and print what each says about its run."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TextIO

from engine.actors.errors import ClusterUnavailableError
from engine.config import EngineConfig
from engine.messages import RoleReport, RunStatus

EXIT_FOUND, EXIT_NONE = 0, 1
ASK_SECONDS = 15.0  # the conductor asks each role in turn; a role finishing a long verb answers after it
CONDUCTOR_SUFFIX = "/conductor"


def conductor_names(namespace: str) -> list[str]:
    import ray

    named = ray.util.list_named_actors(all_namespaces=True)
    return sorted(
        entry["name"]
        for entry in named
        if entry["namespace"] == namespace and entry["name"].endswith(CONDUCTOR_SUFFIX)
    )


def ask_conductors(namespace: str, timeout: float = ASK_SECONDS) -> tuple[list[RunStatus], list[str]]:
    """The statuses that came back, and one line for each conductor that did not answer."""
    import ray

    statuses: list[RunStatus] = []
    problems: list[str] = []
    for name in conductor_names(namespace):
        try:
            conductor = ray.get_actor(name, namespace=namespace)
            statuses.append(ray.get(conductor.status.remote(), timeout=timeout))
        except Exception as exc:  # it ended between listing and asking, or is stuck: say so, go on
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            problems.append(f"{name.removesuffix(CONDUCTOR_SUFFIX)}: no answer ({first[:200]})")
    return statuses, problems


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


def engine_status(config: EngineConfig, args: argparse.Namespace) -> int:
    from engine.runtime.cluster import AUTO, ray_connection

    namespace = args.namespace or config.runtime.namespace
    try:
        # log_to_driver=False: a status query must not echo the running engine's log lines; it starts no
        # actor of its own, so the cluster is not probed for that.
        with ray_connection(args.address, namespace, log_to_driver=False, probe_actors=False):
            statuses, problems = ask_conductors(namespace)
    except ClusterUnavailableError as exc:
        if args.address != AUTO:
            raise  # an address that answers nothing is bad input, as for every other command (exit 2)
        print(f"engine: no running engine: {exc}", file=sys.stderr)
        return EXIT_NONE
    for problem in problems:
        print(f"engine: {problem}", file=sys.stderr)
    if not statuses:
        if not problems:
            print(f"engine: no running engine in namespace {namespace!r}", file=sys.stderr)
        return EXIT_NONE
    print_status(statuses, args.json, namespace, sys.stdout)
    return EXIT_FOUND
