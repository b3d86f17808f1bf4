"""The lesson-retrieval context of a battle moment: query text plus the structured keys lessons match on."""

from __future__ import annotations

from engine.game.models import GameState
from engine.memory.lessons import LessonContext


def battle_context(state: GameState) -> tuple[str, LessonContext]:
    """(query text, structured context) for retrieving lessons about this moment of a battle."""
    battle = state.battle
    ours = battle.player if battle else None
    enemy = battle.enemy if battle else None
    our_types = tuple(t for t in (ours.type1_name, ours.type2_name) if t) if ours else ()
    enemy_types = tuple(t for t in (enemy.type1_name, enemy.type2_name) if t) if enemy else ()
    species = tuple(m.species_name for m in (ours, enemy) if m is not None and m.species_name)
    moves = tuple(slot.name for slot in ours.moves if slot.name) if ours else ()
    opponent = None
    if battle is not None and battle.kind == "trainer":
        opponent = f"{battle.trainer_class_name} #{battle.trainer_number}"
    query = " ".join(
        part
        for part in (
            f"{ours.species_name} {' '.join(our_types)}" if ours else "",
            f"vs {enemy.species_name} {' '.join(enemy_types)}" if enemy else "",
            opponent or "",
            " ".join(moves),
        )
        if part
    )
    context = LessonContext(
        our_types=our_types, enemy_types=enemy_types, species=species, moves=moves, opponent=opponent
    )
    return query, context
