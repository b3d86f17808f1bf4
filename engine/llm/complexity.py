"""How demanding a battle is, from what is visible: the kind of opponent, the level gap, members left on
each side, and the rule-based policy's own estimate of how close the fight is. The router turns this into
a model tier."""

from __future__ import annotations

from engine.battles.outcome import opponent_name
from engine.combat.enemy import BOSS_CLASSES
from engine.game.assessment import Fairness, best_damage, combatant_of, enemy_moves, enemy_threat, enemy_view
from engine.game.models import BattleState, GameState
from engine.llm.router import BattleKind, TaskKind, TaskProfile

NO_PROGRESS_TURNS = 99.0  # a side that cannot hurt the other "needs" this many turns


def battle_kind(battle: BattleState | None) -> BattleKind:
    if battle is None:
        return "none"
    if battle.kind == "wild":
        return "wild"
    return "boss" if battle.trainer_class_name in BOSS_CLASSES else "trainer"


def closeness(state: GameState) -> float:
    """The risk of losing the current exchange, 0-1: our turns to knock the enemy out against its turns to
    knock out our active member (0.5 is an even fight), from the free policy's damage estimates."""
    battle = state.battle
    if battle is None or battle.player is None or battle.enemy is None or battle.player.hp <= 0:
        return 0.0
    enemy = enemy_view(battle.enemy, Fairness.VISIBLE_ONLY)
    ours = best_damage(battle.player, enemy)
    _, theirs = enemy_threat(
        enemy, enemy_moves(battle.enemy, Fairness.VISIBLE_ONLY), combatant_of(battle.player), battle.player.hp
    )
    our_turns = enemy.hp / ours if ours > 0 else NO_PROGRESS_TURNS
    their_turns = battle.player.hp / theirs if theirs > 0 else NO_PROGRESS_TURNS
    return round(our_turns / (our_turns + their_turns), 3)


def profile(state: GameState, task: TaskKind) -> TaskProfile:
    battle = state.battle
    if battle is None:
        return TaskProfile(task=task)
    level_gap = 0
    if battle.player is not None and battle.enemy is not None:
        level_gap = battle.enemy.level - battle.player.level
    enemy_left = 1
    if battle.enemy_party_count is not None and battle.enemy_party_pos is not None:
        enemy_left = max(1, battle.enemy_party_count - battle.enemy_party_pos)
    return TaskProfile(
        task=task,
        battle=battle_kind(battle),
        opponent=opponent_name(battle),
        level_gap=level_gap,
        our_remaining=sum(mon.hp > 0 for mon in state.party),
        enemy_remaining=enemy_left,
        closeness=closeness(state),
    )
