"""The observation: the screen as pixels, and optionally a fixed vector of what RAM says (decoded by the
engine, engine/game/state.py). Every value is clipped into its bounds, so a game whose RAM holds junk (a
test cartridge, a crash) still gives an observation inside the space."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from engine.game.models import DecisionPoint, GameState, ScreenKind

SCREEN_SHAPE = (144, 160)
PARTY_SLOTS = 6
EVENT_FLAGS = 2560  # wEventFlags: 320 bytes of flags
FACINGS = ("down", "up", "left", "right", "unknown")
MODES = ("walk", "bike", "surf")
BATTLES = (None, "wild", "trainer")
SCREENS = tuple(ScreenKind)
POINTS = tuple(DecisionPoint)
# Luminance weights (ITU-R BT.601), in thousandths, for the grayscale screen.
LUMA = np.array([299, 587, 114], dtype=np.uint32)

# (name, highest value) in the vector's order; every lowest value is 0.
RAM_FEATURES: tuple[tuple[str, int], ...] = (
    ("map_id", 255),
    ("x", 255),
    ("y", 255),
    ("facing", len(FACINGS) - 1),  # down, up, left, right, unknown
    ("mode", len(MODES) - 1),  # walk, bike, surf
    ("battle", len(BATTLES) - 1),  # none, wild, trainer
    ("screen", len(SCREENS) - 1),  # engine/game/models.py ScreenKind, in its order
    ("waiting_for", len(POINTS) - 1),  # DecisionPoint, in its order
    ("badges", 8),
    ("money", 999_999),
    ("pokedex_owned", 151),
    ("party_size", PARTY_SLOTS),
    *((f"level_{slot}", 100) for slot in range(PARTY_SLOTS)),
    *((f"hp_{slot}", 999) for slot in range(PARTY_SLOTS)),
    *((f"max_hp_{slot}", 999) for slot in range(PARTY_SLOTS)),
    ("enemy_species", 255),
    ("enemy_level", 255),
    ("enemy_hp_percent", 100),
    ("event_flags", EVENT_FLAGS),
    ("towns_visited", 16),
)
RAM_HIGH = np.array([high for _, high in RAM_FEATURES], dtype=np.int32)


def observation_space(ram: bool, grayscale: bool) -> spaces.Space[Any]:
    screen = spaces.Box(0, 255, (*SCREEN_SHAPE, 1 if grayscale else 3), dtype=np.uint8)
    if not ram:
        return screen
    vector = spaces.Box(np.zeros_like(RAM_HIGH), RAM_HIGH, dtype=np.int32)
    return spaces.Dict({"screen": screen, "ram": vector})


def screen_pixels(rgb: np.ndarray, grayscale: bool) -> np.ndarray:
    """The rendered frame (144, 160, 3) as the observation's screen: a new array every time."""
    if not grayscale:
        return np.array(rgb, dtype=np.uint8, copy=True)
    return ((rgb.astype(np.uint32) @ LUMA) // 1000).astype(np.uint8)[:, :, None]


def ram_vector(state: GameState | None) -> np.ndarray:
    """RAM_FEATURES of the state, clipped into their bounds; all zeros when RAM could not be decoded."""
    if state is None:
        return np.zeros_like(RAM_HIGH)
    raw = np.array(_values(state), dtype=np.int64)
    return np.clip(raw, 0, RAM_HIGH).astype(np.int32)


def _values(state: GameState) -> list[int]:
    where = state.overworld
    party = list(state.party[:PARTY_SLOTS])
    empty = [0] * (PARTY_SLOTS - len(party))
    battle = state.battle
    enemy = battle.enemy if battle is not None else None
    return [
        where.map_id, where.x, where.y, FACINGS.index(where.facing), MODES.index(where.mode),
        BATTLES.index(battle.kind if battle is not None else None), SCREENS.index(state.screen.kind),
        POINTS.index(state.decision_point), len(state.progress.badge_names), state.progress.money,
        state.progress.pokedex_owned, len(state.party),
        *[mon.level for mon in party], *empty, *[mon.hp for mon in party], *empty,
        *[mon.max_hp for mon in party], *empty,
        enemy.species_id if enemy is not None else 0, enemy.level if enemy is not None else 0,
        round(100 * enemy.hp / enemy.max_hp) if enemy is not None and enemy.max_hp else 0,
        len(state.story.event_flags), len(state.story.towns_visited),
    ]  # fmt: skip
