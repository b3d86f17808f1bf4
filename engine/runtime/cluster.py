"""Connecting to Ray: a private local instance, the machine's `ray start --head` cluster, or an address.

A wrong address must fail in seconds with one line, not a traceback after Ray's minute of retries, so an
explicit address is probed with a plain TCP connect first. An explicit address naming the local cluster
is connected to as `auto`: Ray picks up the local auth token only for `auto`, and otherwise fails with a
vague error after ~20 s.
"""

from __future__ import annotations

import logging
import socket
from collections.abc import Iterator
from contextlib import contextmanager

from engine.actors.errors import ClusterUnavailableError

log = logging.getLogger("engine.run")
PROBE_SECONDS = 3.0
AUTO = "auto"
AUTH_HINT = (
    "if the cluster uses token authentication, set RAY_AUTH_MODE=token (and the same token) in this shell, "
    "or use --address auto on the cluster's own machine"
)


def _host_port(address: str) -> tuple[str, int]:
    bare = address.removeprefix("ray://")
    host, _, port = bare.rpartition(":")
    if not host or not port.isdigit():
        raise ClusterUnavailableError(f"--address {address}: expected 'auto' or HOST:PORT")
    return host, int(port)


def _probe(address: str) -> None:
    host, port = _host_port(address)
    try:
        with socket.create_connection((host, port), timeout=PROBE_SECONDS):
            pass
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise ClusterUnavailableError(f"no Ray cluster answers at {address} ({reason})") from exc


def _local_cluster_alias(address: str) -> str:
    """`auto` when `address` is the cluster `ray start` recorded on this machine, else `address`."""
    try:
        from ray._private.services import canonicalize_bootstrap_address
        from ray._private.utils import read_ray_address

        recorded = read_ray_address()
        if recorded and canonicalize_bootstrap_address(address) == canonicalize_bootstrap_address(recorded):
            return AUTO
    except Exception as exc:  # private Ray helpers: if they move, connect with the address as given
        log.debug("could not compare %s with the local cluster: %s", address, exc)
    return address


def connect(address: str | None, namespace: str, *, log_to_driver: bool = True) -> None:
    """`address` None starts a private instance for this process; otherwise attach to a running one."""
    import ray

    if address is None:
        log.info(
            "starting a private Ray instance (for the dashboard, run `ray start --head` and --address auto)"
        )
        # include_dashboard=False: a private instance lives as long as one run; the dashboard would cost
        # seconds of start-up and a few hundred MB for nobody to look at.
        ray.init(
            address="local",
            namespace=namespace,
            include_dashboard=False,
            logging_level=logging.ERROR,  # Ray's notices (e.g. that it made an auth token) are not ours
            log_to_driver=log_to_driver,
        )
        return
    target = address if address == AUTO else _local_cluster_alias(address)
    if target != AUTO:
        _probe(target)
    try:
        ray.init(
            address=target, namespace=namespace, logging_level=logging.ERROR, log_to_driver=log_to_driver
        )
    except ConnectionError as exc:
        if target == AUTO:
            raise ClusterUnavailableError(
                "no Ray cluster is running on this machine (--address auto): start one with "
                "`ray start --head`, or leave out --address for a private one"
            ) from exc
        raise ClusterUnavailableError(f"cannot join the Ray cluster at {address}: {AUTH_HINT}") from exc
    except (RuntimeError, ValueError) as exc:  # e.g. auth required but no token in this environment
        raise ClusterUnavailableError(f"cannot join the Ray cluster at {address}: {exc}") from exc
    log.debug(
        "attached to the Ray cluster at %s (namespace %s)", ray.get_runtime_context().gcs_address, namespace
    )


@contextmanager
def ray_connection(address: str | None, namespace: str, *, log_to_driver: bool = True) -> Iterator[None]:
    """Connected for the block, disconnected (a private instance: stopped) after it. A Ray already
    initialised in this process (tests, notebooks) is used as it is and left running."""
    import ray

    if ray.is_initialized():
        if address not in (None, AUTO):
            _probe(address)  # a wrong address is still an error, whatever this process is connected to
        yield
        return
    connect(address, namespace, log_to_driver=log_to_driver)
    try:
        yield
    finally:
        ray.shutdown()
