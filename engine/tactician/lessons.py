"""What lesson memory says about the battle at hand, fetched once per enemy rather than per decision.

Two uses: the observed numbers (damage per use of our moves against this species) go to the rule-based
policy, and the most relevant lesson texts go into model prompts. Lessons learned during this battle only
arrive after it (reflection runs when it ends), so one look per battle and enemy is enough.
"""

from __future__ import annotations

import logging

from engine.game.models import GameState
from engine.memory.context import battle_context
from engine.memory.lessons import Measurement, merge_measurements
from engine.memory.port import MemoryPort
from engine.tactician.rule_based import RuleBasedPolicy

log = logging.getLogger("engine.tactician")


class BattleLessons:
    def __init__(self, memory: MemoryPort | None, policy: RuleBasedPolicy) -> None:
        self.memory = memory
        self.policy = policy
        self.texts: tuple[str, ...] = ()
        self._looked_at: tuple[str | None, str] | None = None

    def refresh(self, state: GameState, battle_id: str | None, *, texts: bool = True) -> None:
        """Look lessons up when the battle or the enemy changed; memory failures never stop a decision.
        Without `texts` (no model to show them to) only the observed numbers are fetched."""
        enemy = state.battle.enemy if state.battle else None
        if self.memory is None or enemy is None or not enemy.species_name:
            return
        key = (battle_id, enemy.species_name)
        if key == self._looked_at:
            return
        self._looked_at = key
        query, context = battle_context(state)
        try:
            measured = self.memory.measured_for(enemy.species_name)
            preferred = self.memory.preferences_for(enemy.species_name, context.opponent)
            recalled = self.memory.recall(query, context) if texts else []
        except Exception as error:  # a broken memory costs the lessons, not the battle
            log.warning("lesson memory unavailable: %s", error)
            return
        numbers: dict[str, Measurement] = {}
        for lesson in measured:  # reflection and counterfactual replays may both have measured a move
            if lesson.move and lesson.measured:
                pooled = merge_measurements(numbers.get(lesson.move), lesson.measured)
                if pooled is not None:
                    numbers[lesson.move] = pooled
        self.policy.remember(enemy.species_name, numbers, tuple(preferred))
        self.texts = tuple(lesson.text for lesson in recalled)

    def forget(self) -> None:
        """Drop what was looked up for the battle at hand, and the numbers given to the policy: after a
        rollback the next decision asks lesson memory again (memory itself is never rolled back)."""
        self.texts = ()
        self._looked_at = None
        self.policy.forget_measurements()
