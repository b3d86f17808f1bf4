"""`engine run --resume latest|SPEC`: which checkpoint a run carries on from, checked before any actor
starts, so a wrong cartridge or a broken checkpoint costs one clear line and nothing else."""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass
from pathlib import Path

from engine.checkpoints.compat import check_compatible, data_dir_of
from engine.checkpoints.models import Manifest
from engine.checkpoints.store import CheckpointStore
from engine.config import EngineConfig, config_hash
from engine.emulator.rom import read_rom_file
from engine.game.cartridge import identify

log = logging.getLogger("engine.run")


@dataclass(frozen=True)
class ResumePoint:
    path: Path
    manifest: Manifest
    data_dir: Path
    skipped: tuple[str, ...] = ()  # newer checkpoints that failed verification, with what is wrong

    @property
    def run_id(self) -> str:
        return self.manifest.run_id


def find_resume_point(spec: str, data_dir: Path, rom: Path, config: EngineConfig) -> ResumePoint:
    """`latest`: the newest checkpoint under `data_dir` that verifies (a broken newer one is skipped with
    a warning); anything else as `engine checkpoints show` reads it, and it must verify itself."""
    rom_bytes = read_rom_file(rom)
    game, rom_sha256 = identify(rom_bytes).game.value, hashlib.sha256(rom_bytes).hexdigest()

    def check(manifest: Manifest) -> None:
        check_compatible(manifest, game, rom_sha256)

    store = CheckpointStore(data_dir / "checkpoints")
    if spec == "latest":
        loaded = store.latest(None, check)
    else:
        loaded = store.load(store.resolve(spec))
        check(loaded.manifest)
    if loaded.manifest.config_hash != config_hash(config):
        log.warning("the settings differ from those of checkpoint %s: carrying on with the new ones",
                    loaded.name)  # fmt: skip
    skipped = store.broken_newer(loaded.path) if spec == "latest" else ()
    return ResumePoint(loaded.path, loaded.manifest, data_dir_of(loaded.path), skipped)
