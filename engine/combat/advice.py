"""What the battle search says about a position, in words a model tier's prompt can carry."""

from __future__ import annotations

import math
from collections.abc import Sequence

from engine.combat.chance import percent
from engine.combat.judge import win_probability
from engine.combat.position import duel_of, model_action
from engine.combat.search import KO_SHOWN, search
from engine.game.actions import BattleAction
from engine.game.assessment import Fairness
from engine.game.models import GameState


def outlook(state: GameState, fairness: Fairness = Fairness.VISIBLE_ONLY) -> float | None:
    """The chance of winning the battle on screen, from what a player can see; None outside a battle."""
    duel = duel_of(state, fairness)
    return None if duel is None else win_probability(duel)


def option_notes(state: GameState, legal: Sequence[BattleAction]) -> dict[int, str]:
    """For each legal action the search weighs (by its place in `legal`): the chance of winning the battle
    after taking it, and how soon the enemy in front goes down."""
    duel = duel_of(state, Fairness.VISIBLE_ONLY)
    if duel is None:
        return {}
    weighed = [(i, model) for i, action in enumerate(legal) if (model := model_action(action)) is not None]
    if not weighed:
        return {}
    verdict = search(duel, [model for _, model in weighed])
    notes = {}
    for (i, _), scored in zip(weighed, verdict.scored, strict=True):
        if not scored.searched:
            notes[i] = f"search: not weighed (a weaker match; {percent(scored.win)} to win the duel in front)"
            continue
        shown = scored.ko >= KO_SHOWN and not math.isinf(scored.turns_to_ko)
        ko = f", its KO in ~{scored.turns_to_ko:.0f} turns" if shown else ""
        notes[i] = f"search: {percent(scored.win)} to win the battle{ko}"
    return notes
