"""Finding the roles of an engine that runs on a Ray cluster (`--address`), by their actor names.

Actors are named `<run id>/<role>` in the configured namespace and run ids sort by start time, so "the
running engine" is the newest run whose conductor is alive.
"""

from __future__ import annotations

from typing import Any

from engine.actors.handles import RoleHandle
from engine.errors import UserInputError

CONDUCTOR_SUFFIX = "/conductor"


class NoRunningEngineError(UserInputError):
    """--address was given but no engine runs there."""


def conductor_names(namespace: str) -> list[str]:
    import ray

    named = ray.util.list_named_actors(all_namespaces=True)
    return sorted(
        entry["name"]
        for entry in named
        if entry["namespace"] == namespace and entry["name"].endswith(CONDUCTOR_SUFFIX)
    )


def live_role(namespace: str, role: str) -> RoleHandle[Any]:
    """A handle on `role` of the newest running engine in `namespace` (the caller has connected)."""
    import ray

    from engine.actors.ray_handles import RayHandle

    runs = [name.removesuffix(CONDUCTOR_SUFFIX) for name in conductor_names(namespace)]
    if not runs:
        raise NoRunningEngineError(
            f"no engine is running in namespace {namespace!r} on that cluster: leave out --address to work "
            "on the data directory directly"
        )
    name = f"{runs[-1]}/{role}"
    try:
        actor = ray.get_actor(name, namespace=namespace)
    except ValueError as exc:
        raise NoRunningEngineError(f"the running engine {runs[-1]} has no {role} actor") from exc
    return RayHandle(role, actor)
