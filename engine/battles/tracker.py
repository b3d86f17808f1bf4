"""Follows one battle from its first decision to the free overworld afterwards."""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from functools import lru_cache
from typing import Literal

from engine.battles.errors import BattleError
from engine.battles.models import (
    BattleLog,
    BattleSummary,
    DecisionRecord,
    Effectiveness,
    SideView,
    TrackerState,
    TurnOutcome,
)
from engine.battles.outcome import battle_outcome, opponent_name
from engine.game.actions import BattleAction, Struggle, UseMove
from engine.game.assessment import hp_bar_fraction
from engine.game.models import BattleMon, DecisionPoint, GameState
from engine.game.tables import game_data

# The game's wording (pret data/text/text_2.asm): the enemy's Pokémon is named "Enemy X" (home/text.asm
# EnemyText); "<USER> used MOVE!" (_ActorNameText + _UsedMove1Text), "It's super effective!",
# "It's not very effective...", "It doesn't affect <TARGET>!" (a type immunity, core.asm
# PrintMoveFailureText) and "<USER>'s attack missed!" (_AttackMissedText). A message is the text box's
# lines joined with a space; one read while still printing may be cut short.
ENEMY_PREFIX = "Enemy "
_USED = re.compile(r"^(?P<user>.+?) used(?: (?P<move>.*?))?!?$")
_MISSED = re.compile(r"^(?P<user>.+)'s attack missed!?$")
_NO_EFFECT = re.compile(r"^It doesn't affect (?P<target>.+?)!?$")
_FAINTED = re.compile(r"^(?P<name>.+) fainted!$")  # _EnemyMonFaintedText, _PlayerMonFaintedText
_EFFECTIVENESS: dict[str, Effectiveness] = {
    "It's super effective!": "super",
    "It's not very effective...": "not_very",
}
Side = Literal["ours", "enemy"]


def _side(mon: BattleMon | None, exact: bool) -> SideView | None:
    """`exact` for our side: HP as numbers, and our moves with their PP; the enemy's as the player sees
    them: an HP bar, no moves."""
    if mon is None:
        return None
    moves = tuple(move.name or f"move {move.move_id}" for move in mon.moves) if exact else ()
    return SideView(
        species=mon.species_name or "?",
        level=mon.level,
        hp=mon.hp if exact else None,
        max_hp=mon.max_hp if exact else None,
        hp_percent=round(
            100 * (mon.hp / max(1, mon.max_hp) if exact else hp_bar_fraction(mon.hp, mon.max_hp)), 1
        ),
        status=str(mon.status),
        moves=moves,
        pp=tuple(move.pp for move in mon.moves) if exact else (),
    )


def our_side(state: GameState) -> SideView | None:
    return _side(state.battle.player if state.battle else None, exact=True)


def enemy_side(state: GameState) -> SideView | None:
    """As the player sees it: the HP bar, not the HP number."""
    return _side(state.battle.enemy if state.battle else None, exact=False)


def move_used(action: BattleAction, state: GameState) -> str | None:
    """Our move's name when `action` uses one (as in the move list, e.g. "WATER_GUN"), else None."""
    if isinstance(action, Struggle):
        return "STRUGGLE"
    player = state.battle.player if state.battle else None
    if isinstance(action, UseMove) and player is not None and action.slot < len(player.moves):
        return player.moves[action.slot].name
    return None


@lru_cache(maxsize=1)
def _move_display_names() -> tuple[str, ...]:
    return tuple(move.display_name or move.name for move in game_data().moves_by_name.values())


def _side_of(name: str) -> Side:
    return "enemy" if name.startswith(ENEMY_PREFIX) else "ours"


def _mover(message: str) -> Side | None:
    """The side a "X used MOVE!" message names (a trainer's or the player's item use names no move, and
    a message cut short may end anywhere in the move's name)."""
    used = _USED.match(message)
    if used is None:
        return None
    move = used["move"] or ""
    if not any(name.startswith(move) for name in _move_display_names()):
        return None
    return _side_of(used["user"])


class TextReading:
    """How each side's move went, read from one decision's battle messages in order: the effectiveness
    message belongs to the move used last (the first one said counts), a miss and a type immunity name
    their side themselves, as does a faint."""

    def __init__(self, text: Sequence[str]) -> None:
        self.effectiveness: dict[Side, Effectiveness] = {}
        self.missed: set[Side] = set()
        self.fainted: set[Side] = set()
        mover: Side | None = None
        for message in text:
            side = _mover(message)
            if side is not None:
                mover = side
            elif message in _EFFECTIVENESS and mover is not None:
                self.effectiveness.setdefault(mover, _EFFECTIVENESS[message])
            elif (immune := _NO_EFFECT.match(message)) is not None:
                attacker: Side = "ours" if _side_of(immune["target"]) == "enemy" else "enemy"
                self.effectiveness.setdefault(attacker, "no_effect")
            elif (missed := _MISSED.match(message)) is not None:
                self.missed.add(_side_of(missed["user"]))
            elif (fainted := _FAINTED.match(message)) is not None:
                self.fainted.add(_side_of(fainted["name"]))


