"""Evolution by stone, worked out on paper: which stones a member can take, what it becomes (stats worked
out again with its DVs and stat experience, the HP gained added to its HP, as pret
engine/pokemon/evos_moves.asm Evolution_PartyMonLoop does), and whether it should wait for a move its own
form would learn soon (a stone-evolved form learns few moves or none: pret data/pokemon/evos_moves.asm)."""

from __future__ import annotations

from engine.game.models import PartyMon
from engine.game.stats import computed_stats
from engine.game.tables import Move, Species, game_data
from engine.team.errors import TeamError

STAB = 1.5
# A move the member's own form learns within this many levels keeps it from a stone (Gen 1 stone forms
# mostly learn nothing more by level).
WAIT_LEVELS = 8


def stone_evolutions(species: str) -> dict[str, str]:
    """The stones that evolve `species` and what each makes of it."""
    found = game_data().species_by_name.get(species)
    if found is None:
        return {}
    return {e.item: e.into for e in found.evolutions if e.method == "EVOLVE_ITEM" and e.item is not None}


def evolved(mon: PartyMon, into: str) -> PartyMon:
    """The member as `into`: new types, stats worked out again, its HP raised by what its max HP gained."""
    data = game_data()
    species = data.species_by_name.get(into)
    if species is None:
        raise TeamError(f"no species called {into!r}")
    max_hp, stats = computed_stats(species, mon.level, mon.dvs, mon.stat_exp)
    type1, type2 = (data.types_by_name[name] for name in species.types)
    return mon.model_copy(update={
        "species_id": species.index, "species_name": species.name, "max_hp": max_hp, "stats": stats,
        "hp": max(0, mon.hp + max_hp - mon.max_hp) if mon.hp else 0,
        "type1": type1.id, "type2": type2.id, "type1_name": type1.name, "type2_name": type2.name,
    })  # fmt: skip


def waits_for(mon: PartyMon, into: str) -> tuple[str, int] | None:
    """A damaging move the member's own form learns within WAIT_LEVELS levels, stronger than the best it
    knows, that `into` would never learn from here: the move and its level; None when nothing is worth
    waiting for."""
    data = game_data()
    now, then = data.species_by_name.get(mon.species_name or ""), data.species_by_name.get(into)
    if now is None or then is None:
        return None
    known = [data.moves_by_id[slot.move_id] for slot in mon.moves if slot.move_id in data.moves_by_id]
    best = max((_strength(move, now) for move in known), default=0.0)
    later = {name for level, name in then.learnset if level > mon.level}
    for level, name in now.learnset:
        move = data.moves_by_name.get(name)
        soon = mon.level < level <= mon.level + WAIT_LEVELS
        if soon and move is not None and name not in later and _strength(move, now) > best:
            return name, level
    return None


def _strength(move: Move, species: Species) -> float:
    return move.power * (STAB if move.type in species.types else 1.0)
