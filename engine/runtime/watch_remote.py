"""`engine watch`: the live page of an engine that runs on a Ray cluster, served from this process.

The conductor actor keeps a board of views that it fills only while someone asks (see LivePublisher);
this side asks it for the newest view a few times a second and puts it on a board of its own, which the
same page server as `--watch` serves. When the run ends the page keeps its last view.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from engine.actors.live import CONDUCTOR_SUFFIX, NoRunningEngineError, conductor_names
from engine.watch.view import LiveBoard, LiveFeed

log = logging.getLogger("engine.watch")
FETCH_SECONDS = 0.25  # as often as the conductor makes views
ANSWER_SECONDS = 10.0  # the conductor answers between two of its calls; a long leg may keep it a while


def find_conductor(namespace: str, run_id: str | None) -> tuple[str, Any]:
    """(run id, conductor actor) of `run_id`, or of the newest running engine in `namespace`."""
    import ray

    runs = [name.removesuffix(CONDUCTOR_SUFFIX) for name in conductor_names(namespace)]
    if not runs:
        raise NoRunningEngineError(f"no engine is running in namespace {namespace!r} on that cluster")
    if run_id is not None and run_id not in runs:
        raise NoRunningEngineError(f"no running engine has the run id {run_id} (running: {', '.join(runs)})")
    chosen = run_id or runs[-1]
    return chosen, ray.get_actor(f"{chosen}{CONDUCTOR_SUFFIX}", namespace=namespace)


def follow(conductor: Any, board: LiveBoard, stop: threading.Event) -> str:
    """Copy the conductor's views onto `board` until `stop` is set (returns "stopped") or the conductor
    is gone (returns why)."""
    import ray
    from ray.exceptions import GetTimeoutError, RayActorError

    seen = -1
    while not stop.is_set():
        try:
            feed: LiveFeed = ray.get(conductor.live_view.remote(), timeout=ANSWER_SECONDS)
        except GetTimeoutError:
            log.debug("the conductor did not answer in %.0f s: asking again", ANSWER_SECONDS)
            continue
        except RayActorError as exc:
            return _ended(board, exc)
        if feed.view is not None and feed.version != seen:
            seen = feed.version
            board.publish(feed.view, feed.screen or None)
        stop.wait(FETCH_SECONDS)
    return "stopped"


def _ended(board: LiveBoard, exc: Exception) -> str:
    """Why the conductor is gone: the run's own last word when the page saw it stop, else Ray's."""
    _, view, _ = board.latest()
    if view is not None and view.phase in ("stopped", "failed"):
        return f"run {view.run_id} has ended ({view.phase})"
    first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return f"the run's conductor is gone ({first[:160]})"
