"""Environments a test makes through `gymnasium.make`, each closed when the block ends."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import gymnasium

import engine.gym  # noqa: F401  (registers the ids)
from engine.gym.env import PokemonEnv


@contextmanager
def env_maker(env_id: str, **defaults: Any) -> Iterator[Callable[..., PokemonEnv]]:
    """`build(**settings)` makes `env_id` with `defaults` overlaid by `settings`, and gives the
    environment itself (not Gymnasium's wrappers)."""
    made: list[gymnasium.Env[Any, Any]] = []

    def build(**settings: Any) -> PokemonEnv:
        env = gymnasium.make(env_id, **{**defaults, **settings})
        made.append(env)
        assert isinstance(env.unwrapped, PokemonEnv)
        return env.unwrapped

    try:
        yield build
    finally:
        for env in made:
            env.close()
