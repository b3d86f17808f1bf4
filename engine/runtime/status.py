"""What the live conductors of a namespace say about their runs (the caller has connected to Ray)."""

from __future__ import annotations

from engine.actors.live import CONDUCTOR_SUFFIX, conductor_names
from engine.messages import RunStatus

ASK_SECONDS = 15.0  # the conductor asks each role in turn; a role finishing a long verb answers after it


def ask_conductors(namespace: str, timeout: float = ASK_SECONDS) -> tuple[list[RunStatus], list[str]]:
    """The statuses that came back, and one line for each conductor that did not answer."""
    import ray

    statuses: list[RunStatus] = []
    problems: list[str] = []
    for name in conductor_names(namespace):
        try:
            conductor = ray.get_actor(name, namespace=namespace)
            asked: ray.ObjectRef[RunStatus] = conductor.status.remote()
            status = ray.get(asked, timeout=timeout)
            statuses.append(status)
        except Exception as exc:  # it ended between listing and asking, or is stuck: say so, go on
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            problems.append(f"{name.removesuffix(CONDUCTOR_SUFFIX)}: no answer ({first[:200]})")
    return statuses, problems
