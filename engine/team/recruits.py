"""Catch where a species fills a gap: a wild Pokémon near at hand that brings the next boss within reach at
once, instead of levels that take many battles to earn (a DIGLETT, which no electric move touches, against
LT_SURGE; a water type that the rocks of BROCK fear).

For each species met in the grass of the maps near the player (pret data/wild/maps, read from the cartridge
into `World.wild`), at the level it is met, with the moves it knows there (game/assessment.py
likely_moves): the boss's forecast with it in the party. A recruit is proposed when that forecast reaches
the bar the boss is trained for (or rises by LEAP), by MIN_RISE at least, while the party has room; the
pilot then looks for it on its map and catches it (tactician/catching.py).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection

from engine.game.assessment import likely_moves
from engine.game.models import GameState, MoveSlot, PartyMon
from engine.game.stats import NO_STAT_EXP, computed_stats
from engine.game.tables import game_data
from engine.team.changes import Recruit
from engine.team.training import BATTLE_FRAMES, FRAMES_PER_STEP, WALK_FACTOR
from engine.world.models import SLOT_CHANCES, WildTable
from engine.world.world import World

PARTY_SIZE = 6
# A recruit must be met soon enough to be worth looking for: the frames its map's walk and battles take, on
# average, before it appears (engine/team/training.py's model of a map). Of 30 recruits in twenty runs
# from power-on met on 5% of a map's encounters or fewer (a HAUNTER on the tower's third floor, a DUGTRIO
# in Diglett's Cave, a GLOOM on Route 12), expected at 28,000 frames and more, none was caught; each cost
# 8,000 to 51,000 frames of looking. Those met on 15% or more were caught in most runs.
MAX_FRAMES_TO_MEET = 20_000
LEAP = 0.3  # a recruit that does not reach the bar must raise the forecast by this much at least
# ...and one that reaches it, by this much: Blue seed 139 looked for a RATICATE and then a GRIMER that each
# lifted the rival's forecast from 46% over a bar of 50% (to 51% and 53%), for 67 legs and 77,580 frames,
# and caught neither; training earns five points in less.
MIN_RISE = 0.1
DVS = 0x8888  # a wild Pokémon's DVs are random: the middle is assumed
BALLS = ("POKE_BALL", "GREAT_BALL", "ULTRA_BALL")

Forecast = Callable[[GameState], float | None]


def recruits_for(
    state: GameState, world: World, maps: Collection[int], forecast: Forecast, bar: float
) -> list[Recruit]:
    """The wild species of `maps` whose catch reaches the boss's bar or raises its forecast by LEAP (and by
    MIN_RISE in any case), the best first (then the most often met); none when the party is full, no ball
    is at hand or the boss is within reach already."""
    if len(state.party) >= PARTY_SIZE or not any(
        entry.name in BALLS and entry.quantity for entry in state.bag
    ):
        return []
    before = forecast(state)
    if before is None or before >= bar:
        return []
    owned = {mon.species_name for mon in state.party}
    found: list[Recruit] = []
    for map_id, species, level, share in _met(world, maps):
        if species in owned or frames_to_meet(world.wild[map_id], share) > MAX_FRAMES_TO_MEET:
            continue
        after = forecast(state.model_copy(update={"party": (*state.party, wild_member(species, level))}))
        if after is None or after < before + MIN_RISE or (after < bar and after < before + LEAP):
            continue
        found.append(Recruit(species=species, level=level, map_id=map_id, map_name=world.maps[map_id].name,
                             share=share, before=before, after=after, bosses=()))  # fmt: skip
    return sorted(found, key=lambda recruit: (-recruit.after, -recruit.share))


def frames_to_meet(table: WildTable, share: float) -> float:
    """The frames a species met on `share` of the map's encounters takes to appear, on average: each
    encounter's walk and battle (or flight) once for every time it turns up."""
    if share <= 0 or table.rate <= 0:
        return math.inf
    walk = FRAMES_PER_STEP * WALK_FACTOR * 256 / table.rate
    return (walk + BATTLE_FRAMES) / share


def wild_member(species: str, level: int) -> PartyMon:
    """A wild Pokémon as it would join the party: middle DVs, no stat experience, the moves it knows."""
    data = game_data()
    found = data.species_by_name[species]
    max_hp, stats = computed_stats(found, level, DVS, NO_STAT_EXP)
    type1, type2 = (data.types_by_name[name] for name in found.types)
    moves = tuple(MoveSlot(move_id=move.id, name=move.name, pp=move.pp, pp_ups=0)
                  for move in likely_moves(species, level))  # fmt: skip
    return PartyMon(
        species_id=found.index, species_name=species, nickname=species, level=level, hp=max_hp, max_hp=max_hp,
        status="OK", status_byte=0, type1=type1.id, type2=type2.id, type1_name=type1.name,
        type2_name=type2.name, moves=moves, stats=stats, dvs=DVS, slot=PARTY_SIZE - 1, ot_id=0, exp=0,
    )  # fmt: skip


def _met(world: World, maps: Collection[int]) -> list[tuple[int, str, int, float]]:
    """(map, species, its highest level there, its share of encounters) for every species of the maps."""
    found: dict[tuple[int, str], tuple[int, float]] = {}
    for map_id in maps:
        table = world.wild.get(map_id)
        if table is None:
            continue
        total = sum(SLOT_CHANCES[: len(table.slots)])
        for (level, species), chance in zip(table.slots, SLOT_CHANCES, strict=False):
            top, share = found.get((map_id, species), (0, 0.0))
            found[(map_id, species)] = (max(top, level), share + chance / total)
    return [(map_id, species, level, share) for (map_id, species), (level, share) in found.items()]
