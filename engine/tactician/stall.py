"""A battle that does not move: the same choice at the same position, decision after decision (a move the
game refuses, a foe no move touches). After STALLED decisions the guard runs where running is allowed, and
otherwise tries the legal actions in turn, each for STALLED decisions, so no battle repeats a choice that
does nothing for ever; the conductor's cap on a battle's decisions is the last word."""

from __future__ import annotations

from engine.game.actions import BattleAction, Run, describe
from engine.game.models import GameState
from engine.tactician.rule_based import ActionDecision

STALLED = 8  # the same position and choice this many times in a row: the choice does nothing


class StallGuard:
    def __init__(self) -> None:
        self._key: tuple[object, ...] | None = None
        self._repeats = 0

    def check(
        self, state: GameState, battle_id: str | None, legal: list[BattleAction], chosen: ActionDecision
    ) -> ActionDecision:
        """`chosen`, or another action when the battle has stood still for STALLED decisions."""
        key = (battle_id, _position(state))
        self._repeats = self._repeats + 1 if key == self._key else 0
        self._key = key
        if self._repeats < STALLED:
            return chosen
        if Run() in legal:
            return ActionDecision(
                action=Run(), reason=f"run: the battle has not moved in {self._repeats} decisions"
            )
        others = [action for action in legal if action != chosen.action] or legal
        action = others[(self._repeats // STALLED - 1) % len(others)]
        why = f"the battle has not moved in {self._repeats} decisions: try {describe(action, state)} instead"
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
