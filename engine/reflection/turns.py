"""One battle log read turn by turn: what each decision was (a move, an item, a switch...), who was out
on each side, and what it led to. Detection and forensics both start from this reading.

Newer logs carry, per turn, our move's name, the battle's messages, the effectiveness the game announced,
whether our or the enemy's attack missed and the PP spent (`TurnOutcome.move`, `.text`, `.effectiveness`,
`.missed`, `.enemy_missed`, `.pp_used`). Older logs do not: then the move comes from the decision's label
("use BUBBLE") and everything else is unknown (None), never guessed as False.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from engine.battles.models import BattleLog, DecisionRecord, Effectiveness, SideView, TurnOutcome
from engine.frozen import Frozen
from engine.game.damage import type_effectiveness
from engine.game.items import BATTLE_ITEMS, ItemKind
from engine.game.models import DecisionPoint
from engine.game.tables import game_data
from engine.reflection.names import item_name, move_name, species_types

ActionKind = Literal[
    "move", "item", "ball", "switch", "send_out", "run", "struggle", "learn", "evolve", "other"
]
ChartClass = Literal["super", "normal", "not_very", "no_effect"]
# pret gives fixed- and variable-damage moves (SEISMIC_TOSS, SONICBOOM, PSYWAVE...) power 1; they skip the
# type chart, so neither the chart nor a damage share says anything about their type.
FIXED_DAMAGE_POWER = 1
# Statuses that stop the Pokémon acting (or may, for paralysis): a turn in which our damaging move moved no
# HP bar while one of these held is not counted as a miss, because the move may never have been used.
CANNOT_ACT = frozenset({"SLP", "FRZ", "PAR"})
# "SQUIRTLE used BUBBLE!"; the enemy's messages name it "Enemy ONIX" (pret home/text.asm EnemyText).
_OUR_MOVE = re.compile(r"^(?!Enemy ).+ used \S")
TURN_POINTS = frozenset({DecisionPoint.BATTLE_MAIN_MENU, DecisionPoint.BATTLE_MOVE_MENU})


class TurnRead(Frozen):
    decision: int
    point: DecisionPoint
    label: str
    kind: ActionKind
    move: str | None = None  # the disassembly name of our move, when the decision used one
    move_type: str | None = None
    power: int | None = None
    item: str | None = None
    switched_to: str | None = None  # the nickname a switch or send-out named
    ours: SideView | None = None  # before the decision
    enemy: SideView | None = None
    ours_after: SideView | None = None  # at the next decision (None after the last)
    enemy_after: SideView | None = None
    dealt: float | None = None  # enemy HP bar points lost; None when unknown
    taken: float | None = None  # ours
    fainted: bool = False
    enemy_fainted: bool = False
    observed: Effectiveness | None = None  # what the game announced for our move
    chart: ChartClass | None = None  # what the type chart says for our move against the enemy out
    missed: bool | None = None  # None: not recorded
    enemy_missed: bool | None = None
    pp_used: int | None = None
    text: tuple[str, ...] = ()
    recorded: frozenset[str] = frozenset()  # which of the newer TurnOutcome fields this log has

    @property
    def damaging(self) -> bool:
        return self.kind == "move" and self.power is not None and self.power > 0

    @property
    def able_to_act(self) -> bool:
        """Nothing visible stopped our move: we did not faint this turn and no status held us."""
        return not self.fainted and (self.ours is None or self.ours.status not in CANNOT_ACT)

    @property
    def moved(self) -> bool | None:
        """Whether the battle messages show our Pokémon using a move; None when none were recorded."""
        if not self.text:
            return None
        return any(_OUR_MOVE.match(message) for message in self.text)

    def use(self) -> tuple[float | None, bool | None]:
        """(HP bar points our damaging move took, whether it connected), each None when the turn does not
        tell. A miss the game announced takes 0. With the battle's messages: no "used" message from our
        side means the move never ran (asleep, paralysed, flinched) and tells nothing; a move that ran
        without a miss connected, even if no pixel of the bar moved. Without messages (older logs): HP
        moved is a hit; no HP moved although we could act and the chart lets the move through is an
        inferred miss. A heal or a fresh Pokémon of the same species (HP went up) tells nothing. A hit that
        knocked the foe out took only what was left of its bar: it connected, but its damage is no measure
        (counted, it pulled every mean down: a run's second BROCK fight, having measured BUBBLE's last blows
        on ONIX at "50% a use", chose TACKLE over it)."""
        if not self.damaging:
            return None, None
        if self.missed:
            return 0.0, False
        if self.moved is False:
            return None, None
        if self.enemy_fainted:
            # Connected, and took what was left; the bar read after it may be the next foe's, full (a
            # JUGGLER's second DROWZEE read DIG's knock-out as "0% a use", and BITE was used instead).
            return None, True
        if self.dealt is None or self.dealt < 0:
            return None, None
        if self.dealt > 0:
            return self.dealt, True
        if self.moved is None and not self.able_to_act:
            return None, None
        if self.observed == "no_effect" or self.chart == "no_effect":
            return 0.0, None
        return 0.0, bool(self.moved)


def chart_class(move_type: str, defender: tuple[str, ...]) -> ChartClass | None:
    if not defender:
        return None
    multiplier = type_effectiveness(move_type, defender[0], defender[-1])
    if multiplier == 0:
        return "no_effect"
    if multiplier > 1:
        return "super"
    return "not_very" if multiplier < 1 else "normal"


def _parse_label(label: str) -> tuple[ActionKind, str | None, str | None, str | None]:
    """(kind, move, item, switched-to nickname) from a label made by engine.game.actions.describe."""
    text = label.strip()
    if text.startswith("throw "):
        return "ball", None, item_name(text[6:]) or text[6:], None
    if text.startswith("use "):
        rest = text[4:]
        if " on " in rest:
            name = rest.split(" on ", 1)[0]
            return "item", None, item_name(name) or name, None
        if move_name(rest):
            return "move", move_name(rest), None, None
        if item_name(rest):
            item = item_name(rest)
            found = BATTLE_ITEMS.get(item or "")
            return ("ball" if found and found.kind is ItemKind.BALL else "item"), None, item, None
        return "move", None, None, None  # "use move 3": a slot the label could not name
    for prefix, kind in (("switch to ", "switch"), ("send out ", "send_out")):
        if text.startswith(prefix):
            return kind, None, None, text[len(prefix) :]  # type: ignore[return-value]
    simple: dict[str, ActionKind] = {"run": "run", "struggle": "struggle", "keep the old moves": "learn",
                                     "let it evolve": "evolve", "stop the evolution": "evolve"}  # fmt: skip
    if text in simple:
        return simple[text], None, None, None
    if text.startswith("forget move"):
        return "learn", None, None, None
    return "other", None, None, None


def _extra(turn: TurnOutcome | DecisionRecord | None, name: str) -> Any:
    """A newer field of a turn or a decision record, or None where this log's records do not have it."""
    return getattr(turn, name, None) if turn is not None else None


