"""What the items a policy may use in battle do, and on whom they would have any effect.

Source: pret/pokered engine/items/item_effects.asm (ItemUsePtrTable, ItemUseBall, ItemUseMedicine: heal
amounts, the status each healer cures, the "It won't have any effect" conditions; ItemUseXStat,
ItemUseXAccuracy, ItemUseGuardSpec, ItemUseDireHit; ItemUsePPRestore and GetMaxPP/AddBonusPP for the PP
items).
"""

from __future__ import annotations

from enum import StrEnum

from engine.frozen import Frozen
from engine.game.models import Mon, MoveSlot, StatusName
from engine.game.tables import game_data


class ItemKind(StrEnum):
    HEAL_HP = "heal_hp"  # potions and drinks; FULL_RESTORE also cures status
    CURE_STATUS = "cure_status"
    REVIVE = "revive"
    STAT_BOOST = "stat_boost"  # X items, GUARD SPEC., DIRE HIT: for the member in front (no target)
    RESTORE_PP = "restore_pp"  # ETHER and MAX ETHER on one move, ELIXER and MAX ELIXER on all four
    BALL = "ball"


class BattleItem(Frozen):
    name: str
    kind: ItemKind
    heal: int | None = None  # HP (PP for a PP item) restored; None restores all (a REVIVE restores half)
    cures: frozenset[StatusName] = frozenset()

    @property
    def every_move(self) -> bool:
        """ELIXER and MAX ELIXER restore all four moves; the ETHERs one, chosen on the move menu."""
        return self.name in ("ELIXER", "MAX_ELIXER")


PP_RESTORED = 10  # ItemUsePPRestore's .restorePP: "add 10"
MAX_PP_UP_BONUS = 7  # AddBonusPP caps a PP Up's bonus (a fifth of the move's PP) at 7


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
        BattleItem(name="X_ACCURACY", kind=ItemKind.STAT_BOOST),
        BattleItem(name="GUARD_SPEC", kind=ItemKind.STAT_BOOST),
        BattleItem(name="DIRE_HIT", kind=ItemKind.STAT_BOOST),
        BattleItem(name="ETHER", kind=ItemKind.RESTORE_PP, heal=PP_RESTORED),
        BattleItem(name="MAX_ETHER", kind=ItemKind.RESTORE_PP),
        BattleItem(name="ELIXER", kind=ItemKind.RESTORE_PP, heal=PP_RESTORED),
        BattleItem(name="MAX_ELIXER", kind=ItemKind.RESTORE_PP),
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
    if fainted or item.kind in (ItemKind.BALL, ItemKind.STAT_BOOST, ItemKind.RESTORE_PP):
        return False  # no target (a stat item), or a move too (a PP item): `item_actions` offers them
    if item.kind is ItemKind.CURE_STATUS:
        return mon.status in item.cures
    return mon.hp < mon.max_hp or mon.status in item.cures  # FULL_RESTORE at full HP cures status


def hp_after(item: BattleItem, mon: Mon) -> int:
    """HP once `item` is used on `mon` (no change for items that restore none)."""
    if not has_effect(item, mon) or item.kind in (
        ItemKind.CURE_STATUS,
        ItemKind.BALL,
        ItemKind.STAT_BOOST,
        ItemKind.RESTORE_PP,
    ):
        return mon.hp
    if item.kind is ItemKind.REVIVE:
        return mon.max_hp if item.name == "MAX_REVIVE" else mon.max_hp // 2
    return mon.max_hp if item.heal is None else min(mon.max_hp, mon.hp + item.heal)


def max_pp(slot: MoveSlot) -> int:
    """GetMaxPP: the move's PP with a fifth of it (at most 7) added per PP Up used on it."""
    move = game_data().moves_by_id.get(slot.move_id)
    if move is None:
        return slot.pp
    return move.pp + slot.pp_ups * min(move.pp // 5, MAX_PP_UP_BONUS)


def pp_after(item: BattleItem, mon: Mon, move: int | None) -> tuple[int, ...]:
    """The member's PP once a PP item is used on it (on `move` for the ETHERs)."""
    out = []
    for slot, held in enumerate(mon.moves):
        top = max_pp(held)
        if (item.every_move or slot == move) and held.move_id:
            out.append(top if item.heal is None else min(top, held.pp + item.heal))
        else:
            out.append(held.pp)
    return tuple(out)


def dry_moves(mon: Mon) -> list[int]:
    """The member's move slots out of PP: where a PP item is worth offering."""
    return [slot for slot, held in enumerate(mon.moves) if held.move_id and held.pp == 0 and max_pp(held)]


# The stage each X item raises, as the battle struct's stage list orders them (attack, defense, speed,
# special): a stage already at +6 makes the item do nothing.
X_ITEM_STAGE = {"X_ATTACK": 0, "X_DEFEND": 1, "X_SPEED": 2, "X_SPECIAL": 3}
MAX_STAGE = 6
# The wPlayerBattleStatus2 bit each flag item sets (pret constants/battle_constants.asm): using one again
# while it is set changes nothing.
FLAG_ITEM_BITS = {"X_ACCURACY": 0, "GUARD_SPEC": 1, "DIRE_HIT": 2}
