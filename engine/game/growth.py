"""Experience and levels: the points a member needs for a level, by its species' growth rate.

The game keeps a member's experience beside its level and, whenever experience is gained, works the level
out again from the points (CalcLevelFromExperience) and recomputes the stats if it differs, lower or
higher. A member whose points do not match its level is therefore re-levelled by its first win. The
formula is the game's CalcExperience (pret engine/pokemon/experience.asm) with the coefficients of pret
data/growth_rates.asm: a/b * n^3 + c * n^2 + d * n - e, the first term rounded down.
"""

from __future__ import annotations

from engine.game.errors import GameError

MAX_LEVEL = 100

# growth rate: (a, b, c, d, e)
_COEFFICIENTS: dict[str, tuple[int, int, int, int, int]] = {
    "GROWTH_MEDIUM_FAST": (1, 1, 0, 0, 0),
    "GROWTH_SLIGHTLY_FAST": (3, 4, 10, 0, 30),
    "GROWTH_SLIGHTLY_SLOW": (3, 4, 20, 0, 70),
    "GROWTH_MEDIUM_SLOW": (6, 5, -15, 100, 140),
    "GROWTH_FAST": (4, 5, 0, 0, 0),
    "GROWTH_SLOW": (5, 4, 0, 0, 0),
}


def experience_for_level(growth_rate: str, level: int) -> int:
    """The fewest experience points of a member at `level` (1-100) with this growth rate."""
    if growth_rate not in _COEFFICIENTS:
        raise GameError(f"unknown growth rate {growth_rate!r}")
    if not 1 <= level <= MAX_LEVEL:
        raise GameError(f"level {level} is outside 1-{MAX_LEVEL}")
    a, b, c, d, e = _COEFFICIENTS[growth_rate]
    return max(0, a * level**3 // b + c * level**2 + d * level - e)


def level_for_experience(growth_rate: str, experience: int) -> int:
    """The level the game gives a member with these points: the highest whose requirement they meet."""
    level = 1
    while level < MAX_LEVEL and experience_for_level(growth_rate, level + 1) <= experience:
        level += 1
    return level
