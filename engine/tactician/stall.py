"""A battle that does not move: the same position again and again, whether one choice repeats there (a move
the game refuses, a foe no move touches) or two choices undo each other (two members switched in and out
while the foe does nothing that shows). Once a position has come back STALLED times the guard runs where
running is allowed, and otherwise tries the other legal actions in turn (attacks before switches, after
a switch), each for STALLED decisions, so no battle repeats what does nothing for ever; the conductor's cap
on a battle's decisions is the last word."""

from __future__ import annotations

from collections import Counter

from engine.game.actions import BattleAction, Run, SwitchTo, describe
from engine.game.models import GameState
from engine.tactician.rule_based import ActionDecision

# A position seen this many times before in one battle: what was chosen there does nothing. A Red run's
# LANCE battle switched HAUNTER and VILEPLUME in and out in front of a DRAGONITE 354 times, each position
# seen every other decision, and the run stopped at the battle's cap.
STALLED = 8


class StallGuard:
    def __init__(self) -> None:
        self._battle: str | None = None
        self._seen: Counter[tuple[object, ...]] = Counter()

    def check(
        self, state: GameState, battle_id: str | None, legal: list[BattleAction], chosen: ActionDecision
    ) -> ActionDecision:
        """`chosen`, or another action when the position has come back STALLED times in this battle."""
        if battle_id != self._battle:
            self._battle, self._seen = battle_id, Counter()
        position = _position(state)
        repeats = self._seen[position]
        self._seen[position] += 1
        if repeats < STALLED:
            return chosen
        if Run() in legal:
            return ActionDecision(
                action=Run(), reason=f"run: the battle has not moved in {repeats} decisions"
            )
        others = [action for action in legal if action != chosen.action] or legal
        if isinstance(chosen.action, SwitchTo):
            others = [action for action in others if not isinstance(action, SwitchTo)] or others
        action = others[(repeats // STALLED - 1) % len(others)]
        why = f"the battle has not moved in {repeats} decisions: try {describe(action, state)} instead"
        return ActionDecision(action=action, reason=why)


def _position(state: GameState) -> tuple[object, ...]:
    """What a decision that did something would change: the decision point, both members in front and
    their HP, our PP and stat stages, and what the bag holds."""
    battle = state.battle
    if battle is None:
        return (state.decision_point,)
    ours, theirs = battle.player, battle.enemy
    return (
        state.decision_point,
        (ours.species_id, ours.hp, tuple(slot.pp for slot in ours.moves)) if ours is not None else None,
        (theirs.species_id, theirs.hp) if theirs is not None else None,
        battle.player_side.stages,
        tuple(item.quantity for item in state.bag),
    )
