"""High-level battle actions and the legal set offered at each decision point.

A policy (rule-based or a model) only ever chooses from `legal_actions(state)`; choices the game would
refuse (a move with 0 PP, a fainted or active member, running from a trainer, an item that would have no
effect, a ball thrown at a trainer's Pokémon) are never offered.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, field_validator

from engine.frozen import Frozen
from engine.game.items import (
    BATTLE_ITEMS,
    FLAG_ITEM_BITS,
    MAX_STAGE,
    X_ITEM_STAGE,
    BattleItem,
    ItemKind,
    dry_moves,
    has_effect,
)
from engine.game.models import BattleState, DecisionPoint, GameState, Mon, PartyMon
from engine.game.tables import game_data

BATTLE_TYPE_NORMAL = 0  # wBattleType: the old man's demonstration and the Safari Zone have other menus
BATTLE_TYPE_SAFARI = 2


class UseMove(Frozen):
    kind: Literal["use_move"] = "use_move"
    slot: int = Field(ge=0, le=3)


class Struggle(Frozen):
    """FIGHT with no PP left in any move: the game uses STRUGGLE by itself."""

    kind: Literal["struggle"] = "struggle"


class SwitchTo(Frozen):
    kind: Literal["switch"] = "switch"
    slot: int = Field(ge=0, le=5)


class Run(Frozen):
    kind: Literal["run"] = "run"


class SendNext(Frozen):
    """After a faint: which member comes out."""

    kind: Literal["send_next"] = "send_next"
    slot: int = Field(ge=0, le=5)


class LearnMove(Frozen):
    """Learn the offered move by forgetting `forget_slot`, or keep the old moves (None)."""

    kind: Literal["learn_move"] = "learn_move"
    forget_slot: int | None = Field(default=None, ge=0, le=3)


class Evolve(Frozen):
    kind: Literal["evolve"] = "evolve"
    allow: bool = True


class UseItem(Frozen):
    """Use a bag item from the battle menu: on party member `target` (healing and PP items), or with no
    target (balls, X items); `move` is the move slot an ETHER or MAX ETHER restores. `item` is the item's
    constant name (e.g. "POTION"); an item id is accepted and converted."""

    kind: Literal["use_item"] = "use_item"
    item: str
    target: int | None = Field(default=None, ge=0, le=5)
    move: int | None = Field(default=None, ge=0, le=3)

    @field_validator("item", mode="before")
    @classmethod
    def _item_name(cls, value: Any) -> Any:
        if isinstance(value, int) and not isinstance(value, bool):
            found = game_data().items.get(value)
            if found is None:
                raise ValueError(f"no item with id {value}")
            return found.name
        return value


BattleAction = Annotated[
    UseMove | Struggle | SwitchTo | Run | SendNext | LearnMove | Evolve | UseItem,
    Field(discriminator="kind"),
]


def describe(action: BattleAction, state: GameState) -> str:
    """A short label a person (or a model) can read, e.g. 'use BUBBLE' or 'switch to PIKACHU'."""
    party = {mon.slot: mon for mon in state.party}
    if isinstance(action, UseMove):
        player = state.battle.player if state.battle else None
        moves = player.moves if player else ()
        name = moves[action.slot].name if action.slot < len(moves) else f"move {action.slot + 1}"
        return f"use {name}"
    if isinstance(action, SwitchTo | SendNext):
        verb = "switch to" if isinstance(action, SwitchTo) else "send out"
        return f"{verb} {party[action.slot].nickname if action.slot in party else action.slot}"
    if isinstance(action, LearnMove):
        return "keep the old moves" if action.forget_slot is None else f"forget move {action.forget_slot + 1}"
    if isinstance(action, Evolve):
        return "let it evolve" if action.allow else "stop the evolution"
    if isinstance(action, UseItem):
        if action.target is None:
            return f"throw {action.item}" if action.item in _BALLS else f"use {action.item}"
        mon = party.get(action.target)
        target = mon.nickname if mon is not None else f"member {action.target + 1}"
        if action.move is not None and mon is not None and action.move < len(mon.moves):
            return f"use {action.item} on {target}'s {mon.moves[action.move].name}"
        return f"use {action.item} on {target}"
    return action.kind.replace("_", " ")


_BALLS = frozenset(name for name, item in BATTLE_ITEMS.items() if item.kind is ItemKind.BALL)


def _can_fight(mon: PartyMon) -> bool:
    return mon.hp > 0


def _bench(state: GameState) -> list[PartyMon]:
    active = state.battle.player_active_slot if state.battle else -1
    return [mon for mon in state.party if mon.slot != active and _can_fight(mon)]


def _menu_actions(state: GameState) -> list[BattleAction]:
    battle = state.battle
    if battle is not None and battle.battle_type == BATTLE_TYPE_SAFARI:
        # No member fights in the Safari Zone (BALL, BAIT, THROW ROCK, RUN): the engine runs, which always
        # works there, and keeps its steps for the trip.
        return [Run()]
    if battle is None or battle.player is None:
        return []
    # A DISABLEd move cannot be chosen: the game prints "disabled!" and keeps the menu open (pret
    # engine/battle/core.asm MoveSelectionMenu).
    usable = [
        UseMove(slot=i)
        for i, move in enumerate(battle.player.moves)
        if move.pp > 0 and i != battle.disabled_slot
    ]
    actions: list[BattleAction] = [*usable] if usable else [Struggle()]
    actions += [SwitchTo(slot=mon.slot) for mon in _bench(state)]
    actions += item_actions(state)
    if battle.kind == "wild":
        actions.append(Run())
    return actions


def as_battle_sees_it(state: GameState, mon: PartyMon) -> Mon:
    """The active member's HP and status live in the battle struct while it fights."""
    battle = state.battle
    if battle is not None and battle.player is not None and mon.slot == battle.player_active_slot:
        return battle.player
    return mon