def _pp_used(record: DecisionRecord, after: SideView | None) -> int | None:
    """PP of our move before the decision minus after it, while the same Pokémon is out (and the move
    still in its slot)."""
    before = record.ours
    if record.move is None or before is None or after is None or before.species != after.species:
        return None
    if record.move not in before.moves:
        return None  # STRUGGLE, or moves unknown
    slot = before.moves.index(record.move)
    if slot >= len(before.pp) or slot >= len(after.pp) or after.moves[slot : slot + 1] != (record.move,):
        return None
    spent = before.pp[slot] - after.pp[slot]
    return spent if spent >= 0 else None


def _change(before: SideView | None, after: SideView | None) -> tuple[float | None, bool, str | None]:
    """(HP percentage points lost, fainted, status change) of one side across one decision, when the same
    Pokémon is out before and after (a switch or a new enemy makes the difference meaningless)."""
    if before is None or after is None or before.species != after.species:
        return None, False, None
    status = f"{before.status}->{after.status}" if before.status != after.status else None
    return (
        round(before.hp_percent - after.hp_percent, 1),
        before.hp_percent > 0 and after.hp_percent == 0,
        status,
    )


def turn_outcomes(records: list[DecisionRecord], final: GameState) -> tuple[TurnOutcome, ...]:
    """What each decision led to, from the visible state at the next decision (or the battle's last look)."""
    afters = [(r.ours, r.enemy) for r in records[1:]] + [(our_side(final), enemy_side(final))]
    outcomes = []
    for index, (record, (ours_after, enemy_after)) in enumerate(zip(records, afters, strict=True)):
        taken, our_faint, our_status = _change(record.ours, ours_after)
        dealt, enemy_faint, enemy_status = _change(record.enemy, enemy_after)
        reading = TextReading(record.text)
        outcomes.append(
            TurnOutcome(
                decision=index,
                action=record.action,
                hp_lost_percent=taken,
                enemy_hp_lost_percent=dealt,
                fainted=our_faint or "ours" in reading.fainted,
                enemy_fainted=enemy_faint or "enemy" in reading.fainted,
                status_change=our_status,
                enemy_status_change=enemy_status,
                move=record.move,
                text=record.text,
                effectiveness=reading.effectiveness.get("ours"),
                enemy_effectiveness=reading.effectiveness.get("enemy"),
                missed="ours" in reading.missed,
                enemy_missed="enemy" in reading.missed,
                pp_used=_pp_used(record, ours_after),
            )
        )
    return tuple(outcomes)


class BattleTracker:
    def __init__(self, battle_id: str, start_frame: int, first_look: GameState) -> None:
        if first_look.battle is None:
            raise BattleError("a battle tracker needs a state inside a battle")
        self.battle_id = battle_id
        self.start_frame = start_frame
        self.started = time.monotonic()
        self.battle_type: Literal["wild", "trainer"] = first_look.battle.kind
        self.opponent = opponent_name(first_look.battle)
        self.records: list[DecisionRecord] = []

    def state(self) -> TrackerState:
        return TrackerState(battle_id=self.battle_id, start_frame=self.start_frame,
                            wall_seconds=round(time.monotonic() - self.started, 3),
                            battle_type=self.battle_type, opponent=self.opponent,
                            records=tuple(self.records))  # fmt: skip

    @classmethod
    def from_state(cls, state: TrackerState) -> BattleTracker:
        tracker = cls.__new__(cls)
        tracker.battle_id, tracker.start_frame = state.battle_id, state.start_frame
        tracker.started = time.monotonic() - state.wall_seconds
        tracker.battle_type, tracker.opponent = state.battle_type, state.opponent
        tracker.records = list(state.records)
        return tracker

    @property
    def turns(self) -> int:
        return sum(record.point is DecisionPoint.BATTLE_MAIN_MENU for record in self.records)

    def note(self, record: DecisionRecord) -> None:
        self.records.append(record)

    def note_text(self, text: Sequence[str]) -> None:
        """The battle messages shown after the last decision noted, once it was carried out."""
        if self.records:
            self.records[-1] = self.records[-1].model_copy(update={"text": tuple(text)})

    def finish(
        self,
        final: GameState | None,
        battle_result: int,
        end_frame: int,
        run_id: str,
        caught: str | None = None,
    ) -> BattleLog:
        """`final` is the last look inside the battle; `battle_result` is wBattleResult afterwards;
        `caught` the species caught with a ball, if one was."""
        if final is None or final.battle is None:
            raise BattleError(f"{self.battle_id} ended without a last look at the battle")
        summary = BattleSummary(
            battle_id=self.battle_id,
            outcome=battle_outcome(final, battle_result),
            battle_type=self.battle_type,
            opponent=self.opponent,
            turns=self.turns,
            decisions=len(self.records),
            frames=end_frame - self.start_frame,
            wall_seconds=round(time.monotonic() - self.started, 3),
            caught=caught,
        )
        return BattleLog(
            summary=summary,
            run_id=run_id,
            start_frame=self.start_frame,
            decisions=tuple(self.records),
            turns=turn_outcomes(self.records, final),
            start_state=f"{self.battle_id}.state",
        )
