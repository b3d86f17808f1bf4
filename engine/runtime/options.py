"""How one run is to go: its cartridge and start, its limits, and the supervisor's settings."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from engine.actors.factory import RoleBuild
from engine.config import EngineConfig, HarnessConfig, KeepBattleStates
from engine.layout import RunPaths
from engine.replay.after_loss import LossReplays

LATEST = "latest"


@dataclass(frozen=True)
class RunOptions:
    rom: Path
    state: Path | None = None
    max_battles: int | None = None
    max_decisions: int | None = None
    watch: tuple[str, int] | None = None  # serve the live page on (host, port) while the run plays
    until: str | None = None  # a story objective (objectives.json name): the run stops once it is done
    seed: int = 0
    max_seconds: float | None = None  # a wall-time budget for the playing (engine arena --budget)
    screenshots: bool = False  # attach the screen to tactical model prompts (llm.screenshots)
    paced: bool = False  # played at a chosen speed (emulator.speed > 0): the live page follows the screen
    # A checkpoint to carry on from instead of starting: its path, or LATEST (this run's newest that
    # verifies). The run id, logs and summary carry on; the limits count over the whole run.
    resume: str | None = None
    resume_reason: str = "engine run --resume"
    resume_skipped: tuple[str, ...] = ()  # newer checkpoints `engine run --resume latest` found broken
    checkpoint_every_decisions: int = 100
    keep_battle_states: KeepBattleStates = "all"  # which battles' start states stay once they are over
    max_recoveries: int = 10
    recovery_timeout: float = 60.0
    harness: HarnessConfig = field(default_factory=HarnessConfig)  # how much the models decide

    def role_build(
        self,
        paths: RunPaths | None,
        secrets: Mapping[str, str] | None = None,
        config: EngineConfig | None = None,
    ) -> RoleBuild:
        """What the roles of this run are built from (with `config`, a lost battle's replays when
        memory.replay_losses asks for them and lessons are kept)."""
        run_id = paths.run_id if paths is not None else "run"
        replays = None
        if config is not None and paths is not None and config.memory.enabled and config.memory.replay_losses:
            replays = LossReplays(self.rom, config.model_dump(mode="json"))
        secrets = dict(secrets or {})
        return RoleBuild(
            rom=self.rom, run_id=run_id, seed=self.seed, paths=paths, secrets=secrets, replays=replays
        )
