"""Catching a wild Pokémon when the objective asks for one: weaken it with a move that will not knock it
out, then throw a ball (a Poké Ball's odds grow as the target's HP falls; pret engine/items/item_effects.asm
ItemUseBall)."""

from __future__ import annotations

from engine.game.actions import BattleAction, UseItem, UseMove
from engine.game.assessment import combatant_of, move_by_id
from engine.game.damage import expected_damage, ko_probability
from engine.game.decoders import MONS_PER_BOX
from engine.game.models import GameState
from engine.game.tables import game_data
from engine.game.teaching import can_learn
from engine.tactician.rule_based import ActionDecision

BALLS = ("POKE_BALL", "GREAT_BALL", "ULTRA_BALL")
THROW_AT = 0.5  # the enemy's HP share at or under which the ball is thrown
SAFE_KO = 0.1  # a weakening move may knock the target out this often at most
PARTY_LENGTH = 6
# A wild Pokémon that uses one of these ends the battle (a wild ABRA knows only TELEPORT): no turn to
# weaken it.
FLEEING_MOVES = frozenset({"TELEPORT", "WHIRLWIND", "ROAR"})


def wanted_catch(
    state: GameState,
    legal: list[BattleAction],
    step: tuple[str | None, bool] | None,
    recruit: str | None,
) -> ActionDecision | None:
    """What the step in hand asks to catch (`step`: the machine a member must learn, and whether only new
    species), or the recruit looked for: either one will do. Asked as one, both had to hold: on Red seed
    124 the recruiter looked for an EKANS while the plan needed a member for FLY, and four wild PIDGEY were
    knocked out on Route 8."""
    found = catch_decision(state, legal, learns=step[0], new_only=step[1]) if step is not None else None
    if found is None and recruit is not None:
        found = catch_decision(state, legal, species=recruit)
    return found


def catch_decision(
    state: GameState,
    legal: list[BattleAction],
    learns: str | None = None,
    new_only: bool = False,
    species: str | None = None,
) -> ActionDecision | None:
    """Weaken or throw, in a wild battle with a ball in the bag; None when there is nothing to catch (or,
    with `learns`, the wild one cannot learn that TM's or HM's move; with `new_only`, its species is owned
    already; with `species`, it is another)."""
    battle = state.battle
    if battle is None or battle.kind != "wild" or battle.enemy is None or battle.player is None:
        return None
    if learns is not None and not can_learn(battle.enemy.species_name, learns):
        return None
    if new_only and owned(state, battle.enemy.species_name):
        return None
    if species is not None and battle.enemy.species_name != species:
        return None
    if len(state.party) >= PARTY_LENGTH and state.progress.box_count >= MONS_PER_BOX:
        return None  # the game refuses the ball ("The #MON BOX is full!"): the party and the box are full
    throws = [action for action in legal if isinstance(action, UseItem) and action.item in BALLS]
    if not throws:
        return None
    enemy, share = battle.enemy, battle.enemy.hp / max(1, battle.enemy.max_hp)
    throw = min(throws, key=lambda action: BALLS.index(action.item))
    if share <= THROW_AT:
        return ActionDecision(
            action=throw, reason=f"catch: {enemy.species_name} at {share:.0%} HP, throw {throw.item}"
        )
    if any(slot.name in FLEEING_MOVES for slot in enemy.moves):
        return ActionDecision(
            action=throw,
            reason=f"catch: {enemy.species_name} flees on its first move, throw {throw.item} now",
        )
    attacker, defender = combatant_of(battle.player), combatant_of(enemy)
    gentle: list[tuple[float, UseMove, str]] = []
    for action in legal:
        if not isinstance(action, UseMove):
            continue
        move = move_by_id(battle.player.moves[action.slot].move_id)
        if move is None or move.power == 0:
            continue
        damage = expected_damage(attacker, defender, move)
        # A move the target is immune to weakens nothing: Blue seed 35 used BODY SLAM on a wild GASTLY
        # until its WARTORTLE fainted, eleven battles in a row.
        if damage > 0 and ko_probability(attacker, defender, move, enemy.hp) <= SAFE_KO:
            gentle.append((damage, action, move.name))
    if not gentle:
        return ActionDecision(
            action=throw, reason=f"catch: no move is safe to weaken {enemy.species_name}, throw {throw.item}"
        )
    _, action, name = max(gentle, key=lambda item: item[0])
    return ActionDecision(
        action=action, reason=f"catch: weaken {enemy.species_name} ({share:.0%} HP) with {name} first"
    )


def owned(state: GameState, species: str | None) -> bool:
    """The species is in the Pokédex as owned (or is no species the tables know: nothing to catch)."""
    found = game_data().species_by_name.get(species or "")
    return found is None or found.dex in state.progress.owned_dex