def _can_raise(battle: BattleState, item: str) -> bool:
    """Whether a stat item would change anything: a stage below +6, a flag not yet set."""
    if item in FLAG_ITEM_BITS:
        return not battle.player_side.status2 >> FLAG_ITEM_BITS[item] & 1
    stages = battle.player_side.stages
    return stages[X_ITEM_STAGE[item]] < MAX_STAGE if len(stages) > X_ITEM_STAGE[item] else True


def _pp_item_actions(state: GameState, item: BattleItem) -> list[UseItem]:
    """A PP item on each member that can fight and has run a move dry: the ETHERs on each dry move, the
    ELIXERs once per such member."""
    actions: list[UseItem] = []
    for mon in state.party:
        seen = as_battle_sees_it(state, mon)
        dry = dry_moves(seen) if seen.hp > 0 else []
        if not dry:
            continue
        if item.every_move:
            actions.append(UseItem(item=item.name, target=mon.slot))
        else:
            actions += [UseItem(item=item.name, target=mon.slot, move=slot) for slot in dry]
    return actions


def item_actions(state: GameState) -> list[UseItem]:
    """Items from the bag that would do something now: healers on members they would help, balls in
    wild battles, stat items while they can still raise something, PP items on a member's moves run dry.
    One entry per item and target (and move), in bag order."""
    battle = state.battle
    if battle is None or battle.battle_type != BATTLE_TYPE_NORMAL:
        return []
    actions: list[UseItem] = []
    seen: set[str] = set()
    for entry in state.bag:
        item = BATTLE_ITEMS.get(entry.name or "")
        if item is None or entry.quantity == 0 or item.name in seen:
            continue
        seen.add(item.name)
        if item.kind is ItemKind.BALL:
            if battle.kind == "wild":
                actions.append(UseItem(item=item.name))
            continue
        if item.kind is ItemKind.STAT_BOOST:
            if battle.player is not None and battle.player.hp > 0 and _can_raise(battle, item.name):
                actions.append(UseItem(item=item.name))
            continue
        if item.kind is ItemKind.RESTORE_PP:
            actions += _pp_item_actions(state, item)
            continue
        actions += [
            UseItem(item=item.name, target=mon.slot)
            for mon in state.party
            if has_effect(item, as_battle_sees_it(state, mon))
        ]
    return actions


def legal_actions(state: GameState) -> list[BattleAction]:
    """Every action the game accepts at the current decision point; empty where nothing is to choose."""
    point = state.decision_point
    if point in (DecisionPoint.BATTLE_MAIN_MENU, DecisionPoint.BATTLE_MOVE_MENU):
        return _menu_actions(state)
    if point is DecisionPoint.BATTLE_NEXT_MON_PROMPT:
        actions: list[BattleAction] = [SendNext(slot=mon.slot) for mon in _bench(state)]
        if state.battle is not None and state.battle.kind == "wild" and _asks_use_next(state):
            actions.append(Run())
        return actions
    if point is DecisionPoint.LEARN_MOVE_PROMPT:
        return [LearnMove(forget_slot=slot) for slot in (None, *forgettable(state))]
    if point is DecisionPoint.EVOLUTION:
        return [Evolve(allow=True), Evolve(allow=False)]
    return []


def _asks_use_next(state: GameState) -> bool:
    """The wild battle's "Use next POKéMON?" box, whose NO runs. After a failed escape ("Can't escape!")
    the game asks "Bring out which POKéMON?" instead (pret engine/battle/core.asm HandlePlayerMonFainted:
    DoUseNextMonDialogue, then ChooseNextMon): a member must be sent, running is no longer offered."""
    return any("Use next" in line for line in state.screen.text)


# pret engine/items/item_effects.asm HMMoves: the moves LearnMove refuses to delete ("HM techniques can't be
# deleted!", and the forget menu comes back).
HM_MOVES = frozenset({"CUT", "FLY", "SURF", "STRENGTH", "FLASH"})


def learner(state: GameState) -> Mon | None:
    """The member a level-up move is offered to: wWhichPokemon's, else the one in front."""
    battle = state.battle
    if battle is not None and battle.learner_slot is not None and battle.learner_slot < len(state.party):
        return state.party[battle.learner_slot]
    if battle is not None and battle.player is not None:
        return state.party[battle.player_active_slot] if state.party else battle.player
    return state.party[0] if state.party else None


def forgettable(state: GameState) -> list[int]:
    """The learner's move slots the game lets it forget: any but an HM's."""
    mon = learner(state)
    if mon is None:
        return [0, 1, 2, 3]
    return [slot for slot, move in enumerate(mon.moves) if move.name not in HM_MOVES]
