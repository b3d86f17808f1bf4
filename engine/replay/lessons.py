"""Regrets → lessons for the memory service: a pure function of the counterfactuals.

One lesson per (our species, enemy species, logged action, better alternative), naming every turn where
the swap would have won, e.g. "vs BROCK #1 (ONIX L14): SQUIRTLE L13 should use BUBBLE, not TAIL WHIP, at
turn 1: defeat became victory in counterfactual rollouts". Nothing is stored here: the caller hands the
lessons to the memory service, which stamps play times and merges them with what it knows.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence

from engine.battles.models import SideView
from engine.game.tables import game_data
from engine.memory.lessons import Lesson
from engine.reflection.forensics import pool_measures
from engine.reflection.synthesis import measured_candidates
from engine.reflection.validation import validate
from engine.replay.models import Counterfactual

MAX_TEXT = 300  # Lesson.text's limit
TURNS_SHOWN = 6
# One rollout per alternative and turn follows one path of the game's random numbers, so a lesson is never
# certain; it is surer the more of the turns tried show the same swap winning.
BASE_CONFIDENCE = 0.4
SHARE_WEIGHT = 0.5
MAX_CONFIDENCE = 0.9

Key = tuple[str, str, str, str]


def _key(entry: Counterfactual) -> Key:
    ours = entry.ours.species if entry.ours else "?"
    enemy = entry.enemy.species if entry.enemy else "?"
    return ours, enemy, entry.logged_action, entry.alternative


def _types(species: str) -> tuple[str, ...]:
    found = game_data().species_by_name.get(species)
    if found is None:
        return ()
    return tuple(dict.fromkeys(found.types))  # a single-typed species lists its type twice


def _who(side: SideView | None) -> str:
    return f"{side.species} L{side.level}" if side is not None else "?"


def _action_words(label: str) -> str:
    """Labels name moves as the game's constants (TAIL_WHIP); a lesson reads better with spaces."""
    return label.replace("_", " ")


def _turns_words(turns: Sequence[int]) -> str:
    shown = ", ".join(str(turn) for turn in turns[:TURNS_SHOWN])
    more = f" and {len(turns) - TURNS_SHOWN} more" if len(turns) > TURNS_SHOWN else ""
    return f"turn{'s' if len(turns) > 1 else ''} {shown}{more}"


def _text(first: Counterfactual, turns: Sequence[int], changes: Sequence[str], opponent: str) -> str:
    alternative = _action_words(first.alternative).removeprefix("use ")
    logged = _action_words(first.logged_action).removeprefix("use ")
    verb = "use " if first.alternative.startswith("use ") else ""
    text = (
        f"vs {opponent} ({_who(first.enemy)}): {_who(first.ours)} should {verb}{alternative}, not {logged}, "
        f"at {_turns_words(turns)}: {' / '.join(changes)} in counterfactual rollouts"
    )
    return text if len(text) <= MAX_TEXT else text[: MAX_TEXT - 1] + "…"


def _lesson(
    group: Sequence[Counterfactual], tried: int, opponent: str, battle_id: str, new_id: str
) -> Lesson:
    first = group[0]
    turns = sorted({entry.turn for entry in group})
    changes = list(dict.fromkeys(f"{e.baseline_outcome} became {e.alternative_outcome}" for e in group))
    share = len(group) / max(tried, len(group))
    ours, enemy = _key(first)[:2]
    return Lesson(
        lesson_id=new_id,
        kind="move" if first.alternative_move is not None else "sequence",
        text=_text(first, turns, changes, opponent),
        attacker_types=_types(ours),
        defender_types=_types(enemy),
        species=tuple(dict.fromkeys((ours, enemy))),
        move=first.alternative_move,
        opponent=opponent,
        confidence=round(min(MAX_CONFIDENCE, BASE_CONFIDENCE + SHARE_WEIGHT * share), 2),
        evidence=1,
        provenance=(battle_id,),
        created_play_hours=0.0,
        updated_play_hours=0.0,
        prefer=first.alternative,
        instead_of=first.logged_action,
    )


def lessons_from_regrets(
    counterfactuals: Sequence[Counterfactual],
    battle_id: str,
    opponent: str,
    new_id: Callable[[], str] = lambda: uuid.uuid4().hex,
) -> tuple[Lesson, ...]:
    """Lessons from the regrets among `counterfactuals` (all of them: the ones that were not regrets say
    how often the same swap was tried in vain, which sets the confidence)."""
    tried: dict[Key, int] = {}
    regrets: dict[Key, list[Counterfactual]] = {}
    for entry in counterfactuals:
        key = _key(entry)
        tried[key] = tried.get(key, 0) + 1
        if entry.regret:
            regrets.setdefault(key, []).append(entry)
    return tuple(_lesson(group, tried[key], opponent, battle_id, new_id()) for key, group in regrets.items())


def measured_lessons(counterfactuals: Sequence[Counterfactual], battle_id: str) -> tuple[Lesson, ...]:
    """What our moves were seen to do across every rollout (each played once, however many alternatives
    shared it as their baseline), pooled per move and enemy species: the numbers the rule-based policy
    learns from. Rollouts are experiments with moves the battle itself may never have tried."""
    rollouts = {}
    for entry in counterfactuals:
        for result in (entry.baseline, entry.result):
            rollouts[(result.decision, result.action)] = result
    measures = pool_measures([m for result in rollouts.values() for m in result.measures])
    candidates = measured_candidates(measures, battle_id)
    return tuple(lesson for lesson in validate(candidates).accepted if lesson.measured is not None)
