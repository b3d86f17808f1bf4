"""How a battle ended, from the game's own bookkeeping.

A catch ends the battle with wBattleResult 2, as running away does (no EXP, the enemy leaves unbeaten), so
its outcome is "flee"; the species caught is how a catch is told apart from an escape.
"""

from __future__ import annotations

from engine.battles.models import Outcome
from engine.game.models import BattleState, GameState

# wBattleResult (pret ram/wram.asm: 0 win, 1 lose, 2 draw; set to 2 by running and by a catch,
# engine/battle/core.asm UseBagItem.returnAfterCapturingMon)
RAN_OR_CAUGHT = 2


def opponent_name(battle: BattleState) -> str:
    if battle.kind == "trainer":
        return f"{battle.trainer_class_name} #{battle.trainer_number}"
    if battle.enemy is None:
        return "?"
    return battle.enemy.species_name or "?"


def battle_outcome(final: GameState, battle_result: int) -> Outcome:
    """From the last in-battle look at both sides and wBattleResult (2 after running or a catch)."""
    battle = final.battle
    assert battle is not None
    we_are_down = all(mon.hp == 0 for mon in final.party)
    enemy_down = battle.enemy is not None and battle.enemy.hp == 0
    if battle.kind == "trainer" and enemy_down and battle.enemy_party_count is not None:
        # Every member down, wherever the last one stood (a trainer who switches can end on any of them);
        # looks decoded before the party's HP was read fall back to the last place in the party.
        others = [hp for i, hp in enumerate(battle.enemy_party_hp) if i != battle.enemy_party_pos]
        enemy_down = (
            not any(others)
            if len(battle.enemy_party_hp) == battle.enemy_party_count
            else battle.enemy_party_pos == battle.enemy_party_count - 1
        )
    if we_are_down:
        return "draw" if enemy_down else "defeat"
    if enemy_down:
        return "victory"
    return "flee" if battle_result == RAN_OR_CAUGHT else "draw"
