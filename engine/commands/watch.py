"""`engine watch`: serve the live page of an engine running on a Ray cluster."""

from __future__ import annotations

import argparse
import logging
import threading
from collections.abc import Callable

from engine.commands.arguments import Subparsers, add_config, port_number

log = logging.getLogger("engine.watch")
DEFAULT_PORT = 8765


def register(commands: Subparsers) -> None:
    watch = commands.add_parser(
        "watch",
        help="serve the live page of an engine running on a Ray cluster",
        description="Serve, from this process, the page `engine run --watch` serves (screen, objective, "
        "minimap, decisions, party, battle, milestones, lessons, cost), fed by the running engine's "
        "conductor. Stop with Ctrl-C; when the run ends the page keeps its last view.",
    )
    watch.add_argument(
        "--address", metavar="ADDR", default="auto",
        help="the Ray cluster the engine runs on (default 'auto': the one running on this machine)",
    )  # fmt: skip
    watch.add_argument(
        "--port", type=port_number, default=DEFAULT_PORT, help=f"page port (default {DEFAULT_PORT})"
    )
    watch.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)"
    )
    watch.add_argument("--run", metavar="RUN_ID", help="which running engine (default: the newest)")
    watch.add_argument(
        "--namespace", metavar="NS", help="Ray namespace of the runs (default: from the config)"
    )
    add_config(watch)
    watch.set_defaults(handler=execute)


def execute(args: argparse.Namespace) -> int:
    from engine.config import load_config

    namespace = args.namespace or load_config(args.config).runtime.namespace
    stop = threading.Event()
    try:
        serve_remote(args.address, namespace, args.run, (args.host, args.port), stop)
    except KeyboardInterrupt:
        stop.set()
    return 0


def serve_remote(
    address: str, namespace: str, run_id: str | None, listen: tuple[str, int], stop: threading.Event,
    on_ready: Callable[[str], None] | None = None,
) -> str:  # fmt: skip
    """Serve the page until `stop` is set; `on_ready` is given the page's URL once it is up. Returns why
    following the run ended ("stopped", or that the run ended)."""
    from engine.runtime.cluster import ray_connection
    from engine.runtime.live import check_can_listen
    from engine.runtime.watch_remote import find_conductor, follow
    from engine.watch.server import LOOPBACK, WatchServer
    from engine.watch.view import LiveBoard

    check_can_listen(*listen, option="--port")  # before connecting: a taken port is one line, at once
    with ray_connection(address, namespace, log_to_driver=False, probe_actors=False):
        run, conductor = find_conductor(namespace, run_id)
        board = LiveBoard()
        server = WatchServer(board, *listen).start()
        try:
            if listen[0] not in LOOPBACK:
                log.warning(
                    "the live page listens on %s: anyone who can reach this machine can watch", listen[0]
                )
            log.info("watching run %s at %s (Ctrl-C to stop)", run, server.url)
            if on_ready is not None:
                on_ready(server.url)
            why = follow(conductor, board, stop)
            if why != "stopped":
                log.info("%s: the page keeps its last view (Ctrl-C to stop)", why)
                stop.wait()
            return why
        finally:
            server.stop()
