"""The arena's matrix: every (config, start, seed) cell, named so a rerun finds the cells already played.

A cell's key is `<config>.<start>.<seed>`; its fingerprint hashes everything that decides how it plays
(the config's values, the start's bytes, the seed and the limits), so a cell played under the same key with
other settings is played again rather than taken as finished.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

from engine.config import EngineConfig
from engine.frozen import Frozen

POWER_ON = "power-on"
_UNSAFE = re.compile(r"[^A-Za-z0-9_-]+")


class Limits(Frozen):
    """Where each run of the arena stops: the first of these reached."""

    until: str | None = None
    max_decisions: int | None = None
    budget_seconds: float = 3600.0


class Entrant(Frozen):
    """One configuration in the arena, named after its file."""

    name: str
    config: EngineConfig


class Start(Frozen):
    """Where a run starts: a save state's bytes, or power-on (`state` None)."""

    name: str
    state: bytes | None = None

    @property
    def digest(self) -> str:
        return hashlib.sha256(self.state or b"").hexdigest()[:16]


class Cell(Frozen):
    key: str
    entrant: str
    start: str
    seed: int
    fingerprint: str


def safe_name(text: str) -> str:
    return _UNSAFE.sub("-", text).strip("-") or "x"


def unique_names(paths: list[Path]) -> list[str]:
    """Each file's stem, made safe for a file name; a repeated stem gets `-2`, `-3`, … in order."""
    names: list[str] = []
    for path in paths:
        base = safe_name(path.stem)
        name, number = base, 2
        while name in names:
            name, number = f"{base}-{number}", number + 1
        names.append(name)
    return names


def fingerprint(entrant: Entrant, start: Start, seed: int, limits: Limits) -> str:
    settings = {
        "config": entrant.config.model_dump(mode="json"),
        "start": start.digest,
        "seed": seed,
        "limits": limits.model_dump(mode="json"),
    }
    return hashlib.sha256(json.dumps(settings, sort_keys=True).encode()).hexdigest()[:16]


def cells(entrants: list[Entrant], starts: list[Start], seeds: int, limits: Limits) -> list[Cell]:
    """Config-major, then start, then seed: the order the table reads and the work is handed out."""
    return [
        Cell(key=f"{entrant.name}.{start.name}.{seed}", entrant=entrant.name, start=start.name, seed=seed,
             fingerprint=fingerprint(entrant, start, seed, limits))
        for entrant in entrants
        for start in starts
        for seed in range(seeds)
    ]  # fmt: skip
