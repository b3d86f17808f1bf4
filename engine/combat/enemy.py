"""What the other side will do: a wild Pokémon picks a move at random, a trainer as Gen 1's trainer AI does.

Sources (pret/pokered): engine/battle/core.asm SelectEnemyMove (a random byte picks the move slot: below
63 the first, below 127 the second, below 190 the third, else the fourth; empty slots roll again),
engine/battle/trainer_ai.asm (AIEnemyTrainerChooseMoves and its modifications 1-3, TrainerAI and the
item routines), with the tables in engine/game/data/trainer_ai.json.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources

from engine.combat.effects import locked_slot
from engine.combat.fighter import (
    STRUGGLE_SLOT,
    Action,
    Attack,
    Duel,
    Fighter,
    Side,
    UseItem,
    move_of,
    moves_of,
)
from engine.combat.hits import deals_damage
from engine.frozen import Frozen
from engine.game.damage import ai_type_effectiveness
from engine.game.items import BATTLE_ITEMS, ItemKind
from engine.game.tables import Move, game_data

# Trainer classes whose battles are milestones: gym leaders, the rival, the Elite Four and Giovanni
# (names as in pret/pokered constants/trainer_constants.asm). The search looks deeper against them.
BOSS_CLASSES = frozenset(
    {
        "BROCK", "MISTY", "LT_SURGE", "ERIKA", "KOGA", "SABRINA", "BLAINE", "GIOVANNI",
        "LORELEI", "BRUNO", "AGATHA", "LANCE", "RIVAL1", "RIVAL2", "RIVAL3",
    }
)  # fmt: skip

SLOT_WEIGHTS = (63, 64, 63, 66)  # the share of the random byte each move slot gets
_START_SCORE = 10
_STATUS_AILMENTS = frozenset({"SLEEP_EFFECT", "POISON_EFFECT", "PARALYZE_EFFECT"})
# AIMoveChoiceModification2 encourages effects numbered ATTACK_UP1..HAZE and ATTACK_UP2..REFLECT.
_LAYER2 = frozenset(
    {
        *(f"{s}_UP1_EFFECT" for s in ("ATTACK", "DEFENSE", "SPEED", "SPECIAL", "ACCURACY", "EVASION")),
        *(f"{s}_DOWN1_EFFECT" for s in ("ATTACK", "DEFENSE", "SPEED", "SPECIAL", "ACCURACY", "EVASION")),
        *(f"{s}_UP2_EFFECT" for s in ("ATTACK", "DEFENSE", "SPEED", "SPECIAL", "ACCURACY", "EVASION")),
        *(f"{s}_DOWN2_EFFECT" for s in ("ATTACK", "DEFENSE", "SPEED", "SPECIAL", "ACCURACY", "EVASION")),
        "PAY_DAY_EFFECT", "SWIFT_EFFECT", "CONVERSION_EFFECT", "HAZE_EFFECT", "HEAL_EFFECT",
        "TRANSFORM_EFFECT", "LIGHT_SCREEN_EFFECT", "REFLECT_EFFECT",
    }
)  # fmt: skip
_BETTER_EFFECTS = frozenset({"SUPER_FANG_EFFECT", "SPECIAL_DAMAGE_EFFECT", "FLY_EFFECT"})


class AiItem(Frozen):
    name: str
    uses: int
    random_below: int
    hp_below_fraction: int | None = None
    only_with_status: bool = False


class TrainerAi(Frozen):
    trainer_class: str
    move_choices: tuple[int, ...]
    item: AiItem | None = None


class LoneMove(Frozen):
    trainer_class: str
    member: int
    move: str


def _data() -> dict[str, object]:
    text = resources.files("engine.game.data").joinpath("trainer_ai.json").read_text(encoding="utf-8")
    loaded: dict[str, object] = json.loads(text)
    return loaded


@cache
def trainer_ai() -> dict[str, TrainerAi]:
    entries = _data()["entries"]
    assert isinstance(entries, list)
    return {
        e["class"]: TrainerAi(trainer_class=e["class"], move_choices=e["move_choices"], item=e.get("item"))
        for e in entries
    }


@cache
def special_moves() -> tuple[LoneMove, ...]:
    """Gym leaders' special moves (LoneMoves) and the Elite Four's (TeamMoves, on the fifth member)."""
    data = _data()
    lone, team = data["lone_moves"], data["team_moves"]
    assert isinstance(lone, list) and isinstance(team, list)
    found = [LoneMove(trainer_class=e["class"], member=e["member"], move=e["move"]) for e in lone]
    found += [LoneMove(trainer_class=e["class"], member=4, move=e["move"]) for e in team]
    return tuple(found)


def special_move(trainer_class: str | None, member: int) -> Move | None:
    for entry in special_moves():
        if entry.trainer_class == trainer_class and entry.member == member:
            return game_data().moves_by_name[entry.move]
    return None


def choices(duel: Duel) -> list[tuple[float, Action]]:
    """The enemy's actions this turn with their chances."""
    side = duel.them
    fighter = side.fighter
    locked = locked_slot(fighter)
    if locked is not None:
        return [(1.0, Attack(locked))]
    usable = [i for i, pp in enumerate(fighter.pp) if pp > 0]
    if not usable:
        return [(1.0, Attack(STRUGGLE_SLOT))]
    if fighter.bide or fighter.trapping or fighter.recharging:
        return [(1.0, Attack(usable[0]))]  # the move is already decided
    item = None if duel.wild else _item_choice(side, duel.us.fighter)
    moves = _move_weights(duel, usable)
    if item is None:
        return moves
    p, action = item
    return [(p, action)] + [(q * (1 - p), a) for q, a in moves]


