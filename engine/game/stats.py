"""A member's stats worked out from its species, level, DVs and stat experience, as the game does for a
Pokémon in the box (whose box_struct keeps no stats) or one that has just evolved (pret
engine/pokemon/calc_stats.asm CalcStats, CalcStat; the DV layout of macros/ram.asm box_struct)."""

from __future__ import annotations

from engine.game.damage import stat_at_level
from engine.game.models import PartyMon, Stats
from engine.game.tables import Species, game_data

StatExp = tuple[int, int, int, int, int]  # HP, Attack, Defense, Speed, Special
NO_STAT_EXP: StatExp = (0, 0, 0, 0, 0)
MAX_FORMS = 2  # evolutions by level in a row at most (CHARMANDER, CHARMELEON, CHARIZARD)


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
    not reached yet by), in the form the levels on the way evolve it into; the member itself for its own
    level or an unknown species."""
    species = game_data().species_by_index.get(mon.species_id)
    if species is None or level == mon.level:
        return mon
    form = grown_form(species, level) if level > mon.level else species
    max_hp, stats = computed_stats(form, level, mon.dvs, mon.stat_exp)
    update: dict[str, object] = {"level": level, "max_hp": max_hp, "hp": max_hp, "stats": stats}
    return mon.model_copy(update=update | (form_fields(form) if form is not species else {}))


def level_evolution(species: Species, level: int) -> tuple[int, Species] | None:
    """The level and form of the species' evolution by level, when it comes by `level` (pret
    data/pokemon/evos_moves.asm EVOLVE_LEVEL): a PIDGEY weighed at L40 is a PIDGEOT, whose stats are half
    again a PIDGEY's; weighed as a PIDGEY, no member but the starter was ever worth raising."""
    data = game_data()
    for evolution in species.evolutions:
        into = data.species_by_name.get(evolution.into)
        if evolution.method == "EVOLVE_LEVEL" and evolution.level <= level and into is not None:
            return evolution.level, into
    return None


def grown_form(species: Species, level: int) -> Species:
    """The form a member of `species` has once it levels up to `level`."""
    for _ in range(MAX_FORMS):
        found = level_evolution(species, level)
        if found is None:
            break
        species = found[1]
    return species


def form_fields(species: Species) -> dict[str, object]:
    """The fields of a member that change with its form (its stats aside)."""
    types = game_data().types_by_name
    type1, type2 = (types[name] for name in species.types)
    return {"species_id": species.index, "species_name": species.name, "type1": type1.id,
            "type2": type2.id, "type1_name": type1.name, "type2_name": type2.name}  # fmt: skip
