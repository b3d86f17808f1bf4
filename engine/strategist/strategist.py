"""The Strategist role: fires on events, not every tick, and issues a `Directive` with its trigger.

The rule-based plan is always made; when the router wants a model tier for this situation (by default a
trainer battle on `acting`, a boss battle on `thinking`), the model's directive replaces it, and a model
that is unavailable or answers badly leaves the rule-based one in force, with the reason recorded. Its
cost is paid only when something happened.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from engine.config import RoutingConfig, Tier
from engine.frozen import Frozen
from engine.game.models import GameState
from engine.llm.answers import StrategicAnswer
from engine.llm.complexity import profile
from engine.llm.port import GatewayPort, LiveTiers
from engine.llm.render import render_strategy
from engine.llm.router import wanted_tier
from engine.llm.tasks import ModelOutcome, ModelTask
from engine.memory.context import battle_context
from engine.memory.port import MemoryPort
from engine.messages import Directive, EventName, GameEvent, RoleReport, Selection
from engine.story.graph import Objective, story_graph
from engine.world.goals import MapGoal
from engine.world.minimap import LEGEND, around_player, view_of
from engine.world.planner import Planner, surroundings
from engine.world.targets import target_for
from engine.world.world import World

log = logging.getLogger("engine.strategist")

TRIGGERS = frozenset(
    {EventName.BATTLE_START, EventName.NEW_ENEMY, EventName.HP_LOW, EventName.STUCK, EventName.HEARTBEAT,
     EventName.OBJECTIVE_DONE, EventName.BATTLE_END, EventName.WHITEOUT, EventName.NEW_MEMBER,
     EventName.NEW_MAP, EventName.BADGE}
)  # fmt: skip
# A heartbeat or a new map only refreshes the standing orders: they never pay for a model call.
MODEL_TRIGGERS = TRIGGERS - {EventName.HEARTBEAT, EventName.NEW_MAP}
OPTIONAL_DETOUR_STEPS = 150  # an optional objective is taken when its place is at most this far
OPTIONAL_SEARCH_NODES = 20_000


class StrategistSnapshot(Frozen):
    directive: Directive | None
    fired: dict[str, int]
    model_directives: int


class Strategist:
    def __init__(
        self,
        routing: RoutingConfig | None = None,
        gateway: GatewayPort | None = None,
        memory: MemoryPort | None = None,
        world: World | None = None,
        aim: str | None = None,
        ask_always: Tier | None = None,
    ) -> None:
        self.routing = routing or RoutingConfig()
        # The decisions level: every directive (the objective among the open ones) is asked of this tier.
        self.ask_always = ask_always
        self.graph = story_graph()
        # Optional objectives the aim needs are taken wherever the player is.
        self.wanted = self.graph.on_the_way_to(aim) if aim is not None else frozenset()
        self.gateway = gateway
        self.memory = memory
        self.world = world
        self.directive: Directive | None = None
        self.fired: dict[str, int] = {}
        self.model_directives = 0
        self._paid_tiers = LiveTiers(gateway)

    def consider(self, events: list[GameEvent], state: GameState) -> Directive | None:
        """A new directive if any event is a trigger; None leaves the standing one in force."""
        trigger = next((event for event in events if event.name in TRIGGERS), None)
        if trigger is None:
            return None
        self.fired[trigger.name.value] = self.fired.get(trigger.name.value, 0) + 1
        self.directive = self.plan(trigger, state)
        return self.directive

    def plan(self, trigger: GameEvent, state: GameState) -> Directive:
        wanted, reason = wanted_tier(profile(state, "strategy"), self.routing)
        triggers = MODEL_TRIGGERS
        if self.ask_always is not None:
            wanted, reason, triggers = (
                self.ask_always,
                f"decisions level: every directive ({reason})",
                TRIGGERS,
            )
        selection = Selection(tier="rule_based", wanted=wanted, reason=reason)
        candidates = self._worth_it(self.graph.open(state), state)
        planned = rule_based_plan(trigger, state, candidates).model_copy(update={"selection": selection})
        if wanted == "rule_based" or self.gateway is None or trigger.name not in triggers:
            return planned
        if not self._paid_tiers():  # no key: no prompt to draw, no lessons to recall for it
            steps = ("no model tier is available",)
            return planned.model_copy(update={"selection": selection.model_copy(update={"steps": steps})})
        lines = [f"{o.name}: {o.title}{' (optional)' if o.optional else ''}" for o in candidates]
        system, user = render_strategy(
            state, trigger, self.directive, self._lessons(state), self._where(state), lines
        )
        task = ModelTask(
            role="strategist", answer="strategic", wanted=wanted, reason=reason, system=system, user=user
        )
        outcome: ModelOutcome = self.gateway.ask(task)
        answer = outcome.answer_as(StrategicAnswer)
        if answer is None:
            return planned.model_copy(update={"selection": outcome.selection})
        self.model_directives += 1
        chosen = _named_in(answer.objective, candidates) or (candidates[0] if candidates else None)
        return Directive(
            objective=answer.objective,
            objective_id=chosen.name if chosen else None,
            plan=_plan_words(chosen),
            priorities=tuple(answer.priorities),
            warnings=tuple(answer.warnings),
            trigger=trigger.name,
            frame=trigger.frame,
            selection=outcome.selection,
        )

    def _worth_it(self, candidates: tuple[Objective, ...], state: GameState) -> tuple[Objective, ...]:
        """The open objectives worth doing now: the required ones, and the optional ones close at hand
        (the Town Map is a detour from Viridian City, not from Pewter City), and those the aim needs."""
        return tuple(o for o in candidates if not o.optional or o.name in self.wanted or self._near(o, state))

    def _near(self, objective: Objective, state: GameState) -> bool:
        limit = OPTIONAL_DETOUR_STEPS if objective.detour is None else objective.detour
        if limit == 0:
            return False
        place = next((step.map for step in objective.steps if step.map is not None), None)
        if place is None or self.world is None or state.overworld.map_id not in self.world.maps:
            return True
        data = self.world.by_name.get(place)
        if data is None:
            return False
        around = surroundings(self.world, state)
        target = target_for(self.world, around, MapGoal(map_id=data.id))
        plan = Planner(self.world, around, "travel").plan(target, max_nodes=OPTIONAL_SEARCH_NODES)
        return plan is not None and plan.steps <= limit

    def _where(self, state: GameState) -> str:
        """The map around the player, drawn from the world model (out of battle only)."""
        if self.world is None or state.battle is not None or state.overworld.map_id not in self.world.maps:
            return ""
        around = surroundings(self.world, state)
        name = state.overworld.map_name or f"map {state.overworld.map_id}"
        drawn = around_player(self.world, view_of(self.world, state, around))
        return f"{name}, you at ({state.overworld.x}, {state.overworld.y}):\n{drawn}\nLegend: {LEGEND}"

    def _lessons(self, state: GameState) -> tuple[str, ...]:
        """Lesson texts for the plan's prompt (only paid for when a model is asked)."""
        if self.memory is None or state.battle is None:
            return ()
        query, context = battle_context(state)
        try:
            return tuple(lesson.text for lesson in self.memory.recall(query, context))
        except Exception as error:  # a broken memory costs the lessons, not the plan
            log.warning("lesson memory unavailable: %s", error)
            return ()

    def snapshot(self) -> StrategistSnapshot:
        """The standing directive and the trigger counts, for a checkpoint."""
        return StrategistSnapshot(
            directive=self.directive, fired=dict(self.fired), model_directives=self.model_directives
        )

    def restore(self, snapshot: StrategistSnapshot) -> None:
        """Replace the standing directive and counts with a snapshot's (the directive is also the context
        of the next model plan, so a stale one from after the checkpoint must not survive)."""
        self.directive = snapshot.directive
        self.fired = dict(snapshot.fired)
        self.model_directives = snapshot.model_directives
        self._paid_tiers.forget()  # the gateway may have been re-created since

    def report(self) -> RoleReport:
        counters = {k: float(v) for k, v in self.fired.items()}
        counters["model_directives"] = float(self.model_directives)
        return RoleReport(role="strategist", healthy=True, counters=counters)


