"""The baselines the battle search is measured against (benchmarks/strength.py, benchmarks/tournament.py).

- `MaxDamagePolicy`: always the move with the highest power × type effectiveness × STAB; never switches;
  the first member left after a faint.
- `FirstMovePolicy`: the first move it may use, every turn; the first member left after a faint.

Both leave learning a move and evolving to the one-turn policy, which is how the game would ask anyone.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.battles.policy import Policy
from engine.game.actions import BattleAction, SendNext, Struggle, UseMove, legal_actions
from engine.game.assessment import move_by_id
from engine.game.damage import type_effectiveness
from engine.game.models import BattleMon, GameState
from engine.tactician.rule_based import ActionDecision, RuleBasedPolicy


def _strength(player: BattleMon, enemy: BattleMon, action: UseMove) -> float:
    move = move_by_id(player.moves[action.slot].move_id)
    if move is None:
        return 0.0
    stab = 1.5 if move.type in (player.type1_name, player.type2_name) else 1.0
    types = (enemy.type1_name or "NORMAL", enemy.type2_name or "NORMAL")
    return move.power * type_effectiveness(move.type, *types) * stab


def _forced(legal: list[BattleAction]) -> ActionDecision | None:
    """What a policy that never switches does when it has no move to pick: struggle, or send the first
    member left."""
    struggle = next((a for a in legal if isinstance(a, Struggle)), None)
    if struggle is not None:
        return ActionDecision(action=struggle, reason="no PP left")
    sender = next((a for a in legal if isinstance(a, SendNext)), None)
    if sender is not None:
        return ActionDecision(action=sender, reason="next member")
    return None


class MaxDamagePolicy:
    """The strongest move by power × type effectiveness × STAB, whatever else is going on."""

    def __init__(self) -> None:
        self.fallback = RuleBasedPolicy(lookahead=False)

    def decide(self, state: GameState, legal: list[BattleAction] | None = None) -> ActionDecision | None:
        legal = legal_actions(state) if legal is None else legal
        battle = state.battle
        moves = [a for a in legal if isinstance(a, UseMove)]
        if moves and battle is not None and battle.player is not None and battle.enemy is not None:
            player, enemy = battle.player, battle.enemy
            best = max(moves, key=lambda action: _strength(player, enemy, action))
            return ActionDecision(action=best, reason="strongest move")
        return _forced(legal) or self.fallback.decide(state, legal)


class FirstMovePolicy:
    """The first move with PP left, every turn: the floor any policy should clear."""

    def __init__(self) -> None:
        self.fallback = RuleBasedPolicy(lookahead=False)

    def decide(self, state: GameState, legal: list[BattleAction] | None = None) -> ActionDecision | None:
        legal = legal_actions(state) if legal is None else legal
        move = next((a for a in legal if isinstance(a, UseMove)), None)
        if move is not None:
            return ActionDecision(action=move, reason="first move")
        return _forced(legal) or self.fallback.decide(state, legal)


MAKERS: dict[str, Callable[[], Policy]] = {
    "search": RuleBasedPolicy,
    "search_deep": lambda: RuleBasedPolicy(boss_plies=2),  # two plies on close calls against a boss
    "one_turn": lambda: RuleBasedPolicy(lookahead=False),
    "max_damage": MaxDamagePolicy,
    "first_move": FirstMovePolicy,
}
