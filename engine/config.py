"""One typed configuration tree, built once at start-up and passed down section by section.

Defaults live in the models; `configs/default.yaml` documents every key with the same values (a test
keeps the two equal). A user's `--config FILE` only needs the keys it changes.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import Field, ValidationError, field_validator

from engine.errors import UserInputError
from engine.frozen import Frozen


class ConfigError(UserInputError):
    """The configuration file is unreadable or a value is invalid; the message names the key."""


class Section(Frozen):
    """A config section: frozen, and an unknown key is an error."""


class EmulatorConfig(Section):
    hold_frames: int = Field(4, ge=1, le=60)
    release_frames: int = Field(4, ge=0, le=60)
    check_every_frames: int = Field(2, ge=1, le=60)
    max_wait_frames: int = Field(3600, ge=60, le=216000)
    speed: float = Field(0.0, ge=0.0, le=100.0)  # times the Game Boy's speed; 0: as fast as it goes
    window: bool = False  # PyBoy's own window (needs a display)
    # A game crashed inside PyBoy stops making frames (or runs code from outside ROM and RAM): after this
    # long the session's watchdog takes the CPU back and the session raises GameFrozenError.
    freeze_seconds: float = Field(10.0, ge=0.5, le=3600.0)
    # Frames the game runs untouched after loading the start (or at power-on) before the engine's first
    # input. The game draws its random numbers from a counter that runs with the frames, so another count
    # plays another draw of the same start: `engine arena` sets it from the seed.
    idle_frames_at_start: int = Field(0, ge=0, le=36000)


class PlayerConfig(Section):
    player_name: str = Field("RED", min_length=1, max_length=7, pattern=r"^[A-Z]+$")
    rival_name: str = Field("BLUE", min_length=1, max_length=7, pattern=r"^[A-Z]+$")
    fast_options: bool = True


# Which battles keep their start state (runs/<run id>/battles/<battle id>.state) once they are over.
KeepBattleStates = Literal["all", "trainer_and_losses", "none"]


class CheckpointConfig(Section):
    interval_seconds: float = Field(300.0, ge=1.0, le=86400.0)
    every_decisions: int = Field(100, ge=1, le=1_000_000)
    at_battles: bool = True
    # A wild battle won, fled or drawn is checkpointed at its end only this long after the last checkpoint.
    wild_battle_seconds: float = Field(10.0, ge=0.0, le=86400.0)
    # At least two: a newest checkpoint that fails verification must leave a readable one behind.
    keep: int = Field(5, ge=2, le=1000)
    keep_battle_states: KeepBattleStates = "all"


class RuntimeConfig(Section):
    namespace: str = Field("engine", min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.-]+$")
    max_restarts: int = Field(3, ge=0, le=100)
    max_recoveries: int = Field(10, ge=0, le=1000)
    recovery_timeout_seconds: float = Field(60.0, ge=1.0, le=3600.0)
    # After a stop signal the cycle in progress may finish for this long, then it is abandoned: docker and
    # systemd send SIGKILL ~10 s after SIGTERM, and the checkpoint and summary must be written before.
    stop_grace_seconds: float = Field(5.0, ge=0.0, le=600.0)
    # On Ray, the longest any role call may take before its actor is killed and re-created (a rollback).
    call_timeout_seconds: float = Field(300.0, ge=1.0, le=86400.0)


class StoryConfig(Section):
    # Legs without progress on the objective before each escalation (re-plan, explore, another objective).
    stuck_legs: int = Field(12, ge=1, le=10_000)
    # An objective the run heads for (`engine run --until` sets it): the optional objectives on its way
    # (those it comes after) count as required, so a detour the run would skip is taken for it.
    aim: str | None = Field(None, pattern=r"^[a-z0-9_]+$")


class TeamConfig(Section):
    # Species whose evolution is stopped (B during the animation), by their names in capitals, e.g.
    # [PIKACHU]: every other member is let evolve.
    keep_unevolved: tuple[str, ...] = Field((), max_length=151)
    # The team planner (engine/team): evolution stones used (and bought in Celadon) when the forecast
    # against the bosses ahead wants the evolved form; boxed Pokémon taken into the party when they raise it.
    stones: bool = True
    swaps: bool = True

    @field_validator("keep_unevolved")
    @classmethod
    def _species_names(cls, names: tuple[str, ...]) -> tuple[str, ...]:
        for name in names:
            if not re.fullmatch(r"[A-Z][A-Z0-9_]*", name):
                raise ValueError(f"{name!r} is not a species name in capitals (e.g. PIKACHU)")
        return names


class TelemetryConfig(Section):
    exporter: Literal["none", "console", "otlp"] = "none"
    # The scheme is required: it decides plain (http) or TLS (https) gRPC, and a bare host:port would
    # silently mean TLS.
    otlp_endpoint: str = Field("http://localhost:4317", pattern=r"^https?://[^/\s]+/?$")
    otlp_timeout_seconds: float = Field(10.0, gt=0.0, le=300.0)


class ModelTierConfig(Section):
    """One paid tier: which provider and model, where, which environment variable holds the key, limits and
    prices (USD per million tokens, for the cost ledger; the provider's usage numbers are what is counted)."""

    provider: Literal["anthropic", "openai"]
    model: str = Field(min_length=1, max_length=200)
    # None: the provider's public API. For OpenAI-compatible servers (vLLM, Ollama, LM Studio) include
    # the /v1 suffix; for Anthropic leave it off.
    base_url: str | None = Field(None, pattern=r"^https?://\S+$")
    # The name of the variable, never the key. None: no key needed (a local OpenAI-compatible server).
    api_key_env: str | None = Field(None, pattern=r"^[A-Za-z_][A-Za-z0-9_]*$")
    max_tokens: int = Field(1024, ge=16, le=16000)
    timeout_s: float = Field(30.0, gt=0.0, le=600.0)
    price_input_per_mtok: float = Field(0.0, ge=0.0)
    price_output_per_mtok: float = Field(0.0, ge=0.0)
    # Ask for JSON through the provider's structured-output feature; turn off for servers or models
    # without it (the answer is still validated and repaired).
    structured_output: bool = True


class RuleBasedTierConfig(Section):
    """The free tier: the built-in policy, always present. `battle`: "search" looks a turn ahead with the
    Gen 1 turn model and judges by the chance of winning the whole battle; "one_turn" is the older choice
    by one turn's expected damage and knock-out chance, kept for comparison."""

    battle: Literal["search", "one_turn"] = "search"


class ModelsConfig(Section):
    rule_based: RuleBasedTierConfig = RuleBasedTierConfig()
    acting: ModelTierConfig | None = ModelTierConfig(
        provider="anthropic",
        model="claude-haiku-4-5",
        api_key_env="ANTHROPIC_API_KEY",
        max_tokens=512,
        timeout_s=15.0,
        price_input_per_mtok=1.0,
        price_output_per_mtok=5.0,
    )
    thinking: ModelTierConfig | None = ModelTierConfig(
        provider="anthropic",
        model="claude-sonnet-4-5",
        api_key_env="ANTHROPIC_API_KEY",
        max_tokens=2048,
        timeout_s=60.0,
        price_input_per_mtok=3.0,
        price_output_per_mtok=15.0,
    )


Tier = Literal["rule_based", "acting", "thinking"]


class RoutingConfig(Section):
    """Which tier each kind of task starts on. Boss: gym leaders, the rival, the Elite Four, Giovanni."""

    tactics_wild: Tier = "rule_based"
    tactics_trainer: Tier = "acting"
    tactics_boss: Tier = "acting"
    strategy_overworld: Tier = "rule_based"
    strategy_wild: Tier = "rule_based"
    strategy_trainer: Tier = "acting"
    strategy_boss: Tier = "thinking"
    reflection: Tier = "thinking"
    # A tactical decision moves up one tier when the battle is close (the rule-based estimate of how
    # likely we are to lose, 0-1), the enemy out-levels the active member by this many levels, or we are
    # outnumbered.
    escalate_closeness: float = Field(0.6, ge=0.0, le=1.0)
    escalate_level_gap: int = Field(5, ge=1, le=100)
    # ... or when the opponent has more members that can still fight than we have.
    escalate_when_outnumbered: bool = True


class LLMConfig(Section):
    # Attempts per call for transient failures (429, 5xx, timeouts), with exponential backoff + jitter.
    retry_attempts: int = Field(3, ge=1, le=10)
    retry_initial_seconds: float = Field(0.5, ge=0.0, le=60.0)
    retry_max_seconds: float = Field(8.0, ge=0.0, le=300.0)
    # Per endpoint: this many failed calls in a row open the breaker; after reset_seconds one call may
    # try again.
    breaker_failures: int = Field(3, ge=1, le=100)
    breaker_reset_seconds: float = Field(60.0, gt=0.0, le=3600.0)
    # Rolling budgets in USD over the last hour and the last 24 hours; null means no limit.
    budget_hourly_usd: float | None = Field(None, ge=0.0)
    budget_daily_usd: float | None = Field(None, ge=0.0)
    # Attach a screenshot of the game screen to tactical prompts (costs image tokens).
    screenshots: bool = False


class MemoryConfig(Section):
    """Lessons learned in reflection: where they live, how fast they fade, how many a decision sees."""

    enabled: bool = True
    # embedded: a Chroma directory under DATA_DIR/memory/, written by exactly one process (the memory
    # actor). http: a Chroma server (`chroma run`), for sharing lessons between machines.
    backend: Literal["embedded", "http"] = "embedded"
    host: str = Field("localhost", min_length=1, max_length=253)
    port: int = Field(8000, ge=1, le=65535)
    collection: str = Field("lessons", min_length=3, max_length=60, pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]+$")
    # hashing: offline, deterministic, no download (lexical). minilm: Chroma's ONNX all-MiniLM-L6-v2,
    # semantic, downloaded (~80 MB) on first use, so it needs the network once.
    embedding: Literal["hashing", "minilm"] = "hashing"
    # Confidence fades as 1 / (1 + decay_per_hour · play hours since the lesson was last confirmed).
    decay_per_hour: float = Field(0.05, ge=0.0, le=10.0)
    # Lessons whose faded confidence drops below this are deleted at the start of a run.
    prune_below: float = Field(0.05, ge=0.0, le=1.0)
    # Lessons shown to a model per decision, and the least relevance score worth showing.
    retrieve_k: int = Field(5, ge=0, le=50)
    retrieve_threshold: float = Field(0.2, ge=0.0, le=1.0)
    # After a battle lost to a trainer: counterfactual replays of its latest choices, in a process beside the
    # run; their regrets are lessons the next try follows (engine/replay/after_loss.py).
    replay_losses: bool = True


HarnessLevel = Literal["engine", "decisions", "buttons", "vision"]


class HarnessConfig(Section):
    """How much the models decide (docs/harness.md). engine: the rule-based mechanics decide, models at the
    decision points the routing names. decisions: every decision is asked of the model tiers with the same
    legal options, the rule-based tier answering only when a model fails. buttons: the model sees the
    screen and a short text of what RAM says and answers with up to three buttons. vision: the screen and
    the model's own notes only; RAM is read for scoring and safety, never shown."""

    level: HarnessLevel = "engine"
    # The model tier the levels above `engine` ask first (the gateway steps down from it as usual).
    tier: Literal["acting", "thinking"] = "acting"
    # vision level: also give the model the Vision module's reading of the screen (from pixels) as text.
    screen_reading: bool = False
    # Frames each button is held and then released, and the frames waited after a step's last button
    # (a walking step takes 16 frames; the game may poll the pad again sooner).
    hold_frames: int = Field(8, ge=1, le=60)
    release_frames: int = Field(8, ge=0, le=60)
    settle_frames: int = Field(24, ge=0, le=600)
    # Scale the 160x144 screen by this factor for the model (vision models read small text badly).
    screen_scale: int = Field(2, ge=1, le=8)
    # A model's own notes (rewritten by it, at most this long) and its skill library, kept per
    # (level, model) under DATA_DIR/procedural/.
    notes: bool = True
    skills: bool = True
    # buttons and vision: the run stops (stop reason `model_failing`) after this many no-ops in a row (no
    # valid answer after the repair), and (`stalled`) after this many steps in a row that changed nothing
    # in the game's memory (the model pressing into a wall, or a game that stopped advancing).
    max_noops_in_row: int = Field(25, ge=1, le=100_000)
    stall_steps: int = Field(300, ge=1, le=1_000_000)


class LoggingConfig(Section):
    level: str = Field("INFO", pattern=r"^(DEBUG|INFO|WARNING|ERROR)$")


class EngineConfig(Section):
    emulator: EmulatorConfig = EmulatorConfig()
    player: PlayerConfig = PlayerConfig()
    checkpoint: CheckpointConfig = CheckpointConfig()
    runtime: RuntimeConfig = RuntimeConfig()
    story: StoryConfig = StoryConfig()
    team: TeamConfig = TeamConfig()
    telemetry: TelemetryConfig = TelemetryConfig()
    models: ModelsConfig = ModelsConfig()
    routing: RoutingConfig = RoutingConfig()
    llm: LLMConfig = LLMConfig()
    memory: MemoryConfig = MemoryConfig()
    harness: HarnessConfig = HarnessConfig()
    logging: LoggingConfig = LoggingConfig()


def _describe(error: ValidationError) -> str:
    first = error.errors()[0]
    key = ".".join(str(part) for part in first["loc"]) or "(top level)"
    problem = first["msg"]
    if first["type"] == "extra_forbidden":
        problem = "unknown key"
    return f"{key}: {problem}"


def config_from_mapping(values: dict[str, Any]) -> EngineConfig:
    try:
        return EngineConfig.model_validate(values)
    except ValidationError as exc:
        raise ConfigError(f"invalid config: {_describe(exc)}") from exc


def load_config(path: Path | None) -> EngineConfig:
    """Defaults, overlaid by the user's YAML file if one is given."""
    if path is None:
        return EngineConfig()
    values = _parse_yaml(Path(path), _read_text(Path(path)))
    if values is None:
        return EngineConfig()
    if not isinstance(values, dict):
        raise ConfigError(f"config file {path} must hold a mapping of sections, not {type(values).__name__}")
    return config_from_mapping(values)


def _read_text(path: Path) -> str:
    try:
        data = path.read_bytes()
    except FileNotFoundError as exc:
        raise ConfigError(f"config file not found: {path}") from exc
    except IsADirectoryError as exc:
        raise ConfigError(f"config file {path} is a directory, not a file") from exc
    except OSError as exc:
        raise ConfigError(f"cannot read config file {path}: {exc.strerror}") from exc
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line, column = _line_and_column(data, exc.start)
        raise ConfigError(
            f"config file {path}, line {line}, column {column}: not UTF-8 text (byte 0x{data[exc.start]:02x})"
        ) from exc


def _line_and_column(data: bytes, offset: int) -> tuple[int, int]:
    """1-based, as editors count them."""
    line_start = data.rfind(b"\n", 0, offset) + 1
    return data.count(b"\n", 0, offset) + 1, offset - line_start + 1


def _parse_yaml(path: Path, text: str) -> Any:
    try:
        return yaml.safe_load(text)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = f", line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
        problem = exc.problem or exc.context or "unreadable"
        raise ConfigError(f"config file {path}{where}: invalid YAML: {problem}") from exc
    except yaml.YAMLError as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ConfigError(f"config file {path}: invalid YAML: {first}") from exc


def config_hash(config: EngineConfig) -> str:
    """A short digest of every setting, kept in checkpoints: a resume with other settings is told so."""
    return hashlib.sha256(config.model_dump_json().encode("utf-8")).hexdigest()[:16]