def _named_in(text: str, candidates: Sequence[Objective]) -> Objective | None:
    """The open objective a model's answer names (it is asked to start with the name)."""
    words = text.strip().lower()
    return next((o for o in candidates if words.startswith(o.name) or o.name in words), None)


def _plan_words(objective: Objective | None) -> tuple[str, ...]:
    return tuple(step.words() for step in objective.steps) if objective is not None else ()


def rule_based_plan(trigger: GameEvent, state: GameState, candidates: Sequence[Objective] = ()) -> Directive:
    """The first open story objective in the graph's order; in a battle, winning it comes first."""
    chosen = candidates[0] if candidates else None
    battle = state.battle
    warnings: list[str] = []
    if trigger.name is EventName.HP_LOW:
        warnings.append("the active member is low on HP: heal or switch before it faints")
    if battle is not None:
        kind = "trainer" if battle.kind == "trainer" else "wild"
        objective = f"win the {kind} battle ({trigger.detail})"
        priorities: tuple[str, ...] = (
            "knock out the enemy with the strongest safe move",
            "keep the team healthy",
        )
    elif chosen is not None:
        objective = f"{chosen.name}: {chosen.title}"
        priorities = tuple(step.words() for step in chosen.steps)
    elif trigger.name is EventName.STUCK:
        objective = "find a way on: talk to people, pick up items, try other exits"
        priorities = ("look at everything in the way", "prefer unexplored exits")
    else:
        objective = "explore and train: find new ground and wild battles"
        priorities = ("walk towards unexplored tiles", "fight wild battles for experience")
    return Directive(
        objective=objective, objective_id=chosen.name if chosen else None, plan=_plan_words(chosen),
        priorities=priorities, warnings=tuple(warnings), trigger=trigger.name, frame=trigger.frame,
    )  # fmt: skip
