"""Where to train: the grass or cave that gives the most experience per frame of game time to the member
in front, as a speedrunner picks a spot, not the nearest patch.

Per encounter (pret/pokered): a wild Pokémon appears on a step with the map's rate out of 256
(engine/battle/wild_encounters.asm TryDoWildEncounter), its slot by WildMonEncounterSlotChances, and
beating it gives base experience x level / 7 to the one member that fought (engine/battle/experience.asm
GainExperience; no trainer bonus in the wild). The frames: the steps between encounters (16 frames a
step on foot) and the battle itself, short when the lead knocks the wild one out at once and longer when
it needs more turns. Maps whose wild Pokémon outlevel the lead are left out: they cost heals, not time.
"""

from __future__ import annotations

from engine.frozen import Frozen
from engine.game.tables import game_data
from engine.world.models import SLOT_CHANCES, WildTable

FRAMES_PER_STEP = 16
# Measured over the wild battles of four runs from power-on: a battle won in one turn took a median of
# 654 frames after the first million (the intro, one move, the experience and level-up text), each
# further turn about 600 more.
BATTLE_FRAMES = 700
TURN_FRAMES = 600
# The walk between encounters took about 3.5 times the steps the encounter rate asks for (1,500 frames at
# Route 23's rate of 10 against 410): turns at a patch's edges, steps off the grass between its squares.
WALK_FACTOR = 3.5
TOO_STRONG = 3  # levels a wild Pokémon may have above the lead before the map is left out
EXP_DIVISOR = 7


class Spot(Frozen):
    map_id: int
    exp_per_frame: float
    exp_per_battle: float
    frames_per_battle: float
    by_air: bool = False  # no walk reaches it from here: a flight to a visited town first


def spot(map_id: int, table: WildTable, lead_level: int) -> Spot | None:
    """What training on this map gives a lead of this level; None when its wild Pokémon are too strong."""
    species = game_data().species_by_name
    total = sum(SLOT_CHANCES[: len(table.slots)])
    if not total or max(level for level, _ in table.slots) > lead_level + TOO_STRONG:
        return None
    exp = frames = 0.0
    for (level, name), chance in zip(table.slots, SLOT_CHANCES, strict=False):
        found = species.get(name)
        share = chance / total
        exp += share * (found.base_exp if found is not None else 0) * level / EXP_DIVISOR
        frames += share * (BATTLE_FRAMES + TURN_FRAMES * _extra_turns(lead_level, level))
    walk = FRAMES_PER_STEP * WALK_FACTOR * 256 / table.rate
    return Spot(
        map_id=map_id,
        exp_per_frame=exp / (walk + frames),
        exp_per_battle=exp,
        frames_per_battle=walk + frames,
    )


def ranked_spots(wild: dict[int, WildTable], lead_level: int) -> list[Spot]:
    """Every map's spot for this lead, the most experience per frame first."""
    found = [spot(map_id, table, lead_level) for map_id, table in wild.items()]
    return sorted((s for s in found if s is not None), key=lambda s: -s.exp_per_frame)


TRAINER_BONUS = 1.5  # pret engine/battle/experience.asm: a trainer's Pokémon give half again as much
TRAINER_FRAMES = 600  # a trainer battle's intro and its end (the money, the text after)
SEND_OUT_FRAMES = 250  # each of its Pokémon sent out, and the experience text after it falls
TRAINER_TURN_FRAMES = 250  # each turn against it (measured: 858, 1,450 and 2,179 frames for 1 to 3 turns)


def trainer_battle(party: tuple[tuple[str, int], ...], lead_level: int) -> tuple[float, float]:
    """(experience, frames) a trainer's party of (species, level) gives a lone member of this level."""
    species = game_data().species_by_name
    exp = frames = 0.0
    for name, level in party:
        found = species.get(name)
        exp += (found.base_exp if found is not None else 0) * level / EXP_DIVISOR * TRAINER_BONUS
        frames += SEND_OUT_FRAMES + TRAINER_TURN_FRAMES * (1 + _extra_turns(lead_level, level))
    return exp, TRAINER_FRAMES + frames


def _extra_turns(lead: int, wild: int) -> int:
    """Turns beyond the first a wild Pokémon of this level takes to knock out, roughly."""
    if lead >= wild + 10:
        return 0
    return 1 if lead >= wild else 2