def _move_weights(duel: Duel, usable: list[int]) -> list[tuple[float, Action]]:
    if not duel.wild and duel.them.trainer_class is not None:
        usable = _preferred(duel, usable)
    weights = [SLOT_WEIGHTS[i] for i in usable]
    total = sum(weights)
    return [(w / total, Attack(i)) for w, i in zip(weights, usable, strict=True)]


def _preferred(duel: Duel, usable: list[int]) -> list[int]:
    """AIEnemyTrainerChooseMoves: every move starts at 10, the class's modifications add or take away,
    and the moves with the lowest score are the ones it picks from."""
    ai = trainer_ai().get(duel.them.trainer_class or "")
    if ai is None or not ai.move_choices:
        return usable
    me, player = duel.them.fighter, duel.us.fighter
    scores = {i: _START_SCORE for i in usable}
    for modification in ai.move_choices:
        for i in usable:
            scores[i] += _modification(modification, move_of(me, i), me, player, duel.them.turns_out)
    low = min(scores.values())
    return [i for i in usable if scores[i] == low]


def _modification(kind: int, move: Move, me: Fighter, player: Fighter, turns_out: int) -> int:
    if kind == 1:  # discourage status moves against a Pokémon that already has a status
        return 5 if player.status != "OK" and move.power == 0 and move.effect in _STATUS_AILMENTS else 0
    if kind == 2:  # on the member's second turn, encourage stat and screen moves
        return -1 if turns_out == 1 and move.effect in _LAYER2 else 0
    if kind == 3:
        return _type_modification(move, me, player)
    return 0


def _type_modification(move: Move, me: Fighter, player: Fighter) -> int:
    """Encourage super effective moves (even non-damaging ones); discourage resisted ones when a damaging
    move of another type (or a fixed-damage move) is there instead. Effectiveness as the AI reads it."""
    effectiveness = ai_type_effectiveness(move.type, *player.types)
    if effectiveness > 1:
        return -1
    if effectiveness == 1:
        return 0
    better = any(
        other.effect in _BETTER_EFFECTS or (other.type != move.type and deals_damage(other))
        for other in moves_of(me)
    )
    return 1 if better else 0


def item_held_back(side: Side) -> bool:
    """Whether the HP of the member in front keeps the trainer's item routine from running (a HYPER POTION
    held back until it is below a fifth): the only way the HP it has changes its choices."""
    ai = trainer_ai().get(side.trainer_class or "")
    if ai is None or ai.item is None or ai.item.hp_below_fraction is None:
        return False
    me = side.fighter
    return me.hp >= me.max_hp // ai.item.hp_below_fraction


def _item_choice(side: Side, player: Fighter) -> tuple[float, UseItem] | None:
    """TrainerAI: a class's item routine runs before its move, a limited number of times per member."""
    ai = trainer_ai().get(side.trainer_class or "")
    if ai is None or ai.item is None or side.ai_uses <= 0:
        return None
    item, me = ai.item, side.fighter
    if item.only_with_status and me.status == "OK":
        return None
    if item_held_back(side):
        return None
    return min(1.0, item.random_below / 256), _as_action(item.name, side.active)


def _as_action(name: str, member: int) -> UseItem:
    found = BATTLE_ITEMS.get(name)
    if found is not None:
        heal = found.heal if found.kind is ItemKind.HEAL_HP else 0
        return UseItem(item=name, heal=heal, cures=frozenset(found.cures), member=member)
    return UseItem(item=name, heal=0, cures=frozenset(), member=member)
