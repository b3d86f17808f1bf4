"""Whose learning it is: a (harness level, model) pair. One level's notes, skills and lessons never leak
into another's run, nor one model's into another's.

The scope's model is the model the level's decisions start on (`scope_model`):
- `engine`: the `acting` tier's model (the tier the routing starts trainer and boss tactics on);
- `decisions`, `buttons`, `vision`: the tier `harness.tier` names (`acting` by default), stepping down as
  the gateway does when that tier is not configured (thinking → acting);
- "rule_based" when no such tier is configured (`models.acting: null`).
It is a pure function of the config: a run without an API key still learns in the configured model's
scope (its rule-based fallbacks write no notes and propose no skills).
"""

from __future__ import annotations

import hashlib
import re

from pydantic import Field

from engine.config import HarnessConfig, HarnessLevel, ModelsConfig, Tier
from engine.frozen import Frozen

RULE_BASED = "rule_based"
# The model's part of a slug is cut to this many characters; a name that had to be changed (cut, lower
# case, characters replaced) gets a short hash of the real name, so distinct models keep distinct slugs.
MODEL_PART_MAX = 64
HASH_CHARS = 10
_UNSAFE = re.compile(r"[^a-z0-9._-]+")
_DOTS = re.compile(r"\.{2,}")  # Chroma refuses "..", and ".." is no name for a folder either
_EDGES = "._-"
# An unchanged name that already ends like a hashed one is hashed too: otherwise model "x-h0123456789"
# would share a slug with a model whose changed name cleans to "x".
_HASHED = re.compile(rf"-h[0-9a-f]{{{HASH_CHARS}}}$")


class Scope(Frozen):
    """A harness level and a model id ("claude-haiku-4-5", "rule_based")."""

    level: HarnessLevel
    model: str = Field(min_length=1, max_length=200)

    @property
    def slug(self) -> str:
        """A name safe as a folder and inside a Chroma collection name: `[a-z0-9._-]`, at most
        ~90 characters, starting and ending with a letter or digit, no "..", lower case (so distinct
        slugs stay distinct on case-insensitive file systems). Distinct scopes give distinct slugs: the
        level (which has no "-") comes first, and a model name that was changed carries its hash."""
        return f"{self.level}-{model_part(self.model)}"

    def describe(self) -> str:
        return f"{self.level} / {self.model}"


def model_part(model: str) -> str:
    cleaned = _DOTS.sub("_", _UNSAFE.sub("_", model.lower())).strip(_EDGES)
    cleaned = cleaned[:MODEL_PART_MAX].rstrip(_EDGES) or "model"
    if cleaned == model and not _HASHED.search(model):
        return cleaned
    digest = hashlib.sha256(model.encode("utf-8")).hexdigest()[:HASH_CHARS]
    return f"{cleaned}-h{digest}"


def starting_tier(harness: HarnessConfig) -> Tier:
    """The tier the level's decisions start on: `acting` at the engine level, `harness.tier` above it."""
    return "acting" if harness.level == "engine" else harness.tier


def scope_model(harness: HarnessConfig, models: ModelsConfig) -> str:
    """The model of the tier the level's decisions start on, stepping down thinking → acting to the first
    configured tier; "rule_based" when none is configured."""
    chain: tuple[Tier, ...] = ("thinking", "acting") if starting_tier(harness) == "thinking" else ("acting",)
    for tier in chain:
        configured = models.thinking if tier == "thinking" else models.acting
        if configured is not None:
            return configured.model
    return RULE_BASED


def scope_for(harness: HarnessConfig, models: ModelsConfig) -> Scope:
    return Scope(level=harness.level, model=scope_model(harness, models))
