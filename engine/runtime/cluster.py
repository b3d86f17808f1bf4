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
from typing import Any

from engine.actors.errors import ClusterUnavailableError
from engine.runtime.signals import handlers_kept

log = logging.getLogger("engine.run")
PROBE_SECONDS = 3.0
AUTO = "auto"
AUTH_HINT = (
    "if the cluster uses token authentication, set RAY_AUTH_MODE=token (and the same token) in this shell, "
    "or use --address auto on the cluster's own machine"
)
PROBE_ACTOR_SECONDS = 60.0  # a worker process starts in ~1 s; a busy cluster may queue it a while
NEVER_STARTED = (
    "the Ray cluster at {address} cannot start the engine's actors ({detail}); the usual cause is token "
    "authentication set up differently here and in `ray start --head`: set RAY_AUTH_MODE the same way in "
    "every shell (unset everywhere, or RAY_AUTH_MODE=token everywhere with the token created by "
    "`ray get-auth-token --generate` before `ray start --head`), then start the cluster again"
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


def connect(
    address: str | None, namespace: str, *, log_to_driver: bool = True, probe_actors: bool = True
) -> None:
    """`address` None starts a private instance for this process; otherwise attach to a running one and,
    with `probe_actors`, check that it can start an actor."""
    import ray

    if address is None:
        log.info(
            "starting a private Ray instance (for the dashboard, run `ray start --head` and --address auto)"
        )
        # include_dashboard=False: a private instance lives as long as one run; the dashboard would cost
        # seconds of start-up and a few hundred MB for nobody to look at.
        with handlers_kept():  # ray.init would set SIGTERM's handler to exit at once
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
        with handlers_kept():
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
    if probe_actors:
        try:
            check_actors_start(address)
        except ClusterUnavailableError:
            ray.shutdown()
            raise


def _probe_class() -> Any:
    import ray

    @ray.remote(num_cpus=0)
    class EngineProbe:
        def ping(self) -> bool:
            return True

    return EngineProbe


def check_actors_start(address: str, probe_class: Any = None, timeout: float = PROBE_ACTOR_SECONDS) -> None:
    """Start one tiny actor and wait for it: a cluster that accepts a client but never starts its actors
    (token authentication on one side only) would otherwise surface later as 'the emulator actor died'.
    `probe_class`: a Ray actor class with a `ping` method (tests give one that cannot start)."""
    import ray
    from ray.exceptions import GetTimeoutError, RayActorError

    probe = (probe_class or _probe_class()).remote()
    try:
        ray.get(probe.ping.remote(), timeout=timeout)
    except (RayActorError, GetTimeoutError) as exc:
        detail = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ClusterUnavailableError(NEVER_STARTED.format(address=address, detail=detail)) from exc
    finally:
        ray.kill(probe)


@contextmanager
def ray_connection(
    address: str | None, namespace: str, *, log_to_driver: bool = True, probe_actors: bool = True
) -> Iterator[None]:
    """Connected for the block, disconnected (a private instance: stopped) after it. A Ray already
    initialised in this process (tests, notebooks) is used as it is and left running."""
    import ray

    if ray.is_initialized():
        if address not in (None, AUTO):
            _probe(address)  # a wrong address is still an error, whatever this process is connected to
        yield
        return
    connect(address, namespace, log_to_driver=log_to_driver, probe_actors=probe_actors)
    try:
        yield
    finally:
        ray.shutdown()
