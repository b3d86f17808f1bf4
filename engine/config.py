"""One typed configuration tree, built once at start-up and passed down section by section.

Defaults live in the models; `configs/default.yaml` documents every key with the same values (a test
keeps the two equal). A user's `--config FILE` only needs the keys it changes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from engine.errors import UserInputError


class ConfigError(UserInputError):
    """The configuration file is unreadable or a value is invalid; the message names the key."""


class Section(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class EmulatorConfig(Section):
    hold_frames: int = Field(4, ge=1, le=60)
    release_frames: int = Field(4, ge=0, le=60)
    check_every_frames: int = Field(2, ge=1, le=60)
    max_wait_frames: int = Field(3600, ge=60, le=216000)


class PlayerConfig(Section):
    player_name: str = Field("RED", min_length=1, max_length=7, pattern=r"^[A-Z]+$")
    rival_name: str = Field("BLUE", min_length=1, max_length=7, pattern=r"^[A-Z]+$")
    fast_options: bool = True


class CheckpointConfig(Section):
    interval_seconds: float = Field(300.0, ge=1.0, le=86400.0)


class RuntimeConfig(Section):
    namespace: str = Field("engine", min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.-]+$")


class TelemetryConfig(Section):
    exporter: Literal["none", "console", "otlp"] = "none"
    # The scheme is required: it decides plain (http) or TLS (https) gRPC, and a bare host:port would
    # silently mean TLS.
    otlp_endpoint: str = Field("http://localhost:4317", pattern=r"^https?://[^/\s]+/?$")
    otlp_timeout_seconds: float = Field(10.0, gt=0.0, le=300.0)


class LoggingConfig(Section):
    level: str = Field("INFO", pattern=r"^(DEBUG|INFO|WARNING|ERROR)$")


class EngineConfig(Section):
    emulator: EmulatorConfig = EmulatorConfig()
    player: PlayerConfig = PlayerConfig()
    checkpoint: CheckpointConfig = CheckpointConfig()
    runtime: RuntimeConfig = RuntimeConfig()
    telemetry: TelemetryConfig = TelemetryConfig()
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
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise ConfigError(f"config file not found: {path}") from exc
    except OSError as exc:
        raise ConfigError(f"cannot read config file {path}: {exc.strerror}") from exc
    try:
        values = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise ConfigError(f"config file {path} is not valid YAML: {exc}") from exc
    if values is None:
        return EngineConfig()
    if not isinstance(values, dict):
        raise ConfigError(f"config file {path} must hold a mapping of sections, not {type(values).__name__}")
    return config_from_mapping(values)
