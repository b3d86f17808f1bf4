"""Sizing up a battle from what the player may know: the enemy as seen (species, level, HP bar) or as
RAM holds it, expected damage and knock-out chances of a move, how hard the enemy's types hit, and the
moves an enemy knows when nobody taught it others. Pure Gen 1 knowledge over the damage calculator; the
policies, the model prompts and the router all judge with these."""

from __future__ import annotations

from enum import StrEnum

from engine.frozen import Frozen
from engine.game.damage import Combatant, expected_damage, ko_probability, type_effectiveness
from engine.game.models import BattleMon, Mon
from engine.game.tables import Move, game_data

HP_BAR_PIXELS = 48  # the battle HUD's HP bar is 6 tiles of 8 pixels
KO_WEIGHT = 100.0
MAX_MOVES = 4


class Fairness(StrEnum):
    """What a policy may see: what a human sees on screen, or everything in RAM."""

    VISIBLE_ONLY = "visible_only"
    FULL_RAM = "full_ram"


class EnemyView(Frozen):
    combatant: Combatant
    hp: int


def hp_bar_fraction(hp: int, max_hp: int) -> float:
    """What the HP bar shows: whole pixels of a 48-pixel bar (as the game draws it)."""
    if max_hp <= 0:
        return 0.0
    pixels = hp * HP_BAR_PIXELS // max_hp
    if hp > 0 and pixels == 0:
        pixels = 1  # the game never shows an empty bar for a member that still has HP
    return pixels / HP_BAR_PIXELS


def combatant_of(mon: Mon) -> Combatant:
    species = game_data().species_by_index.get(mon.species_id)
    return Combatant(
        level=max(1, mon.level),
        max_hp=max(1, mon.max_hp),
        attack=max(1, mon.stats.attack),
        defense=max(1, mon.stats.defense),
        speed=max(1, mon.stats.speed),
        special=max(1, mon.stats.special),
        type1=mon.type1_name or "NORMAL",
        type2=mon.type2_name or "NORMAL",
        base_speed=species.base.speed if species else 50,
    )


def enemy_view(enemy: BattleMon, fairness: Fairness) -> EnemyView:
    """The enemy as the policy may know it. visible_only: species, level and the HP bar; the stats
    are estimated from base stats."""
    if fairness is Fairness.FULL_RAM or enemy.species_name is None:
        return EnemyView(combatant=combatant_of(enemy), hp=enemy.hp)
    estimate = Combatant.estimate(enemy.species_name, max(1, enemy.level))
    shown = hp_bar_fraction(enemy.hp, enemy.max_hp)
    return EnemyView(combatant=estimate, hp=max(1 if enemy.hp > 0 else 0, round(shown * estimate.max_hp)))


def move_by_id(move_id: int) -> Move | None:
    return game_data().moves_by_id.get(move_id)


def move_score(attacker: Combatant, enemy: EnemyView, move: Move) -> tuple[float, float, float]:
    """(score, expected damage, KO chance) of one use."""
    if move.power == 0 and move.effect not in ("SPECIAL_DAMAGE_EFFECT", "SUPER_FANG_EFFECT", "OHKO_EFFECT"):
        return 0.0, 0.0, 0.0
    hp = max(1, enemy.hp)
    damage = expected_damage(attacker, enemy.combatant, move, defender_hp=hp)
    ko = ko_probability(attacker, enemy.combatant, move, hp)
    return ko * KO_WEIGHT + damage, damage, ko


def threat_to(defender: Combatant, enemy: EnemyView) -> float:
    """How hard the enemy's own types hit us; its moves are not visible, its STAB types are."""
    own = {enemy.combatant.type1, enemy.combatant.type2}
    return max(type_effectiveness(t, defender.type1, defender.type2) for t in own)


def likely_moves(species_name: str, level: int) -> list[Move]:
    """The moves a Pokémon of this species and level knows when nobody taught it others: its starting
    moves, then each level-up move up to `level`, the oldest forgotten beyond four (how wild and most
    trainer Pokémon get theirs; pret engine/pokemon/evos_moves.asm WriteMonMoves)."""
    species = game_data().species_by_name.get(species_name)
    if species is None:
        return []
    known: list[str] = []
    for name in [*species.start_moves, *(move for at, move in species.learnset if at <= level)]:
        if name not in known:
            known = [*known, name][-MAX_MOVES:]
    return [game_data().moves_by_name[name] for name in known if name in game_data().moves_by_name]


def enemy_moves(enemy: BattleMon, fairness: Fairness) -> list[Move]:
    """The enemy's moves: read from RAM with full_ram; otherwise what its species knows at its level."""
    if fairness is Fairness.FULL_RAM or enemy.species_name is None:
        return [m for slot in enemy.moves if slot.pp > 0 and (m := move_by_id(slot.move_id))]
    return likely_moves(enemy.species_name, max(1, enemy.level))


def enemy_threat(enemy: EnemyView, moves: list[Move], defender: Combatant, hp: int) -> tuple[float, float]:
    """(chance that the enemy's most dangerous move knocks out a defender with `hp` HP, the most
    damage one of its moves is expected to deal)."""
    if hp <= 0 or not moves:
        return 0.0, 0.0
    ko = max(ko_probability(enemy.combatant, defender, move, hp) for move in moves)
    damage = max(expected_damage(enemy.combatant, defender, move, defender_hp=hp) for move in moves)
    return ko, damage


def best_damage(mon: Mon, enemy: EnemyView) -> float:
    attacker = combatant_of(mon)
    scores = [
        move_score(attacker, enemy, m)[1]
        for slot in mon.moves
        if slot.pp > 0 and (m := move_by_id(slot.move_id))
    ]
    return max(scores, default=0.0)
