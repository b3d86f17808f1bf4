"""The Strategist role: fires on events, not every tick, and issues a `Directive` with its trigger.

The rule-based strategist writes plain standing orders; a model tier (later) replaces `plan` and keeps the
same triggers, so its cost is paid only when something happened.
"""

from __future__ import annotations

from engine.game.models import GameState
from engine.messages import Directive, EventName, GameEvent, RoleReport

TRIGGERS = frozenset(
    {EventName.BATTLE_START, EventName.NEW_ENEMY, EventName.HP_LOW, EventName.STUCK, EventName.HEARTBEAT}
)


class Strategist:
    def __init__(self) -> None:
        self.directive: Directive | None = None
        self.fired: dict[str, int] = {}

    def consider(self, events: list[GameEvent], state: GameState) -> Directive | None:
        """A new directive if any event is a trigger; None leaves the standing one in force."""
        trigger = next((event for event in events if event.name in TRIGGERS), None)
        if trigger is None:
            return None
        self.fired[trigger.name.value] = self.fired.get(trigger.name.value, 0) + 1
        self.directive = self.plan(trigger, state)
        return self.directive

    def plan(self, trigger: GameEvent, state: GameState) -> Directive:
        battle = state.battle
        warnings: list[str] = []
        if trigger.name is EventName.HP_LOW:
            warnings.append("the active member is low on HP: heal or switch before it faints")
        if battle is not None:
            kind = "trainer" if battle.kind == "trainer" else "wild"
            objective = f"win the {kind} battle ({trigger.detail})"
            priorities = ("knock out the enemy with the strongest safe move", "keep the team healthy")
        elif trigger.name is EventName.STUCK:
            objective = "find a way on: talk to people, pick up items, try other exits"
            priorities = ("look at everything in the way", "prefer unexplored exits")
        else:
            objective = "explore and train: find new ground and wild battles"
            priorities = ("walk towards unexplored tiles", "fight wild battles for experience")
        return Directive(
            objective=objective,
            priorities=priorities,
            warnings=tuple(warnings),
            trigger=trigger.name,
            frame=trigger.frame,
        )

    def snapshot(self) -> dict[str, object]:
        return {
            "directive": self.directive.model_dump(mode="json") if self.directive else None,
            "fired": self.fired,
        }

    def report(self) -> RoleReport:
        return RoleReport(
            role="strategist", healthy=True, counters={k: float(v) for k, v in self.fired.items()}
        )
