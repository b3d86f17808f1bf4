"""What the items a policy may use in battle do, and on whom they would have any effect.

Source: pret/pokered engine/items/item_effects.asm (ItemUsePtrTable, ItemUseBall, ItemUseMedicine: heal
amounts, the status each healer cures, the "It won't have any effect" conditions).
"""

from __future__ import annotations

from enum import StrEnum

from engine.frozen import Frozen
from engine.game.models import Mon, StatusName


class ItemKind(StrEnum):
    HEAL_HP = "heal_hp"  # potions and drinks; FULL_RESTORE also cures status
    CURE_STATUS = "cure_status"
    REVIVE = "revive"
    STAT_BOOST = "stat_boost"  # X items: one stage up for the member in front (no target to choose)
    BALL = "ball"


class BattleItem(Frozen):
    name: str
    kind: ItemKind
    heal: int | None = None  # HP restored; None restores all (a REVIVE restores half)
    cures: frozenset[StatusName] = frozenset()


_ALL_STATUSES: frozenset[StatusName] = frozenset({"SLP", "PSN", "BRN", "FRZ", "PAR"})

BATTLE_ITEMS: dict[str, BattleItem] = {
    item.name: item
    for item in (
        BattleItem(name="POTION", kind=ItemKind.HEAL_HP, heal=20),
        BattleItem(name="SUPER_POTION", kind=ItemKind.HEAL_HP, heal=50),
        BattleItem(name="HYPER_POTION", kind=ItemKind.HEAL_HP, heal=200),
        BattleItem(name="MAX_POTION", kind=ItemKind.HEAL_HP),
        BattleItem(name="FULL_RESTORE", kind=ItemKind.HEAL_HP, cures=_ALL_STATUSES),
        BattleItem(name="FRESH_WATER", kind=ItemKind.HEAL_HP, heal=50),
        BattleItem(name="SODA_POP", kind=ItemKind.HEAL_HP, heal=60),
        BattleItem(name="LEMONADE", kind=ItemKind.HEAL_HP, heal=80),
        BattleItem(name="ANTIDOTE", kind=ItemKind.CURE_STATUS, cures=frozenset({"PSN"})),
        BattleItem(name="BURN_HEAL", kind=ItemKind.CURE_STATUS, cures=frozenset({"BRN"})),
        BattleItem(name="ICE_HEAL", kind=ItemKind.CURE_STATUS, cures=frozenset({"FRZ"})),
        BattleItem(name="AWAKENING", kind=ItemKind.CURE_STATUS, cures=frozenset({"SLP"})),
        BattleItem(name="PARLYZ_HEAL", kind=ItemKind.CURE_STATUS, cures=frozenset({"PAR"})),
        BattleItem(name="FULL_HEAL", kind=ItemKind.CURE_STATUS, cures=_ALL_STATUSES),
        BattleItem(name="REVIVE", kind=ItemKind.REVIVE),
        BattleItem(name="MAX_REVIVE", kind=ItemKind.REVIVE),
        # ItemUseXStat: StatModifierUpEffect with ATTACK_UP1_EFFECT + (item - X_ATTACK).
        BattleItem(name="X_ATTACK", kind=ItemKind.STAT_BOOST),
        BattleItem(name="X_DEFEND", kind=ItemKind.STAT_BOOST),
        BattleItem(name="X_SPEED", kind=ItemKind.STAT_BOOST),
        BattleItem(name="X_SPECIAL", kind=ItemKind.STAT_BOOST),
        BattleItem(name="POKE_BALL", kind=ItemKind.BALL),
        BattleItem(name="GREAT_BALL", kind=ItemKind.BALL),
        BattleItem(name="ULTRA_BALL", kind=ItemKind.BALL),
        BattleItem(name="MASTER_BALL", kind=ItemKind.BALL),
    )
}


def has_effect(item: BattleItem, mon: Mon) -> bool:
    """Whether using `item` on `mon` does anything (the game refuses it otherwise, turn not taken)."""
    fainted = mon.hp == 0
    if item.kind is ItemKind.REVIVE:
        return fainted
    if fainted or item.kind in (ItemKind.BALL, ItemKind.STAT_BOOST):
        return False  # a stat item has no target: `item_actions` offers it for the member in front
    if item.kind is ItemKind.CURE_STATUS:
        return mon.status in item.cures
    return mon.hp < mon.max_hp or mon.status in item.cures  # FULL_RESTORE at full HP cures status


def hp_after(item: BattleItem, mon: Mon) -> int:
    """HP once `item` is used on `mon` (no change for items that restore none)."""
    if not has_effect(item, mon) or item.kind in (ItemKind.CURE_STATUS, ItemKind.BALL, ItemKind.STAT_BOOST):
        return mon.hp
    if item.kind is ItemKind.REVIVE:
        return mon.max_hp if item.name == "MAX_REVIVE" else mon.max_hp // 2
    return mon.max_hp if item.heal is None else min(mon.max_hp, mon.hp + item.heal)


# The stage each X item raises, as the battle struct's stage list orders them (attack, defense, speed,
# special): a stage already at +6 makes the item do nothing.
X_ITEM_STAGE = {"X_ATTACK": 0, "X_DEFEND": 1, "X_SPEED": 2, "X_SPECIAL": 3}
MAX_STAGE = 6