def _recorded(turn: TurnOutcome | None) -> frozenset[str]:
    if turn is None:
        return frozenset()
    names = ("move", "text", "effectiveness", "missed", "enemy_missed", "pp_used")
    return frozenset(name for name in names if name in turn.model_fields_set)


def _miss(
    turn: TurnOutcome | None, name: str, recorded: frozenset[str], text: tuple[str, ...]
) -> bool | None:
    """A recorded miss; "no miss" only counts when the battle's messages were recorded (the flag is read
    from them, so without messages False says nothing)."""
    if name not in recorded:
        return None
    value = bool(_extra(turn, name))
    return True if value else (False if text else None)


def read_turns(log: BattleLog) -> tuple[TurnRead, ...]:
    outcomes = {turn.decision: turn for turn in log.turns}
    moves = game_data().moves_by_name
    reads = []
    for index, record in enumerate(log.decisions):
        turn = outcomes.get(index)
        following: DecisionRecord | None = (
            log.decisions[index + 1] if index + 1 < len(log.decisions) else None
        )
        kind, move, item, switched = _parse_label(record.action)
        recorded_move = _extra(turn, "move") or _extra(record, "move")
        if recorded_move and kind in ("move", "struggle"):
            move = move_name(recorded_move) or move
        found = moves.get(move) if move else None
        defender = species_types(record.enemy.species) if record.enemy is not None else ()
        chart = None
        if found is not None and found.power > FIXED_DAMAGE_POWER:
            chart = chart_class(found.type, defender)
        recorded = _recorded(turn)
        text = tuple(_extra(turn, "text") or _extra(record, "text") or ())
        reads.append(
            TurnRead(
                decision=index,
                point=record.point,
                label=record.action,
                kind=kind,
                move=move,
                move_type=found.type if found else None,
                power=found.power if found else None,
                item=item,
                switched_to=switched,
                ours=record.ours,
                enemy=record.enemy,
                ours_after=following.ours if following else None,
                enemy_after=following.enemy if following else None,
                dealt=turn.enemy_hp_lost_percent if turn else None,
                taken=turn.hp_lost_percent if turn else None,
                fainted=turn.fainted if turn else False,
                enemy_fainted=turn.enemy_fainted if turn else False,
                observed=_extra(turn, "effectiveness"),
                chart=chart,
                missed=_miss(turn, "missed", recorded, text),
                enemy_missed=_miss(turn, "enemy_missed", recorded, text),
                pp_used=_extra(turn, "pp_used"),
                text=text,
                recorded=recorded,
            )
        )
    return tuple(reads)
