"""Lesson memory and the Reflection role for a command that is not a run: the running engine's actors
(`--address`), or the data directory's memory opened in this process (which refuses while an engine has
it open)."""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from engine.commands.arguments import add_config, add_json
from engine.errors import UserInputError

if TYPE_CHECKING:
    from engine.config import EngineConfig
    from engine.memory.port import MemoryPort
    from engine.procedural.scope import Scope


@dataclass(frozen=True)
class MemorySource:
    """Whose memory a command reads: the data directory's, or the running engine's at `address`."""

    data_dir: Path
    address: str | None
    config: Path | None

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> MemorySource:
        return cls(data_dir=args.data_dir, address=args.address, config=args.config)

    def load_config(self) -> EngineConfig:
        from engine.config import load_config

        return load_config(self.config)


def add_memory_source(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--data-dir", type=Path, default=Path("."), help="whose memory/ and runs/ (default: here)"
    )
    command.add_argument(
        "--address",
        metavar="ADDR",
        help="ask the engine running on this Ray cluster instead ('auto': the one on this machine); "
        "needed while that engine has the data directory's memory open",
    )
    add_config(command)
    add_json(command, "print a JSON report on stdout")


def memory_dir(data_dir: Path) -> Path:
    from engine.layout import RunPaths

    return RunPaths(data_dir=data_dir, run_id="-").memory


def config_scope(config: EngineConfig) -> Scope:
    """The (harness level, model) whose lessons a run with this config learns and recalls."""
    from engine.procedural.scope import scope_for

    return scope_for(config.harness, config.models)


@contextmanager
def memory_access(
    config: EngineConfig,
    data_dir: Path,
    address: str | None,
    *,
    must_exist: bool = True,
    scope: Scope | None = None,
) -> Iterator[MemoryPort]:
    """`scope`: whose lessons in the data directory's memory (default: the config's, `config_scope`); the
    running engine's memory (`address`) is its own run's scope."""
    if address is not None:
        from engine.actors.live import live_role
        from engine.runtime.cluster import ray_connection

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
    from engine.memory.service import LessonMemory

    memory = LessonMemory(config.memory, directory, scope=scope or config_scope(config))
    try:
        yield memory
    finally:
        memory.close()
