"""A member's stats worked out from its species, level, DVs and stat experience, as the game does for a
Pokémon in the box (whose box_struct keeps no stats) or one that has just evolved (pret
engine/pokemon/calc_stats.asm CalcStats, CalcStat; the DV layout of macros/ram.asm box_struct)."""

from __future__ import annotations

from engine.game.damage import stat_at_level
from engine.game.models import PartyMon, Stats
from engine.game.tables import Species, game_data

StatExp = tuple[int, int, int, int, int]  # HP, Attack, Defense, Speed, Special
NO_STAT_EXP: StatExp = (0, 0, 0, 0, 0)


def split_dvs(dvs: int) -> tuple[int, int, int, int, int]:
    """HP, Attack, Defense, Speed and Special DVs from the two DV bytes (Attack in the top nibble); the HP
    DV is made of the other four's lowest bits."""
    attack, defense, speed, special = dvs >> 12 & 0xF, dvs >> 8 & 0xF, dvs >> 4 & 0xF, dvs & 0xF
    hp = (attack & 1) << 3 | (defense & 1) << 2 | (speed & 1) << 1 | special & 1
    return hp, attack, defense, speed, special


def computed_stats(species: Species, level: int, dvs: int, stat_exp: StatExp) -> tuple[int, Stats]:
    """Max HP and the other four stats of a member of `species` at `level`."""
    hp_dv, *dvs4 = split_dvs(dvs)
    base = species.base
    max_hp = stat_at_level(base.hp, level, hp_dv, stat_exp[0], is_hp=True)
    bases = (base.attack, base.defense, base.speed, base.special)
    attack, defense, speed, special = (
        stat_at_level(b, level, dv, exp) for b, dv, exp in zip(bases, dvs4, stat_exp[1:], strict=True)
    )
    return max_hp, Stats(attack=attack, defense=defense, speed=speed, special=special)


def raised(mon: PartyMon, level: int) -> PartyMon:
    """The member at `level`, its stats worked out again and its HP full (what a plan weighs a level it has
    not reached yet by); the member itself for its own level or an unknown species."""
    species = game_data().species_by_index.get(mon.species_id)
    if species is None or level == mon.level:
        return mon
    max_hp, stats = computed_stats(species, level, mon.dvs, mon.stat_exp)
    return mon.model_copy(update={"level": level, "max_hp": max_hp, "hp": max_hp, "stats": stats})
