"""Which tier a task starts on, and why: a pure function of the task's profile and the routing config.

The gateway then steps down from there when a tier is missing, over budget, behind an open breaker or
failing; every step is recorded with its reason.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from engine.config import RoutingConfig, Tier
from engine.frozen import Frozen

TIER_ORDER: tuple[Tier, ...] = ("rule_based", "acting", "thinking")
TaskKind = Literal["tactics", "strategy", "reflection"]
BattleKind = Literal["none", "wild", "trainer", "boss"]


class TaskProfile(Frozen):
    """How hard a task is: what kind of battle, how the sides compare, how close it looks."""

    task: TaskKind
    battle: BattleKind = "none"
    opponent: str = ""
    level_gap: int = 0  # enemy level minus our active member's level
    our_remaining: int = 0  # members that can still fight
    enemy_remaining: int = 0
    closeness: float = Field(0.0, ge=0.0, le=1.0)  # the rule-based estimate of the risk of losing


def tier_above(tier: Tier) -> Tier:
    return TIER_ORDER[min(TIER_ORDER.index(tier) + 1, len(TIER_ORDER) - 1)]


def tiers_from(tier: Tier) -> list[Tier]:
    """The fallback chain: thinking → acting → rule_based."""
    return list(reversed(TIER_ORDER[: TIER_ORDER.index(tier) + 1]))


def wanted_tier(profile: TaskProfile, routing: RoutingConfig) -> tuple[Tier, str]:
    if profile.task == "reflection":
        return routing.reflection, "reflection"
    if profile.task == "strategy":
        tier = getattr(routing, f"strategy_{'overworld' if profile.battle == 'none' else profile.battle}")
        return tier, _battle_words(profile) or "overworld planning"
    base: Tier = getattr(routing, f"tactics_{'wild' if profile.battle == 'none' else profile.battle}")
    reason = _battle_words(profile)
    escalations = []
    if profile.closeness >= routing.escalate_closeness:
        escalations.append(f"close battle ({profile.closeness:.0%} loss risk)")
    if profile.level_gap >= routing.escalate_level_gap:
        escalations.append(f"enemy {profile.level_gap} levels higher")
    if routing.escalate_when_outnumbered and profile.enemy_remaining > profile.our_remaining > 0:
        escalations.append(f"outnumbered {profile.our_remaining} to {profile.enemy_remaining}")
    if escalations and base != "thinking":
        return tier_above(base), f"{reason}, {' and '.join(escalations)}: one tier up"
    return base, reason


def _battle_words(profile: TaskProfile) -> str:
    if profile.battle == "none":
        return ""
    who = f" vs {profile.opponent}" if profile.opponent else ""
    return f"{profile.battle} battle{who}"
