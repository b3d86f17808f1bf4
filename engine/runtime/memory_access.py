"""The lesson memory for a command that is not a run: the running engine's memory actor (`--address`), or
the data directory's memory opened in this process (which refuses while an engine has it open)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from engine.config import EngineConfig
from engine.errors import UserInputError
from engine.layout import RunPaths
from engine.memory.port import MemoryPort
from engine.memory.service import LessonMemory


def memory_dir(data_dir: Path) -> Path:
    return RunPaths(data_dir=data_dir, run_id="-").memory


@contextmanager
def memory_access(
    config: EngineConfig, data_dir: Path, address: str | None, *, must_exist: bool = True
) -> Iterator[MemoryPort]:
    if address is not None:
        from engine.runtime.cluster import ray_connection
        from engine.runtime.live import live_role

        namespace = config.runtime.namespace
        with ray_connection(address, namespace, log_to_driver=False):
            yield live_role(namespace, "memory").call
        return
    if not config.memory.enabled:
        raise UserInputError("lesson memory is turned off in the config (memory.enabled: false)")
    directory = memory_dir(data_dir)
    if must_exist and config.memory.backend == "embedded" and not directory.is_dir():
        raise UserInputError(
            f"no lesson memory in {data_dir} (the first `engine run --data-dir {data_dir}` makes it)"
        )
    memory = LessonMemory(config.memory, directory)
    try:
        yield memory
    finally:
        memory.close()
